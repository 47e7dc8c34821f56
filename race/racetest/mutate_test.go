package racetest

import (
	"errors"
	"testing"
)

func TestEdited(t *testing.T) {
	// A parser that takes "laps: N" for N of 1 to 9 only.
	parse := func(name string, src []byte) (int, error) {
		s := string(src)
		switch {
		case s == "laps: 10":
			return 0, errors.New(name + ": laps is 1 to 9\nand a second line")
		case len(s) != 7 || s[:6] != "laps: " || s[6] < '1' || s[6] > '9':
			return 0, errors.New(name + ": laps is 1 to 9")
		}
		return int(s[6] - '0'), nil
	}
	Edited(t, parse, "t.yaml", "laps: 3", [][3]string{{"3", "0", "t.yaml: laps is 1 to 9"}, {"3", "7", ""}})
	for _, tc := range []struct {
		good string
		edit [3]string
		want string
	}{
		{"laps: 0", [3]string{"0", "3", ""}, "the good file: t.yaml: laps is 1 to 9"},
		{"laps: 3", [3]string{"4", "0", "laps"}, `"4" is not in the file to edit`},
		{"laps: 3", [3]string{"3", "0", "t.yaml:1:"}, `"3" -> "0": t.yaml: laps is 1 to 9, want an error saying "t.yaml:1:"`},
		{"laps: 3", [3]string{"3", "5", "laps"}, `"3" -> "5": <nil>, want an error saying "laps"`},
		{"laps: 3", [3]string{"3", "x", ""}, `"3" -> "x": t.yaml: laps is 1 to 9, want it accepted`},
		{"laps: 3", [3]string{"3", "10", "laps"}, "\"3\" -> \"10\": an error on more than one line: \"t.yaml: laps is 1 to 9\\nand a second line\""},
	} {
		if msg := failure(t, func(tb testing.TB) { Edited(tb, parse, "t.yaml", tc.good, [][3]string{tc.edit}) }); msg != tc.want {
			t.Errorf("%q, %q: %q, want %q", tc.good, tc.edit, msg, tc.want)
		}
	}
}
