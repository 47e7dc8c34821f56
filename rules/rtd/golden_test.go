package rtd

import (
	"fmt"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
)

// rtd's own lines in a turn case (docs/turn-cases.md):
//
//	course luigi-circuit
//	turn 3                       (the race's turn; 1 is the start)
//	laps 3
//	racer Mario segment 2 laps 0 momentum 3 perk item-bonus debuff slow hand mushroom hand star fellback
//	order Mario Luigi            (race order, first place first; default: as listed)
//	blue Mario                   (a blue shell Mario fired last turn strikes this turn)
//	option pull-ahead=when-ordered (a race option; each is its default unless set)
type caseReader struct {
	state *State
	racetest.Seats
	order   []string
	blue    string
	options map[string]string
}

func newCaseReader() racetest.CaseReader {
	return &caseReader{state: &State{T: 2, Laps: 3}, Seats: racetest.Seats{}, options: map[string]string{}}
}

func (r *caseReader) Line(w []string) error {
	l := racetest.NewLine(w)
	s := r.state
	switch w[0] {
	case "course":
		c, err := LoadCourse(l.Word())
		l.Check(err)
		s.course = c
		if c != nil {
			s.CourseID = c.ID
		}
	case "turn":
		s.T = l.Int() - 1
	case "laps":
		s.Laps = l.Int()
	case "racer":
		x := Racer{Seat: len(s.Racers), Name: l.Word()}
		x.Player = x.Name
		ints := map[string]*int{"segment": &x.Segment, "laps": &x.Laps, "momentum": &x.Momentum,
			"star": &x.Star, "ghost": &x.Ghost, "ink": &x.Ink, "shrunk": &x.Shrunk, "shells": &x.Shells}
		l.Fields("racer", ints, func(k string) bool {
			switch k {
			case "perk", "debuff":
				p, err := ParsePerk(l.Word())
				l.Check(err)
				if k == "perk" {
					x.Perk = p
				} else {
					x.Debuff = p
				}
			case "hand":
				it, err := ParseItem(l.Word())
				l.Check(err)
				x.give(it) // again for more than one item
			case "fellback":
				x.FellBack = true
			default:
				return false
			}
			return true
		})
		r.Seats[x.Name] = x.Seat
		s.Racers = append(s.Racers, x)
	case "order":
		r.order = w[1:]
	case "blue":
		r.blue = l.Word()
	case "option":
		if k, v, ok := l.Option(); ok {
			r.options[k] = v
		}
	default:
		l.Failf("unknown line %q", w[0])
	}
	return l.Err()
}

func (r *caseReader) State() (race.State, error) {
	s := r.state
	if s.course == nil {
		return nil, fmt.Errorf("no course line")
	}
	opts, err := readOptions(r.options) // as Setup reads a race's
	if err != nil {
		return nil, err
	}
	s.Opts = opts
	if r.blue != "" {
		seat, ok := r.Seats[r.blue]
		if !ok {
			return nil, fmt.Errorf("blue %s: no such racer", r.blue)
		}
		s.BlueShell = &BlueShellShot{By: seat, Turn: s.T}
	}
	order := r.order
	if order == nil {
		for _, x := range s.Racers {
			order = append(order, x.Name)
		}
	}
	for _, n := range order {
		seat, ok := r.Seats[n]
		if !ok {
			return nil, fmt.Errorf("order %s: no such racer", n)
		}
		s.Order = append(s.Order, seat)
	}
	return s, nil
}

func describe(s *State, x *Racer) string {
	out := fmt.Sprintf("%d. %-6s lap %d %-22s momentum %d", s.position(x.Seat), x.Name, x.Laps+1, s.course.Segments[x.Segment].Name, x.Momentum)
	if x.Hand != 0 {
		out += " holding " + x.itemsText()
	}
	if x.FellBack {
		out += " fell-back"
	}
	for _, e := range []struct {
		n string
		v int
	}{{"ink", x.Ink}, {"shrunk", x.Shrunk}, {"star", x.Star}, {"ghost", x.Ghost}} { // shells: with the items
		if e.v > 0 {
			out += fmt.Sprintf(" %s %d", e.n, e.v)
		}
	}
	if x.Finished {
		out += " FINISHED"
	}
	return out
}

func TestGoldenTurns(t *testing.T) {
	racetest.TurnCases{Ruleset: Ruleset{}, Dir: "testdata/turns", New: newCaseReader,
		Describe: func(st race.State) []string {
			ns := st.(*State)
			var out []string
			for _, seat := range ns.Order {
				out = append(out, describe(ns, ns.racer(seat)))
			}
			return out
		}}.Run(t)
}
