package gaslands

import (
	"errors"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
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
			var oe *race.OrderError
			if !errors.As(err, &oe) || oe.Kind != race.Invalid || oe.Code == "" || oe.Reason == "" {
				t.Fatalf("%q: refused without a kind, a code and a reason of its own: %#v", text, err)
			}
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
			var oe *race.OrderError
			if !errors.As(err, &oe) || oe.Code == "" {
				t.Fatalf("%q: refused without a code of its own: %v", text, err)
			}
			return
		}
		next, _, err := (Ruleset{}).Resolve(s, map[int]race.Order{s.Active: ro}, dice.New(dice.SeedFromInt(seed)), time.Time{})
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

// FuzzParseTrack: any file is read without a panic; a track that loads has
// its grid on the road and a lap that projects onto itself.
func FuzzParseTrack(f *testing.F) {
	seeds := racetest.ReadFiles(f, trackFiles, "tracks/luigi-raceway.yaml", "tracks/bowser-castle.yaml")
	seeds = append(seeds, []byte("id: x\nname: X\nlaps: 1\nseats: 2\ntable: [1200, 900]\nroad: {width: 200, smooth: 2, centreline: [[600, 150], [1000, 150], [1000, 750], [200, 750], [200, 150]]}\n"))
	racetest.FuzzParse(f, ParseTrack, "f.yaml", seeds, func(t *testing.T, tr *Track) {
		if tr.Length <= 0 || len(tr.Gates) == 0 {
			t.Fatalf("a loaded track with lap %v and %d gates", tr.Length, len(tr.Gates))
		}
		for i, r := range tr.Grid(tr.Seats) {
			if !tr.RectOnRoad(r) {
				t.Fatalf("grid slot %d off the road", i+1)
			}
		}
	})
}

// FuzzParseManeuvers: any file is read without a panic; what loads permits a
// template in every gear, and every template's move is finite.
func FuzzParseManeuvers(f *testing.F) {
	seeds := racetest.ReadFiles(f, dataFiles, "data/maneuvers.yaml")
	seeds = append(seeds, []byte("templates: [{name: s, length: 75}]\nslide: 10\nchart: {s: T T T T T T}"))
	racetest.FuzzParse(f, ParseManeuvers, "f.yaml", seeds, func(t *testing.T, m Maneuvers) {
		for g := 1; g <= MaxGear; g++ {
			if len(m.Allowed(g)) == 0 {
				t.Fatalf("gear %d permits nothing", g)
			}
		}
		for _, tm := range m.Templates {
			end := tm.Move(Rect{Length: KartLength, Width: KartWidth}, true)
			if !finite(end.Centre.X, end.Centre.Y, end.Heading) {
				t.Fatalf("%s moves a kart to %+v", tm.Name, end)
			}
		}
	})
}
