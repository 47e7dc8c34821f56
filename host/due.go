package host

import (
	"time"

	"pitwall/race"
	"pitwall/store"
)

// Due says whether the open turn of p is to be resolved now, at time now,
// by a service that resolves its turns when when says (store.ResolveAtDeadline,
// ResolveWhenReady or ResolveWhenAllIn), and why: "deadline" once the
// turn's deadline has come; before it "all_ready" when every seat the turn
// prompts has marked itself ready, or "all_in" when every such seat's orders
// are in, where the race resolves so. A race not started, or over, is never due.
func Due(p *race.Played, when string, now time.Time) (bool, string) {
	if !p.Started || p.State.Over() {
		return false, ""
	}
	if d := p.Schedule.Deadline; d != nil && !now.Before(*d) {
		return true, "deadline"
	}
	if when != store.ResolveWhenReady && when != store.ResolveWhenAllIn {
		return false, ""
	}
	prompts := p.Prompts()
	if len(prompts) == 0 {
		return false, ""
	}
	for _, pr := range prompts {
		_, in := p.Pending[pr.Seat]
		if when == store.ResolveWhenReady && !p.Ready[pr.Seat] || when == store.ResolveWhenAllIn && !in {
			return false, ""
		}
	}
	if when == store.ResolveWhenReady {
		return true, "all_ready"
	}
	return true, "all_in"
}
