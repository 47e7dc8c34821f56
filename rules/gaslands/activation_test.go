package gaslands

import (
	"fmt"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// stage is a race on Luigi Raceway with the karts placed by hand: each
// "Name vehicle x y heading gear hazards" on the table (mm, degrees); the
// first is active.
func stage(t testing.TB, karts ...string) *State {
	t.Helper()
	tr, err := LoadTrack("luigi-raceway")
	if err != nil {
		t.Fatal(err)
	}
	s := &State{TrackID: tr.ID, Laps: 2, M: DefaultManeuvers(), track: tr, Round: 1, Phase: 1}
	for i, line := range karts {
		var name, veh string
		var x, y, h float64
		var gear, hz int
		if _, err := fmt.Sscan(line, &name, &veh, &x, &y, &h, &gear, &hz); err != nil {
			t.Fatalf("kart %q: %v", line, err)
		}
		v, err := VehicleNamed(veh)
		if err != nil {
			t.Fatal(err)
		}
		k := underWay(v, i, name)
		k.Gear, k.Hazards = gear, hz
		k.Pos.Centre, k.Pos.Heading = Vec{x, y}, h*math.Pi/180
		s.Karts = append(s.Karts, k)
	}
	s.Active = 0
	return s
}

// underWay is a kart of v called name (its player "P" and the name) under
// way: on lap 1, gate 1 due, for the test to place.
func underWay(v Vehicle, seat int, name string) Kart {
	k := v.kart(seat, "P"+name, name)
	k.Lap, k.Gate, k.Pos = 1, 1, Rect{Length: KartLength, Width: KartWidth}
	return k
}

// play runs the active kart's order with the scripted dice; every die must be used.
func playOrder(t *testing.T, s *State, order string, rolls ...string) (*State, []race.Event) {
	t.Helper()
	sc, err := dice.NewScript(rolls...)
	if err != nil {
		t.Fatal(err)
	}
	o, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: s.Active, Text: order})
	if err != nil {
		t.Fatalf("%q: %v", order, err)
	}
	next, ev, err := (Ruleset{}).Resolve(s, map[int]race.Order{s.Active: o}, dice.WithSource(sc), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if sc.Err() != nil || sc.Left() > 0 {
		var lines []string
		for _, e := range ev {
			lines = append(lines, e.Text)
		}
		t.Fatalf("%q: the dice: %v, %d left over; the events:\n%s", order, sc.Err(), sc.Left(), strings.Join(lines, "\n"))
	}
	return next.(*State), ev
}

// gaslands' own lines in a turn case (docs/turn-cases.md), on Luigi Raceway
// in round 1, gear phase 1 (or phase N), the first kart active:
//
//	laps 2
//	phase 3
//	option trivial=token
//	kart Mario car at 300,170 heading 0 gear 2 hazards 0 item green-shell lap 1 gate 1 collide smash
//	bill Mario at 500,170 heading 0 moves 1
//
// at is the centre in mm, heading in degrees (0 east, counterclockwise).
type caseReader struct {
	state *State
	racetest.Seats
}

func newCaseReader(t testing.TB) racetest.CaseReader {
	s := stage(t)
	return &caseReader{state: s, Seats: racetest.Seats{}}
}

func (r *caseReader) State() (race.State, error) {
	if len(r.state.Karts) == 0 {
		return nil, fmt.Errorf("no kart line")
	}
	return r.state, nil
}

func (r *caseReader) Line(w []string) error {
	l := racetest.NewLine(w)
	number := func(v string) float64 {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			l.Failf("%q is not a number", v)
		}
		return f
	}
	// place reads a kart's or a bill's "at X,Y" (mm) or "heading D" (degrees).
	place := func(word string, p *Rect) {
		if word == "heading" {
			p.Heading = number(l.Word()) * math.Pi / 180
			return
		}
		x, y, ok := strings.Cut(l.Word(), ",")
		if !ok {
			l.Failf("at is X,Y in mm")
		}
		p.Centre = Vec{number(x), number(y)}
	}
	switch w[0] {
	case "laps":
		r.state.Laps = l.Int()
	case "phase": // phase N: the gear phase the activation is in
		r.state.Phase = l.Int()
	case "option": // option KEY=VALUE: a race option that picks a reading
		k, v, _ := l.Option()
		ok, err := r.state.setReading(k, v)
		l.Check(err)
		if !ok {
			l.Failf("option %q is not a reading (%s)", k, strings.Join(slices.Sorted(maps.Keys(readings)), ", "))
		}
	case "kart":
		name := l.Word()
		v, err := VehicleNamed(l.Word())
		l.Check(err)
		k := underWay(v, len(r.state.Karts), name)
		ints := map[string]*int{"gear": &k.Gear, "hazards": &k.Hazards, "lap": &k.Lap, "gate": &k.Gate}
		l.Fields("kart", ints, func(word string) bool {
			switch word {
			case "at", "heading":
				place(word, &k.Pos)
			case "item":
				k.Item = l.Word()
			case "collide":
				k.Collide = l.Word()
			default:
				return false
			}
			return true
		})
		r.Seats[name] = k.Seat
		r.state.Karts = append(r.state.Karts, k)
	case "bill": // bill OWNER at X,Y heading D moves N: a Bullet Bill in flight
		owner, ok := r.Seats[l.Word()]
		if !ok {
			l.Failf("a bill's owner is a kart named on a line before it")
		}
		b := Bill{Owner: owner, Pos: Rect{Length: BillLength, Width: BillWidth}}
		l.Fields("bill", map[string]*int{"moves": &b.Moves}, func(word string) bool {
			if word != "at" && word != "heading" {
				return false
			}
			place(word, &b.Pos)
			return true
		})
		r.state.Bills = append(r.state.Bills, b)
	default:
		l.Failf("unknown line %q", w[0])
	}
	return l.Err()
}

