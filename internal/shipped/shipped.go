// Package shipped reads the data files a game ships inside the binary (its
// tracks, courses, boards, maneuvers) once per process, with one loader for
// every game: the files are part of the build, so reading them again on every
// race set up or state decoded only costs time.
//
// A shipped file that does not parse is a bug of the build, which each game's
// tests catch; in a running program it is an error from every call, never a
// panic, so a user gets a message and the host stays up.
package shipped

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"sync"
)

// Set is the shipped files of one kind, read and parsed on first use.
type Set[T any] struct {
	game, kind string
	id         func(T) string
	load       func() (loaded[T], error)
}

type loaded[T any] struct {
	items []T          // in file-name order
	ids   []string     // the items' IDs, in the same order (nil without an id func)
	index map[string]T // by ID
}

// New is the files of dir in fsys whose names match pattern (as path.Match
// reads it), each read by parse, which is given the file's name (without the
// directory) and its bytes. The files are read on the first call to All or
// Lookup, once, however many goroutines ask.
//
// game and kind name what is read, for errors: "ludi", "track". id gives an
// item's ID for Lookup; nil when the items are not looked up by ID. Two
// files that give one ID are an error.
func New[T any](fsys fs.FS, dir, pattern, game, kind string, parse func(name string, src []byte) (T, error), id func(T) string) *Set[T] {
	s := &Set[T]{game: game, kind: kind, id: id}
	s.load = sync.OnceValues(func() (loaded[T], error) { return read(fsys, dir, pattern, parse, id) })
	return s
}

func read[T any](fsys fs.FS, dir, pattern string, parse func(string, []byte) (T, error), id func(T) string) (loaded[T], error) {
	var l loaded[T]
	ents, err := fs.ReadDir(fsys, dir) // sorted by file name
	if err != nil {
		return l, fmt.Errorf("reading the shipped files: %w", err)
	}
	if id != nil {
		l.index = map[string]T{}
	}
	from := map[string]string{}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		if ok, err := path.Match(pattern, e.Name()); err != nil || !ok {
			if err != nil {
				return l, fmt.Errorf("the shipped files' pattern %q: %w", pattern, err)
			}
			continue
		}
		src, err := fs.ReadFile(fsys, path.Join(dir, e.Name()))
		if err != nil {
			return l, fmt.Errorf("reading the shipped file %s: %w", path.Join(dir, e.Name()), err)
		}
		v, err := safeParse(parse, e.Name(), src)
		if err != nil {
			if !strings.Contains(err.Error(), e.Name()) {
				err = fmt.Errorf("%s: %w", e.Name(), err)
			}
			return l, fmt.Errorf("the shipped file %s does not read: %w", path.Join(dir, e.Name()), err)
		}
		l.items = append(l.items, v)
		if id != nil {
			k := id(v)
			if other, dup := from[k]; dup {
				return l, fmt.Errorf("the shipped files %s and %s both give the ID %q", other, e.Name(), k)
			}
			from[k] = e.Name()
			l.ids = append(l.ids, k)
			l.index[k] = v
		}
	}
	if len(l.items) == 0 {
		return l, fmt.Errorf("no shipped file matches %s", path.Join(dir, pattern))
	}
	return l, nil
}

// safeParse turns a panic in parse into an error: a parser's bug on a
// shipped file must not take the process down on every call.
func safeParse[T any](parse func(string, []byte) (T, error), name string, src []byte) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: the parser failed: %v", name, r)
		}
	}()
	return parse(name, src)
}

// All is every item, in the order of the files' names. The slice is the
// caller's; the items are shared by every caller and must not be changed.
func (s *Set[T]) All() ([]T, error) {
	l, err := s.load()
	if err != nil {
		return nil, err
	}
	return append([]T(nil), l.items...), nil
}

// IDs are the items' IDs, in the order of the files' names.
func (s *Set[T]) IDs() ([]string, error) {
	l, err := s.load()
	if err != nil {
		return nil, err
	}
	return append([]string(nil), l.ids...), nil
}

// Lookup finds the item with ID id. An unknown ID is an error that lists the
// known ones: `unknown track "x"; ludi tracks: a, b`.
func (s *Set[T]) Lookup(id string) (T, error) {
	var zero T
	l, err := s.load()
	if err != nil {
		return zero, err
	}
	if v, ok := l.index[id]; ok {
		return v, nil
	}
	return zero, fmt.Errorf("unknown %s %q; %s %ss: %s", s.kind, id, s.game, s.kind, strings.Join(l.ids, ", "))
}
