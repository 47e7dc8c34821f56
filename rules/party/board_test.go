package party

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pitwall/race/racetest"
)

// A board that cannot be played is refused when it is loaded, with a reason
// that names the spaces at fault.
func TestBoardValidation(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"unknown successor", "start: a\nspaces:\n  - {id: a, next: [b]}\n", []string{`"a"`, `"b" is not a space`}},
		{"unreachable", "start: a\nspaces:\n  - {id: a}\n  - {id: b, next: [a]}\n  - {id: c}\n", []string{"reach b, c", `"a"`}},
		{"duplicate ids", "start: a\nspaces:\n  - {id: a}\n  - {id: a}\n", []string{`"a"`, "spaces 1 and 2"}},
		{"missing start", "spaces:\n  - {id: a}\n", []string{"no start"}},
		{"start not a space", "start: x\nspaces:\n  - {id: a}\n", []string{`"x" is not a space`}},
		{"free loop", "start: a\nspaces:\n  - {id: a, next: [b]}\n  - {id: b, next: [c], decrementing: false}\n  - {id: c, next: [b, a], decrementing: false}\n",
			[]string{"b, c form a loop"}},
		{"free self-loop", "start: a\nspaces:\n  - {id: a, next: [b]}\n  - {id: b, next: [b, a], decrementing: false}\n", []string{"b form a loop"}},
		{"everything free", "start: a\nspaces:\n  - {id: a, decrementing: false}\n", []string{"a form a loop"}},
		{"two stars in a ring", "start: a\nspaces:\n  - {id: a, next: [s1]}\n  - {id: s1, type: star, next: [s2, a]}\n  - {id: s2, type: star, next: [s1]}\n", []string{"s1, s2 form a loop"}},
		{"decrementing star", "start: a\nspaces:\n  - {id: a, next: [s]}\n  - {id: s, type: star, decrementing: true}\n", []string{`"s"`, "cannot be decrementing"}},
		{"star start", "start: s\nspaces:\n  - {id: s, type: star, next: [a]}\n  - {id: a}\n", []string{`"s" is a star space`}},
		{"unknown type", "start: a\nspaces:\n  - {id: a, type: bowser}\n", []string{`"bowser"`, "blank, start, blue"}},
		{"bad id", "start: a\nspaces:\n  - {id: a}\n  - {id: \"b c\", next: [a]}\n", []string{`"b c"`}},
		{"twice the same way", "start: a\nspaces:\n  - {id: a, next: [b, b]}\n  - {id: b}\n", []string{`"b" twice`}},
		{"empty mrdl", "start: a\nmrdl: []\nspaces:\n  - {id: a}\n", []string{"mrdl", "empty"}},
		{"bad mrdl", "start: a\nmrdl: [d6, x]\nspaces:\n  - {id: a}\n", []string{"mrdl", `"x"`}},
		{"no spaces", "start: a\n", []string{"no spaces"}},
		{"unknown field", "start: a\nspaces:\n  - {id: a, colour: red}\n", []string{"colour"}},
		{"bad at", "start: a\nspaces:\n  - {id: a, at: [1]}\n", []string{"at is [column, row]"}},
	} {
		_, err := ParseBoard("b.yaml", []byte(c.src))
		if err == nil {
			t.Errorf("%s: loaded", c.name)
			continue
		}
		if !strings.HasPrefix(err.Error(), "b.yaml") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %q should be one line naming the file", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: %q lacks %q", c.name, err, w)
			}
		}
	}
}

// A non-decrementing space that is not in a loop is fine, and so is a loop
// with one decrementing space in it.
func TestBoardValidationAllows(t *testing.T) {
	mustBoard(t, "start: a\nspaces:\n  - {id: a, next: [b]}\n  - {id: b, decrementing: false, next: [c]}\n  - {id: c, decrementing: false}\n")
	mustBoard(t, "start: a\nspaces:\n  - {id: a}\n")
}

// LoadBoardFile reads a file from disk; errors name it.
func TestLoadBoardFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "mine.yaml")
	if err := os.WriteFile(path, []byte(smallBoard), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := LoadBoardFile(path)
	if err != nil || b.ID != "mine" || len(b.Spaces) != 9 {
		t.Fatalf("%v %+v", err, b)
	}
	if _, err := LoadBoardFile(filepath.Join(dir, "none.yaml")); err == nil {
		t.Error("a missing file loaded")
	}
	os.WriteFile(path, []byte("start: a\nspaces:\n  - {id: a, next: [zz]}\n"), 0o644)
	if _, err := LoadBoardFile(path); err == nil || !strings.HasPrefix(err.Error(), "mine.yaml:3:") {
		t.Errorf("got %v, want the file and line", err)
	}
}

// The shipped boards load, have forks and a star, and every fork leads somewhere different.
func TestShippedBoards(t *testing.T) {
	bs := racetest.Shipped(t, "board", Boards, func(b *Board) string { return b.ID }, boardFiles, "boards", ".yaml")
	if len(bs) == 0 {
		t.Fatal("no boards")
	}
	b, err := LoadBoard(DefaultBoard)
	if err != nil {
		t.Fatal(err)
	}
	forks, stars := b.forksAndStars()
	if forks < 2 || stars < 1 || len(b.Spaces) < 20 || len(b.Spaces) > 30 {
		t.Errorf("demo board: %d spaces, %d forks, %d stars", len(b.Spaces), forks, stars)
	}
	if _, err := LoadBoard("nope"); err == nil || !strings.Contains(err.Error(), DefaultBoard) {
		t.Errorf("unknown board: %v", err)
	}
}

// Orders name spaces in any case: ids that differ only in case are refused.
func TestBoardIDsDifferByMoreThanCase(t *testing.T) {
	_, err := ParseBoard("b.yaml", []byte("start: Ab\nspaces:\n  - {id: Ab, next: [aB]}\n  - {id: aB}\n"))
	if err == nil || !strings.Contains(err.Error(), `"Ab" and "aB"`) {
		t.Fatalf("got %v", err)
	}
}
