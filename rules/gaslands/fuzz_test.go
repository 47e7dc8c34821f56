package gaslands

import (
	"testing"

	"pitwall/dice"
	"pitwall/race"
)

// FuzzOrder: any text is parsed without a panic; an order that parses
// prints as text that parses to the same order; and played from a real
// position it resolves without a panic, with the karts in bounds.
func FuzzOrder(f *testing.F) {
	for _, s := range []string{"gentle left skid 2 push shift up spin right 45 boost medium shell Luigi smash", "medium", "turn right skid 3 shift down 2",
		"hairpin left, evade", "swerve right boost turn left bill", "long skid 9", "veer", "short left", "", "spin left 91", "medium shell"} {
		f.Add(s, uint64(1))
	}
	m := DefaultManeuvers()
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		o, err := Parse(text, m)
		if err != nil {
			return
		}
		again, err := Parse(o.String(), m)
		if err != nil || again != o {
			t.Fatalf("%q -> %q -> %+v, %v", text, o.String(), again, err)
		}
		_, p := botRaceStart(t, seed)
		s := p.State.(*State)
		ro, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: s.Active, Text: text})
		if err != nil {
			return
		}
		next, _, err := (Ruleset{}).Resolve(s, map[int]race.Order{s.Active: ro}, dice.New(dice.SeedFromInt(seed)))
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range next.(*State).Karts {
			if !s.track.Inside(k.Pos) {
				t.Fatalf("%q: %s left the table: %+v", text, k.Name, k.Pos)
			}
		}
	})
}

func botRaceStart(t *testing.T, seed uint64) (*race.Race, *race.Played) {
	var es []race.Entrant
	for i, v := range []string{"car", "buggy", "heavy-truck"} {
		es = append(es, race.Entrant{Player: v, Racers: []string{[]string{"Mario", "Luigi", "Bowser"}[i]}, Options: map[string]string{"vehicle": v}})
	}
	r := &race.Race{ID: "f", Ruleset: "gaslands", Entrants: es, Seed: dice.SeedFromInt(seed)}
	p, err := race.Start(Ruleset{}, r)
	if err != nil {
		t.Fatal(err)
	}
	return r, p
}
