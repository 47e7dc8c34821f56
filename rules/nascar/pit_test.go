package nascar

import (
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// The text's clarification of the pit bonus, speed by speed.
func TestPitBonus(t *testing.T) {
	for speed, want := range map[int]int{1: 3, 2: 2, 3: 2, 4: 2, 5: 1, 6: 1, 7: 0, 8: 0, 12: 0} {
		if got := PitBonus(speed); got != want {
			t.Errorf("PitBonus(%d) = %d, want %d", speed, got, want)
		}
	}
}

// The text's examples of repairs: 10 - speed; at 6, +4; at 3, +7 (and 2 wildcards); at 4, 2 wildcards.
func TestPitRepairs(t *testing.T) {
	for _, tc := range []struct{ speed, repair, wcs int }{{6, 4, 1}, {3, 7, 2}, {4, 6, 2}, {1, 9, 3}} {
		tr := loadLoop(t)
		s := &State{TrackID: tr.ID, T: 3, Laps: 3, track: tr}
		// Three squares before the PP mark at (11,4), in the pit, at the speed under test.
		s.Cars = []RaceCar{{Name: "M", Pos: Point{11 - tc.speed, 4}, Heading: E, Speed: tc.speed, MaxSpeed: 8, Wildcards: 0, InPit: true, Crossings: 1}}
		o, err := Parse(strings.Repeat("M", tc.speed))
		if err != nil {
			t.Fatal(err)
		}
		next, _, err := Ruleset{}.Resolve(s, map[int]race.Order{0: o}, dice.New(dice.SeedFromInt(1)), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		c := next.(*State).Cars[0]
		if c.MaxSpeed != 8+tc.repair || c.Wildcards != tc.wcs {
			t.Errorf("through the PP mark at speed %d: max %d, wildcards %d; want %d, %d", tc.speed, c.MaxSpeed, c.Wildcards, 8+tc.repair, tc.wcs)
		}
	}
}

func TestSandbagsPlacedByTheHost(t *testing.T) {
	es := []race.Entrant{{Player: "A", Racers: []string{"a"}}, {Player: "B", Racers: []string{"b"}}}
	d := dice.New(dice.SeedFromInt(1))
	st, err := Ruleset{}.Setup(race.Config{Track: "oval", Options: map[string]string{"sandbags": "26,1;27,2"}}, es, d)
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	if len(s.Sandbags) != 2 || s.Sandbags[0] != (Point{26, 1}) || len(s.Found) != 0 {
		t.Fatalf("sandbags %v, found %v", s.Sandbags, s.Found)
	}
	if st, err := (Ruleset{}).Setup(race.Config{Track: "oval", Options: map[string]string{"sandbags": "none"}}, es, d); err != nil || len(st.(*State).Sandbags) != 0 {
		t.Fatalf("sandbags=none: %v", err)
	}
	if st, err := (Ruleset{}).Setup(race.Config{Track: "oval"}, es, d); err != nil || len(st.(*State).Sandbags) == 0 {
		t.Fatalf("the track's own sandbags: %v", err)
	}
	for _, tc := range []struct{ v, says string }{
		{"0,0", "not a racing square"},
		{"26;1", "not a square"},
		{"a,b", "not a square"},
	} {
		_, err := Ruleset{}.Setup(race.Config{Track: "oval", Options: map[string]string{"sandbags": tc.v}}, es, d)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("sandbags=%s: %v, want %q", tc.v, err, tc.says)
		}
	}
	if _, err := (Ruleset{}).Setup(race.Config{Track: "oval", Options: map[string]string{"rain": "yes"}}, es, d); err == nil {
		t.Error("an unknown option was accepted")
	}
}

// pit-finish picks the reading of a finish through the pit lane: lap by
// default, no-win when asked; anything else is refused with the values.
func TestPitFinishOption(t *testing.T) {
	es := []race.Entrant{{Player: "A", Racers: []string{"a"}}, {Player: "B", Racers: []string{"b"}}}
	d := dice.New(dice.SeedFromInt(1))
	for v, want := range map[string]bool{"": false, "lap": false, "no-win": true, " No-Win ": true} {
		cfg := race.Config{Track: "oval"}
		if v != "" {
			cfg.Options = map[string]string{"pit-finish": v}
		}
		st, err := Ruleset{}.Setup(cfg, es, d)
		if err != nil {
			t.Fatalf("pit-finish=%q: %v", v, err)
		}
		if st.(*State).PitFinishNoWin != want {
			t.Errorf("pit-finish=%q: no-win %v, want %v", v, !want, want)
		}
	}
	_, err := Ruleset{}.Setup(race.Config{Track: "oval", Options: map[string]string{"pit-finish": "never"}}, es, d)
	if err == nil || !strings.Contains(err.Error(), `pit-finish is one of lap, no-win; got "never"`) {
		t.Errorf("pit-finish=never: %v", err)
	}
}
