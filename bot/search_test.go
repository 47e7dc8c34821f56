package bot_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"pitwall/bot"
	"pitwall/dice"
	"pitwall/race"
	"pitwall/rules/ludi"
	"pitwall/rules/nascar"
	"pitwall/rules/rtd"
	"pitwall/sim"
)

// Every game offers the search bot, and bot.New makes it.
func TestEveryGameSearches(t *testing.T) {
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		if !slices.Contains(bot.Names(rs), bot.Search) {
			t.Errorf("%s offers %v; want search among them", id, bot.Names(rs))
		}
		if b, err := bot.New(rs, bot.Search, bot.Options{Playouts: 4}); err != nil || b == nil {
			t.Errorf("%s: bot.New search: %v", id, err)
		}
	}
}

// eachTurn plays a demo race of rs by the heuristic bot for up to turns
// turns (sim.Play), calling f at each prompt.
func eachTurn(t *testing.T, rs race.Ruleset, seed uint64, turns int, f func(s race.State, seat int)) {
	t.Helper()
	g := rs.Game()
	heur, err := bot.New(rs, bot.Heuristic, bot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	watched := func(s race.State, seat int, inWindow bool, rng *rand.Rand) string {
		f(s, seat)
		return heur(s, seat, inWindow, rng)
	}
	bots := make([]race.BotFunc, len(g.Demo.Entrants)*max(1, g.Racers.Max))
	for i := range bots {
		bots[i] = watched
	}
	su := sim.Setup{Config: race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps}, Entrants: g.Demo.Entrants, Seed: dice.SeedFromInt(seed)}
	if _, err := sim.Play(rs, su, bots, rand.New(rand.NewPCG(seed, 3)), turns); err != nil {
		t.Fatal(err)
	}
}

// Every candidate a game gives the search bot is an order it accepts, none
// repeats, and the heuristic bot's own order (from the same rng) is among
// them, at the prompts of bot races; in ludi, in the bonus window too.
func TestCandidatesAreAccepted(t *testing.T) {
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		sr, ok := rs.(race.Searcher)
		if !ok {
			t.Errorf("%s is no race.Searcher", id)
			continue
		}
		t.Run(id, func(t *testing.T) {
			turns, tried := 60, 0
			if testing.Short() {
				turns = 15
			}
			for seed := uint64(1); seed <= 2; seed++ {
				eachTurn(t, rs, seed, turns, func(s race.State, seat int) {
					for _, in := range []bool{false, id == "ludi"} {
						cands := sr.Candidates(s, seat, in, rand.New(rand.NewPCG(seed, uint64(seat))))
						heur := sr.BotOrder(s, seat, in, rand.New(rand.NewPCG(seed, uint64(seat))))
						if heur != "" && !slices.Contains(cands, heur) {
							t.Errorf("turn %d seat %d: candidates %q lack the heuristic's %q", s.Turn(), seat, cands, heur)
						}
						seen := map[string]bool{}
						for _, c := range cands {
							if seen[c] {
								t.Errorf("turn %d seat %d: candidate %q twice", s.Turn(), seat, c)
							}
							seen[c] = true
							tried++
							if _, err := rs.ParseOrder(s, race.Submission{Seat: seat, Text: c, InWindow: in}); err != nil {
								t.Errorf("turn %d seat %d: candidate %q refused: %v", s.Turn(), seat, c, err)
							}
						}
					}
				})
			}
			if tried < 20 {
				t.Errorf("only %d candidates tried; want a race's worth", tried)
			}
		})
	}
}

