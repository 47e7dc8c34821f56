package rtd

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

func botRace(t testing.TB, seed uint64, n int, course string) (*race.Race, *race.Played) {
	t.Helper()
	karts := []map[string]string{nil, {"perk": "item-bonus", "debuff": "slow"}, {"perk": "ramming-speed", "debuff": "low-loot"},
		{"perk": "high-acceleration", "debuff": "featherweight"}}
	var es []race.Entrant
	for i := 0; i < n; i++ {
		es = append(es, race.Entrant{Player: fmt.Sprint("P", i), Racers: []string{fmt.Sprint("Racer ", i)}, Options: karts[i%4]})
	}
	r := &race.Race{ID: "t", Ruleset: "rtd", Config: race.Config{Track: course}, Entrants: es, Seed: dice.SeedFromInt(seed), Created: time.Unix(0, 0)}
	p, err := race.Start(Ruleset{}, r)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	seq := 0
	for !p.State.Over() {
		if p.State.Turn() > 300 {
			t.Fatalf("seed %d: not over after 300 turns", seed)
		}
		for _, pr := range (Ruleset{}).Prompts(p.State) {
			if rng.IntN(10) == 0 {
				continue
			}
			seq++
			e := race.Entry{Seq: seq, Kind: race.EntryOrder, Turn: p.State.Turn(), Seat: pr.Seat, Text: Ruleset{}.BotOrder(p.State, pr.Seat, false, rng)}
			if err := p.Apply(e); err != nil {
				t.Fatalf("seed %d turn %d: %q: %v", seed, e.Turn, e.Text, err)
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
	for _, c := range []string{"luigi-circuit", "rainbow-road", "brickwork-bay"} {
		_, p := botRace(t, 1, 8, c)
		s := p.State.(*State)
		if len(s.Finish) != 8 {
			t.Fatalf("%s: %d of 8 finished", c, len(s.Finish))
		}
		st := (Ruleset{}).Standings(s)
		for i, x := range st {
			if x.Seat != s.Finish[i] || x.Place != i+1 {
				t.Fatalf("%s: standing %d is seat %d, finish order says %d", c, i+1, x.Seat, s.Finish[i])
			}
		}
		t.Logf("%s: %d turns", c, len(p.Turns))
	}
}

func TestReplayThousandRaces(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 50
	}
	courses := []string{"luigi-circuit", "rainbow-road", "brickwork-bay"}
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r, live := botRace(t, seed, 2+int(seed%11), courses[seed%3])
		again, err := race.Replay(Ruleset{}, r)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		for i := range live.Turns {
			if live.Turns[i].Hash != again.Turns[i].Hash {
				t.Fatalf("seed %d turn %d: replay differs", seed, i+1)
			}
		}
	}
}
