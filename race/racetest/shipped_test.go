package racetest

import (
	"errors"
	"testing"
	"testing/fstest"
)

func TestNamedByFiles(t *testing.T) {
	fsys := fstest.MapFS{"tracks/a.yaml": {}, "tracks/b.yaml": {}}
	id := func(s string) string { return s }
	NamedByFiles(t, "track", []string{"a", "b"}, id, fsys, "tracks", ".yaml")
	for _, tc := range []struct {
		ids  []string
		want string
	}{
		{[]string{"b", "a"}, "track 0 is \"b\", from a.yaml\ntrack 1 is \"a\", from b.yaml"},
		{[]string{"a", "c"}, "track 1 is \"c\", from b.yaml"},
		{[]string{"a"}, "1 tracks from 2 files in tracks"},
		{[]string{"a", "b", "c"}, "3 tracks from 2 files in tracks"},
	} {
		if msg := failure(t, func(tb testing.TB) { NamedByFiles(tb, "track", tc.ids, id, fsys, "tracks", ".yaml") }); msg != tc.want {
			t.Errorf("%v: %q, want %q", tc.ids, msg, tc.want)
		}
	}
	if msg := failure(t, func(tb testing.TB) { NamedByFiles(tb, "track", []string{"a"}, id, fsys, "courses", ".yaml") }); msg == "" {
		t.Error("a folder that is not there passed")
	}
}

func TestShipped(t *testing.T) {
	fsys := fstest.MapFS{"tracks/a.yaml": {}, "tracks/b.yaml": {}}
	id := func(s string) string { return s }
	load := func(ids []string, err error) func() ([]string, error) {
		return func() ([]string, error) { return ids, err }
	}
	if got := Shipped(t, "track", load([]string{"a", "b"}, nil), id, fsys, "tracks", ".yaml"); len(got) != 2 {
		t.Errorf("Shipped gave %v, want the two tracks loaded", got)
	}
	for _, tc := range []struct {
		ids  []string
		err  error
		want string
	}{
		{nil, errors.New("b.yaml: no road"), "the shipped tracks: b.yaml: no road"},
		{[]string{"b", "a"}, nil, "track 0 is \"b\", from a.yaml\ntrack 1 is \"a\", from b.yaml"},
	} {
		if msg := failure(t, func(tb testing.TB) { Shipped(tb, "track", load(tc.ids, tc.err), id, fsys, "tracks", ".yaml") }); msg != tc.want {
			t.Errorf("%v, %v: %q, want %q", tc.ids, tc.err, msg, tc.want)
		}
	}
}