// describeKarts is every kart after a turn, as the golden files show it.
func describeKarts(st race.State) []string {
	var out []string
	for _, k := range st.(*State).Karts {
		out = append(out, fmt.Sprintf("%s: gear %d, %d hazards, at (%.1f, %.1f) facing %.1f°, lap %d, gate %d, item %q, finished %v",
			k.Name, k.Gear, k.Hazards, k.Pos.Centre.X, k.Pos.Centre.Y, k.Pos.Heading*180/math.Pi, k.Lap, k.Gate, k.Item, k.Finished))
	}
	s := st.(*State)
	var order []string
	for _, x := range (Ruleset{}).Standings(s) {
		order = append(order, x.Name)
	}
	out = append(out, "standings: "+strings.Join(order, ", "))
	for _, b := range s.Bills {
		out = append(out, fmt.Sprintf("%s's Bullet Bill: at (%.1f, %.1f) facing %.1f°, %d moves",
			s.Karts[s.seatIndex(b.Owner)].Name, b.Pos.Centre.X, b.Pos.Centre.Y, b.Pos.Heading*180/math.Pi, b.Moves))
	}
	return out
}

func TestGoldenTurns(t *testing.T) {
	racetest.TurnCases{Ruleset: Ruleset{}, Dir: "testdata/turns", Describe: describeKarts,
		New: func() racetest.CaseReader { return newCaseReader(t) }}.Run(t)
}

