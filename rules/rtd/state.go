package rtd

import (
	"sort"

	"pitwall/race"
)

// Racer is one driver and kart in a race.
type Racer struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Name   string `json:"name"`
	Perk   Perk   `json:"perk"`   // Standard for a standard kart
	Debuff Perk   `json:"debuff"` // taken with a perk

	Momentum int    `json:"momentum"`
	Segment  int    `json:"segment"`        // the segment the racer drives this turn
	Laps     int    `json:"laps"`           // laps completed
	Hand     Item   `json:"hand,omitempty"` // the item in front (inventory.go)
	Bag      []Item `json:"bag,omitempty"`  // the rest, in order

	Shells    int  `json:"shells,omitempty"`     // red shells still orbiting the Triple Red Shells held
	Ink       int  `json:"ink,omitempty"`        // turns of a Blooper's ink left: -1 on Racing and Pass Checks
	Shrunk    int  `json:"shrunk,omitempty"`     // turns of a Thunderbolt left: -2 on Racing Checks
	Star      int  `json:"star,omitempty"`       // turns of invincibility left
	Ghost     int  `json:"ghost,omitempty"`      // turns as a Boo's ghost left
	BreakAway bool `json:"break_away,omitempty"` // a Mushroom with nobody ahead: tries to pull ahead at any Momentum

	FellBack   bool `json:"fell_back,omitempty"` // fell back: +1 on Item Rolls while a segment or more behind the leader
	Defensive  bool `json:"defensive,omitempty"` // drove defensively this turn
	RamNext    bool `json:"ram_next,omitempty"`  // rams in the next pass it is part of
	SlideBonus int  `json:"slide_bonus,omitempty"`

	LapTurns   []int  `json:"lap_turns,omitempty"` // the racing turn each finished lap ended on (the start is turn 0)
	Finished   bool   `json:"finished,omitempty"`
	FinishTurn int    `json:"finish_turn,omitempty"`
	Action     string `json:"action,omitempty"` // last turn's
}

// State is an rtd race between turns. Turn 0 is the start.
type State struct {
	CourseID string  `json:"course"`
	T        int     `json:"turn"`
	Laps     int     `json:"laps"`
	Racers   []Racer `json:"racers"`
	Order    []int   `json:"order"` // seats, first place first
	Finish   []int   `json:"finish,omitempty"`
	// Opts are the race's options, read at setup.
	Opts RaceOptions `json:"options,omitzero"`
	// BlueShell is a blue shell in flight; Fakes are segments where a Fake Item
	// Box lies among the real ones this turn.
	BlueShell *BlueShellShot `json:"blue_shell,omitempty"`
	Fakes     []int          `json:"fakes,omitempty"`

	course *Course
}

// BlueShellShot is a blue shell on its way to the leader.
type BlueShellShot struct {
	By   int `json:"by"`
	Turn int `json:"turn"` // the turn (T) at the end of whose Action Phase it strikes
}

// Turn implements race.State. rtd counts from turn 0 (the start); the race
// core counts turns from 1, so turn N of the race is T = N-1.
func (s *State) Turn() int { return s.T + 1 }

// Over implements race.State.
func (s *State) Over() bool {
	for i := range s.Racers {
		if !s.Racers[i].Finished {
			return false
		}
	}
	return true
}

// Seats implements race.State.
func (s *State) Seats() []race.Seat {
	return race.SeatsOf(s.Racers, func(r *Racer) race.Seat { return race.Seat{Seat: r.Seat, Player: r.Player, Name: r.Name} })
}

func (s *State) clone() *State {
	n := *s
	n.Racers = append([]Racer(nil), s.Racers...)
	for i := range n.Racers {
		n.Racers[i].LapTurns = append([]int(nil), n.Racers[i].LapTurns...)
		n.Racers[i].Bag = append([]Item(nil), n.Racers[i].Bag...)
	}
	n.Order = append([]int(nil), s.Order...)
	n.Finish = append([]int(nil), s.Finish...)
	n.Fakes = append([]int(nil), s.Fakes...)
	if s.BlueShell != nil {
		b := *s.BlueShell
		n.BlueShell = &b
	}
	return &n
}

func (s *State) racer(seat int) *Racer {
	return race.BySeat(s.Racers, seat, func(r *Racer) int { return r.Seat })
}

// distance is how far round the race a racer is, in segments.
func (s *State) distance(r *Racer) int { return r.Laps*len(s.course.Segments) + r.Segment }

// position is a racer's place: 1 for first.
func (s *State) position(seat int) int {
	for i, x := range s.Order {
		if x == seat {
			return i + 1
		}
	}
	return len(s.Order) + 1
}

// running is the racers still racing, first place first.
func (s *State) running() []*Racer {
	var out []*Racer
	for _, seat := range s.Order {
		if r := s.racer(seat); r != nil && !r.Finished {
			out = append(out, r)
		}
	}
	return out
}

// reorder sorts the order: finishers in the order they finished, then the
// rest by distance, further first, keeping the order of racers level with
// each other (set by their passes).
func (s *State) reorder() {
	done := map[int]int{}
	for i, seat := range s.Finish {
		done[seat] = i
	}
	sort.SliceStable(s.Order, func(i, j int) bool {
		a, b := s.racer(s.Order[i]), s.racer(s.Order[j])
		if a.Finished != b.Finished {
			return a.Finished
		}
		if a.Finished {
			return done[a.Seat] < done[b.Seat]
		}
		return s.distance(a) > s.distance(b)
	})
}
