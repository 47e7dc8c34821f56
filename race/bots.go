package race

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Table is where a bot race is played: a race's log in memory (tests, the
// simulator) or a host with its store (the demo, the service's bot seats).
type Table interface {
	State() State
	// Set logs a host's setting, KEY=VALUE, for turn.
	Set(turn int, kv string) error
	// Submit logs seat's orders for turn.
	Submit(turn, seat int, text string, inWindow bool) error
	// Resolve resolves turn.
	Resolve(turn int) error
}

// Announcer is a Table told when each turn is announced: once the host's
// settings for it are in and before its orders, when a host posts it (so
// that the post tells of a two-order turn, say).
type Announcer interface {
	Announce(turn int) error
}

// BotRace is how bots play a race: the one loop that tests, the demo, the
// service's bot races and the simulator (sim.Play) share, so a race played
// by bots is played the same way wherever it is played. The bots draw from
// the rng in a fixed order: the host's settings, then for each prompt
// whether it is missed, whether its orders come in the window, and its
// orders.
type BotRace struct {
	// Bot writes seat's orders; nil calls the ruleset's Botter.
	Bot func(s State, seat int, inWindow bool, rng *rand.Rand) string
	// Miss: one prompt in Miss is left without orders, so the game's
	// default order is played too (0: every prompt is answered).
	Miss int
	// MaxTurns stops a race that is not over after so many turns (0: 1000).
	MaxTurns int
	// Before gives the host's settings (KEY=VALUE) to log before a turn's
	// orders; nil asks the ruleset's HostBotter, if it has one.
	Before func(s State, rng *rand.Rand) []string
	// InWindow says whether seat's orders come in the bonus window (nil:
	// never); it may move a clock on.
	InWindow func(s State, seat int, rng *rand.Rand) bool
}

// ErrNotOver is BotRace.Play's error for a race still running after
// MaxTurns turns: a test's failure, the simulator's race to count apart.
var ErrNotOver = errors.New("the race is not over")

// Play plays the race at t to its end, or to MaxTurns (ErrNotOver).
func (b BotRace) Play(rs Ruleset, t Table, rng *rand.Rand) error {
	bot := b.Bot
	if bot == nil {
		br, ok := rs.(Botter)
		if !ok {
			return fmt.Errorf("%s has no bot", rs.Game().ID)
		}
		bot = br.BotOrder
	}
	before := b.Before
	if hb, ok := rs.(HostBotter); ok && before == nil {
		before = hb.HostSettings
	}
	most := b.MaxTurns
	if most == 0 {
		most = 1000
	}
	for s := t.State(); !s.Over(); s = t.State() {
		turn := s.Turn()
		if turn > most {
			return fmt.Errorf("%w after %d turns", ErrNotOver, most)
		}
		if before != nil {
			for _, kv := range before(s, rng) {
				if err := t.Set(turn, kv); err != nil {
					return fmt.Errorf("turn %d, setting %s: %w", turn, kv, err)
				}
			}
			s = t.State()
		}
		if a, ok := t.(Announcer); ok {
			if err := a.Announce(turn); err != nil {
				return fmt.Errorf("turn %d: %w", turn, err)
			}
		}
		for _, pr := range rs.Prompts(s) {
			if b.Miss > 0 && rng.IntN(b.Miss) == 0 {
				continue // a racer who sends nothing
			}
			in := b.InWindow != nil && b.InWindow(s, pr.Seat, rng)
			text := bot(s, pr.Seat, in, rng)
			if text == "" {
				continue // the bot sends nothing: the default plays
			}
			if err := t.Submit(turn, pr.Seat, text, in); err != nil {
				return fmt.Errorf("turn %d, seat %d, %q: %w", turn, pr.Seat, text, err)
			}
		}
		if err := t.Resolve(turn); err != nil {
			return fmt.Errorf("turn %d: %w", turn, err)
		}
	}
	return nil
}

// LogTable plays a race on its log in memory: each step an entry applied to
// P and appended to P.Race.Log.
type LogTable struct {
	P *Played
	// At is when a turn resolves after resolved turns (BotTime, to play
	// the simulator's race); nil: at no time, for a game that reads none.
	At func(resolved int) time.Time
}

func (t LogTable) add(e Entry) error {
	e.Seq, e.Turn = len(t.P.Race.Log)+1, t.P.State.Turn()
	if err := t.P.Apply(e); err != nil {
		return err
	}
	t.P.Race.Log = append(t.P.Race.Log, e)
	return nil
}

// State implements Table.
func (t LogTable) State() State { return t.P.State }

// Set implements Table.
func (t LogTable) Set(_ int, kv string) error {
	if !strings.Contains(kv, "=") {
		return fmt.Errorf("a setting is KEY=VALUE; got %q", kv)
	}
	return t.add(Entry{Kind: EntrySet, Seat: -1, Text: kv})
}

// Submit implements Table.
func (t LogTable) Submit(_, seat int, text string, inWindow bool) error {
	return t.add(Entry{Kind: EntryOrder, Seat: seat, Text: text, InWindow: inWindow})
}

// Resolve implements Table.
func (t LogTable) Resolve(int) error {
	e := Entry{Kind: EntryResolve, Seat: -1}
	if t.At != nil {
		e.At = t.At(t.P.Resolved())
	}
	return t.add(e)
}
