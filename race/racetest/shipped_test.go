package racetest

import (
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
