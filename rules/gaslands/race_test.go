package gaslands

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

func botRace(t testing.TB, seed uint64, n int, track string) (*race.Race, *race.Played) {
	return botRaceLaps(t, seed, n, track, 0)
}

func botRaceLaps(t testing.TB, seed uint64, n int, track string, laps int) (*race.Race, *race.Played) {
	t.Helper()
	vehicles := []string{"car", "buggy", "performance-car", "truck", "heavy-truck", "bike"}
	var es []race.Entrant
	for i := 0; i < n; i++ {
		es = append(es, race.Entrant{Player: fmt.Sprint("P", i), Racers: []string{fmt.Sprint("Kart", i)},
			Options: map[string]string{"vehicle": vehicles[(i+int(seed))%len(vehicles)]}})
	}
	r := &race.Race{ID: "t", Ruleset: "gaslands", Config: race.Config{Track: track, Laps: laps}, Entrants: es, Seed: dice.SeedFromInt(seed), Created: time.Unix(0, 0)}
	p, err := race.Start(Ruleset{}, r)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	seq := 0
	for !p.State.Over() {
		if p.State.Turn() > 2000 {
			t.Fatalf("seed %d: not over after 2000 activations", seed)
		}
		for _, pr := range (Ruleset{}).Prompts(p.State) {
			if rng.IntN(10) == 0 {
				continue // a racer who sends nothing
			}
			seq++
			e := race.Entry{Seq: seq, Kind: race.EntryOrder, Turn: p.State.Turn(), Seat: pr.Seat, Text: Ruleset{}.BotOrder(p.State, pr.Seat, false, rng)}
			if err := p.Apply(e); err != nil {
				t.Fatalf("seed %d activation %d: %q: %v", seed, e.Turn, e.Text, err)
			}
			r.Log = append(r.Log, e)
		}
		seq++
		e := race.Entry{Seq: seq, Kind: race.EntryResolve, Turn: p.State.Turn(), Seat: -1}
		if err := p.Apply(e); err != nil {
			t.Fatal(err)
		}
		r.Log = append(r.Log, e)
	}
	return r, p
}

func TestBotRacesEnd(t *testing.T) {
	for _, tr := range []string{"luigi-raceway", "bowser-castle"} {
		_, p := botRace(t, 1, 6, tr)
		if len(p.Turns) == 0 {
			t.Fatal("no activations")
		}
		s := p.State.(*State)
		if s.Placed == 0 {
			t.Errorf("%s: nobody finished in %d rounds", tr, s.Round)
		}
		for _, st := range (Ruleset{}).Standings(s) {
			t.Logf("%s: %d %s %s %s", tr, st.Place, st.Name, st.Status, st.Detail)
		}
		t.Logf("%s: %d activations, %d rounds", tr, len(p.Turns), s.Round)
	}
}

func TestReplayThousandRaces(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 40
	}
	tracks := []string{"luigi-raceway", "bowser-castle"}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r, live := botRaceLaps(t, seed, 2+int(seed%3), tracks[seed%2], 1)
		again, err := race.Replay(Ruleset{}, r)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(again.Turns) != len(live.Turns) {
			t.Fatalf("seed %d: %d activations replayed, %d played", seed, len(again.Turns), len(live.Turns))
		}
		for i := range live.Turns {
			if again.Turns[i].Hash != live.Turns[i].Hash {
				t.Fatalf("seed %d activation %d: the replay's state differs", seed, i+1)
			}
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