// The cases' own checks, beside their golden files: what each must show,
// in numbers. On the bottom straight of Luigi Raceway the road runs east
// along y=170, 220 mm wide; the boost is on the top straight, the pipe at
// (300, 760).
var turnChecks = map[string]func(t *testing.T, s *State){
	"trivial-sheds-a-token": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Hazards == 1, "a trivial template sheds one of two tokens")
	},
	"hazardous-gains-a-token": func(t *testing.T, s *State) { want(t, s.Karts[0].Hazards == 1, "the turn is hazardous in gear 4") },
	"shift-discards-hazard":   func(t *testing.T, s *State) { want(t, s.Karts[0].Hazards == 0, "the SHIFT discards the HAZARD") },
	"shift-discards-token": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Hazards == 2, "a spare SHIFT discards a token from the kart")
	},
	"shift-up": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Gear == 3 && s.Karts[0].Hazards == 1, "gear 3 with a token for the shift, the HAZARD discarded")
	},
	"shift-down": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Gear == 2 && s.Karts[0].Hazards == 0, "gear 2, no token")
	},
	"trivial-free-shift": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Gear == 2 && s.Karts[0].Hazards == 1, "gear 2, 1 hazard")
	},
	"spin-ordered-keeps-its-spin": func(t *testing.T, s *State) {
		want(t, sameAngle(s.Karts[0].Pos.Heading, math.Pi/4) && s.Karts[0].Hazards == 1, "a hazard for the SPIN, turned 45 degrees left")
	},
	"collision-kart-hit-stop": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Hazards == 1 && s.Karts[1].Hazards == 2, "Bowser 2, Mario 1")
		want(t, s.Karts[0].Pos.Centre.X < 770-KartLength+1 && s.Karts[0].Pos.Centre.X > 700, "Mario stopped against Bowser")
	},
	"bills-grounded-after-gear-2": func(t *testing.T, s *State) {
		want(t, len(s.Bills) == 2 && s.Bills[0].Moves == 1 && s.Bills[1].Moves == 1, "no bill flies")
	},
	"bills-every-activation": func(t *testing.T, s *State) {
		want(t, len(s.Bills) == 1 && s.Bills[0].Moves == 2 && s.Karts[1].Hazards == 4, "both bills fly; the first is spent on Luigi")
	},
	"spin-unordered-is-discarded": func(t *testing.T, s *State) {
		want(t, sameAngle(s.Karts[0].Pos.Heading, 0) && s.Karts[0].Hazards == 0, "no hazard, not turned")
	},
	"push-it-free-on-road": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Hazards == 0, "the SPIN re-rolled to a SHIFT; Push It free on the road; the SHIFTs have nothing to discard")
	},
	"push-it-off-road-costs": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Hazards == 1, "Push It from the road's edge costs a token")
	},
	"slide": func(t *testing.T, s *State) {
		plain := templateMotion(mustT("gentle"), true, s.Last.Start)
		end := plain.At(plain.Len).Centre
		want(t, s.Karts[0].Pos.Centre.Near(end.Add(Vec{45, 0}), 0.01), "slid 45 mm east, the way it faced before the gentle")
		want(t, s.Karts[0].Hazards == 1, "the SLIDE is a hazard")
	},
	"spin-chosen": func(t *testing.T, s *State) { want(t, sameAngle(s.Karts[0].Pos.Heading, math.Pi/4), "spun 45° left") },
	"spin-default-faces-road": func(t *testing.T, s *State) {
		want(t, math.Abs(angleTo(s.Karts[0].Pos.Heading, s.track.Heading(s.Karts[0].Pos.Centre))) < 0.1, "turned to face down the road")
	},
	"off-road": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Hazards == 1, "from the road into the grass: a token")
	},
	"collision-head-on": func(t *testing.T, s *State) {
		// Head on: 2+2 dice, one fewer for the lighter car: 6, 4, 1 = 3 hits; Bowser evades with 2 dice: 5, 6 = 1 cancelled.
		// Bowser evades, so rolls no smash: Mario takes the least, 1.
		want(t, s.Karts[1].Hazards == 2 && s.Karts[0].Hazards == 1, "Bowser 2, Mario 1")
		want(t, !s.Karts[0].Pos.Overlaps(s.Karts[1].Pos), "karts never end a move on one another")
		want(t, s.Karts[0].Pos.Centre.Near(Vec{840, 170}, 1e-6), "Mario drove on through Bowser to the end of the long")
		want(t, s.Karts[1].Pos.Centre == Vec{770, 170}, "Bowser was not moved")
	},
	"collision-both-smash": func(t *testing.T, s *State) {
		// Bowser smashes back (its standing choice), so neither evades: Mario's 2+1-1 = 2 dice miss;
		// Bowser's 2+1+1 = 4 dice: 4, 1, 2, 3 = 1 hit. Each takes 1.
		want(t, s.Karts[0].Hazards == 1 && s.Karts[1].Hazards == 1, "each 1")
	},
	"stops-short-of-a-kart": func(t *testing.T, s *State) {
		// Mario runs into Bowser's rear (both evade: no dice, a hazard each) and on; the long's end is
		// on top of Bowser, so Mario stops where he last had room: nose to tail.
		want(t, !s.Karts[0].Pos.Overlaps(s.Karts[1].Pos), "no overlap at the end")
		want(t, s.Karts[0].Pos.Centre.X < 770+0.01 && s.Karts[0].Pos.Centre.X > 760, "stopped nose to tail behind Bowser")
	},
	"immovable-obstruction": func(t *testing.T, s *State) {
		// The pipe (heavy, gear 0) smashes head on: 0+2 dice +1 heavier = 3: 4, 4, 2 = 2 hits; Mario evades 2 dice: 6 cancels 1.
		want(t, s.Karts[0].Hazards == 1, "1 hazard")
		want(t, s.Karts[0].Pos.Centre.X < 300-25-30+0.5, "stopped at the pipe")
	},
	"destructible-obstruction": func(t *testing.T, s *State) {
		// The mushroom (middle, gear 0) head on: 0+2 dice: 1, 1 = no hits; Mario evades? no hits, no evade roll... but every kart takes 1.
		want(t, s.Karts[0].Hazards == 1 && len(s.Gone) == 1, "1 hazard and the mushroom gone")
		want(t, s.Karts[0].Pos.Centre.Y > 420, "drove on through")
	},
	"boost": func(t *testing.T, s *State) {
		// Down the boost (its far end at x=545), then a medium straight on: 545-60-120 = 365 for the rear.
		want(t, s.Karts[0].Hazards == 1, "a token for the boost")
		want(t, s.Karts[0].Pos.Centre.Near(Vec{335, 730}, 1e-6), "carried down the boost and a medium straight on")
	},
	"boost-then-slide": func(t *testing.T, s *State) {
		// The SLIDE waits for the forced move, then carries the kart 45 mm west, the way it faced before its template.
		want(t, s.Karts[0].Hazards == 2, "a token for the SLIDE, one for the boost")
		sl := s.Last.Slide
		want(t, len(sl) == 2 && sl[1].Sub(sl[0]).Near(Vec{-45, 0}, 1e-6), "slid 45 mm west after the forced move")
	},
	"gates-in-order": func(t *testing.T, s *State) {
		// Across the start line with gate 2 still due: no lap.
		want(t, s.Karts[0].Lap == 1 && s.Karts[0].Gate == 2, "no lap without the gates")
	},
	"shell": func(t *testing.T, s *State) {
		// 5 attack dice: 6 5 4 1 2 = 4 hits; Luigi in gear 3 evades: 6 3 6 = 2 cancelled: 2 hazards.
		want(t, s.Karts[1].Hazards == 2 && s.Karts[0].Item == "", "2 hazards, the shell spent")
	},
	"shell-nearest": func(t *testing.T, s *State) {
		// After the short, Mario's centre is at 435: Peach (67 mm off) is nearer than Luigi (165): 1 hit, her 1 evade die misses.
		want(t, s.Karts[2].Hazards == 1 && s.Karts[1].Hazards == 0 && s.Karts[0].Item == "", "the nearest kart took the shell")
	},
	"shell-nearest-none": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Item == GreenShell, "no kart in reach: the shell is kept")
	},
	"wipeout": func(t *testing.T, s *State) {
		k := s.Karts[0]
		want(t, k.Gear == 1 && k.Hazards == 0 && k.Wipeouts == 1, "gear 1, no tokens")
		want(t, sameAngle(k.Pos.Heading, math.Pi/4-math.Pi/2), "the scatter die's 3 turns it 90° clockwise from the gentle's 45°")
	},
	"wipeout-blocked": func(t *testing.T, s *State) {
		k := s.Karts[0]
		want(t, k.Gear == 1 && k.Hazards == 0, "wiped out")
		want(t, !k.Pos.Overlaps(s.Karts[1].Pos), "the turn stops short of Luigi")
		want(t, k.Pos.Heading < 0 && k.Pos.Heading > -math.Pi/2, "turned clockwise, but less than the die's 90°")
	},
	"bullet-bill": func(t *testing.T, s *State) {
		// Fired from Mario's nose after his move, the bill meets Luigi from behind: a tailgate with
		// Luigi in gear 1: 2-1 = 1 die, +2 for a heavy bill on a middleweight: 6, 6 = 4 hits; Luigi's 1 cancels none.
		want(t, len(s.Bills) == 0 && s.Karts[1].Hazards >= 1, "the bill hit Luigi and is spent")
	},
	"two-bills": func(t *testing.T, s *State) {
		want(t, s.Karts[1].Hazards == 4, "the first bill hit Luigi: 4 tokens")
		want(t, len(s.Bills) == 1 && s.Bills[0].Moves == 2 && s.Bills[0].Pos.Centre.X > 300, "the second bill flew on after the first hit")
	},
	"set-back-behind-the-line": func(t *testing.T, s *State) {
		m := s.Karts[0]
		want(t, !m.Pos.Overlaps(s.Karts[1].Pos), "no overlap at the end")
		want(t, m.Pos.Centre.X < 760 && m.Lap == 1 && m.Gate == 0, "put back behind the line, Mario is on lap 1 and due at the line")
		want(t, Ruleset{}.Standings(s)[3].Seat == 0, "behind the line, Mario is last")
	},
	"boost-graze-no-room": func(t *testing.T, s *State) {
		whole := templateMotion(mustT("medium"), true, s.Last.Start)
		want(t, s.Karts[0].Pos.Centre.Near(whole.At(whole.Len).Centre, 0.01), "with no room on the boost, Mario drove the whole medium")
	},
	"standings-cut-across": func(t *testing.T, s *State) {
		want(t, s.Distance(s.Karts[1]) > s.Distance(s.Karts[2]), "Mario, past gate 2, is ahead of Luigi, who has not crossed it")
	},
	"lap-and-finish": func(t *testing.T, s *State) {
		want(t, s.Karts[0].Finished && s.Karts[0].Place == 1, "crossing the line on the last lap finishes")
	},
}

func TestActivations(t *testing.T) {
	for name, check := range turnChecks {
		t.Run(name, func(t *testing.T) {
			tc, err := racetest.ReadTurnCase(filepath.Join("testdata", "turns", name+".txt"), newCaseReader(t))
			if err != nil {
				t.Fatal(err)
			}
			next, _, err := tc.Play(Ruleset{})
			if err != nil {
				t.Fatal(err)
			}
			check(t, next.(*State))
		})
	}
}

func mustT(name string) Template { t, _ := TemplateNamed(name); return t }

func sameAngle(a, b float64) bool { return math.Abs(math.Remainder(a-b, 2*math.Pi)) < 1e-6 }

func want(t *testing.T, ok bool, what string) {
	t.Helper()
	if !ok {
		t.Error(what)
	}
}
