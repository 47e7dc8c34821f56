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
	return DueWithout(p, when, now, nil)
}

// DueWithout is Due for a race in which the seats of removed are not waited
// for (their racers were removed: the game's default plays them). A turn
// that prompts only such seats resolves at its deadline.
func DueWithout(p *race.Played, when string, now time.Time, removed map[int]bool) (bool, string) {
	if !p.Started || p.State.Over() {
		return false, ""
	}
	if d := p.Schedule.Deadline; d != nil && !now.Before(*d) {
		return true, "deadline"
	}
	if when != store.ResolveWhenReady && when != store.ResolveWhenAllIn {
		return false, ""
	}
	var prompts []race.Prompt
	for _, pr := range p.Prompts() {
		if !removed[pr.Seat] {
			prompts = append(prompts, pr)
		}
	}
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
