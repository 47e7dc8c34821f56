package gaslands

import (
	"encoding/json"
	"fmt"
	"math"

	"pitwall/race"
)

// Items a kart can hold (the Mario Kart theme; pitwall's reading, docs/rules/gaslands.md).
const (
	GreenShell = "green-shell"
	RedShell   = "red-shell"
	BulletBill = "bullet-bill"
)

// ItemTable is what an item box gives, by a d6: pitwall's table (the text
// names shells and the Bullet Bill but gives no box table).
var ItemTable = [6]string{GreenShell, GreenShell, GreenShell, RedShell, RedShell, BulletBill}

// Kart is one racer on the table.
type Kart struct {
	Seat     int    `json:"seat"`
	Player   string `json:"player"`
	Name     string `json:"name"`
	Vehicle  string `json:"vehicle"`
	Weight   Weight `json:"weight"`
	Handling int    `json:"handling"`
	MaxGear  int    `json:"max_gear"`
	Gear     int    `json:"gear"`
	Hazards  int    `json:"hazards"`
	Pos      Rect   `json:"pos"`
	// Lap counts crossings of the start line: 1 once the race is under way;
	// a kart finishes when it passes Laps+1. Gate is the next gate due.
	Lap      int    `json:"lap"`
	Gate     int    `json:"gate"`
	Item     string `json:"item,omitempty"`
	Collide  string `json:"collide"` // "evade" or "smash": what it does in a collision
	Finished bool   `json:"finished,omitempty"`
	Place    int    `json:"place,omitempty"`
	FinishAt int    `json:"finish_at,omitempty"` // the activation that finished it
	Wipeouts int    `json:"wipeouts,omitempty"`
}

// Bill is a Bullet Bill on the table: it moves at the end of each of its
// owner's activations.
type Bill struct {
	Owner int  `json:"owner"`
	Pos   Rect `json:"pos"`
	Moves int  `json:"moves"`
}

// BillGear, BillWeight and BillLength are the Bullet Bill's (the text: gear 2,
// heavyweight, a medium template); BillLife bounds its flight (pitwall).
const (
	BillGear   = 2
	BillWeight = Heavy
	BillLife   = 6
)

// Activation is what the last activation did, for the picture.
type Activation struct {
	Seat     int      `json:"seat"`
	Template string   `json:"template"`
	Outline  []Vec    `json:"outline,omitempty"` // the template on the table
	Start    Rect     `json:"start"`
	Path     []Vec    `json:"path,omitempty"` // the kart's centre along the way
	Slide    []Vec    `json:"slide,omitempty"`
	Hits     []Vec    `json:"hits,omitempty"` // where collisions happened
	Shot     []Vec    `json:"shot,omitempty"` // a shell's line: from, to
	BillPath []Vec    `json:"bill_path,omitempty"`
	Skid     []string `json:"skid,omitempty"`
}

// State is a gaslands race.
type State struct {
	TrackID  string      `json:"track"`
	Laps     int         `json:"laps"`
	M        Maneuvers   `json:"maneuvers"`
	SixIsOne bool        `json:"six_is_one,omitempty"`
	Karts    []Kart      `json:"karts"`
	Act      int         `json:"act"`   // activations played
	Round    int         `json:"round"` // from 1
	Phase    int         `json:"phase"` // the gear phase, 1 to 6
	Pole     int         `json:"pole"`  // the seat in pole position this round
	Next     int         `json:"next"`  // how far round from pole the phase has come
	Active   int         `json:"active"`
	Gone     []int       `json:"gone,omitempty"` // destructible obstructions hit
	Bills    []Bill      `json:"bills,omitempty"`
	Last     *Activation `json:"last,omitempty"`
	Done     bool        `json:"done,omitempty"`
	track    *Track
}

// placed is how many karts have finished.
func (s *State) placed() int {
	n := 0
	for _, k := range s.Karts {
		if k.Finished {
			n++
		}
	}
	return n
}

// MaxRounds ends a race that has not finished: pitwall's bound, so no race runs for ever.
func (s *State) MaxRounds() int { return 10*s.Laps + 10 }

// Turn implements race.State: the activation to play next, from 1.
func (s *State) Turn() int { return s.Act + 1 }

// Over implements race.State.
func (s *State) Over() bool { return s.Done }

// Seats implements race.State.
func (s *State) Seats() []race.Seat {
	out := make([]race.Seat, len(s.Karts))
	for i, k := range s.Karts {
		out[i] = race.Seat{Seat: k.Seat, Player: k.Player, Name: k.Name}
	}
	return out
}

// Track is the race's track.
func (s *State) Track() *Track { return s.track }

func (s *State) clone() *State {
	c := *s
	c.Karts = append([]Kart(nil), s.Karts...)
	c.Gone = append([]int(nil), s.Gone...)
	c.Bills = append([]Bill(nil), s.Bills...)
	c.M = s.M.clone()
	c.Last = nil
	return &c
}

func (s *State) gone(i int) bool {
	for _, g := range s.Gone {
		if g == i {
			return true
		}
	}
	return false
}

// decode reads a state and reattaches its track.
func decode(b []byte) (*State, error) {
	var s State
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("reading a gaslands state: %w", err)
	}
	t, err := LoadTrack(s.TrackID)
	if err != nil {
		return nil, err
	}
	s.track = t
	return &s, nil
}

// Distance is how far round the race the kart has come, in mm: laps, the
// gates passed and the way since the last one. It orders the racers.
func (s *State) Distance(k Kart) float64 {
	t := s.track
	if k.Lap == 0 {
		return t.Progress(k.Pos.Centre) - t.Length // behind the line
	}
	last := (k.Gate - 1 + len(t.Gates)) % len(t.Gates)
	g := t.Gates[last].S
	since := math.Mod(t.Progress(k.Pos.Centre)-g+t.Length, t.Length)
	if since > t.Length*0.9 {
		since = 0 // just behind the gate it crossed: a spin or a slide back
	}
	lapBase := float64(k.Lap-1) * t.Length
	if last == 0 {
		return lapBase + since
	}
	return lapBase + g + since
}
