package nascar

import (
	"fmt"
	"slices"
	"sort"

	"pitwall/race"
)

// The car's numbers at the start (the text).
const (
	StartMaxSpeed  = 12
	MinMaxSpeed    = 6 // damage never takes max speed lower
	StartWildcards = 6
	PerformanceWCs = 8 // the Performance Package's extra wildcards
	PitSpeedLimit  = 6
)

// Finished marks a car that has taken the chequered flag.
const Finished = "finished"

// RaceCar is one car in a race.
type RaceCar struct {
	Seat      int     `json:"seat"`
	Player    string  `json:"player"`
	Name      string  `json:"name"`
	Upgrade   Upgrade `json:"upgrade"`
	Pos       Point   `json:"pos"`
	Heading   Heading `json:"heading"`
	Speed     int     `json:"speed"`
	MaxSpeed  int     `json:"max_speed"`
	Wildcards int     `json:"wildcards"`
	// Crossings counts the times over the line: the grid is behind it, so the
	// first crossing starts lap 1 and crossing Laps+1 times finishes.
	Crossings  int    `json:"crossings"`
	Out        string `json:"out,omitempty"`
	FinishTurn int    `json:"finish_turn,omitempty"`

	// The pit stop under way: where it stands between the ## markers.
	InPit      bool `json:"in_pit,omitempty"`
	PitRepair  int  `json:"pit_repair,omitempty"`   // max speed added at the PP mark, taken back on a violation
	PitWCs     int  `json:"pit_wcs,omitempty"`      // wildcards added at the PP mark, likewise
	PitBroken  bool `json:"pit_broken,omitempty"`   // the speed limit was broken: no benefit from this stop
	PitPassedP bool `json:"pit_passed_p,omitempty"` // the PP mark is behind the car in this stop

	// PutBehind: the car lost a crash last turn and was put behind; the
	// text lets it slipstream this turn, wherever it was put.
	PutBehind bool `json:"put_behind,omitempty"`
	// PitFinish: it finished through the pit lane (pit-finish=no-win).
	PitFinish bool `json:"pit_finish,omitempty"`

	Orders string  `json:"orders,omitempty"` // last turn's order
	Trail  []Point `json:"trail,omitempty"`  // the squares it entered last turn
}

// State is a nascar race between turns.
type State struct {
	TrackID string    `json:"track"`
	T       int       `json:"turn"`
	Laps    int       `json:"laps"`
	Cars    []RaceCar `json:"cars"`
	Finish  []int     `json:"finish,omitempty"`
	Oil     []Point   `json:"oil,omitempty"` // visible slicks: the track's and those crashes left
	// Sandbags are where the host hid them (the track's, or the race's own):
	// pictures and posts show only those in Found, the ones already hit.
	Sandbags []Point `json:"sandbags,omitempty"`
	Found    []Point `json:"sandbags_hit,omitempty"`
	// PitFinishNoWin is the race option pit-finish=no-win.
	PitFinishNoWin bool `json:"pit_finish_no_win,omitempty"`

	track *Track
}

// Turn implements race.State.
func (s *State) Turn() int { return s.T }

// Over implements race.State: every car has finished, or the race has run
// out of turns (MaxTurns).
func (s *State) Over() bool {
	if s.T > s.MaxTurns() {
		return true
	}
	for i := range s.Cars {
		if s.Cars[i].Out == "" {
			return false
		}
	}
	return true
}

// MaxTurns is the most turns a race runs: pitwall's bound, 100 a lap and 50
// more (the longest of the 1,000 bot races of TestReplayThousandRaces takes
// 163 turns for 3 laps, one turn in 12 missed), so that a car that can make
// no headway (one slewed off a slick and put back on it, turn after turn)
// never keeps a race from ending. The cars still running when it is reached
// are placed by how far round they are.
func (s *State) MaxTurns() int { return 100*s.Laps + 50 }

// Seats implements race.State.
func (s *State) Seats() []race.Seat {
	return race.SeatsOf(s.Cars, func(r *RaceCar) race.Seat { return race.Seat{Seat: r.Seat, Player: r.Player, Name: r.Name} })
}

// Track is the race's track.
func (s *State) Track() *Track { return s.track }

func (s *State) clone() *State {
	n := *s
	n.Cars = make([]RaceCar, len(s.Cars))
	copy(n.Cars, s.Cars)
	for i := range n.Cars {
		n.Cars[i].Trail = append([]Point(nil), s.Cars[i].Trail...)
	}
	n.Finish = append([]int(nil), s.Finish...)
	n.Oil = append([]Point(nil), s.Oil...)
	n.Found = append([]Point(nil), s.Found...)
	n.Sandbags = append([]Point(nil), s.Sandbags...)
	return &n
}

func (s *State) car(seat int) *RaceCar {
	return race.BySeat(s.Cars, seat, func(c *RaceCar) int { return c.Seat })
}

// racing says whether the car is still on the track.
func (c *RaceCar) racing() bool { return c.Out == "" }

// distance is how far round the race the car is, in tenths: the laps behind it and its progress.
func (s *State) distance(c *RaceCar) int {
	p := s.track.Progress(c.Pos)
	if p < 0 {
		p = 0
	}
	return c.Crossings*s.track.LapLength() + p
}

// order is the race order, leader first: further round the race; level
// cars by seat (the grid's order at the start).
func (s *State) order() []*RaceCar {
	var cs []*RaceCar
	for i := range s.Cars {
		if s.Cars[i].racing() {
			cs = append(cs, &s.Cars[i])
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		di, dj := s.distance(cs[i]), s.distance(cs[j])
		if di != dj {
			return di > dj
		}
		return cs[i].Seat < cs[j].Seat
	})
	return cs
}

// occupant is the racing car on p other than c, if any.
func (s *State) occupant(p Point, c *RaceCar) *RaceCar {
	for i := range s.Cars {
		o := &s.Cars[i]
		if o != c && o.racing() && o.Pos == p {
			return o
		}
	}
	return nil
}

// hasOil says whether a slick lies on p.
func (s *State) hasOil(p Point) bool { return slices.Contains(s.Oil, p) }

// sandbag says whether a sandbag lies on p (hit or not).
func (s *State) sandbag(p Point) bool { return slices.Contains(s.Sandbags, p) }

// canSlipstream says whether c starts directly behind another car moving the
// same way: that car is on the square ahead of c, with c's heading.
func (s *State) canSlipstream(c *RaceCar) bool {
	if c.PutBehind {
		return true
	}
	dx, dy := c.Heading.Step()
	o := s.occupant(Point{c.Pos.X + dx, c.Pos.Y + dy}, c)
	return o != nil && o.Heading == c.Heading && o.Speed > 0 && c.Speed > 0
}

func (c *RaceCar) String() string { return fmt.Sprintf("%s (seat %d)", c.Name, c.Seat) }

// Redact implements race.Redactor: the sandbags not yet hit are the host's
// secret; everyone else sees only those hit (Found), and not how many are left.
func (Ruleset) Redact(s race.State, _ race.Viewer) race.State {
	st, ok := s.(*State)
	if !ok {
		return s
	}
	n := st.clone()
	n.Sandbags = append([]Point(nil), st.Found...)
	return n
}

// SecretOptions implements race.Redactor: a host's own sandbags ('sandbags')
// are hidden until the race is over.
func (Ruleset) SecretOptions() []string { return []string{"sandbags"} }
