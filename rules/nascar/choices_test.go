package nascar

import (
	"strings"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
)

// Every speed listed is reachable with the letters listed and the wildcards
// they cost, and no speed left out is reachable by any order: at every
// turn of bot races on both kinds of track, for every car racing.
func TestChoicesMatchTheRules(t *testing.T) {
	rs := Ruleset{}
	var listed, unlisted int
	for _, track := range []string{"oval", "road-course"} {
		for seed := uint64(1); seed <= 3; seed++ {
			_, p := botRace(t, seed, 6, track)
			for _, st := range racetest.Sampled(t, p, 2) {
				for _, pr := range rs.Prompts(st) {
					v, err := rs.Choices(st, pr.Seat)
					if err != nil {
						t.Fatal(err)
					}
					ch := v.(Choices)
					c := st.(*State).car(pr.Seat)
					if ch.Speed != c.Speed || ch.MaxSpeed != c.MaxSpeed || ch.Wildcards != c.Wildcards || ch.Heading != c.Heading.String() {
						t.Fatalf("choices %+v for car %+v", ch, c)
					}
					reach := map[int]bool{}
					for _, sc := range ch.Speeds {
						text := sc.Before + strings.Repeat("M", sc.Speed)
						o, err := rs.ParseOrder(st, race.Submission{Seat: pr.Seat, Text: text})
						if err != nil {
							t.Fatalf("%s: speed %d is listed, and %q is refused: %v", c.Name, sc.Speed, text, err)
						}
						plan, _ := Check(o.(Order), st.(*State).carFor(c))
						if plan.Wildcards != sc.Wildcards || plan.TurnSpeed != sc.Speed {
							t.Fatalf("%s: %q costs %d wildcards at speed %d; listed %+v", c.Name, text, plan.Wildcards, plan.TurnSpeed, sc)
						}
						reach[sc.Speed] = true
						listed++
					}
					// no other speed is reachable, whatever is written before the moves
					for speed := 0; speed <= c.MaxSpeed+3; speed++ {
						if reach[speed] {
							continue
						}
						for _, before := range []string{"", "A", "B", "AA", "BB", "AB", "S", "SA", "SB", "SAB", "SAA", "SBB", "A(A+1)", "(A+1)A", "B(B+1)"} {
							text := before + strings.Repeat("M", speed)
							if _, err := rs.ParseOrder(st, race.Submission{Seat: pr.Seat, Text: text}); err == nil {
								t.Fatalf("%s: %q moves at speed %d, which the choices leave out: %+v", c.Name, text, speed, ch.Speeds)
							}
						}
						unlisted++
					}
				}
			}
		}
	}
	if listed == 0 || unlisted == 0 {
		t.Fatalf("listed %d, unlisted %d: the sample misses a case", listed, unlisted)
	}
}
