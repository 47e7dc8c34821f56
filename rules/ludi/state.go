package ludi

import (
	"fmt"
	"slices"

	"pitwall/race"
	"pitwall/rules/ludi/tables"
)

// Team is a racing team's six characteristics, each 0 to 2.
type Team struct {
	Skill        int `json:"skill"`        // auriga
	Constitution int `json:"constitution"` // auriga
	Quality      int `json:"quality"`      // chariot
	Size         int `json:"size"`         // chariot: 0 light, 1 medium, 2 heavy
	Speed        int `json:"speed"`        // horses
	Endurance    int `json:"endurance"`    // horses
}

// Out says why a chariot no longer races.
const (
	Racing        = ""
	Finished      = "finished"
	RolledAway    = "rolled away"           // the auriga left the wreck
	Thrown        = "thrown"                // the auriga lost his grip while hanging on
	HorsesStopped = "horses stopped"        // the fourth Endurance point was lost
	DraggedOver   = "dragged over the line" // a wreck hanging on crossed the line for the last time and took no place
)

// Chariot is one auriga's team on the track.
type Chariot struct {
	Seat    int    `json:"seat"`
	Player  string `json:"player"`
	Name    string `json:"name"`
	Package string `json:"package"`
	Team    Team   `json:"team"` // as entered

	Skill     int          `json:"skill"`     // now: a fall can cost the auriga Skill
	Endurance int          `json:"endurance"` // now: whipping and strikes wear it down
	Pos       Pos          `json:"pos"`
	Lap       int          `json:"lap"` // times across the line
	Level     tables.Level `json:"level"`

	DamageL       int  `json:"damage_left"`    // points lost on the left side; the third is naufragia
	DamageR       int  `json:"damage_right"`   // and on the right
	HorseInjuries int  `json:"horse_injuries"` // enduring: -1 space each
	Lame          int  `json:"lame"`           // enduring move spaces lost to crashes
	Stunned       int  `json:"stunned"`        // orders still to cruise through
	DropToFast    bool `json:"drop_to_fast,omitempty"`
	Flipped       bool `json:"flipped,omitempty"`
	Injured       int  `json:"injured,omitempty"` // falls that hurt the auriga

	Out        string `json:"out,omitempty"`
	FinishTurn int    `json:"finish_turn,omitempty"`

	Orders string `json:"orders,omitempty"` // what it did last turn
	Trail  []Pos  `json:"trail,omitempty"`  // the spaces it crossed last turn, in order
}

// enduranceSpent is the Endurance points the horses have lost so far.
func (c *Chariot) enduranceSpent() int { return max(0, c.Team.Endurance-c.Endurance) }

// EnduranceLost counts Endurance points and horse injuries lost so far.
func (c *Chariot) EnduranceLost() int { return c.Team.Endurance - c.Endurance + c.HorseInjuries }

// OnTrack says whether the chariot (or its wreck) takes up a space: all but
// those that crossed the line for the last time.
func (c *Chariot) OnTrack() bool { return c.Out != Finished && c.Out != DraggedOver }

// Active says whether the chariot still races (its auriga may be hanging on to a wreck).
func (c *Chariot) Active() bool { return c.Out == Racing }

// State is a race of ludi between turns.
type State struct {
	TrackID  string    `json:"track"`
	T        int       `json:"turn"`
	Laps     int       `json:"laps"`
	Orders   int       `json:"orders_per_turn"` // orders each racer gives this turn (1-3)
	Chariots []Chariot `json:"chariots"`
	Finish   []int     `json:"finish,omitempty"` // seats in finishing order
	Rules    Rules     `json:"rules"`            // the race's options, read at setup

	track *Track
}

// Turn implements race.State.
func (s *State) Turn() int { return s.T }

// Over implements race.State: no chariot races any more.
func (s *State) Over() bool {
	for i := range s.Chariots {
		if s.Chariots[i].Active() {
			return false
		}
	}
	return true
}

// Seats implements race.State.
func (s *State) Seats() []race.Seat {
	return race.SeatsOf(s.Chariots, func(r *Chariot) race.Seat { return race.Seat{Seat: r.Seat, Player: r.Player, Name: r.Name} })
}

// Track is the state's track.
func (s *State) Track() *Track { return s.track }

// clone makes a deep copy, so Resolve never changes the state it was given.
func (s *State) clone() *State {
	n := *s
	n.Chariots = make([]Chariot, len(s.Chariots))
	copy(n.Chariots, s.Chariots)
	for i := range n.Chariots {
		n.Chariots[i].Trail = append([]Pos(nil), s.Chariots[i].Trail...)
	}
	n.Finish = append([]int(nil), s.Finish...)
	return &n
}

