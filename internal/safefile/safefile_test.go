package safefile

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// only lists the names in dir: a failed write leaves no temporary file.
func only(t *testing.T, dir string, want ...string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("%s holds %v, want %v", dir, got, want)
	}
}

func refused(t *testing.T, err error, what string) {
	t.Helper()
	var r *Refused
	if !errors.As(err, &r) || !strings.Contains(err.Error(), what) || !strings.Contains(err.Error(), "; ") {
		t.Fatalf("got %v, want a refusal saying %q and what would be right", err, what)
	}
}

func TestNewFile(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "post.md")
	if err := WriteFile(p, []byte("hello")); err != nil {
		t.Fatal(err)
	}
	st, err := os.Lstat(p)
	if err != nil || !st.Mode().IsRegular() || st.Mode().Perm() != 0o644 {
		t.Fatalf("%v %v", st.Mode(), err)
	}
	if b, _ := os.ReadFile(p); string(b) != "hello" {
		t.Fatalf("%q", b)
	}
	only(t, dir, "post.md")
}

func TestReplacesARegularFileKeepingItsMode(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "post.md")
	if err := os.WriteFile(p, []byte("an older, longer post"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Lstat(p)
	if b, _ := os.ReadFile(p); string(b) != "new" || st.Mode().Perm() != 0o600 {
		t.Fatalf("%q %v", b, st.Mode())
	}
	only(t, dir, "post.md")
}

func TestRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("no FIFO here: %v", err)
	}
	refused(t, WriteFile(p, []byte("x")), "is a named pipe")
	if st, err := os.Lstat(p); err != nil || st.Mode()&fs.ModeNamedPipe == 0 {
		t.Fatalf("the FIFO is gone: %v %v", st, err)
	}
	only(t, dir, "pipe")
}

func TestRefusesASymlinkToAFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep me"), 0o644)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	refused(t, WriteFile(link, []byte("x")), "is a symbolic link")
	if st, _ := os.Lstat(link); st.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("the link was replaced")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep me" {
		t.Fatalf("the link's target was written: %q", b)
	}
	only(t, dir, "link", "target")
}

func TestRefusesASymlinkToDevNull(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	refused(t, WriteFile(link, []byte("x")), "is a symbolic link")
	if to, err := os.Readlink(link); err != nil || to != "/dev/null" {
		t.Fatalf("the link changed: %q %v", to, err)
	}
	devNullIntact(t)
	only(t, dir, "null")
}

func TestRefusesADirectory(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o755)
	refused(t, WriteFile(sub, []byte("x")), "is a directory")
	if st, err := os.Lstat(sub); err != nil || !st.IsDir() {
		t.Fatal("the directory is gone")
	}
	only(t, dir, "sub")
}

func TestRefusesDevNull(t *testing.T) {
	if _, err := os.Lstat("/dev/null"); err != nil {
		t.Skip("no /dev/null here")
	}
	devNullIntact(t)
	refused(t, WriteFile("/dev/null", []byte("x")), "/dev/null is a character device; give a regular file's path")
	devNullIntact(t)
}

func devNullIntact(t *testing.T) {
	t.Helper()
	st, err := os.Lstat("/dev/null")
	if err != nil || st.Mode()&fs.ModeCharDevice == 0 || st.Mode()&fs.ModeDevice == 0 {
		t.Fatalf("/dev/null is no longer a character device: %v %v", st, err)
	}
}

func TestRefusesAMissingFolder(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "no", "such", "post.md")
	refused(t, WriteFile(p, []byte("x")), "does not exist")
	only(t, dir)
	// a file where a folder should be
	f := filepath.Join(dir, "file")
	os.WriteFile(f, nil, 0o644)
	refused(t, WriteFile(filepath.Join(f, "post.md"), []byte("x")), "not a")
	only(t, dir, "file")
}

// A write that fails leaves neither the old file changed nor a temporary file.
func TestFailedWriteLeavesNothing(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root may write in a read-only folder")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "post.md")
	os.WriteFile(p, []byte("old"), 0o644)
	if err := os.Chmod(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	err := WriteFile(p, []byte("new"))
	refused(t, err, "may not write")
	if b, _ := os.ReadFile(p); !bytes.Equal(b, []byte("old")) {
		t.Fatalf("%q", b)
	}
	only(t, dir, "post.md")
}

// CanWrite refuses what WriteFile refuses, and writes nothing.
func TestCanWrite(t *testing.T) {
	dir := t.TempDir()
	if err := CanWrite(filepath.Join(dir, "new.md")); err != nil {
		t.Errorf("a new file in a folder: %v", err)
	}
	refused(t, CanWrite(dir), "is a directory")
	refused(t, CanWrite(filepath.Join(dir, "missing", "x.md")), "folder that does not exist")
	only(t, dir)
}
