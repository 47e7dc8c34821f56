package bot_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"pitwall/bot"
	"pitwall/dice"
	"pitwall/race"
	_ "pitwall/rules/gaslands"
	_ "pitwall/rules/ludi"
	_ "pitwall/rules/nascar"
	_ "pitwall/rules/party"
	_ "pitwall/rules/rtd"
)

// Every game offers cruise and its heuristic bot, and refuses a bot it
// does not have by naming those it has.
func TestNames(t *testing.T) {
	for _, id := range race.IDs() {
		rs, err := race.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		// A game on a calendar tells the search its clock; no other does.
		if _, clocked := rs.(race.Clocked); clocked != rs.Game().Calendar {
			t.Errorf("%s: a race.Clocked %v, on a calendar %v", id, clocked, rs.Game().Calendar)
		}
		names := bot.Names(rs)
		if len(names) < 2 || names[0] != bot.Cruise || names[1] != bot.Heuristic {
			t.Errorf("%s offers %v; want cruise and heuristic first", id, names)
		}
		for _, name := range append(names, "") {
			if _, err := bot.New(rs, name, bot.Options{}); err != nil {
				t.Errorf("%s: bot %q: %v", id, name, err)
			}
		}
		_, err = bot.New(rs, "clever", bot.Options{})
		if err == nil || !strings.Contains(err.Error(), id+` has no bot "clever"; its bots: `+strings.Join(names, ", ")) {
			t.Errorf("%s: bot clever: %v; want refused with the bots it has", id, err)
		}
		if !slices.Contains(names, bot.Search) {
			if _, err := bot.New(rs, bot.Search, bot.Options{}); err == nil {
				t.Errorf("%s: a search bot from a game that is no Searcher", id)
			}
		}
	}
}

// Cruise sends nothing; the heuristic bot and the default ("") send the
// game's own bot's orders, which the game accepts.
func TestCruiseAndHeuristic(t *testing.T) {
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		g := rs.Game()
		s, err := rs.Setup(race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps}, g.Demo.Entrants, dice.New(dice.SeedFromInt(1)))
		if err != nil {
			t.Fatal(err)
		}
		cruise, _ := bot.New(rs, bot.Cruise, bot.Options{})
		heur, _ := bot.New(rs, bot.Heuristic, bot.Options{})
		def, _ := bot.New(rs, "", bot.Options{})
		for _, pr := range rs.Prompts(s) {
			if got := cruise(s, pr.Seat, false, rand.New(rand.NewPCG(1, 1))); got != "" {
				t.Errorf("%s seat %d: cruise sends %q", id, pr.Seat, got)
			}
			h := heur(s, pr.Seat, false, rand.New(rand.NewPCG(1, 1)))
			if d := def(s, pr.Seat, false, rand.New(rand.NewPCG(1, 1))); d != h || h == "" {
				t.Errorf("%s seat %d: heuristic %q, default %q; want the same orders", id, pr.Seat, h, d)
			}
			if _, err := rs.ParseOrder(s, race.Submission{Seat: pr.Seat, Text: h}); err != nil {
				t.Errorf("%s seat %d: heuristic %q refused: %v", id, pr.Seat, h, err)
			}
		}
	}
}
