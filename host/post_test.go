package host

import (
	"strings"
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

func TestMenuLines(t *testing.T) {
	legal := []string{"Accelerate", "Brake"}
	for _, c := range []struct {
		name    string
		prompts []race.Prompt
		want    []string
	}{
		{"one menu for all, one note", []race.Prompt{
			{Name: "A", Orders: 2, Legal: legal, Note: "two orders"}, {Name: "B", Orders: 2, Legal: legal, Note: "two orders"}, {Name: "C", Orders: 2, Legal: legal, Note: "two orders"}},
			[]string{"All 3 aurigae: 2 orders from Accelerate, Brake (two orders)"}},
		{"two racers are named, not counted", []race.Prompt{
			{Name: "A", Orders: 1, Legal: legal}, {Name: "B", Orders: 1, Legal: legal}},
			[]string{"A and B: 1 order from Accelerate, Brake"}},
		{"one menu, each racer's own note after it", []race.Prompt{
			{Name: "A", Orders: 1, Legal: legal, Note: "place 1"}, {Name: "B", Orders: 1, Legal: legal}, {Name: "C", Orders: 1, Legal: legal, Note: "place 3"}},
			[]string{"All 3 aurigae: 1 order from Accelerate, Brake", "A: place 1", "C: place 3"}},
		{"menus apart, in the order they come", []race.Prompt{
			{Name: "A", Orders: 1, Legal: legal}, {Name: "B", Orders: 1, Legal: []string{"Hang On", "Roll Away"}}, {Name: "C", Orders: 1, Legal: legal}},
			[]string{"A and C: 1 order from Accelerate, Brake", "B: 1 order from Hang On, Roll Away"}},
		{"no legal list", []race.Prompt{{Name: "A", Orders: 1}}, []string{"A: 1 order"}},
		{"nobody to order", nil, nil},
	} {
		got := menuLines(c.prompts, "aurigae")
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
