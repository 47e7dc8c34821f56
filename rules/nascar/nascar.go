package nascar

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"pitwall/dice"
	"pitwall/internal/racers"
	"pitwall/internal/words"
	"pitwall/race"
)

// Ruleset is the nascar ruleset; it is registered as "nascar".
type Ruleset struct{}

func init() { race.Register(Ruleset{}) }

// defaultTrack is the track of a race that names none; it is listed first.
const defaultTrack = "oval"

// Setup implements race.Ruleset: one car per entrant, each with its upgrade
// (chosen in secret before the race), the grid drawn by lot.
func (Ruleset) Setup(cfg race.Config, entrants []race.Entrant, d *dice.Roller) (race.State, error) {
	t, laps, err := race.TrackAndLaps(cfg, defaultTrack, LoadTrack, func(x *Track) int { return x.Laps })
	if err != nil {
		return nil, err
	}
	s := &State{TrackID: t.ID, T: 1, Laps: laps, track: t, Oil: append([]Point(nil), t.Oil...)}
	if s.Sandbags, err = sandbags(t, cfg.Options); err != nil {
		return nil, err
	}
	// In key order, so that the same bad options always give the same error.
	for _, k := range slices.Sorted(maps.Keys(cfg.Options)) {
		switch v := cfg.Options[k]; k {
		case "sandbags":
		case "pit-finish":
			if s.PitFinishNoWin, err = pitFinishNoWin(v); err != nil {
				return nil, err
			}
		default:
			return nil, fmt.Errorf("unknown race option %q; nascar options: sandbags (x,y;x,y... or none), pit-finish (lap or no-win)", k)
		}
	}
	names := racers.Names{}
	for i, e := range entrants {
		if strings.TrimSpace(e.Player) == "" {
			return nil, fmt.Errorf("entrant %d has no player name", i+1)
		}
		for k := range e.Options {
			if k != "upgrade" {
				return nil, fmt.Errorf("%s: unknown choice %q; a nascar entrant chooses an upgrade", e.Player, k)
			}
		}
		name, err := names.One(e, "car", "a driver enters one")
		if err != nil {
			return nil, err
		}
		u := NoUpgrade
		if v, ok := e.Options["upgrade"]; ok {
			if u, err = ParseUpgrade(v); err != nil {
				return nil, fmt.Errorf("%s: %v", e.Player, err)
			}
		}
		wc := StartWildcards
		if u == Performance {
			wc += PerformanceWCs
		}
		s.Cars = append(s.Cars, RaceCar{Seat: len(s.Cars), Player: e.Player, Name: name, Upgrade: u,
			Heading: t.Heading, MaxSpeed: StartMaxSpeed, Wildcards: wc})
	}
	grid, err := race.DrawGrid(d, s.Seats(), len(t.Grid), t.Name, "cars")
	if err != nil {
		return nil, err
	}
	for i, g := range grid {
		c := &s.Cars[i]
		c.Pos = t.Grid[g]
		c.Trail = []Point{c.Pos}
	}
	return s, nil
}

// Set implements race.Ruleset: nascar has no per-turn settings.
func (Ruleset) Set(race.State, string, string) (race.State, error) {
	return nil, fmt.Errorf("nascar has no settings for a turn")
}

// Prompts implements race.Ruleset: every car still racing.
func (Ruleset) Prompts(st race.State) []race.Prompt {
	s := st.(*State)
	var out []race.Prompt
	for i := range s.Cars {
		c := &s.Cars[i]
		if !c.racing() {
			continue
		}
		note := fmt.Sprintf("speed %d, max %d, heading %v, %s", c.Speed, c.MaxSpeed, c.Heading, words.Count(c.Wildcards, "wildcard"))
		switch {
		case c.PutBehind:
			note += "; S (slipstream) is open: you were put behind in a crash"
		case s.canSlipstream(c):
			note += "; S (slipstream) is open: you start right behind a car going your way"
		}
		out = append(out, race.Prompt{Seat: c.Seat, Name: c.Name, Turn: s.T, Orders: 1,
			Legal: []string{"an order string such as A(2M)RM(R+1)"}, Note: note})
	}
	return out
}