// Every bot decides from its seat's view alone: nascar's hidden sandbags,
// moved anywhere near the cars, change nothing the heuristic or the search
// bot orders, where they would change the race (a car that drives onto one
// loses speed).
func TestBotsSeeNoSecrets(t *testing.T) {
	rs, _ := race.Lookup("nascar")
	heuristic, _ := bot.New(rs, bot.Heuristic, bot.Options{})
	search, _ := bot.New(rs, bot.Search, bot.Options{Playouts: 8, Depth: 2})
	checked, differ := 0, 0
	eachTurn(t, rs, 5, 8, func(s race.State, seat int) {
		b, _ := json.Marshal(s)
		other, err := rs.DecodeState(b)
		if err != nil {
			t.Fatal(err)
		}
		o := other.(*nascar.State)
		o.Sandbags = append([]nascar.Point(nil), o.Found...)
		for _, c := range o.Cars {
			for dx := -3; dx <= 3; dx++ {
				for dy := -3; dy <= 3; dy++ {
					p := nascar.Point{X: c.Pos.X + dx, Y: c.Pos.Y + dy}
					if o.Track().At(p).OnTrack() && !slices.Contains(o.Sandbags, p) {
						o.Sandbags = append(o.Sandbags, p)
					}
				}
			}
		}
		for name, play := range map[string]race.BotFunc{bot.Heuristic: heuristic, bot.Search: search} {
			a := play(s, seat, false, rand.New(rand.NewPCG(9, 9)))
			x := play(o, seat, false, rand.New(rand.NewPCG(9, 9)))
			if a != x {
				t.Errorf("%s, turn %d seat %d: %q with the race's sandbags, %q with others hidden; want the same", name, s.Turn(), seat, a, x)
			}
		}
		checked++
		// The sandbags matter to the race: resolving the same orders
		// over the same dice differs.
		orders := map[int]race.Order{}
		for _, pr := range rs.Prompts(s) {
			orders[pr.Seat] = rs.DefaultOrder(s, pr.Seat)
		}
		at := race.BotTime(0)
		s1, _, err1 := rs.Resolve(s, orders, dice.New(dice.SeedFromInt(1)), at)
		s2, _, err2 := rs.Resolve(o, orders, dice.New(dice.SeedFromInt(1)), at)
		if err1 == nil && err2 == nil {
			h1, _ := json.Marshal(s1.(*nascar.State).Cars)
			h2, _ := json.Marshal(s2.(*nascar.State).Cars)
			if string(h1) != string(h2) {
				differ++
			}
		}
	})
	if checked == 0 || differ == 0 {
		t.Errorf("%d decisions checked, %d where the hidden sandbags changed the race; want some of each", checked, differ)
	}
}

// The same rng gives the same decision.
func TestSearchIsDeterministic(t *testing.T) {
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		search, _ := bot.New(rs, bot.Search, bot.Options{Playouts: 8, Depth: 2})
		eachTurn(t, rs, 2, 4, func(s race.State, seat int) {
			a := search(s, seat, false, rand.New(rand.NewPCG(4, 4)))
			b := search(s, seat, false, rand.New(rand.NewPCG(4, 4)))
			if a != b {
				t.Errorf("%s turn %d seat %d: %q, then %q from the same rng", id, s.Turn(), seat, a, b)
			}
		})
	}
}

// brokenSearch is ludi with a search bot's side that fails every way it
// can: candidates the game refuses, and a Score that panics, with orders
// the game accepts among the candidates so that playouts are played and
// scored.
type brokenSearch struct {
	ludi.Ruleset
	scored *atomic.Int64
}

func (brokenSearch) Candidates(race.State, int, bool, *rand.Rand) []string {
	return []string{"", "Fly", "Control, Control, Control, Control", "Control", "Brake", "Watch"}
}

func (b brokenSearch) Score(race.State, int) float64 {
	b.scored.Add(1)
	panic("a broken Score")
}

// A search whose candidates are refused and whose scoring panics orders as
// the heuristic bot does, and never panics itself.
func TestSearchFallsBackToTheHeuristic(t *testing.T) {
	rs := brokenSearch{scored: new(atomic.Int64)}
	search, err := bot.New(rs, bot.Search, bot.Options{Playouts: 4})
	if err != nil {
		t.Fatal(err)
	}
	eachTurn(t, ludi.Ruleset{}, 3, 5, func(s race.State, seat int) {
		got := search(s, seat, false, rand.New(rand.NewPCG(1, 2)))
		want := rs.BotOrder(s, seat, false, rand.New(rand.NewPCG(1, 2)))
		if got != want {
			t.Errorf("turn %d seat %d: %q; want the heuristic's %q", s.Turn(), seat, got, want)
		}
	})
	if rs.scored.Load() == 0 {
		t.Error("no playout was scored: the test tried nothing")
	}
}

