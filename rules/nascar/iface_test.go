package nascar

import "pitwall/host"

// The ruleset is drawn and posted by the host, with its own notes.
var (
	_ host.Presenter = Ruleset{}
)
