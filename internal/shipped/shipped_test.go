package shipped

import (
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

type item struct{ ID, Name, Body string }

func files() fstest.MapFS {
	return fstest.MapFS{
		"tracks/b.yaml":      {Data: []byte("bee")},
		"tracks/a.yaml":      {Data: []byte("ay")},
		"tracks/c.yaml":      {Data: []byte("sea")},
		"tracks/notes.txt":   {Data: []byte("not a track")},
		"tracks/old/d.yaml":  {Data: []byte("in a folder")},
		"elsewhere/e.yaml":   {Data: []byte("another folder")},
		"tracks/z.yaml.orig": {Data: []byte("no match")},
	}
}

func parseItem(name string, src []byte) (*item, error) {
	return &item{ID: strings.TrimSuffix(name, ".yaml"), Name: name, Body: string(src)}, nil
}

func itemID(it *item) string { return it.ID }

// Every file is read once however many goroutines ask at once, and the
// items come back in the order of the files' names, only those matching.
func TestReadOnceInOrder(t *testing.T) {
	var parses atomic.Int32
	s := New(files(), "tracks", "*.yaml", "test", "track", func(name string, src []byte) (*item, error) {
		parses.Add(1)
		return parseItem(name, src)
	}, itemID)
	var wg sync.WaitGroup
	got := make([][]*item, 16)
	for i := range got {
		wg.Go(func() {
			all, err := s.All()
			if err != nil {
				t.Error(err)
			}
			if _, err := s.Lookup("b"); err != nil {
				t.Error(err)
			}
			got[i] = all
		})
	}
	wg.Wait()
	if n := parses.Load(); n != 3 {
		t.Errorf("%d parses for 3 files and 16 callers", n)
	}
	for _, all := range got {
		var names []string
		for _, it := range all {
			names = append(names, it.Name)
		}
		if strings.Join(names, " ") != "a.yaml b.yaml c.yaml" {
			t.Fatalf("got %v", names)
		}
		if all[0] != got[0][0] {
			t.Fatal("callers got different items")
		}
	}
	// All's slice is the caller's to change.
	got[0][0] = nil
	if again, _ := s.All(); again[0] == nil {
		t.Fatal("a caller's change reached the set")
	}
	if ids, _ := s.IDs(); strings.Join(ids, " ") != "a b c" {
		t.Errorf("IDs: %v", ids)
	}
	if n := parses.Load(); n != 3 {
		t.Errorf("%d parses after more calls", n)
	}
}

func TestLookup(t *testing.T) {
	s := New(files(), "tracks", "*.yaml", "test", "track", parseItem, itemID)
	it, err := s.Lookup("c")
	if err != nil || it.Body != "sea" {
		t.Fatalf("c: %+v, %v", it, err)
	}
	_, err = s.Lookup("d")
	if err == nil || err.Error() != `unknown track "d"; test tracks: a, b, c` {
		t.Fatalf("d: %v", err)
	}
}

// A file that does not parse makes every call an error naming the file, a
// panic included; it is not read again.
func TestErrorNamesTheFile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		parse func(string, []byte) (*item, error)
		want  []string
	}{
		{"error without the name", func(name string, src []byte) (*item, error) {
			if name == "b.yaml" {
				return nil, errors.New("line 3: laps is 1 to 20")
			}
			return parseItem(name, src)
		}, []string{"tracks/b.yaml", "b.yaml: line 3: laps is 1 to 20"}},
		{"error with the name", func(name string, src []byte) (*item, error) {
			if name == "c.yaml" {
				return nil, errors.New("c.yaml:3: laps is 1 to 20")
			}
			return parseItem(name, src)
		}, []string{"tracks/c.yaml does not read: c.yaml:3: laps"}},
		{"panic", func(name string, src []byte) (*item, error) {
			if name == "a.yaml" {
				panic("index out of range [3] with length 3")
			}
			return parseItem(name, src)
		}, []string{"tracks/a.yaml", "a.yaml: the parser failed: index out of range"}},
	} {
		var parses atomic.Int32
		s := New(files(), "tracks", "*.yaml", "test", "track", func(name string, src []byte) (*item, error) {
			parses.Add(1)
			return tc.parse(name, src)
		}, itemID)
		for range 3 {
			_, err := s.All()
			if err == nil {
				t.Fatalf("%s: no error", tc.name)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%s: %q does not say %q", tc.name, err, w)
				}
			}
			if _, err := s.Lookup("a"); err == nil {
				t.Errorf("%s: a lookup found an item", tc.name)
			}
		}
		if n := parses.Load(); n > 3 {
			t.Errorf("%s: %d parses: the files were read again", tc.name, n)
		}
	}
}

func TestNoFilesAndDuplicates(t *testing.T) {
	if _, err := New(files(), "tracks", "*.json", "test", "track", parseItem, itemID).All(); err == nil || !strings.Contains(err.Error(), "tracks/*.json") {
		t.Errorf("no files: %v", err)
	}
	if _, err := New(files(), "nowhere", "*.yaml", "test", "track", parseItem, itemID).All(); err == nil {
		t.Error("a missing folder read")
	}
	same := func(name string, src []byte) (*item, error) { return &item{ID: "same", Name: name}, nil }
	if _, err := New(files(), "tracks", "*.yaml", "test", "track", same, itemID).All(); err == nil || !strings.Contains(err.Error(), "a.yaml and b.yaml both give the ID \"same\"") {
		t.Errorf("duplicates: %v", err)
	}
	// Without an id func the items are only listed.
	all, err := New(files(), "tracks", "*.yaml", "test", "track", same, nil).All()
	if err != nil || len(all) != 3 {
		t.Errorf("without IDs: %d items, %v", len(all), err)
	}
}
