package main

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	"pitwall/host"
	"pitwall/race"
)

// botHooks are what a caller of playBots sees of a bot race as it goes.
type botHooks struct {
	// pending is called with the turn's orders in, before it is resolved.
	pending func(p *race.Played) error
	// resolved is called after each turn, and once with turn 0 before the
	// first, each turn's schedule set.
	resolved func(p *race.Played, turn int) error
}

// playBots plays race id to its end through the host, as a host's racers
// would: each turn a deadline two days on and now and then a bonus window,
// a two-order turn every fifth turn in the games that have them, the game's
// host settings, one racer in twelve missing the turn, orders sent at
// times drawn from rng on the clock *clock (which it moves on). It returns
// the race as it ends.
func playBots(ctx context.Context, h *host.Host, id string, rng *rand.Rand, clock *time.Time, hk botHooks) (*race.Played, error) {
	p, err := h.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	rs := p.Ruleset
	bot, ok := rs.(race.Botter)
	if !ok {
		return nil, fmt.Errorf("no bot for %s yet", rs.Game().ID)
	}
	// Each turn's deadline, two days on, and now and then a bonus window,
	// an hour long, ten hours into the turn; set before the post that announces it.
	schedule := func(turn int) (race.Schedule, error) {
		deadline := clock.Add(48 * time.Hour)
		sch := race.Schedule{Deadline: &deadline}
		if turn%4 == 2 {
			open, shut := clock.Add(10*time.Hour), clock.Add(11*time.Hour)
			sch.WindowOpen, sch.WindowClose = &open, &shut
		}
		_, sch, err := h.Schedule(ctx, id, sch, host.Req{Turn: turn})
		return sch, err
	}
	sch, err := schedule(p.State.Turn())
	if err != nil {
		return nil, err
	}
	if p, err = h.Load(ctx, id); err != nil {
		return nil, err
	}
	if hk.resolved != nil {
		if err := hk.resolved(p, p.Resolved()); err != nil {
			return nil, err
		}
	}
	for !p.State.Over() {
		turn := p.State.Turn()
		if turn > 500 {
			return nil, errors.New("the race did not end in 500 turns")
		}
		if turn > 1 && turn%5 == 0 {
			// A two-order turn now and then, in the games that have them.
			if _, err := rs.Set(p.State, "orders", "2"); err == nil {
				if _, err := h.Set(ctx, id, "orders", "2", host.Req{Turn: turn}); err != nil {
					return nil, err
				}
			}
		}
		if p, err = h.Load(ctx, id); err != nil {
			return nil, err
		}
		if hb, ok := rs.(race.HostBotter); ok {
			// The host's own moves, such as a week's minigame results.
			for _, kv := range hb.HostSettings(p.State, rng) {
				k, v, _ := strings.Cut(kv, "=")
				if _, err := h.Set(ctx, id, k, v, host.Req{Turn: turn}); err != nil {
					return nil, err
				}
			}
			if p, err = h.Load(ctx, id); err != nil {
				return nil, err
			}
		}
		for _, pr := range rs.Prompts(p.State) {
			if rng.IntN(12) == 0 {
				continue // this racer misses the turn
			}
			*clock = clock.Add(time.Duration(20+rng.IntN(40)) * time.Minute)
			in := sch.InWindow(*clock) || (sch.WindowOpen != nil && rng.IntN(3) == 0)
			if in {
				*clock = *sch.WindowOpen
			}
			text := bot.BotOrder(p.State, pr.Seat, sch.InWindow(*clock), rng)
			if _, err := h.Submit(ctx, id, pr.Seat, text, host.Req{Turn: turn}); err != nil {
				return nil, fmt.Errorf("turn %d, seat %d, %q: %w", turn, pr.Seat, text, err)
			}
		}
		if hk.pending != nil {
			if p, err = h.Load(ctx, id); err != nil {
				return nil, err
			}
			if err := hk.pending(p); err != nil {
				return nil, err
			}
		}
		*clock = *sch.Deadline
		res, err := h.Resolve(ctx, id, host.Req{Turn: turn})
		if err != nil {
			return nil, err
		}
		if !res.Race.State.Over() {
			if sch, err = schedule(turn + 1); err != nil {
				return nil, err
			}
		}
		if p, err = h.Load(ctx, id); err != nil {
			return nil, err
		}
		if hk.resolved != nil {
			if err := hk.resolved(p, turn); err != nil {
				return nil, err
			}
		}
	}
	return p, nil
}
