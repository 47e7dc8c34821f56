package bot_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"testing"

	"pitwall/bot"
	"pitwall/dice"
	"pitwall/race"
	"pitwall/sim"
)

// headToHead is what the races of one game between the search bot and the
// heuristic one came to.
type headToHead struct {
	races, wins, losses int // wins and losses of the search bot; the rest are ties
}

// twoSeats are the first two of the game's demo entrants that field one
// racer each: a two-seat race.
func twoSeats(g *race.Game) []race.Entrant {
	var out []race.Entrant
	for _, e := range g.Demo.Entrants {
		if len(e.Racers) == 1 && len(out) < 2 {
			out = append(out, e)
		}
	}
	return out
}

// playHeadToHead plays n two-seat races of rs, the search bot in seat 0 in
// the even ones and in seat 1 in the odd ones, the heuristic bot in the
// other, each race on its own seed (from first), on two goroutines.
func playHeadToHead(t *testing.T, rs race.Ruleset, n int, first uint64, opt bot.Options) headToHead {
	t.Helper()
	g := rs.Game()
	search, err := bot.New(rs, bot.Search, opt)
	if err != nil {
		t.Fatal(err)
	}
	heur, _ := bot.New(rs, bot.Heuristic, bot.Options{})
	entrants := twoSeats(g)
	var (
		mu  sync.Mutex
		out = headToHead{races: n}
		wg  sync.WaitGroup
		ch  = make(chan int)
	)
	for range 2 {
		wg.Go(func() {
			for i := range ch {
				seed := first + uint64(i)
				me := i % 2
				bots := []race.BotFunc{heur, heur}
				bots[me] = search
				su := sim.Setup{Config: race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps}, Entrants: entrants, Seed: dice.SeedFromInt(seed)}
				o, err := sim.Play(rs, su, bots, rand.New(rand.NewPCG(seed, 0x5ea7c4)), 2000)
				if err != nil {
					t.Errorf("%s race %d: %v", g.ID, i, err)
					continue
				}
				place := map[int]int{}
				for _, st := range o.Final {
					place[st.Seat] = st.Place
				}
				mu.Lock()
				switch {
				case place[me] < place[1-me]:
					out.wins++
				case place[me] > place[1-me]:
					out.losses++
				}
				mu.Unlock()
			}
		})
	}
	for i := range n {
		ch <- i
	}
	close(ch)
	wg.Wait()
	return out
}

// shortOf are the games whose search bot does not yet beat the heuristic
// one (party), or by too little for 40 races to show (rtd: 61% of 1,000,
// and 20 of its first 40): docs/bots.md has the figures. Their races are
// played and told, not held to a win.
var shortOf = map[string]bool{"party": true, "rtd": true}

// The search bot wins more two-seat races against the heuristic bot than it
// loses, in every game but those shortOf: 40 races each on fixed seeds. The full measure,
// PITWALL_HEADTOHEAD=1000 go test ./bot -run HeadToHead -v, prints each
// game's rate of wins and its 95% Wilson interval (docs/bots.md).
func TestHeadToHead(t *testing.T) {
	n := 40
	full := false
	if v := os.Getenv("PITWALL_HEADTOHEAD"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 2 {
			t.Fatalf("PITWALL_HEADTOHEAD is a number of races, 2 or more; got %q", v)
		}
		full = true
	} else if testing.Short() {
		n = 10
	}
	// PITWALL_SEARCH_PLAYOUTS and PITWALL_SEARCH_DEPTH try another budget
	// (for tuning; the defaults are the games' own).
	var opt bot.Options
	opt.Playouts, _ = strconv.Atoi(os.Getenv("PITWALL_SEARCH_PLAYOUTS"))
	opt.Depth, _ = strconv.Atoi(os.Getenv("PITWALL_SEARCH_DEPTH"))
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		if _, ok := rs.(race.Searcher); !ok {
			t.Errorf("%s has no search bot", id)
			continue
		}
		t.Run(id, func(t *testing.T) {
			r := playHeadToHead(t, rs, n, 1, opt)
			lo, hi := sim.Wilson(r.wins, r.races, sim.Z95)
			msg := fmt.Sprintf("%s: search won %d of %d races (%.1f%%, 95%% CI %.1f%%-%.1f%%), lost %d, tied %d",
				id, r.wins, r.races, 100*float64(r.wins)/float64(r.races), 100*lo, 100*hi, r.losses, r.races-r.wins-r.losses)
			t.Log(msg)
			if full {
				fmt.Println(msg)
			}
			// Held to a win on 40 races or more: the fixed seeds make it
			// the same every run, and -short's ten tell too little.
			if r.wins <= r.losses && !shortOf[id] && n >= 40 {
				t.Errorf("%s; want more wins than losses", msg)
			}
		})
	}
}