// orderer is the car of seat, if it may order at all: ParseOrder and
// Choices refuse a seat alike.
func (s *State) orderer(seat int) (*RaceCar, error) {
	c := s.car(seat)
	if c == nil {
		return nil, race.NotAllowed("no_such_seat", "there is no seat %d in this race", seat)
	}
	if !c.racing() {
		return nil, race.NotAllowed("finished", "%s has finished", c.Name)
	}
	return c, nil
}

// ParseOrder implements race.Ruleset.
func (Ruleset) ParseOrder(st race.State, sub race.Submission) (race.Order, error) {
	s := st.(*State)
	return race.ReadOrder(sub, s.orderer, Parse, func(c *RaceCar, o Order) (Order, error) {
		_, err := Check(o, s.carFor(c))
		return o, err
	})
}

// DefaultOrder implements race.Ruleset: a missed turn keeps speed and heading.
func (Ruleset) DefaultOrder(st race.State, seat int) race.Order {
	s := st.(*State)
	if c := s.car(seat); c != nil {
		return cruise(c.Speed)
	}
	return Order{}
}

// Resolve implements race.Ruleset.
func (Ruleset) Resolve(st race.State, orders map[int]race.Order, d *dice.Roller, _ time.Time) (race.State, []race.Event, error) {
	s := st.(*State)
	os, err := race.OrdersAs[Order]("nascar", orders)
	if err != nil {
		return nil, nil, err
	}
	for i := range s.Cars {
		if c := &s.Cars[i]; c.racing() {
			if _, ok := os[c.Seat]; !ok {
				os[c.Seat] = cruise(c.Speed)
			}
		}
	}
	n, ev := resolve(s, os, d)
	return n, ev, nil
}

// Standings implements race.Ruleset: finishers in order, then the rest by distance.
func (Ruleset) Standings(st race.State) race.Standings {
	s := st.(*State)
	var out race.Standings
	for _, seat := range s.Finish {
		c := s.car(seat)
		detail := fmt.Sprintf("turn %d", c.FinishTurn)
		if c.PitFinish {
			detail += ", through the pit lane"
		}
		out = append(out, race.Standing{Place: len(out) + 1, Seat: c.Seat, Name: c.Name, Player: c.Player, Status: "finished", Detail: detail})
	}
	for _, c := range s.order() {
		lap := max(1, min(c.Crossings, s.Laps))
		out = append(out, race.Standing{Place: len(out) + 1, Seat: c.Seat, Name: c.Name, Player: c.Player, Status: "racing", Detail: fmt.Sprintf("lap %d of %d", lap, s.Laps)})
	}
	return out
}

// DecodeState implements race.Ruleset.
func (Ruleset) DecodeState(b []byte) (race.State, error) {
	return race.DecodeJSON[State]("a nascar state", b, func(s *State) (err error) {
		s.track, err = LoadTrack(s.TrackID)
		return err
	}, (*State).check)
}

// maxMaxSpeed bounds a car's max speed in a stored state: the PP mark adds
// 10 - speed without a cap, at most once a lap, so a car can pass 12 but
// never by much; a speed in the millions would make a turn of millions of moves.
const maxMaxSpeed = StartMaxSpeed + 10*(race.MaxLaps+1)

