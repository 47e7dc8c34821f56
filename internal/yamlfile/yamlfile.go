// Package yamlfile reads the YAML files people write for pitwall (tracks,
// courses, entrants) strictly, with errors that name the file and the line.
package yamlfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/goccy/go-yaml"

	"github.com/goccy/go-yaml/parser"
	"pitwall/internal/safefile"
)

// Decode reads src into v: unknown fields and wrong types are errors, given
// on one line as "NAME: [line:col] what is wrong" (or "NAME: line N: what is
// wrong" for what the scan before the parser refuses).
func Decode(name string, src []byte, v any) (err error) {
	// go-yaml can panic on some malformed input (an unknown tag on a list
	// field: goccy/go-yaml issue 735, open); a user's file must get an error.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: the YAML could not be read (check its tags '!' and indentation): %v", name, r)
		}
	}()
	if len(src) > MaxSize {
		return fmt.Errorf("%s: the file is %d bytes; pitwall reads files of at most %d", name, len(src), MaxSize)
	}
	// Depth, keys, empty values and documents are counted before any parser
	// sees the bytes, as go-yaml's cost grows with their square, and aliases
	// refused: nested, a few hundred bytes expand to gigabytes.
	if _, err := prescan(src, fileLimits); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(src), yaml.Strict(), yaml.DisallowUnknownField())
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %s", name, strings.Join(strings.Fields(yaml.FormatError(err, false, false)), " "))
	}
	return nil
}

// MaxSize is the largest file Decode reads: far more than any track, board
// or entrants file needs (pitwall's own are under 2 KB; a thousand entrants
// take about 60 KB). go-yaml costs up to some 600 bytes of memory a byte of
// input in files the scan lets through (a line of '[],' repeated), so this
// bounds what any file can cost: about 120 MB and a second.
const MaxSize = 256 << 10

// ReadFile reads a file for Decode, at most MaxSize bytes of it: a larger
// file is refused without being read whole, and what is not a regular file
// (a device, a named pipe) without being opened.
func ReadFile(path string) ([]byte, error) {
	f, err := safefile.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxSize+1))
	if err != nil {
		return nil, err
	}
	if len(b) > MaxSize {
		return nil, fmt.Errorf("%s is larger than %d bytes; pitwall reads files of at most %d", path, MaxSize, MaxSize)
	}
	return b, nil
}

// Line finds the line of a YAML path, such as $.segments[2].shape, in src,
// for errors found after decoding; 0 when it cannot.
func Line(src []byte, path string) (line int) {
	defer func() {
		if recover() != nil {
			line = 0 // the parser failed on it: no line to give
		}
	}()
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		return 0
	}
	p, err := yaml.PathString(path)
	if err != nil {
		return 0
	}
	n, err := p.FilterFile(f)
	if err != nil || n == nil || n.GetToken() == nil {
		return 0
	}
	return n.GetToken().Position.Line
}

// FieldError is a value of a decoded file that is wrong, at its YAML path
// (such as $.segments[2].shape): what a file's validation returns.
type FieldError struct{ Path, Msg string }

func (e *FieldError) Error() string { return e.Msg }

// Bad is a FieldError at path.
func Bad(path, format string, a ...any) error {
	return &FieldError{Path: path, Msg: fmt.Sprintf(format, a...)}
}

// DecodeChecked reads a file as Decode does into a new T, then runs check
// on it; check's error comes back Located. The games' track, course and
// board files are read this way.
func DecodeChecked[T any](name string, src []byte, check func(*T) error) (*T, error) {
	v := new(T)
	if err := Decode(name, src, v); err != nil {
		return nil, err
	}
	if err := check(v); err != nil {
		return nil, Located(name, src, err)
	}
	return v, nil
}

// Located is a validation error as a user reads it: the file's name and,
// for a FieldError, the line of its path ("board.yaml:12: ...").
func Located(name string, src []byte, err error) error {
	var fe *FieldError
	if errors.As(err, &fe) {
		if line := Line(src, fe.Path); line > 0 {
			return fmt.Errorf("%s:%d: %s", name, line, fe.Msg)
		}
		return fmt.Errorf("%s: %s", name, fe.Msg)
	}
	return fmt.Errorf("%s: %w", name, err)
}
