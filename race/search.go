package race

import "math/rand/v2"

// newSearchBot is the search bot for rs. Until it is written, it plays as
// the heuristic bot does; no game is a Searcher yet, so none offers it.
func newSearchBot(rs Ruleset, sr Searcher, opt BotOptions) BotFunc {
	_, _, _ = rs, opt, rand.IntN
	return sr.BotOrder
}
