// Package safefile writes the files people name on pitwall's command line:
// whole or not at all, and never over something that is not a regular file.
package safefile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Refused is a path WriteFile will not write: it names what is there, or
// what is missing, and what would be right.
type Refused struct {
	Path string
	What string // "is a character device"
	Fix  string // "give a regular file's path"
}

func (e *Refused) Error() string { return e.Path + " " + e.What + "; " + e.Fix }

// WriteFile writes data to path, whole or not at all: into a new file in
// path's folder, synced, renamed over path, and the folder synced. A
// regular file at path is replaced and keeps its mode; a new file gets mode
// 0644. Anything else at path is left as it is and refused with a *Refused:
// a symbolic link (WriteFile does not follow one, wherever it points), a
// directory, a named pipe, a device or a socket. So is a path whose folder
// does not exist. Nothing is left behind when it fails.
func WriteFile(path string, data []byte) error {
	mode, err := writable(path)
	if err != nil {
		return err
	}
	return write(path, data, mode)
}

// CanWrite says whether WriteFile would write path, without writing: nil,
// or the *Refused it would give. A command that works long before it
// writes asks first, so that a bad path is told before the work, not after.
func CanWrite(path string) error {
	_, err := writable(path)
	return err
}

// writable is the mode a file written at path gets, or why path is refused.
func writable(path string) (fs.FileMode, error) {
	mode := fs.FileMode(0o644)
	st, err := os.Lstat(path)
	switch {
	case err == nil:
		if what := notRegular(st.Mode()); what != "" {
			fix := "give a regular file's path"
			if st.Mode()&fs.ModeSymlink != 0 {
				fix = "give the path of the file itself; pitwall does not write through links"
			} else if st.IsDir() {
				fix = "give a file's path in it, or another name"
			}
			return 0, &Refused{Path: path, What: what, Fix: fix}
		}
		mode = st.Mode().Perm()
	case errors.Is(err, fs.ErrNotExist):
		dir := filepath.Dir(path)
		if dst, derr := os.Stat(dir); derr != nil || !dst.IsDir() {
			return 0, &Refused{Path: path, What: "is in a folder that does not exist (" + dir + ")", Fix: "make the folder first, or give a path in one that exists"}
		}
	case errors.Is(err, fs.ErrPermission):
		return 0, &Refused{Path: path, What: "cannot be looked at (permission denied)", Fix: "give a path you may write"}
	default:
		// ENOTDIR: a part of the path is a file, not a folder
		return 0, &Refused{Path: path, What: "is not a path pitwall can write (" + errText(err) + ")", Fix: "give a regular file's path"}
	}
	return mode, nil
}

func write(path string, data []byte, mode fs.FileMode) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return &Refused{Path: path, What: "is in a folder pitwall may not write in (" + filepath.Clean(dir) + ")", Fix: "give a path you may write"}
		}
		return fmt.Errorf("writing %s: %w", path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// The rename is only durable once the folder is; a failure here leaves
	// the new file in place, which is the best there is.
	if d, derr := os.Open(dir); derr == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Open opens a file a user named, for reading, refusing anything but a
// regular file: the open of a named pipe waits for a writer for ever, and a
// device may never end.
func Open(path string) (*os.File, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if what := notRegular(fi.Mode()); what != "" {
		return nil, &Refused{Path: path, What: what, Fix: "give a regular file's path"}
	}
	return os.Open(path)
}

// notRegular says what a mode that is not a regular file's is: "" for a
// regular file.
func notRegular(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return ""
	case m&fs.ModeSymlink != 0:
		return "is a symbolic link"
	case m.IsDir():
		return "is a directory"
	case m&fs.ModeNamedPipe != 0:
		return "is a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "is a character device"
	case m&fs.ModeDevice != 0:
		return "is a block device"
	case m&fs.ModeSocket != 0:
		return "is a socket"
	}
	return "is not a regular file"
}

func errText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
