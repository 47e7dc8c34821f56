package gaslands

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

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

// BillGear and BillWeight are the Bullet Bill's (the text: gear 2,
// heavyweight; it flies a medium template); its counter's size, in mm, and
// BillLife, which bounds its flight, are pitwall's.
const (
	BillGear   = 2
	BillWeight = Heavy
	BillLength = 50.0
	BillWidth  = 30.0
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
	TrackID  string    `json:"track"`
	Laps     int       `json:"laps"`
	M        Maneuvers `json:"maneuvers"`
	SixIsOne bool      `json:"six_is_one,omitempty"`
	// The readings a host chose (race options; docs/rules/gaslands.md).
	TrivialToken bool        `json:"trivial_token,omitempty"`         // trivial=token
	BillEveryAct bool        `json:"bill_every_activation,omitempty"` // bill=every-activation
	KartHitStops bool        `json:"kart_hit_stops,omitempty"`        // kart-hit=stop
	Karts        []Kart      `json:"karts"`
	Act          int         `json:"act"`   // activations played
	Round        int         `json:"round"` // from 1
	Phase        int         `json:"phase"` // the gear phase, 1 to 6
	Pole         int         `json:"pole"`  // the seat in pole position this round
	Next         int         `json:"next"`  // how far round from pole the phase has come
	Active       int         `json:"active"`
	Gone         []int       `json:"gone,omitempty"` // destructible obstructions hit
	Bills        []Bill      `json:"bills,omitempty"`
	Last         *Activation `json:"last,omitempty"`
	Done         bool        `json:"done,omitempty"`
	track        *Track
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
	return race.SeatsOf(s.Karts, func(r *Kart) race.Seat { return race.Seat{Seat: r.Seat, Player: r.Player, Name: r.Name} })
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

func (s *State) gone(i int) bool { return slices.Contains(s.Gone, i) }

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
	if err := s.check(); err != nil {
		return nil, fmt.Errorf("reading a gaslands state: %w", err)
	}
	return &s, nil
}

// farOff bounds every length and position in a stored state, in mm: ten
// times the largest table a track may have. A kart a light year away, or
// one a light year long, would make every sweep of a move endless.
const farOff = 50000.0

