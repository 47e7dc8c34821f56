package party

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// botGame plays a whole game with bots as the demo host does: a resolution
// every step, orders logged a little after each resolution, some seats
// silent, the host entering minigame results in the Minigame Phase.
func botGame(t testing.TB, seed uint64, n int, opts map[string]string, step time.Duration) (*race.Race, *race.Played) {
	t.Helper()
	es := racetest.Entrants(n, "Racer ", nil)
	r := &race.Race{ID: "t", Ruleset: "party", Config: race.Config{Track: DefaultBoard, Options: opts}, Entrants: es, Seed: dice.SeedFromInt(seed), Created: time.Unix(0, 0)}
	p, err := race.Start(Ruleset{}, r)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 5))
	clock := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC).Add(time.Duration(seed%97) * time.Hour)
	seq := 0
	add := func(e race.Entry) {
		seq++
		e.Seq, e.Turn = seq, p.State.Turn()
		if err := p.Apply(e); err != nil {
			t.Fatalf("seed %d turn %d: %s %q: %v", seed, e.Turn, e.Kind, e.Text, err)
		}
		r.Log = append(r.Log, e)
	}
	for !p.State.Over() {
		if p.State.Turn() > 500 {
			t.Fatalf("seed %d: not over after 500 turns", seed)
		}
		start := clock
		for _, pr := range (Ruleset{}).Prompts(p.State) {
			if rng.IntN(8) == 0 {
				continue
			}
			clock = clock.Add(time.Duration(1+rng.IntN(50)) * time.Minute)
			add(race.Entry{Kind: race.EntryOrder, Seat: pr.Seat, Text: Ruleset{}.BotOrder(p.State, pr.Seat, false, rng), At: clock})
		}
		s := p.State.(*State)
		if s.Phase == Minigame && !s.hasResults(s.Week) && rng.IntN(2) == 0 { // the host is late half the time
			for _, kv := range (Ruleset{}).HostSettings(s, rng) {
				add(race.Entry{Kind: race.EntrySet, Seat: -1, Text: kv, At: clock})
			}
		}
		clock = start.Add(step)
		add(race.Entry{Kind: race.EntryResolve, Seat: -1, At: clock})
	}
	return r, p
}

func TestBotGamesEnd(t *testing.T) {
	r, p := botGame(t, 1, 4, nil, 48*time.Hour)
	s := p.State.(*State)
	if !s.Over() || s.Week != s.Weeks+1 {
		t.Fatalf("not over: week %d phase %s", s.Week, s.Phase)
	}
	rolls := 0
	for _, tn := range p.Turns {
		for _, e := range tn.Events {
			if e.Kind == "roll" {
				rolls++
			}
		}
	}
	// Four players, four weeks: at most one roll each a week, and with orders
	// in every Boardplay Phase most of them.
	if rolls > 16 || rolls < 8 {
		t.Errorf("%d movement rolls in 4 weeks of 4 players", rolls)
	}
	st := (Ruleset{}).Standings(s)
	for i := 1; i < len(st); i++ {
		a, b := s.player(st[i-1].Seat), s.player(st[i].Seat)
		if a.Stars < b.Stars || (a.Stars == b.Stars && a.Coins < b.Coins) {
			t.Errorf("standings out of order: %+v before %+v", a, b)
		}
	}
	t.Logf("%d turns, %d log entries; winner %s", len(p.Turns), len(r.Log), st[0].Detail)
}

// Replay of setup, seed and log gives the same state hashes, turn by turn,
// in many games of every size, in zones far from UTC and at different paces.
func TestReplayManyGames(t *testing.T) {
	zones := []string{"UTC", "Pacific/Auckland", "America/Los_Angeles", "Asia/Kolkata"}
	for seed, live := range racetest.Replays(t, Ruleset{}, 30, func(seed uint64) (*race.Race, *race.Played) {
		opts := map[string]string{"tz": zones[seed%4], "weeks": fmt.Sprint(1 + seed%3)}
		step := time.Duration(12+seed%60) * time.Hour
		return botGame(t, seed, 2+int(seed%7), opts, step)
	}) {
		b, _ := race.Hash(live.State)
		s, err := Ruleset{}.DecodeState(mustJSON(t, live.State))
		if err != nil {
			t.Fatal(err)
		}
		if h, _ := race.Hash(s); h != b {
			t.Fatalf("seed %d: the decoded state hashes differently", seed)
		}
	}
}

// A stored state the game could not have made is refused when read, not
// left to fail in a post or a prompt.
func TestDecodeStateChecks(t *testing.T) {
	_, p := botGame(t, 4, 3, nil, 40*time.Hour)
	racetest.Refused(t, Ruleset{}, mustJSON(t, p.State), [][3]string{
		{`"players":[`, `"players":[],"x":[`, "0 players"},
		{`"space":"`, `"space":"nowhere","was":"`, `not on the board`},
	})
}