// peeking is nascar with a heuristic bot that peeks: it orders by how
// many sandbags its state holds, found or not.
type peeking struct{ nascar.Ruleset }

func (peeking) BotOrder(s race.State, _ int, _ bool, _ *rand.Rand) string {
	return fmt.Sprint(len(s.(*nascar.State).Sandbags))
}

// The heuristic bot bot.New makes is handed its seat's view, not the
// race's: a bot that peeks sees only the sandbags found.
func TestHeuristicGetsTheSeatsView(t *testing.T) {
	rs, _ := race.Lookup("nascar")
	play, err := bot.New(peeking{}, bot.Heuristic, bot.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	eachTurn(t, rs, 3, 3, func(s race.State, seat int) {
		st := s.(*nascar.State)
		if len(st.Sandbags) == len(st.Found) {
			return
		}
		checked++
		if got, want := play(s, seat, false, nil), fmt.Sprint(len(st.Found)); got != want {
			t.Errorf("turn %d seat %d: the bot saw %s sandbags; want the %s found", s.Turn(), seat, got, want)
		}
	})
	if checked == 0 {
		t.Error("no state with a hidden sandbag")
	}
}

// The search plays its playouts on copies: the state it is asked about is
// as it was, in every game.
func TestSearchLeavesTheStateAlone(t *testing.T) {
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		search, _ := bot.New(rs, bot.Search, bot.Options{Playouts: 16, Depth: 3})
		eachTurn(t, rs, 7, 6, func(s race.State, seat int) {
			a, _ := json.Marshal(s)
			search(s, seat, false, rand.New(rand.NewPCG(1, 2)))
			b, _ := json.Marshal(s)
			if string(a) != string(b) {
				t.Errorf("%s turn %d seat %d: the search changed the state", id, s.Turn(), seat)
			}
		})
	}
}

// counted is rtd with its resolves, Values and Scores counted.
type counted struct {
	rtd.Ruleset
	resolves, values, scores *atomic.Int64
}

func (c counted) Resolve(s race.State, orders map[int]race.Order, d *dice.Roller, at time.Time) (race.State, []race.Event, error) {
	c.resolves.Add(1)
	return c.Ruleset.Resolve(s, orders, d, at)
}

func (c counted) Value(s race.State, seat int) float64 {
	c.values.Add(1)
	return c.Ruleset.Value(s, seat)
}

func (c counted) Score(s race.State, seat int) float64 {
	c.scores.Add(1)
	return c.Ruleset.Score(s, seat)
}

// A game's Value (race.Valuer) values every playout, in place of Score;
// with race.NoLookahead a playout is the candidate's turn alone, one
// resolve, and with a depth of 2, three.
func TestSearchByValueAndDepth(t *testing.T) {
	for _, depth := range []int{race.NoLookahead, 2} {
		rs := counted{resolves: new(atomic.Int64), values: new(atomic.Int64), scores: new(atomic.Int64)}
		search, err := bot.New(rs, bot.Search, bot.Options{Playouts: 64, Depth: depth})
		if err != nil {
			t.Fatal(err)
		}
		decided := 0
		eachTurn(t, rtd.Ruleset{}, 4, 6, func(s race.State, seat int) {
			search(s, seat, false, rand.New(rand.NewPCG(5, 6)))
			decided++
		})
		r, v := rs.resolves.Load(), rs.values.Load()
		if rs.scores.Load() != 0 || v == 0 {
			t.Errorf("depth %d: %d Values and %d Scores over %d decisions; want Values alone", depth, v, rs.scores.Load(), decided)
		}
		// A playout of the race's last turns may end early: at most.
		if want := v * int64(max(depth, 0)+1); r > want || r < want*9/10 {
			t.Errorf("depth %d: %d resolves for %d playouts; want about %d", depth, r, v, want)
		}
	}
}
