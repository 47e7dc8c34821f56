package ludi

import (
	"fmt"
	"strings"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
	"pitwall/rules/ludi/tables"
)

// ludi's own lines in a turn case (docs/turn-cases.md):
//
//	turn 2                      (the turn to play; 1 is the race start)
//	orders-per-turn 1
//	laps 3
//	chariot Marcus lane 3 at 0:5 FAST skill 1 constitution 1 quality 1 size 1 speed 0 endurance 2
//	chariot Livia lane 4 at 0:5 LOW damage 1/0 worn 1 stunned 1 flipped lap 2 injuries 1 lame 1
//	chariot Titus lane 3 at 0:9 wreck      (flipped and abandoned: an obstacle)
//	option watch-crash=none     (a race option; those not given take their default)
//
// on the Circus Maximus. Team characteristics not given are 1; 'worn N' is
// the Endurance left.
type caseReader struct {
	state *State
	racetest.Seats
}

func newCaseReader() racetest.CaseReader {
	tr, err := LoadTrack("circus-maximus")
	if err != nil {
		panic(err) // the shipped track: a broken build
	}
	return &caseReader{state: &State{TrackID: tr.ID, T: 2, Laps: 3, Orders: 1, track: tr}, Seats: racetest.Seats{}}
}

func (r *caseReader) State() (race.State, error) {
	r.state.Rules.fill()
	return r.state, nil
}

func (r *caseReader) Line(w []string) error {
	l := racetest.NewLine(w)
	switch w[0] {
	case "turn":
		r.state.T = l.Int()
	case "laps":
		r.state.Laps = l.Int()
	case "orders-per-turn":
		r.state.Orders = l.Int()
	case "option":
		k, v, ok := l.Option()
		if !ok {
			break
		}
		known, err := r.state.Rules.set(k, v)
		l.Check(err)
		if !known {
			l.Failf("unknown race option %q; ludi options: %s", k, optionNames())
		}
	case "chariot":
		c := Chariot{Seat: len(r.state.Chariots), Name: l.Word(), Package: "test", Team: Team{1, 1, 1, 1, 1, 1}}
		c.Player = c.Name
		worn := -1
		// Its words are read in any case ("FAST", as the tables write it).
		l.Fields("chariot", nil, func(word string) bool {
			switch k := strings.ToLower(word); k {
			case "lane":
				c.Pos.Lane = l.Int()
			case "at":
				c.Pos.Seg, c.Pos.Cell = l.Pair(":")
			case "stop", "low", "fast", "max":
				lv, _ := tables.ParseLevel(k)
				c.Level = lv
			case "skill", "constitution", "quality", "size", "speed", "endurance":
				*c.Team.field(k) = l.Int()
			case "worn":
				worn = l.Int()
			case "damage":
				c.DamageL, c.DamageR = l.Pair("/")
			case "stunned":
				c.Stunned = l.Int()
			case "injuries":
				c.HorseInjuries = l.Int()
			case "lame":
				c.Lame = l.Int()
			case "lap":
				c.Lap = l.Int()
			case "flipped":
				c.Flipped = true
			case "wreck": // flipped, its auriga gone: an obstacle and nothing more
				c.Flipped, c.Out = true, RolledAway
			case "droptofast":
				c.DropToFast = true
			default:
				return false
			}
			return true
		})
		c.Skill, c.Endurance = c.Team.Skill, c.Team.Endurance
		if worn >= 0 {
			c.Endurance = worn
		}
		if c.Pos.Lane == 0 {
			l.Failf("chariot %s has no lane", c.Name)
		}
		r.Seats[c.Name] = c.Seat
		r.state.Chariots = append(r.state.Chariots, c)
	default:
		l.Failf("unknown line %q", w[0])
	}
	return l.Err()
}

// describe prints a chariot as the golden files show it.
func describe(c *Chariot) string {
	parts := []string{fmt.Sprintf("%-8s lane %d at %d:%d lap %d %s", c.Name, c.Pos.Lane, c.Pos.Seg, c.Pos.Cell, c.Lap, c.Level)}
	parts = append(parts, fmt.Sprintf("damage %d/%d endurance %d/%d skill %d", c.DamageL, c.DamageR, c.Endurance, c.Team.Endurance, c.Skill))
	for _, x := range []struct {
		n string
		v int
	}{{"injuries", c.HorseInjuries}, {"lame", c.Lame}, {"stunned", c.Stunned}, {"hurt", c.Injured}} {
		if x.v > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", x.n, x.v))
		}
	}
	if c.Flipped {
		parts = append(parts, "FLIPPED")
	}
	if c.DropToFast {
		parts = append(parts, "drop-to-fast")
	}
	if c.Out != "" {
		parts = append(parts, "OUT: "+c.Out)
	}
	return strings.Join(parts, " ")
}

func TestGoldenTurns(t *testing.T) {
	racetest.TurnCases{Ruleset: Ruleset{}, Dir: "testdata/turns", New: newCaseReader,
		Describe: func(st race.State) []string {
			var out []string
			for i := range st.(*State).Chariots {
				out = append(out, describe(&st.(*State).Chariots[i]))
			}
			return out
		}}.Run(t)
}
