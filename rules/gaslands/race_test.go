package gaslands

import (
	"fmt"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
)

func botRace(t testing.TB, seed uint64, n int, track string) (*race.Race, *race.Played) {
	return botRaceLaps(t, seed, n, track, 0)
}

func botRaceLaps(t testing.TB, seed uint64, n int, track string, laps int) (*race.Race, *race.Played) {
	t.Helper()
	vehicles := []string{"car", "buggy", "performance-car", "truck", "heavy-truck", "bike"}
	es := racetest.Entrants(n, "Kart", func(i int) map[string]string {
		return map[string]string{"vehicle": vehicles[(i+int(seed))%len(vehicles)]}
	})
	return racetest.BotRace(t, Ruleset{}, seed, 5, race.Config{Track: track, Laps: laps}, es, racetest.Options{Miss: 10, MaxTurns: 2000})
}

func TestBotRacesEnd(t *testing.T) {
	for _, tr := range []string{"luigi-raceway", "bowser-castle"} {
		_, p := botRace(t, 1, 6, tr)
		if len(p.Turns) == 0 {
			t.Fatal("no activations")
		}
		s := p.State.(*State)
		if s.placed() == 0 {
			t.Errorf("%s: nobody finished in %d rounds", tr, s.Round)
		}
		for _, st := range (Ruleset{}).Standings(s) {
			t.Logf("%s: %d %s %s %s", tr, st.Place, st.Name, st.Status, st.Detail)
		}
		t.Logf("%s: %d activations, %d rounds", tr, len(p.Turns), s.Round)
	}
}

func TestReplayThousandRaces(t *testing.T) {
	tracks := []string{"luigi-raceway", "bowser-castle"}
	for seed, live := range racetest.Replays(t, Ruleset{}, 40, func(seed uint64) (*race.Race, *race.Played) {
		return botRaceLaps(t, seed, 2+int(seed%3), tracks[seed%2], 1)
	}) {
		for i := range live.Turns {
			noOverlaps(t, live.Turns[i].After.(*State), fmt.Sprintf("seed %d activation %d", seed, i+1))
		}
	}
}

// noOverlaps: karts racing never overlap each other or an obstruction
// standing, and stay on the table.
func noOverlaps(t *testing.T, s *State, where string) {
	t.Helper()
	for i, a := range s.Karts {
		if a.Finished {
			continue
		}
		if !s.track.Inside(a.Pos) {
			t.Fatalf("%s: %s is off the table", where, a.Name)
		}
		for _, b := range s.Karts[i+1:] {
			if !b.Finished && a.Pos.Overlaps(b.Pos) {
				t.Fatalf("%s: %s and %s overlap", where, a.Name, b.Name)
			}
		}
		for g, o := range s.track.Obstructions {
			if !s.gone(g) && o.Rect.Overlaps(a.Pos) {
				t.Fatalf("%s: %s overlaps the %s", where, a.Name, o.Name)
			}
		}
	}
}
