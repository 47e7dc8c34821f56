package bot

import "pitwall/race"

// newSearch is the search bot for rs. Until it is written, it plays as
// the heuristic bot does; no game is a Searcher yet, so none offers it.
func newSearch(rs race.Ruleset, sr race.Searcher, opt Options) race.BotFunc {
	_, _ = rs, opt
	return sr.BotOrder
}
