package golden

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// With -update, Check writes the file, its folder too, and the file then
// holds.
func TestCheckUpdates(t *testing.T) {
	defer func(was bool) { *update = was }(*update)
	*update = true
	p := filepath.Join(t.TempDir(), "new", "x.golden")
	Check(t, p, "one\n")
	if b, _ := os.ReadFile(p); string(b) != "one\n" {
		t.Fatalf("update wrote %q", b)
	}
	*update = false
	Check(t, p, "one\n")
}

func TestDiff(t *testing.T) {
	if got := diff("a\nb\n", "a\nc\n"); got != "\n--- got\na\nb\n--- want\na\nc\n" {
		t.Errorf("short texts: %q", got)
	}
	full := strings.Repeat("x", most) // as long as a text shown whole may be
	if got := diff(full, "y"); got != "\n--- got\n"+full+"--- want\ny" {
		t.Errorf("got of %d bytes: not shown whole", most)
	}
	if got := diff("y", full); got != "\n--- got\ny--- want\n"+full {
		t.Errorf("want of %d bytes: not shown whole", most)
	}
	long := strings.Repeat("same\n", most)
	for _, tc := range []struct{ got, want, says string }{
		{long + "x\n", long + "y\n", "first at line 4001:\n got: \"x\"\nwant: \"y\""},
		{long + "x\n", long, "first at line 4001:\n got: \"x\"\nwant: \"\""},
		{long, long + "y", "first at line 4001:\n got: \"\"\nwant: \"y\""},
		{long + "x", long + "x\n", "first at line 4002:\n got: (the end)\nwant: \"\""}, // only the last newline differs
		{long + "same", long + "same\nmore", "first at line 4002:\n got: (the end)\nwant: \"more\""},
		{long + "same\nmore", long + "same", "first at line 4002:\n got: \"more\"\nwant: (the end)"},
	} {
		if got := diff(tc.got, tc.want); got != tc.says {
			t.Errorf("long texts: %q; want %q", got, tc.says)
		}
	}
}
