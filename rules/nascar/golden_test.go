package nascar

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
)

// nascar's own lines in a turn case (docs/turn-cases.md), on the test loop
// (testdata/loop.txt):
//
//	laps 3
//	car Marcus at 13,1 heading E speed 4 max 12 wildcards 6 upgrade turbo crossings 3 inpit
//	oil 7,1
type caseReader struct {
	state *State
	racetest.Seats
}

// loadLoop reads the test loop.
func loadLoop(t testing.TB) *Track {
	t.Helper()
	src, err := os.ReadFile("testdata/loop.txt")
	if err != nil {
		t.Fatal(err)
	}
	tr, err := ParseTrack("loop.txt", src)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func newCaseReader(t testing.TB) racetest.CaseReader {
	tr := loadLoop(t)
	return &caseReader{state: &State{TrackID: tr.ID, T: 5, Laps: tr.Laps, track: tr, Sandbags: tr.Sandbag}, Seats: racetest.Seats{}}
}

func (r *caseReader) State() (race.State, error) { return r.state, nil }

func (r *caseReader) Line(w []string) error {
	l := racetest.NewLine(w)
	switch w[0] {
	case "laps":
		r.state.Laps = l.Int()
	case "option": // option pit-finish=no-win
		k, v, _ := l.Option()
		if k != "pit-finish" {
			l.Failf("option %q: the cases take pit-finish", k)
		}
		noWin, err := pitFinishNoWin(v)
		l.Check(err)
		r.state.PitFinishNoWin = noWin
	case "finished": // finished NAME: a car that took the flag before the turn, on the track
		if seat, ok := r.Seats[l.Word()]; !ok {
			l.Failf("finished names a car on a line before")
		} else {
			c := &r.state.Cars[seat]
			c.Out, c.Crossings = Finished, r.state.Laps+1
			r.state.Finish = append(r.state.Finish, c.Seat)
		}
	case "oil":
		x, y := l.Pair(",")
		r.state.Oil = append(r.state.Oil, Point{x, y})
	case "car":
		c := RaceCar{Seat: len(r.state.Cars), Name: l.Word(), MaxSpeed: StartMaxSpeed, Wildcards: StartWildcards, Heading: E, Crossings: 1}
		c.Player = c.Name
		ints := map[string]*int{"speed": &c.Speed, "max": &c.MaxSpeed, "wildcards": &c.Wildcards, "crossings": &c.Crossings}
		l.Fields("car", ints, func(k string) bool {
			switch k {
			case "at":
				c.Pos.X, c.Pos.Y = l.Pair(",")
			case "heading":
				h, err := ParseHeading(l.Word())
				l.Check(err)
				c.Heading = h
			case "upgrade":
				u, err := ParseUpgrade(l.Word())
				l.Check(err)
				c.Upgrade = u
			case "inpit":
				c.InPit = true
			case "put-behind": // lost a crash last turn
				c.PutBehind = true
			default:
				return false
			}
			return true
		})
		r.Seats[c.Name] = c.Seat
		r.state.Cars = append(r.state.Cars, c)
	default:
		l.Failf("unknown line %q", w[0])
	}
	return l.Err()
}

func describe(c *RaceCar) string {
	parts := []string{fmt.Sprintf("%-7s at %d,%d heading %-2v speed %d max %d wildcards %d crossings %d", c.Name, c.Pos.X, c.Pos.Y, c.Heading, c.Speed, c.MaxSpeed, c.Wildcards, c.Crossings)}
	if c.InPit {
		parts = append(parts, "in the pit")
	}
	if c.PutBehind {
		parts = append(parts, "put behind (may slipstream)")
	}
	if c.Out == Finished && c.PitFinish {
		parts = append(parts, "finished through the pit lane")
	}
	if c.PitBroken {
		parts = append(parts, "pit limit broken")
	}
	if c.Out != "" {
		parts = append(parts, "OUT: "+c.Out)
	}
	return strings.Join(parts, " ")
}

func TestGoldenTurns(t *testing.T) {
	racetest.TurnCases{Ruleset: Ruleset{}, Dir: "testdata/turns", New: func() racetest.CaseReader { return newCaseReader(t) },
		Describe: func(st race.State) []string {
			ns := st.(*State)
			var out []string
			for i := range ns.Cars {
				out = append(out, describe(&ns.Cars[i]))
			}
			if len(ns.Finish) > 0 {
				var names []string
				for _, seat := range ns.Finish {
					names = append(names, ns.car(seat).Name)
				}
				out = append(out, "finish: "+strings.Join(names, ", "))
			}
			if len(ns.Oil) > 0 || len(ns.Found) > 0 {
				out = append(out, fmt.Sprintf("oil %v, sandbags seen %v", ns.Oil, ns.Found))
			}
			return out
		}}.Run(t)
}
