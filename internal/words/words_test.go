package words

import "testing"

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		one  string
		want string
	}{
		{1, "lap", "1 lap"},
		{0, "lap", "0 laps"},
		{2, "lap", "2 laps"},
		{-1, "Momentum point", "-1 Momentum point"},
		{-2, "Momentum point", "-2 Momentum points"},
		{1, "die", "1 die"},
		{3, "die", "3 dice"},
		{2, "item box", "2 item boxes"},
		{1, "item box", "1 item box"},
		{2, "match", "2 matches"},
		{5, "order", "5 orders"},
	} {
		if got := Count(c.n, c.one); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.one, got, c.want)
		}
	}
}

func TestList(t *testing.T) {
	for _, c := range []struct {
		in   []string
		want string
	}{
		{nil, ""},
		{[]string{"Marcus"}, "Marcus"},
		{[]string{"Marcus", "Livia"}, "Marcus and Livia"},
		{[]string{"Marcus", "Livia", "Gaius"}, "Marcus, Livia and Gaius"},
	} {
		if got := List(c.in); got != c.want {
			t.Errorf("List(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{1: "first", 2: "second", 3: "third", 12: "twelfth", 13: "13th", 21: "21st", 22: "22nd", 23: "23rd", 111: "111th", 112: "112th", 101: "101st", 0: "0th"} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestNth(t *testing.T) {
	for n, want := range map[int]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 22: "22nd", 23: "23rd", 101: "101st", 111: "111th", 0: "0th"} {
		if got := Nth(n); got != want {
			t.Errorf("Nth(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestVerb(t *testing.T) {
	for n, want := range map[int]string{0: "win", 1: "wins", 2: "win", 12: "win"} {
		if got := Verb(n, "wins", "win"); got != want {
			t.Errorf("Verb(%d) = %q, want %q", n, got, want)
		}
	}
}
