package web

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // a schedule's time zone, on a machine without a zone database

	"pitwall/bot"
	"pitwall/host"
	"pitwall/race"
	"pitwall/store"
)

// Tending a race. Besides taking racers' writes, the service plays what the
// host has handed to it (store.Control): the game's bot in a seat, the
// host's settings, a repeating schedule; and it keeps a pause. Whatever it
// writes is a keyed write named for its turn, so two instances tending one
// race, or one tending it twice, store it once: a bot's orders are drawn
// from a generator seeded by the race's secret seed, the turn and the seat,
// so every instance draws the same orders.

// standing is what a race's controls add up to: the last of each kind stands.
type standing struct {
	bots    map[int]string // seats a bot plays, by the bot's name (package bot)
	removed map[int]bool   // seats whose racer was removed: no one plays them, the game's default does
	hostBot bool           // the bot makes the host's settings
	repeat  *repeat        // the repeating schedule; nil: none
	paused  *store.Control // the pause in force; nil: running
}

// unwaited are the seats a turn does not wait for: a removed racer's, and
// those the cruise bot plays (it sends nothing: the game's default plays).
func (st standing) unwaited() map[int]bool {
	out := maps.Clone(st.removed)
	for seat, name := range st.bots {
		if name == bot.Cruise {
			out[seat] = true
		}
	}
	return out
}

func fold(cs []store.Control) (standing, error) {
	st := standing{bots: map[int]string{}, removed: map[int]bool{}}
	for _, c := range cs {
		switch c.Kind {
		case store.ControlSeat:
			st.bots[c.Seat], _ = store.BotOf(c.Value)
			st.removed[c.Seat] = c.Value == store.ControlRemoved
		case store.ControlHost:
			st.hostBot = c.Value == store.ControlBot
		case store.ControlSchedule:
			st.repeat = nil
			if c.Value != "" {
				rp, err := parseRepeat(c.Value)
				if err != nil {
					return st, fmt.Errorf("control %d: %w", c.Seq, err)
				}
				st.repeat = &rp
			}
		case store.ControlClock:
			switch {
			case c.Value == store.ControlPaused && st.paused == nil:
				st.paused = &c
			case c.Value == store.ControlRunning:
				st.paused = nil
			}
		}
	}
	return st, nil
}

// repeat is a repeating schedule: each new turn's deadline is Every after
// the turn opens or, with At, at that time of day in Zone, Every (whole
// days) after the day the turn opened.
type repeat struct {
	Every string `json:"every"`
	At    string `json:"at,omitempty"`   // HH:MM
	Zone  string `json:"zone,omitempty"` // an IANA zone such as Europe/Berlin; UTC when empty

	every    time.Duration
	hour     int
	minute   int
	location *time.Location
}

// The shortest and longest repeat: the shortest is a demo's pace (a race
// by post wants days).
const (
	MinEvery = 10 * time.Second
	MaxEvery = 90 * 24 * time.Hour
)

// parseRepeat reads a repeating schedule as the API and the store hold it.
func parseRepeat(text string) (repeat, error) {
	var rp repeat
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rp); err != nil {
		return rp, &apiError{Msg: "a repeating schedule is {\"every\": \"48h\", \"at\": \"20:00\", \"zone\": \"Europe/Berlin\"}: " + err.Error(), Field: "repeat", Code: "bad_input"}
	}
	return rp, rp.check()
}

func (rp *repeat) check() error {
	bad := func(field, format string, args ...any) error {
		return &apiError{Msg: fmt.Sprintf(format, args...), Field: "repeat." + field, Code: "bad_input"}
	}
	d, err := time.ParseDuration(rp.Every)
	if err != nil || d < MinEvery || d > MaxEvery {
		return bad("every", "every is a length of time from %s to 90 days (2160h), such as 48h; not %q", MinEvery, rp.Every)
	}
	rp.every = d
	rp.location = time.UTC
	if rp.Zone != "" {
		if rp.location, err = time.LoadLocation(rp.Zone); err != nil || rp.Zone == "Local" {
			return bad("zone", "zone is a time zone such as Europe/Berlin or America/New_York; not %q", rp.Zone)
		}
	}
	if rp.At == "" {
		if rp.Zone != "" {
			return bad("zone", "a zone goes with at, the time of day the deadline falls at")
		}
		return nil
	}
	t, err := time.Parse("15:04", rp.At)
	if err != nil {
		return bad("at", "at is a time of day, HH:MM such as 20:00; not %q", rp.At)
	}
	if d%(24*time.Hour) != 0 {
		return bad("every", "with at, every is a whole number of days (24h, 48h ...); not %s", rp.Every)
	}
	rp.hour, rp.minute = t.Hour(), t.Minute()
	return nil
}

