package main

import (
	"context"
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
	// first, once the next turn's schedule and host's settings are set: when
	// a host would post it.
	resolved func(p *race.Played, turn int) error
}

// playBots plays race id to its end through the host, as a host's racers
// would (race.BotRace, the one bot loop): each turn a deadline two days on
// and now and then a bonus window, a two-order turn every fifth turn in the
// games that have them, the game's host settings, one racer in twelve
// missing the turn, orders sent at times drawn from rng on the clock *clock
// (which it moves on). It returns the race as it ends.
func playBots(ctx context.Context, h *host.Host, id string, rng *rand.Rand, clock *time.Time, hk botHooks) (*race.Played, error) {
	t := &hostTable{ctx: ctx, h: h, id: id, clock: clock, hk: hk}
	var err error
	if t.p, err = h.Load(ctx, id); err != nil {
		return nil, err
	}
	rs := t.p.Ruleset
	if err := t.schedule(t.p.State.Turn()); err != nil {
		return nil, err
	}
	if err := t.reload(); err != nil {
		return nil, err
	}
	t.unposted = t.p.Resolved() // posted once turn 1 is announced
	hb, _ := rs.(race.HostBotter)
	b := race.BotRace{Miss: 12, MaxTurns: 500,
		Before: func(s race.State, rng *rand.Rand) []string {
			var kv []string
			if turn := s.Turn(); turn > 1 && turn%5 == 0 {
				// A two-order turn now and then, in the games that have them.
				if _, err := rs.Set(s, "orders", "2"); err == nil {
					kv = append(kv, "orders=2")
				}
			}
			if hb != nil {
				kv = append(kv, hb.HostSettings(s, rng)...) // the host's own moves, such as a week's minigame results
			}
			return kv
		},
		InWindow: func(_ race.State, _ int, rng *rand.Rand) bool {
			*clock = clock.Add(time.Duration(20+rng.IntN(40)) * time.Minute)
			if t.sch.InWindow(*clock) || (t.sch.WindowOpen != nil && rng.IntN(3) == 0) {
				*clock = *t.sch.WindowOpen
			}
			return t.sch.InWindow(*clock)
		}}
	if err := b.Play(rs, t, rng); err != nil {
		return nil, err
	}
	// A race that was over before it began here announces nothing; its last
	// post is still owed.
	if err := t.Announce(0); err != nil {
		return nil, err
	}
	return t.p, nil
}

// hostTable plays a bot race through the host, as its racers would.
type hostTable struct {
	ctx   context.Context
	h     *host.Host
	id    string
	clock *time.Time
	sch   race.Schedule // the turn's
	p     *race.Played
	hk    botHooks
	// unposted is the resolved turn whose post waits for the next turn's
	// settings (-1: none).
	unposted int
}

// Announce implements race.Announcer: the turn's settings are in, so the
// last turn's post, which announces this one, can be written.
func (t *hostTable) Announce(int) error {
	if t.unposted < 0 || t.hk.resolved == nil {
		return nil
	}
	if err := t.reload(); err != nil {
		return err
	}
	turn := t.unposted
	t.unposted = -1
	return t.hk.resolved(t.p, turn)
}

func (t *hostTable) reload() (err error) {
	t.p, err = t.h.Load(t.ctx, t.id)
	return err
}

// schedule sets turn's deadline, two days on, and now and then a bonus
// window, an hour long, ten hours into the turn; set before the post that
// announces it.
func (t *hostTable) schedule(turn int) error {
	deadline := t.clock.Add(48 * time.Hour)
	sch := race.Schedule{Deadline: &deadline}
	if turn%4 == 2 {
		open, shut := t.clock.Add(10*time.Hour), t.clock.Add(11*time.Hour)
		sch.WindowOpen, sch.WindowClose = &open, &shut
	}
	_, sch, err := t.h.Schedule(t.ctx, t.id, sch, host.Req{Turn: turn})
	t.sch = sch
	return err
}

func (t *hostTable) State() race.State { return t.p.State }

func (t *hostTable) Set(turn int, kv string) error {
	k, v, _ := strings.Cut(kv, "=")
	if _, err := t.h.Set(t.ctx, t.id, k, v, host.Req{Turn: turn}); err != nil {
		return err
	}
	return t.reload()
}

// Submit sends the orders at the clock's time; the host judges the window by it.
func (t *hostTable) Submit(turn, seat int, text string, _ bool) error {
	_, err := t.h.Submit(t.ctx, t.id, seat, text, host.Req{Turn: turn})
	return err
}

// Resolve resolves the turn at its deadline and schedules the next.
func (t *hostTable) Resolve(turn int) error {
	if t.hk.pending != nil {
		if err := t.reload(); err != nil {
			return err
		}
		if err := t.hk.pending(t.p); err != nil {
			return err
		}
	}
	*t.clock = *t.sch.Deadline
	res, err := t.h.Resolve(t.ctx, t.id, host.Req{Turn: turn})
	if err != nil {
		return err
	}
	if !res.Race.State.Over() {
		if err := t.schedule(turn + 1); err != nil {
			return err
		}
	}
	if err := t.reload(); err != nil {
		return err
	}
	t.unposted = turn
	if res.Race.State.Over() { // no turn to announce: the last post now
		return t.Announce(turn + 1)
	}
	return nil
}
