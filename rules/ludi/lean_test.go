package ludi

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/sim"
)

// An order written as its name alone is read by ParseOrder's short way as
// the words' way reads it: the same order, or the same refusal.
func TestNamedOrdersReadAsWritten(t *testing.T) {
	_, p := botRace(t, 2, 12)
	for _, n := range []int{0, 1, 5, 12} {
		s := stateAt(t, p, n)
		for k := Cruise; k <= RollAway; k++ {
			for seat := range s.Chariots {
				for _, in := range []bool{false, true} {
					sub := race.Submission{Seat: seat, Text: k.String(), InWindow: in}
					got, gerr := Ruleset{}.ParseOrder(s, sub)
					want, werr := race.ReadOrder(sub, s.orderer, ParseOrders, func(c *Chariot, o Orders) (Orders, error) {
						return o, s.legal(c, o, in)
					})
					if !reflect.DeepEqual(got, want) || (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
						t.Fatalf("turn %d seat %d %q: %v, %v; the words' way: %v, %v", s.T, seat, k, got, gerr, want, werr)
					}
				}
			}
		}
	}
}

// stateAt is p's state after turn n, as a *State.
func stateAt(t *testing.T, p *race.Played, n int) *State {
	t.Helper()
	s, err := p.StateAt(n)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}

// A prompt lists the orders allowed, and says why when they are few.
func TestPromptsListTheAllowedOrders(t *testing.T) {
	_, p := botRace(t, 1, 12)
	seen := map[string]bool{}
	for n := 0; n <= p.Resolved(); n++ {
		s := stateAt(t, p, n)
		for _, pr := range (Ruleset{}).Prompts(s) {
			allowed, why := s.allowed(s.chariot(pr.Seat))
			want := []string{}
			for _, k := range allowed {
				want = append(want, k.String())
			}
			note := ""
			if why != "now" {
				note = "orders " + why
			}
			if !slices.Equal(pr.Legal, want) || pr.Note != note {
				t.Fatalf("turn %d seat %d: legal %v, note %q; want %v, %q", s.T, pr.Seat, pr.Legal, pr.Note, want, note)
			}
			if cap(pr.Legal) != len(pr.Legal) {
				t.Fatalf("a prompt's shared list has room to append into: %d of %d", len(pr.Legal), cap(pr.Legal))
			}
			seen[why] = true
		}
	}
	if len(seen) != 3 {
		t.Errorf("the race prompted %v; want the start, racing and a flipped chariot", seen)
	}
}

// A quiet roller's turn is the logging roller's turn without its story:
// the same state, the same dice, and no events.
func TestQuietTurnIsTheSameTurn(t *testing.T) {
	// Every option set of the fingerprint's races: a rule away from its
	// default tells its own story (the slip from where the order began).
	for _, fr := range fingerprintRaces {
		t.Run(fmt.Sprintf("seed %d %v", fr.seed, fr.options), func(t *testing.T) {
			_, p := botRaceWith(t, fr.seed, 12, race.Config{Track: "circus-maximus", Options: fr.options})
			quietTurns(t, p)
		})
	}
}

// quietTurns holds every turn of p, played again on a quiet roller, to the
// same state and dice as on a telling one, and to no story.
func quietTurns(t *testing.T, p *race.Played) {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 3))
	for n := 1; n <= p.Resolved(); n++ {
		before := stateAt(t, p, n-1)
		orders := map[int]race.Order{}
		for _, pr := range (Ruleset{}).Prompts(before) {
			if rng.IntN(8) == 0 {
				continue // a missed turn: the default plays
			}
			text := Ruleset{}.BotOrder(before, pr.Seat, n%3 == 0, rng)
			o, err := Ruleset{}.ParseOrder(before, race.Submission{Seat: pr.Seat, Text: text, InWindow: n%3 == 0})
			if err != nil {
				t.Fatalf("turn %d seat %d %q: %v", n, pr.Seat, text, err)
			}
			orders[pr.Seat] = o
		}
		seed := dice.SeedFromInt(uint64(n))
		loud, quiet := dice.New(seed), dice.NewQuiet(seed)
		a, aev, err := Ruleset{}.Resolve(before, orders, loud, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		b, bev, err := Ruleset{}.Resolve(before, orders, quiet, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) || loud.Mark() != quiet.Mark() {
			t.Fatalf("turn %d: the quiet turn differs (dice %d and %d)", n, loud.Mark(), quiet.Mark())
		}
		if len(aev) == 0 || len(bev) != 0 {
			t.Fatalf("turn %d: %d events told, %d in the quiet turn", n, len(aev), len(bev))
		}
	}
}

