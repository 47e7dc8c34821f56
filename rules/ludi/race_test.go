package ludi

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

var pkgs = []string{"military", "noble", "political", "priestly", "strength", "trader"}
var extras = []string{"skill,speed", "constitution,endurance", "quality,size", "skill,endurance", "speed,size", "skill,quality"}

// botRace plays a whole race with bots in every seat and returns its definition and replay.
func botRace(t testing.TB, seed uint64, n int) (*race.Race, *race.Played) {
	t.Helper()
	var es []race.Entrant
	for i := 0; i < n; i++ {
		es = append(es, race.Entrant{Player: fmt.Sprint("P", i), Racers: []string{fmt.Sprint("Auriga ", i)},
			Options: map[string]string{"package": pkgs[i%6], "extras": extras[(i/6+i)%6]}})
	}
	r := &race.Race{ID: "t", Ruleset: "ludi", Config: race.Config{Track: "circus-maximus"}, Entrants: es,
		Seed: dice.SeedFromInt(seed), Created: time.Unix(0, 0)}
	p, err := race.Start(Ruleset{}, r)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 1))
	seq := 0
	add := func(e race.Entry) {
		seq++
		e.Seq, e.Turn = seq, p.State.Turn()
		if err := p.Apply(e); err != nil {
			t.Fatalf("seed %d turn %d: %v", seed, e.Turn, err)
		}
		r.Log = append(r.Log, e)
	}
	for !p.State.Over() {
		if p.State.Turn() > 300 {
			t.Fatalf("seed %d: the race has not ended after 300 turns", seed)
		}
		if p.State.Turn()%7 == 3 {
			add(race.Entry{Kind: race.EntrySet, Seat: -1, Text: "orders=2"})
		}
		for _, pr := range (Ruleset{}).Prompts(p.State) {
			if rng.IntN(10) == 0 {
				continue // a missed turn
			}
			add(race.Entry{Kind: race.EntryOrder, Seat: pr.Seat, Text: Bot(p.State, pr.Seat, rng)})
		}
		add(race.Entry{Kind: race.EntryResolve, Seat: -1})
	}
	return r, p
}

func TestBotRaceEnds(t *testing.T) {
	_, p := botRace(t, 1, 12)
	st := p.State.(*State)
	standings := (Ruleset{}).Standings(st)
	if len(standings) != 12 {
		t.Fatalf("%d standings for 12 chariots", len(standings))
	}
	seen := map[int]bool{}
	for i, s := range standings {
		if s.Place != i+1 || seen[s.Seat] {
			t.Fatalf("standing %d: place %d, seat %d (seen before: %v)", i, s.Place, s.Seat, seen[s.Seat])
		}
		seen[s.Seat] = true
		c := st.chariot(s.Seat)
		if c.Active() {
			t.Fatalf("%s still races after the race is over", c.Name)
		}
		if (s.Status == "finished") != (c.Out == Finished) {
			t.Fatalf("%s: standing %q but out %q", c.Name, s.Status, c.Out)
		}
	}
	for i, seat := range st.Finish {
		if standings[i].Seat != seat {
			t.Fatalf("finisher %d is seat %d in the standings, seat %d over the line", i+1, standings[i].Seat, seat)
		}
	}
}

// TestReplayThousandRaces plays 1,000 whole races with bots and replays each
// from its setup, seed and log: every turn's state hash and every roll must
// come out the same.
func TestReplayThousandRaces(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 50
	}
	finished, turns := 0, 0
	for seed := uint64(1); seed <= uint64(n); seed++ {
		r, live := botRace(t, seed, 2+int(seed%11))
		again, err := race.Replay(Ruleset{}, r)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(again.Turns) != len(live.Turns) {
			t.Fatalf("seed %d: %d turns live, %d replayed", seed, len(live.Turns), len(again.Turns))
		}
		for i := range live.Turns {
			a, b := live.Turns[i], again.Turns[i]
			if a.Hash != b.Hash || len(a.Rolls) != len(b.Rolls) {
				t.Fatalf("seed %d turn %d: replay differs", seed, i+1)
			}
			for j := range a.Rolls {
				if a.Rolls[j] != b.Rolls[j] {
					t.Fatalf("seed %d turn %d roll %d: %v then %v", seed, i+1, j, a.Rolls[j], b.Rolls[j])
				}
			}
		}
		finished += len(live.State.(*State).Finish)
		turns += len(live.Turns)
	}
	if finished == 0 {
		t.Fatal("no chariot finished in any race")
	}
	t.Logf("%d races, %d turns, %d chariots finished", n, turns, finished)
}
