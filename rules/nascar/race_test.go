package nascar

import (
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// botRace plays a whole race with bots in every seat.
func botRace(t testing.TB, seed uint64, n int, track string) (*race.Race, *race.Played) {
	t.Helper()
	ups := []string{"none", "turbo", "swaybars", "performance"}
	es := racetest.Entrants(n, "Car ", func(i int) map[string]string { return map[string]string{"upgrade": ups[i%4]} })
	return racetest.BotRace(t, Ruleset{}, seed, 3, race.Config{Track: track}, es, racetest.Options{Miss: 12, MaxTurns: 400, Bot: Bot})
}

func TestBotRacesEnd(t *testing.T) {
	for _, track := range []string{"oval", "road-course"} {
		_, p := botRace(t, 1, 8, track)
		s := p.State.(*State)
		if len(s.Finish) != 8 {
			t.Fatalf("%s: %d of 8 finished", track, len(s.Finish))
		}
		t.Logf("%s: %d turns", track, len(p.Turns))
	}
}

func TestReplayThousandRaces(t *testing.T) {
	races, turns, most := 0, 0, 0
	for _, live := range racetest.Replays(t, Ruleset{}, 40, func(seed uint64) (*race.Race, *race.Played) {
		track, cars := "oval", 2+int(seed%11) // 2 to 12
		if seed%2 == 0 {
			track, cars = "road-course", 2+int(seed%7) // its grid has 8 slots
		}
		return botRace(t, seed, cars, track)
	}) {
		races++
		turns += len(live.Turns)
		most = max(most, len(live.Turns))
	}
	t.Logf("%d races, %d turns, the longest %d (3 laps; one turn in 12 missed)", races, turns, most)
}

// A race that has not ended by MaxTurns is called: no car that cannot make
// headway keeps it going for ever.
func TestRaceIsCalled(t *testing.T) {
	_, p := botRace(t, 1, 4, "oval")
	s := racetest.StateAt(t, p, 10).(*State)
	s.T = s.MaxTurns() // the last turn it may run
	if s.Over() {
		t.Fatal("over before its last turn")
	}
	next, ev, err := (Ruleset{}).Resolve(s, map[int]race.Order{}, dice.New(dice.SeedFromInt(1)), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if !next.Over() {
		t.Fatal("not over after its last turn")
	}
	if last := ev[len(ev)-1]; last.Kind != "end" || !strings.Contains(last.Text, "called after 350 turns") {
		t.Errorf("the last event: %+v", last)
	}
	for _, st := range (Ruleset{}).Standings(next) {
		if st.Place == 0 {
			t.Errorf("%s has no place", st.Name)
		}
	}
}
