package race

import (
	"fmt"
	"time"

	"pitwall/dice"
)

// Viewer is who looks at a race: the host, one seat, or a spectator. The
// zero Viewer is a spectator, so a viewer left out sees the least.
type Viewer struct {
	role role
	seat int
}

type role uint8

const (
	spectatorRole role = iota
	hostRole
	seatRole
)

var (
	// Host sees everything: every pending order, every hidden thing.
	Host = Viewer{role: hostRole}
	// Spectator sees what a forum reader may: nothing hidden, no pending order.
	Spectator = Viewer{role: spectatorRole}
)

// SeatViewer is the racer in seat (from 0): a spectator's view and the seat's own
// pending orders.
func SeatViewer(seat int) Viewer { return Viewer{role: seatRole, seat: seat} }

// IsHost says whether v is the host.
func (v Viewer) IsHost() bool { return v.role == hostRole }

// Seat is the seat v races in (from 0), if v is a racer.
func (v Viewer) Seat() (int, bool) { return v.seat, v.role == seatRole }

// Sees says whether v may see what belongs to seat alone (its pending orders).
func (v Viewer) Sees(seat int) bool {
	return v.role == hostRole || (v.role == seatRole && v.seat == seat)
}

func (v Viewer) String() string {
	switch v.role {
	case hostRole:
		return "host"
	case seatRole:
		return fmt.Sprintf("seat %d", v.seat+1)
	}
	return "spectator"
}

// Redactor is a game with secrets of its own in its state or options (nascar's
// hidden sandbags). Redact returns a copy of s without what v may not see,
// leaving s unchanged; SecretOptions names the race options that stay
// hidden until the race is over. A game without secrets does not implement it.
type Redactor interface {
	Redact(s State, v Viewer) State
	SecretOptions() []string
}

// View is a race as one viewer may see it. It is the one place where secrets
// are filtered: posts, pictures, 'race show', 'replay' and everything the
// service serves are made from a View, never from a Played.
//
// A View holds no seed before the race is over, no dice state (it holds the
// stream's key, and so every roll to come), no log entries, no pending order
// but the viewer's own (the host's: all), and states redacted by their game.
// Before the race is over it holds no state hash either, but the host's: a
// hash of a state with a hidden thing in it lets anyone test guesses at it.
type View struct {
	Viewer  Viewer
	Ruleset Ruleset

	ID         string
	Rules      int // the ruleset's version when the race was created
	Config     Config
	Entrants   []Entrant
	Created    time.Time
	Commitment string // the SHA-256 of the seed
	Seed       string // in hex, once the race is over

	Started    bool
	Start      State // the state after the setup; nil when not known
	SetupRolls []dice.Roll
	Turns      []Turn
	State      State
	Over       bool

	// OrdersIn says, for every seat prompted now, whether its orders are in.
	OrdersIn map[int]bool
	// Ready says, for every seat prompted now, whether it has marked itself
	// done with the turn (public, as OrdersIn is).
	Ready map[int]bool
	// Orders are the pending orders the viewer may see, by seat: the host's
	// view holds every seat's, a racer's its own, a spectator's none.
	Orders   map[int]string
	Schedule Schedule
	Voided   []Voided // the viewer's own (the host's: all)

	// Seq and Head are the log's length and chain head; for anyone but the
	// host, its public part (PublicSeq, PublicHead): the open turn's entries
	// stay out.
	Seq  int
	Head string
	// PublicSeq and PublicHead are the log's public part, as posts print it.
	PublicSeq  int
	PublicHead string
	Past       bool
}

// View is p as v may see it.
func (p *Played) View(v Viewer) *View {
	over := p.Started && p.State != nil && p.State.Over()
	red, _ := p.Ruleset.(Redactor)
	redact := func(s State) State {
		if s == nil || red == nil || v.IsHost() || over {
			return s
		}
		return red.Redact(s, v)
	}
	w := &View{
		Viewer: v, Ruleset: p.Ruleset,
		ID: p.Race.ID, Rules: p.Race.Rules, Config: p.Race.Config, Created: p.Race.Created,
		Entrants: p.Entrants, Commitment: p.Race.Commitment(),
		Started: p.Started, Start: redact(p.Start), SetupRolls: p.SetupRolls, State: redact(p.State), Over: over,
		OrdersIn: map[int]bool{}, Ready: map[int]bool{}, Orders: map[int]string{}, Schedule: p.Schedule,
		Seq: p.Seq, Head: p.Head, PublicSeq: p.PublicSeq, PublicHead: p.PublicHead, Past: p.Past,
	}
	if over {
		w.Seed = p.Race.Seed.Hex()
	}
	if !v.IsHost() {
		w.Seq, w.Head = p.PublicSeq, p.PublicHead
		if red != nil && !over {
			w.Config = publicConfig(p.Race.Config, red.SecretOptions())
		}
	}
	for _, t := range p.Turns {
		t.After, t.Before = redact(t.After), redact(t.Before)
		if !v.IsHost() {
			t.DiceState = nil
			if !over {
				t.Hash = ""
			}
		}
		w.Turns = append(w.Turns, t)
	}
	if p.Started && p.State != nil && !p.State.Over() {
		for _, pr := range p.Prompts() {
			_, in := p.Pending[pr.Seat]
			w.OrdersIn[pr.Seat], w.Ready[pr.Seat] = in, p.Ready[pr.Seat]
		}
	}
	for seat, o := range p.Pending {
		if v.Sees(seat) {
			w.Orders[seat] = o.String()
		}
	}
	for _, x := range p.Voided {
		if v.Sees(x.Seat) {
			w.Voided = append(w.Voided, x)
		}
	}
	return w
}

// publicConfig is cfg without the secret options.
func publicConfig(cfg Config, secret []string) Config {
	out := Config{Track: cfg.Track, Laps: cfg.Laps}
	for k, val := range cfg.Options {
		hidden := false
		for _, s := range secret {
			hidden = hidden || s == k
		}
		if !hidden {
			if out.Options == nil {
				out.Options = map[string]string{}
			}
			out.Options[k] = val
		}
	}
	return out
}

// Resolved is the number of turns resolved.
func (w *View) Resolved() int {
	if !w.Started || w.State == nil {
		return 0
	}
	return w.State.Turn() - 1
}

// StateAt is the state after turn n (0 = the start), as the viewer may see it.
func (w *View) StateAt(n int) (State, error) { return stateAt(w.Start, w.Turns, n, w.Resolved()) }

// TurnAt is turn n, if the view holds it.
func (w *View) TurnAt(n int) (Turn, bool) { return turnAt(w.Turns, n) }