// next is the deadline of a turn that opened at from.
func (rp repeat) next(from time.Time) time.Time {
	if rp.At == "" {
		return from.Add(rp.every).UTC().Truncate(time.Second)
	}
	l := from.In(rp.location)
	days := int(rp.every / (24 * time.Hour))
	return time.Date(l.Year(), l.Month(), l.Day()+days, rp.hour, rp.minute, 0, 0, rp.location).UTC()
}

func (rp repeat) String() string {
	b, _ := json.Marshal(rp) // three strings always encode
	return string(b)
}

// settle looks after race id after a write or at a deadline: it plays what
// the host handed to the service, and resolves the open turn if it is due
// (its deadline has come, or, as the race resolves, every seat is ready or
// has orders in) and the race is not paused. It says whether it resolved a
// turn. The write that called it has been stored and is answered whatever
// happens here; a failure is logged, and the race is looked at again at
// the next pass.
func (s *Server) settle(ctx context.Context, id string) bool {
	fail := func(what string, err error) bool {
		if !errors.Is(err, host.ErrForming) && ctx.Err() == nil {
			s.log.Error(what, "race", id, "err", err)
		}
		return false
	}
	// A race by invite waits for its host's start: nothing is due before.
	a, begun, err := s.accessOf(ctx, id)
	if err != nil {
		return fail("settling a turn", err)
	}
	if !begun {
		return false
	}
	cs, err := s.access.Controls(ctx, id)
	if err != nil {
		return fail("reading the race's controls", err)
	}
	st, err := fold(cs)
	if err != nil {
		return fail("reading the race's controls", err)
	}
	p, err := s.host.Load(ctx, id)
	if err != nil {
		return fail("settling a turn", err)
	}
	if p.Started && p.State.Over() {
		s.deadlines.set(id, nil)
		s.finished.Store(id, true) // a rescan need not read it again
		return false
	}
	if p, err = s.tend(ctx, p, a, st); err != nil {
		return fail("playing the service's part", err)
	}
	if st.paused != nil {
		s.deadlines.set(id, nil)
		return false
	}
	s.deadlines.note(p)
	due, why := host.DueWithout(p, a.ResolveWhen, s.host.Now(), st.unwaited())
	if !due {
		return false
	}
	res, err := s.host.Resolve(ctx, id, host.Req{Turn: p.Turn()})
	if err != nil {
		return fail(fmt.Sprintf("resolving turn %d (%s)", p.Turn(), why), err)
	}
	if res.Resolved {
		s.log.Info("turn resolved", "race", id, "turn", res.Turn, "why", why)
		s.events.wake(id, true)
	}
	if res.Race == nil {
		return res.Resolved
	}
	p = res.Race
	if p, err = s.tend(ctx, p, a, st); err != nil {
		fail("playing the service's part", err)
	} else if again, _ := host.DueWithout(p, a.ResolveWhen, s.host.Now(), st.unwaited()); again {
		// Bots alone can make a turn due at once; the deadline loop takes
		// it, so that one request never plays a whole race.
		now := s.host.Now()
		s.deadlines.set(id, &now)
		return res.Resolved
	}
	s.deadlines.note(p)
	return res.Resolved
}

