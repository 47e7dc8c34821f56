// Package bot makes the bots that play a seat of any game, by name: cruise
// (the missed-turn default), heuristic (the game's own racer) and search
// (a search over the dice from the seat's own view). The demo, the
// service's bot seats and the simulator all take them from here.
package bot

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"pitwall/race"
)

// The bots a game offers, weakest first. Every game has cruise; heuristic
// is the game's race.Botter; search needs the game to be a race.Searcher.
const (
	Cruise    = "cruise"    // sends nothing: the game's missed-turn default plays
	Heuristic = "heuristic" // the game's own sensible racer
	Search    = "search"    // searches over the dice from its seat's view
)

// Options tune a bot; the zero value is each bot's default.
type Options struct {
	// Playouts is the search bot's budget: how many playouts it may play
	// in its head for one decision, each of Depth+1 turns (0: the game's
	// SearchBudget, or DefaultPlayouts).
	Playouts int
	// Depth is how many turns a playout plays after the candidate's own
	// (0: the game's SearchBudget, or DefaultDepth; race.NoLookahead, or
	// any number below 0: none).
	Depth int
}

// Names are the names of the bots rs offers, weakest first.
func Names(rs race.Ruleset) []string {
	names := []string{Cruise}
	if _, ok := rs.(race.Botter); ok {
		names = append(names, Heuristic)
	}
	if _, ok := rs.(race.Searcher); ok {
		names = append(names, Search)
	}
	return names
}

// Default is the bot "" stands for in rs: the heuristic one, or cruise
// when the game has none.
func Default(rs race.Ruleset) string {
	if _, ok := rs.(race.Botter); ok {
		return Heuristic
	}
	return Cruise
}

// New is rs's bot named name ("": Default).
func New(rs race.Ruleset, name string, opt Options) (race.BotFunc, error) {
	if name == "" {
		name = Default(rs)
	}
	switch name {
	case Cruise:
		return func(race.State, int, bool, *rand.Rand) string { return "" }, nil
	case Heuristic:
		if b, ok := rs.(race.Botter); ok {
			return seeing(rs, b.BotOrder), nil
		}
	case Search:
		if sr, ok := rs.(race.Searcher); ok {
			return newSearch(rs, sr, opt), nil
		}
	}
	return nil, fmt.Errorf("%s has no bot %q; its bots: %s", rs.Game().ID, name, strings.Join(Names(rs), ", "))
}

// seeing is play given only what its seat may see: the game's Redact for
// that seat, when the game has secrets (nascar's hidden sandbags). A bot
// the service or the simulator runs is a racer, and sees as one.
func seeing(rs race.Ruleset, play race.BotFunc) race.BotFunc {
	red, ok := rs.(race.Redactor)
	if !ok {
		return play
	}
	return func(s race.State, seat int, inWindow bool, rng *rand.Rand) string {
		return play(red.Redact(s, race.SeatViewer(seat)), seat, inWindow, rng)
	}
}