// check is what race.DecodeJSON holds a stored state to; it refuses the
// race's templates unchecked, karts out of their seats or far off the table,
// gears and weights the game has not got, an active kart that is not there,
// finishers with no place.
func (s *State) check() error {
	n := len(s.Karts)
	if err := race.CheckLaps(s.Laps); err != nil {
		return err
	}
	switch {
	case n < 2 || n > s.track.Seats:
		return fmt.Errorf("%d karts; %s races 2 to %d", n, s.track.Name, s.track.Seats)
	case s.Act < 0:
		return fmt.Errorf("%d activations played", s.Act)
	case s.Round < 1 || s.Round > s.MaxRounds():
		return fmt.Errorf("round %d; a race of %d laps runs rounds 1 to %d", s.Round, s.Laps, s.MaxRounds())
	case s.Phase < 1 || s.Phase > MaxGear+1:
		return fmt.Errorf("gear phase %d; phases are 1 to %d", s.Phase, MaxGear)
	case s.Pole < 0 || s.Pole >= n || s.Next < 0 || s.Next > n:
		return fmt.Errorf("pole position seat %d, %d karts on from it: %d karts race", s.Pole, s.Next, n)
	case s.Done && s.Active != -1, !s.Done && (s.Active < 0 || s.Active >= n):
		return fmt.Errorf("the active kart is seat %d, with %d karts racing (the race over: %v)", s.Active, n, s.Done)
	}
	if err := s.M.valid(); err != nil {
		return fmt.Errorf("the race's maneuvers: %w", err)
	}
	places := map[int]bool{}
	for i := range s.Karts {
		k := &s.Karts[i]
		switch {
		case k.Seat != i:
			return fmt.Errorf("kart %d sits in seat %d", i+1, k.Seat)
		case k.Weight < Light || k.Weight > Heavy:
			return fmt.Errorf("%s has the weight class %d; classes are %d (light) to %d (heavy)", k.Name, k.Weight, Light, Heavy)
		case k.MaxGear < 1 || k.MaxGear > MaxGear || k.Gear < 1 || k.Gear > k.MaxGear:
			return fmt.Errorf("%s is in gear %d of %d; gears are 1 to %d", k.Name, k.Gear, k.MaxGear, MaxGear)
		case k.Handling < 0 || k.Handling > 10:
			return fmt.Errorf("%s has Handling %d; 0 to 10", k.Name, k.Handling)
		case k.Hazards < 0 || k.Hazards > 100:
			return fmt.Errorf("%s has %d hazard tokens", k.Name, k.Hazards)
		case !k.Pos.sane():
			return fmt.Errorf("%s stands at %v, not a kart on the table", k.Name, k.Pos)
		case k.Lap < 0 || k.Lap > s.Laps+1:
			return fmt.Errorf("%s is on lap %d of %d", k.Name, k.Lap, s.Laps)
		case k.Gate < 0 || k.Gate >= len(s.track.Gates):
			return fmt.Errorf("%s is due at gate %d; %s has gates 0 to %d", k.Name, k.Gate, s.track.Name, len(s.track.Gates)-1)
		case k.Item != "" && k.Item != GreenShell && k.Item != RedShell && k.Item != BulletBill:
			return fmt.Errorf("%s holds an unknown item %q", k.Name, k.Item)
		case k.Collide != "evade" && k.Collide != "smash":
			return fmt.Errorf("%s would %q in a collision; evade or smash", k.Name, k.Collide)
		case k.Finished != (k.Place > 0), k.Place < 0 || k.Place > n || places[k.Place]:
			return fmt.Errorf("%s has place %d (finished: %v)", k.Name, k.Place, k.Finished)
		}
		if k.Place > 0 {
			places[k.Place] = true
		}
	}
	seen := map[int]bool{}
	for _, g := range s.Gone {
		if g < 0 || g >= len(s.track.Obstructions) || seen[g] {
			return fmt.Errorf("obstructions %v gone; %s has obstructions 0 to %d", s.Gone, s.track.Name, len(s.track.Obstructions)-1)
		}
		seen[g] = true
	}
	for _, b := range s.Bills {
		if b.Owner < 0 || b.Owner >= n || !b.Pos.sane() || b.Moves < 0 || b.Moves > BillLife {
			return fmt.Errorf("a Bullet Bill of seat %d at %v after %d moves", b.Owner, b.Pos, b.Moves)
		}
	}
	if a := s.Last; a != nil {
		if a.Seat < 0 || a.Seat >= n || !a.Start.sane() {
			return fmt.Errorf("the last activation was seat %d's, from %v", a.Seat, a.Start)
		}
		for _, vs := range [][]Vec{a.Outline, a.Path, a.Slide, a.Hits, a.Shot, a.BillPath} {
			for _, v := range vs {
				if !saneVec(v) {
					return fmt.Errorf("the last activation passes %v, far off the table", v)
				}
			}
		}
	}
	return nil
}

func saneVec(v Vec) bool { return math.Abs(v.X) <= farOff && math.Abs(v.Y) <= farOff }

// sane says the rectangle is somewhere near the table, of a size a kart or
// a Bill could be, facing a way that is a number of the usual size.
func (r Rect) sane() bool {
	return saneVec(r.Centre) && r.Length > 0 && r.Length <= farOff && r.Width > 0 && r.Width <= farOff && math.Abs(r.Heading) <= farOff
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
	// The way counts only up to the gate due: a kart that cut across the
	// infield past it has not earned the ground beyond (only a crossing counts).
	if gap := math.Mod(t.Gates[k.Gate].S-g+t.Length, t.Length); gap > 0 {
		since = math.Min(since, gap)
	}
	lapBase := float64(float64(k.Lap-1) * t.Length)
	if last == 0 {
		return lapBase + since
	}
	return lapBase + g + since
}
