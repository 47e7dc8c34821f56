package host

import (
	"testing"

	"pitwall/race"
)

func TestPodium(t *testing.T) {
	st := func(places ...int) race.Standings {
		var out race.Standings
		for i, p := range places {
			name := string(rune('A' + i))
			out = append(out, race.Standing{Place: p, Seat: i, Name: name, Player: "P" + name})
		}
		return out
	}
	for _, c := range []struct {
		st   race.Standings
		want string
	}{
		{st(1, 2, 3, 4), "Winner: A (PA); second: B (PB); third: C (PC)."},
		{st(1, 2), "Winner: A (PA); second: B (PB)."},
		{st(1, 1, 3), "Winners, level: A (PA) and B (PB); third: C (PC)."},
		{st(1, 2, 2, 4), "Winner: A (PA); second, level: B (PB) and C (PC)."},
		{race.Standings{{Place: 1, Name: "Solo", Player: "Solo"}}, "Winner: Solo."},
		{nil, ""},
	} {
		if got := podium(c.st); got != c.want {
			t.Errorf("podium(%v) = %q, want %q", c.st, got, c.want)
		}
	}
}
