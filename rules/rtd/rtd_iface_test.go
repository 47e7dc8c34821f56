package rtd

import (
	"pitwall/host"
	"pitwall/race"
)

// The ruleset is everything the host asks of a game.
var (
	_ race.Ruleset   = Ruleset{}
	_ race.Oddser    = Ruleset{}
	_ race.Botter    = Ruleset{}
	_ race.Chooser   = Ruleset{}
	_ host.Presenter = Ruleset{}
)