// Races played at once on several goroutines (the simulator's workers,
// sharing the resolvers' pool and the shipped track) come out as each
// played alone. Run with -race.
func TestRacesAtOnceAreRacesAlone(t *testing.T) {
	bots := heuristicBots(t)
	play := func(seed uint64) sim.Outcome {
		o, err := sim.Play(Ruleset{}, simSetup(seed, 12, nil), bots, rand.New(rand.NewPCG(seed, 1)), 300)
		if err != nil {
			t.Error(err)
		}
		return o
	}
	const n = 8
	var alone [n]sim.Outcome
	for i := range alone {
		alone[i] = play(uint64(i))
	}
	var wg sync.WaitGroup
	var together [4][n]sim.Outcome
	for w := range together {
		wg.Go(func() {
			for i := range n {
				together[w][(i+w)%n] = play(uint64((i + w) % n))
			}
		})
	}
	wg.Wait()
	for w := range together {
		if !reflect.DeepEqual(together[w], alone) {
			t.Fatalf("worker %d's races differ from the races played alone", w)
		}
	}
}

// The resolver's record of the spaces taken finds on every space what
// State.at finds, through whole races (the fingerprint's, with every rule
// option, and the test's bot races with two-order turns) and the golden
// turn cases.
func TestSpacesTakenAreState(t *testing.T) {
	checkAt = true
	defer func() { checkAt = false }()
	bots := heuristicBots(t)
	for _, fr := range fingerprintRaces {
		if _, err := sim.Play(Ruleset{}, simSetup(fr.seed, fr.chariots, fr.options), bots, rand.New(rand.NewPCG(fr.seed, 7)), 300); err != nil {
			t.Fatal(err)
		}
	}
	for seed := uint64(1); seed <= 6; seed++ {
		botRace(t, seed, 12)
	}
	TestGoldenTurns(t)
}

// orderBySliceStable is the racing order as it was first written: sort.SliceStable over State.ahead.
func orderBySliceStable(s *State, initiative map[int]int) []*Chariot {
	var cs []*Chariot
	for i := range s.Chariots {
		if s.Chariots[i].Active() {
			cs = append(cs, &s.Chariots[i])
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if s.ahead(a, b) {
			return true
		}
		if s.ahead(b, a) {
			return false
		}
		qa, qb := a.Team.Quality+initiative[a.Seat], b.Team.Quality+initiative[b.Seat]
		if qa != qb {
			return qa > qb
		}
		if a.Pos.Lane != b.Pos.Lane {
			return a.Pos.Lane < b.Pos.Lane
		}
		return a.Seat < b.Seat
	})
	return cs
}

// The racing order is the one sort.SliceStable gave, for fields of every
// size (more than 20 too, where the sort merges), crowded onto few spaces
// so that ties of every kind come up, with and without bonus initiative.
func TestOrderIsTheStableSortsOrder(t *testing.T) {
	tr, err := LoadTrack(defaultTrack)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(4, 4))
	for round := range 2000 {
		n := 2 + rng.IntN(40)
		s := &State{TrackID: tr.ID, T: 5, Laps: 3, Orders: 1, track: tr}
		initiative := map[int]int{}
		bonus := make([]int, n)
		for i := range n {
			lane := 1 + rng.IntN(tr.Lanes)
			seg := rng.IntN(min(3, len(tr.Segments)))
			c := Chariot{Seat: i, Name: fmt.Sprint("C", i), Lap: rng.IntN(2), Team: Team{Quality: rng.IntN(3)},
				Pos: Pos{Lane: lane, Seg: seg, Cell: rng.IntN(tr.Spaces(seg, lane))}}
			if rng.IntN(8) == 0 {
				c.Out = []string{Finished, RolledAway}[rng.IntN(2)]
			}
			if rng.IntN(4) == 0 {
				initiative[i], bonus[i] = 1, 1
			}
			s.Chariots = append(s.Chariots, c)
		}
		got, want := s.order(bonus), orderBySliceStable(s, initiative)
		if !slices.Equal(got, want) {
			t.Fatalf("round %d, %d chariots: order %v; sort.SliceStable's %v", round, n, got, want)
		}
	}
}
