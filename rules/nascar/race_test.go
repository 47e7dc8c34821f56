package nascar

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// botRace plays a whole race with bots in every seat.
func botRace(t testing.TB, seed uint64, n int, track string) (*race.Race, *race.Played) {
	t.Helper()
	ups := []string{"none", "turbo", "swaybars", "performance"}
	var es []race.Entrant
	for i := 0; i < n; i++ {
		es = append(es, race.Entrant{Player: fmt.Sprint("P", i), Racers: []string{fmt.Sprint("Car ", i)},
			Options: map[string]string{"upgrade": ups[i%4]}})
	}
	r := &race.Race{ID: "t", Ruleset: "nascar", Config: race.Config{Track: track}, Entrants: es,
		Seed: dice.SeedFromInt(seed), Created: time.Unix(0, 0)}
	p, err := race.Start(Ruleset{}, r)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 3))
	seq := 0
	for !p.State.Over() {
		if p.State.Turn() > 400 {
			t.Fatalf("seed %d: not over after 400 turns", seed)
		}
		for _, pr := range (Ruleset{}).Prompts(p.State) {
			if rng.IntN(12) == 0 {
				continue // a missed turn
			}
			seq++
			e := race.Entry{Seq: seq, Kind: race.EntryOrder, Turn: p.State.Turn(), Seat: pr.Seat, Text: Bot(p.State, pr.Seat, rng)}
			if err := p.Apply(e); err != nil {
				t.Fatalf("seed %d turn %d seat %d: %q: %v", seed, e.Turn, pr.Seat, e.Text, err)
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
	n := 1000
	if testing.Short() {
		n = 40
	}
	turns := 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		track, cars := "oval", 2+int(seed%11) // 2 to 12
		if seed%2 == 0 {
			track, cars = "road-course", 2+int(seed%7) // its grid has 8 slots
		}
		r, live := botRace(t, seed, cars, track)
		again, err := race.Replay(Ruleset{}, r)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(again.Turns) != len(live.Turns) {
			t.Fatalf("seed %d: %d turns, replayed %d", seed, len(live.Turns), len(again.Turns))
		}
		for i := range live.Turns {
			if live.Turns[i].Hash != again.Turns[i].Hash {
				t.Fatalf("seed %d turn %d: replay differs", seed, i+1)
			}
		}
		turns += len(live.Turns)
	}
	t.Logf("%d races, %d turns", n, turns)
}
