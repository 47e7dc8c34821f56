package racetest

import (
	"io/fs"
	"testing"
)

// NamedByFiles checks that the items a game ships, in the order the game
// lists them, are its files in dir of fsys, one to a file, each named by its
// ID (dir/ID+ext) and in the files' order: kind names them in a failure
// ("track 1 is ...").
func NamedByFiles[T any](t testing.TB, kind string, items []T, id func(T) string, fsys fs.FS, dir, ext string) {
	t.Helper()
	ents, err := fs.ReadDir(fsys, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != len(ents) {
		t.Fatalf("%d %ss from %d files in %s", len(items), kind, len(ents), dir)
	}
	for i, v := range items {
		if id(v)+ext != ents[i].Name() {
			t.Errorf("%s %d is %q, from %s", kind, i, id(v), ents[i].Name())
		}
	}
}

// Shipped loads the items a game ships (its tracks, courses or boards) with
// load, failing t if they do not load, checks them as NamedByFiles does, and
// returns them for the game's own checks.
func Shipped[T any](t testing.TB, kind string, load func() ([]T, error), id func(T) string, fsys fs.FS, dir, ext string) []T {
	t.Helper()
	items, err := load()
	if err != nil {
		t.Fatalf("the shipped %ss: %v", kind, err)
	}
	NamedByFiles(t, kind, items, id, fsys, dir, ext)
	return items
}
