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

func TestBotRacesEnd(t *testing.T) {
	r, p := botRace(t, 1, 12)
	st := p.State.(*State)
	t.Logf("%d turns, %d finished, %d rolls in turn 2", len(p.Turns), len(st.Finish), len(p.Turns[1].Rolls))
	for _, s := range (Ruleset{}).Standings(st) {
		t.Logf("%2d %-10s %-8s %s", s.Place, s.Name, s.Status, s.Detail)
	}
	_ = r
}