// tend writes the service's part of p's open turn, each write once: the
// deadline a repeating schedule gives it (not while the race is paused),
// the host's settings when the bot makes them, and the bots' orders
// (and ready marks, where the race resolves when every seat is ready). It
// returns the race as it stands after.
func (s *Server) tend(ctx context.Context, p *race.Played, a store.Access, st standing) (*race.Played, error) {
	if !p.Started || p.State.Over() {
		return p, nil
	}
	id, turn, wrote := p.Race.ID, p.Turn(), false
	reload := func() error {
		var err error
		if wrote {
			p, err = s.host.Load(ctx, id)
			wrote = false
		}
		return err
	}
	key := func(what string, n int) string { return fmt.Sprintf("%s%s-t%d-%d", serviceKeys, what, turn, n) }
	if st.paused == nil && st.repeat != nil && p.Schedule.Deadline == nil {
		dl := st.repeat.next(s.host.Now())
		if _, _, err := s.host.Schedule(ctx, id, race.Schedule{Deadline: &dl}, host.Req{Turn: turn, Key: key("deadline", 0)}); err != nil {
			return p, err
		}
		wrote = true
	}
	if err := reload(); err != nil {
		return p, err
	}
	if hb, ok := p.Ruleset.(race.HostBotter); ok && st.hostBot {
		for i, kv := range hb.HostSettings(p.State, s.botRand(p, -1)) {
			k, v, _ := strings.Cut(kv, "=")
			if _, err := s.host.Set(ctx, id, k, v, host.Req{Turn: turn, Key: key("host", i)}); err != nil {
				return p, fmt.Errorf("the host's setting %s: %w", kv, err)
			}
			wrote = true
		}
		if err := reload(); err != nil {
			return p, err
		}
	}
	inWindow := p.Schedule.InWindow(s.host.Now())
	for _, pr := range p.Prompts() {
		name := st.bots[pr.Seat]
		if name == "" {
			continue
		}
		play, err := bot.New(p.Ruleset, name, bot.Options{})
		if err != nil {
			return p, fmt.Errorf("seat %d: %w", pr.Seat+1, err)
		}
		if _, in := p.Pending[pr.Seat]; !in {
			text := play(p.State, pr.Seat, inWindow, s.botRand(p, pr.Seat))
			if text == "" {
				continue // the cruise bot sends nothing: the default plays, and nobody waits for it
			}
			if _, err := s.host.Submit(ctx, id, pr.Seat, text, host.Req{Turn: turn, Key: key("bot", pr.Seat)}); err != nil && !s.ordersIn(ctx, id, turn, pr.Seat) {
				return p, fmt.Errorf("the bot's orders for seat %d, %q: %w", pr.Seat+1, text, err)
			}
			wrote = true
		}
		if a.ResolveWhen == store.ResolveWhenReady && !p.Ready[pr.Seat] {
			if _, err := s.host.Ready(ctx, id, pr.Seat, true, host.Req{Turn: turn, Key: key("bot-ready", pr.Seat)}); err != nil {
				return p, err
			}
			wrote = true
		}
	}
	if wrote {
		s.events.wake(id, false)
	}
	return p, reload()
}

// ordersIn says whether seat's orders for turn are in: a bot's orders
// refused because another instance's bot put in the seat's first (its
// clock judged the bonus window otherwise, so its text differs) leave the
// seat played all the same.
func (s *Server) ordersIn(ctx context.Context, id string, turn, seat int) bool {
	p, err := s.host.Load(ctx, id)
	if err != nil || p.Turn() != turn {
		return false
	}
	_, in := p.Pending[seat]
	return in
}

// botRand is the generator a bot draws seat's orders for p's open turn from
// (seat -1: the host's settings): seeded by the race's secret seed, so no
// racer can foresee it, and the same on every instance.
func (s *Server) botRand(p *race.Played, seat int) *rand.Rand {
	h := sha256.New()
	h.Write(p.Race.Seed[:])
	h.Write([]byte("pitwall bot " + strconv.Itoa(p.Turn()) + " " + strconv.Itoa(seat)))
	sum := h.Sum(nil)
	return rand.New(rand.NewPCG(binary.LittleEndian.Uint64(sum[:8]), binary.LittleEndian.Uint64(sum[8:16])))
}
