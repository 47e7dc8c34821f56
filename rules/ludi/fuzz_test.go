package ludi

import (
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// FuzzResolve plays turns of a six-chariot race with orders from the fuzzer
// and dice from a fuzzed seed, and checks after every turn that the state
// still makes sense: every chariot on a real space, no two on one space, no
// side past 3 points, no Endurance below 0, and Resolve left its input alone.
func FuzzResolve(f *testing.F) {
	f.Add(uint64(1), "Accelerate|Whip|Hold|Accelerate|Whip|Accelerate", "Left 2|Crash Left|Lacerate Right|Whip|Right 3|Brake", uint8(2))
	f.Add(uint64(7), "Whip|Whip|Whip|Whip|Whip|Whip", "Whip, Whip else Left 1|Crash Right, Watch else Brake|Control|Right 1|Left 3|Watch", uint8(3))
	f.Add(uint64(99), "a|a|a|a|a|a", "cl|cr|ll|lr|w|b", uint8(1))
	f.Fuzz(func(t *testing.T, seed uint64, start, later string, orders uint8) {
		var es []race.Entrant
		for i, pkg := range []string{"military", "noble", "political", "priestly", "strength", "trader"} {
			es = append(es, race.Entrant{Player: pkg, Racers: []string{pkg + " auriga"}, Options: map[string]string{"package": pkg, "extras": extras[i]}})
		}
		d := dice.New(dice.SeedFromInt(seed))
		st, err := Ruleset{}.Setup(race.Config{}, es, d)
		if err != nil {
			t.Fatal(err)
		}
		texts := [2][]string{strings.Split(start, "|"), strings.Split(later, "|")}
		for turn := 1; turn <= 12 && !st.Over(); turn++ {
			if turn > 1 && orders%3 > 0 {
				if n, err := (Ruleset{}).Set(st, "orders", string('1'+rune(orders%3))); err == nil {
					st = n
				}
			}
			src := texts[min(turn-1, 1)]
			next := racetest.FuzzTurn(t, Ruleset{}, st, d, func(seat int) (string, bool) {
				return src[seat%len(src)], turn%2 == 0
			})
			checkState(t, next.(*State))
			st = next
		}
	})
}

func checkState(t *testing.T, s *State) {
	t.Helper()
	seen := map[Pos]string{}
	for _, c := range s.Chariots {
		if c.DamageL > 3 || c.DamageR > 3 || c.DamageL < 0 || c.DamageR < 0 {
			t.Fatalf("%s: damage %d/%d", c.Name, c.DamageL, c.DamageR)
		}
		if c.Endurance < 0 || c.Skill < 0 || c.Stunned < 0 || c.Level < 0 || c.Level > 3 {
			t.Fatalf("%s: endurance %d, skill %d, stunned %d, level %d", c.Name, c.Endurance, c.Skill, c.Stunned, c.Level)
		}
		if (c.DamageL >= 3 || c.DamageR >= 3) && !c.Flipped && c.Out != Finished {
			t.Fatalf("%s: a side broke but the chariot did not overturn", c.Name)
		}
		if !c.OnTrack() {
			continue
		}
		p := c.Pos
		if p.Lane < 1 || p.Lane > s.track.Lanes || p.Seg < 0 || p.Seg >= len(s.track.Segments) || p.Cell < 0 || p.Cell >= s.track.Spaces(p.Seg, p.Lane) {
			t.Fatalf("%s is off the track: %v", c.Name, p)
		}
		if other, dup := seen[p]; dup {
			t.Fatalf("%s and %s share %v", c.Name, other, p)
		}
		seen[p] = c.Name
	}
}
