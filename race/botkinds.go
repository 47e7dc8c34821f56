package race

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The bots a game offers, weakest first. Every game has cruise; heuristic
// is the game's Botter; search needs the game to be a Searcher too.
const (
	BotCruise    = "cruise"    // sends nothing: the game's missed-turn default plays
	BotHeuristic = "heuristic" // the game's own sensible racer (Botter)
	BotSearch    = "search"    // searches over the dice from its seat's view (Searcher)
)

// BotFunc writes one seat's orders for the turn s is at, as a racer would
// send them, or "" to send none, so that the game's missed-turn default
// plays (a default is not always an order a racer can write: ludi's
// cruise, nascar's 'keep on'). Its randomness is rng's alone, never the
// race's dice.
type BotFunc func(s State, seat int, inWindow bool, rng *rand.Rand) string

// Searcher is a game the search bot can play. The bot sees only what its
// seat may see (the game's Redact for that seat), plays candidate orders
// forward against the heuristic bot's orders for the others over dice of
// its own, and keeps the candidate that scores best.
type Searcher interface {
	Botter
	// Candidates are the orders worth trying for seat now, each one the
	// game accepts, without repeats; the heuristic bot's own choice is
	// among them. rng may break ties or sample a large set.
	Candidates(s State, seat int, inWindow bool, rng *rand.Rand) []string
	// Score says how well seat stands in s, higher better, on a scale that
	// compares seats of one race (progress toward the finish, less what
	// damage costs): the search ranks seats by it when a playout stops
	// before the race is over.
	Score(s State, seat int) float64
}

// BotOptions tune a bot; the zero value is each bot's default.
type BotOptions struct {
	// Playouts is the search bot's budget: how many turns it may resolve
	// in its head for one decision (0: its default).
	Playouts int
}

// Bots are the names of the bots rs offers, weakest first.
func Bots(rs Ruleset) []string {
	names := []string{BotCruise}
	if _, ok := rs.(Botter); ok {
		names = append(names, BotHeuristic)
	}
	if _, ok := rs.(Searcher); ok {
		names = append(names, BotSearch)
	}
	return names
}

// NewBot is rs's bot named name ("" is the heuristic one, or cruise when
// the game has none).
func NewBot(rs Ruleset, name string, opt BotOptions) (BotFunc, error) {
	if name == "" {
		name = BotHeuristic
		if _, ok := rs.(Botter); !ok {
			name = BotCruise
		}
	}
	switch name {
	case BotCruise:
		return func(State, int, bool, *rand.Rand) string { return "" }, nil
	case BotHeuristic:
		if b, ok := rs.(Botter); ok {
			return b.BotOrder, nil
		}
	case BotSearch:
		if sr, ok := rs.(Searcher); ok {
			return newSearchBot(rs, sr, opt), nil
		}
	}
	return nil, fmt.Errorf("%s has no bot %q; its bots: %s", rs.Game().ID, name, strings.Join(Bots(rs), ", "))
}