// check is what race.DecodeJSON holds a stored state to; it refuses cars out
// of their seats or off the map, headings and upgrades the game has not got,
// speeds beyond any car's (a turn of a billion moves), finishers that did
// not finish.
func (s *State) check() error {
	t := s.track
	if err := race.CheckLaps(s.Laps); err != nil {
		return err
	}
	switch {
	case s.T < 1 || s.T > s.MaxTurns()+1:
		return fmt.Errorf("turn %d; a race of %d laps runs turns 1 to %d", s.T, s.Laps, s.MaxTurns())
	case len(s.Cars) < 2 || len(s.Cars) > len(t.Grid):
		return fmt.Errorf("%d cars; %s races 2 to %d", len(s.Cars), t.Name, len(t.Grid))
	}
	onMap := func(p Point) bool { return p.X >= 0 && p.Y >= 0 && p.X < t.W && p.Y < t.H }
	finished := 0
	for i := range s.Cars {
		c := &s.Cars[i]
		switch {
		case c.Seat != i:
			return fmt.Errorf("car %d sits in seat %d", i+1, c.Seat)
		case !onMap(c.Pos):
			return fmt.Errorf("%s is at %v, off the map of %s", c.Name, c.Pos, t.Name)
		case c.Heading < N || c.Heading > NW:
			return fmt.Errorf("%s has the heading %d; headings are 0 (N) to 7 (NW)", c.Name, c.Heading)
		case c.Upgrade < NoUpgrade || c.Upgrade > Performance:
			return fmt.Errorf("%s has the upgrade %d; upgrades are 0 (none) to 3 (performance)", c.Name, c.Upgrade)
		case c.MaxSpeed < MinMaxSpeed || c.MaxSpeed > maxMaxSpeed:
			return fmt.Errorf("%s has max speed %d; %d to %d", c.Name, c.MaxSpeed, MinMaxSpeed, maxMaxSpeed)
		case c.Speed < 0 || c.Speed > c.MaxSpeed:
			return fmt.Errorf("%s has speed %d; 0 to its max speed %d", c.Name, c.Speed, c.MaxSpeed)
		case c.Wildcards < 0 || c.Wildcards > 10*maxMaxSpeed:
			return fmt.Errorf("%s has %d wildcards", c.Name, c.Wildcards)
		case c.Crossings < 0 || c.Crossings > s.Laps+1:
			return fmt.Errorf("%s has crossed the line %d times in a race of %d laps", c.Name, c.Crossings, s.Laps)
		case c.Out != "" && c.Out != Finished:
			return fmt.Errorf("%s is out for an unknown reason %q", c.Name, c.Out)
		case c.PitFinish && (c.Out != Finished || !s.PitFinishNoWin):
			return fmt.Errorf("%s is marked as finished through the pit lane, which this race does not allow", c.Name)
		}
		for _, p := range c.Trail {
			// A car that leaves the track drives on off it, even off the map,
			// before it is put back: never further than a turn's moves.
			if p.X < -maxMaxSpeed || p.Y < -maxMaxSpeed || p.X >= t.W+maxMaxSpeed || p.Y >= t.H+maxMaxSpeed {
				return fmt.Errorf("%s's trail passes %v, far off the map of %s", c.Name, p, t.Name)
			}
		}
		if c.Out == Finished {
			finished++
		}
	}
	for _, ps := range [][]Point{s.Oil, s.Sandbags, s.Found} {
		for _, p := range ps {
			if !onMap(p) {
				return fmt.Errorf("an oil slick or sandbag at %v, off the map of %s", p, t.Name)
			}
		}
	}
	racer := func(seat int) (string, bool, bool) {
		if c := s.car(seat); c != nil {
			return c.Name, c.Out == Finished, true
		}
		return "", false, false
	}
	return race.CheckFinishOrder(s.Finish, racer, finished, "cars")
}

// sandbags are the race's hidden sandbags: the track's, unless the host's
// race option 'sandbags' places them ('x,y;x,y', or 'none').
func sandbags(t *Track, options map[string]string) ([]Point, error) {
	v, ok := options["sandbags"]
	if !ok {
		return append([]Point(nil), t.Sandbag...), nil
	}
	if strings.TrimSpace(v) == "none" {
		return nil, nil
	}
	var out []Point
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == ' ' }) {
		var p Point
		if _, err := fmt.Sscanf(f, "%d,%d", &p.X, &p.Y); err != nil || fmt.Sprintf("%d,%d", p.X, p.Y) != f {
			return nil, fmt.Errorf("sandbags: %q is not a square; write x,y;x,y (x to the East, y to the North) or none", f)
		}
		if q := t.At(p); !q.OnTrack() || q.InPit() || q == Finish {
			return nil, fmt.Errorf("sandbags: %v is not a racing square of %s", p, t.Name)
		}
		out = append(out, p)
	}
	return out, nil
}

// pitFinishNoWin reads the pit-finish option: whether a finish through the
// pit lane is a finish that cannot win (no-win) or no finish at all (lap).
func pitFinishNoWin(v string) (bool, error) {
	f, _ := race.FieldNamed(game().Options, "pit-finish")
	w, err := f.Chosen(v)
	return w == "no-win", err
}