// cloneForResolve is clone for a turn about to be resolved: the trails,
// which the turn draws anew, are left out, and the finish has room for
// every chariot.
func (s *State) cloneForResolve() *State {
	n := *s
	src := s.Chariots
	cs := make([]Chariot, len(src)) // make and copy as one: the copy shades only what it copies
	copy(cs, src)
	n.Chariots = cs
	for i := range n.Chariots {
		n.Chariots[i].Trail = nil
	}
	n.Finish = append(make([]int, 0, len(s.Chariots)), s.Finish...)
	return &n
}

func (s *State) chariot(seat int) *Chariot {
	return race.BySeat(s.Chariots, seat, func(c *Chariot) int { return c.Seat })
}

// at is the chariot or wreck on space p, if any.
func (s *State) at(p Pos) *Chariot {
	for i := range s.Chariots {
		if c := &s.Chariots[i]; c.Pos == p && c.OnTrack() {
			return c
		}
	}
	return nil
}

// ahead says whether a is in front of b: further round the laps.
func (s *State) ahead(a, b *Chariot) bool {
	if a.Lap != b.Lap {
		return a.Lap > b.Lap
	}
	return s.track.Progress(a.Pos) > s.track.Progress(b.Pos)+1e-9
}

// gap is how many spaces a stands in front of b on the track, counted in
// a's lane with b brought level into it: the physical distance, whatever
// laps they are on (a wreck left on an earlier lap blocks the lane all the
// same). It is in [-L/2, L/2) for a lap of L spaces in a's lane.
func (s *State) gap(a, b *Chariot) int { return s.gapPos(a.Pos, b.Pos) }

// gapPos is gap for chariots standing at a and b.
func (s *State) gapPos(a, bp Pos) int {
	bp = s.levelIn(bp, a.Lane)
	l := s.track.LapLength(a.Lane)
	d := s.abs(a, 0) - s.abs(bp, 0) // two offsets within one lap: d in (-l, l)
	if d < 0 {
		d += l
	}
	if d >= l-l/2 {
		d -= l
	}
	return d
}

// levelIn is the space in lane level with p, lane by lane (lane must be
// one of the track's).
func (s *State) levelIn(p Pos, lane int) Pos {
	for p.Lane != lane {
		step := 1
		if lane < p.Lane {
			step = -1
		}
		p, _ = s.track.Beside(p, step)
	}
	return p
}

// abs counts spaces from the start of lap 0 in p's lane.
func (s *State) abs(p Pos, lap int) int {
	return lap*s.track.LapLength(p.Lane) + s.track.Offset(p)
}

// order is the racing order, front first: further round the track; then the
// higher Quality (with a bonus-window +1); then the lane closer to the inside.
func (s *State) order(initiative []int) []*Chariot { return s.orderInto(nil, initiative) }

// orderInto is order appended to cs; initiative is by seat (nil: none).
func (s *State) orderInto(cs []*Chariot, initiative []int) []*Chariot {
	var room [16]ranked
	rs := room[:0]
	for i := range s.Chariots {
		if c := &s.Chariots[i]; c.Active() {
			q := c.Team.Quality
			if c.Seat < len(initiative) {
				q += initiative[c.Seat]
			}
			rs = append(rs, ranked{c: c, prog: s.track.Progress(c.Pos), lap: c.Lap, q: q, lane: c.Pos.Lane, seat: c.Seat})
		}
	}
	// The same stable sort as sort.SliceStable, asked only 'before?', so the
	// order is the one every replay has always had. For a field of 20 or
	// fewer that sort is one insertion sort, written out here so that the
	// comparison is not called through a func value.
	if len(rs) <= 20 {
		for i := 1; i < len(rs); i++ {
			for j := i; j > 0 && rs[j].before(&rs[j-1]); j-- {
				rs[j], rs[j-1] = rs[j-1], rs[j]
			}
		}
	} else {
		slices.SortStableFunc(rs, func(a, b ranked) int {
			if a.before(&b) {
				return -1
			}
			return 1
		})
	}
	for _, x := range rs {
		cs = append(cs, x.c)
	}
	return cs
}

// ranked is a chariot with what the racing order compares, each worked out
// once (its progress as ahead works it out, its Quality with the bonus).
type ranked struct {
	c          *Chariot
	prog       float64
	lap, q     int
	lane, seat int
}

// before says whether x goes before y in the racing order: ahead (State.ahead),
// then the higher Quality, the inner lane, the lower seat.
func (x *ranked) before(y *ranked) bool {
	if x.lap != y.lap {
		return x.lap > y.lap
	}
	if x.prog > y.prog+1e-9 {
		return true
	}
	if y.prog > x.prog+1e-9 {
		return false
	}
	if x.q != y.q {
		return x.q > y.q
	}
	if x.lane != y.lane {
		return x.lane < y.lane
	}
	return x.seat < y.seat // only grid mates in one space could get here: keep it stable
}

func (c *Chariot) String() string { return fmt.Sprintf("%s (seat %d)", c.Name, c.Seat) }
