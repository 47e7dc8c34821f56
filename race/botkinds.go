package race

import (
	"math/rand/v2"
	"time"
)

// BotFunc writes one seat's orders for the turn s is at, as a racer would
// send them, or "" to send none, so that the game's missed-turn default
// plays (a default is not always an order a racer can write: ludi's
// cruise, nascar's 'keep on'). Its randomness is rng's alone, never the
// race's dice. Package bot makes them by name.
type BotFunc func(s State, seat int, inWindow bool, rng *rand.Rand) string

// Searcher is a game the search bot (package bot) can play. The bot sees
// only what its seat may see (the game's Redact for that seat), plays
// candidate orders forward against the heuristic bot's orders for the
// others over dice of its own, and keeps the candidate that scores best.
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

// Distinct is orders without repeats or empty ones, the first of each kept
// in its place: a Searcher's candidates, the heuristic's first.
func Distinct(orders []string) []string {
	seen := make(map[string]bool, len(orders))
	out := orders[:0:0]
	for _, o := range orders {
		if o != "" && !seen[o] {
			seen[o] = true
			out = append(out, o)
		}
	}
	return out
}

// Clocked is a game whose state knows the latest time it has seen (a game
// on a calendar, Game.Calendar: party's weeks). A race played without a
// clock (the simulator, a search bot's playouts) goes on from there a turn
// every BotTurnEvery. A zero time says the calendar has not begun.
type Clocked interface {
	Clock(s State) time.Time
}

// Budgeter is a Searcher with a search budget of its own: how many
// playouts one decision plays and how many turns each looks past the
// candidate's (0: the search bot's default; NoLookahead: none). A game
// whose heuristic bot plans at length takes fewer, so that a race stays
// quick.
type Budgeter interface {
	SearchBudget() (playouts, depth int)
}

// NoLookahead is a search depth (Budgeter, the search bot's options):
// each playout plays the candidate's turn alone and values where it
// leaves the race.
const NoLookahead = -1

// Valuer is a Searcher that can tell how well a seat is likely to finish
// from a state, from 0 (behind every other) to 1 (ahead of them all), by a
// model learnt from simulated races, say: the search values its playouts
// by it in place of Score's lead over the best other seat. Bounded, a
// playout that happens on a finish weighs no more than any other.
type Valuer interface {
	Value(s State, seat int) float64
}

// BotTurnEvery is how far apart the turns of a race played without a clock
// resolve: two days, as a race by post goes.
const BotTurnEvery = 48 * time.Hour

// BotTime is when a race played without a clock (the simulator, a search
// bot's playouts, a test's bot race on a log) resolves the turn after
// resolved turns: from a fixed Monday evening, a turn every BotTurnEvery.
// The same for every run, so such a race replays bit for bit.
func BotTime(resolved int) time.Time {
	return time.Date(2026, time.January, 5, 20, 0, 0, 0, time.UTC).Add(time.Duration(resolved) * BotTurnEvery)
}
