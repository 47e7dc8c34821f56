// Package golden holds a test's output to a file kept beside the test (a
// golden file), or with -update rewrites it. It imports nothing of pitwall,
// so every package's tests can use it: host's and render's too, which
// racetest (it imports both) cannot serve.
package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// update is the -update flag of every test binary that checks golden files:
// one flag, defined here, so no package defines its own (a second
// definition of one name panics).
var update = flag.Bool("update", false, "rewrite the golden files instead of checking against them (then read the diff)")

// Updating says whether the test runs with -update: a test that compares a
// file in its own way writes it then.
func Updating() bool { return *update }

// Check holds got to the golden file at path, or with -update rewrites it.
// A file that differs fails t and lets it go on (a loop of posts shows every
// one that changed); a file that cannot be read stops t.
func Check(t testing.TB, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run the test with -update, then read the diff)", err)
	}
	if string(want) != got {
		t.Errorf("differs from %s (-update rewrites it; read the diff first): %s", path, diff(got, string(want)))
	}
}

// most is how long a text diff shows whole; past it, only the first line
// that differs (a post or a picture runs to kilobytes).
const most = 4000

// diff shows how got differs from want: both whole when they are short,
// else the first line that differs.
func diff(got, want string) string {
	if len(got) <= most && len(want) <= most {
		return fmt.Sprintf("\n--- got\n%s--- want\n%s", got, want)
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	i := 0
	for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
		i++
	}
	line := func(ls []string) string {
		if i < len(ls) {
			return fmt.Sprintf("%q", ls[i])
		}
		return "(the end)"
	}
	return fmt.Sprintf("first at line %d:\n got: %s\nwant: %s", i+1, line(gl), line(wl))
}
