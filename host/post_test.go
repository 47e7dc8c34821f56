package host

import (
	"context"
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

// A race loaded at any turn, from that turn's record, gets the state before
// the turn from WithBefore: the state after the turn before, as a whole
// replay has it (the start's for turn 1), so a turn's headline is the same
// whichever way the race was loaded.
func TestWithBefore(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 5)
	for turn := 1; turn <= 4; turn++ {
		if _, err := f.h.Resolve(ctx, "r1", Req{}); err != nil { // every racer cruises
			t.Fatal(err)
		}
	}
	r, err := f.h.Store.Load(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	rs, err := race.Lookup("ludi")
	if err != nil {
		t.Fatal(err)
	}
	all, err := race.Replay(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 4; n++ {
		p, err := f.h.LoadAt(ctx, "r1", n)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.StateAt(n - 1); err == nil {
			t.Fatalf("turn %d: the state before is known without WithBefore", n)
		}
		if err := f.h.WithBefore(ctx, p); err != nil {
			t.Fatal(err)
		}
		got, err := p.StateAt(n - 1)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := all.StateAt(n - 1)
		if hg, hw := mustHash(t, got), mustHash(t, want); hg != hw {
			t.Errorf("turn %d: the state before hashes %.12s, want %.12s", n, hg, hw)
		}
		a, err := Post(p.View(race.Host), n, "markdown", "")
		if err != nil {
			t.Fatal(err)
		}
		b, err := Post(all.View(race.Host), n, "markdown", "")
		if err != nil {
			t.Fatal(err)
		}
		if ha, hb := strings.SplitN(a, "\n\n", 3)[1], strings.SplitN(b, "\n\n", 3)[1]; ha != hb || !strings.HasPrefix(ha, "**") {
			t.Errorf("turn %d: headline %q loaded at the turn, %q replayed", n, ha, hb)
		}
	}
}

func mustHash(t *testing.T, s race.State) string {
	t.Helper()
	h, err := race.Hash(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
