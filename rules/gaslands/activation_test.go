package gaslands

import (
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/activations")

// stage is a race on Luigi Raceway with the karts placed by hand: each
// "Name vehicle x y heading gear hazards" on the table (mm, degrees); the
// first is active.
func stage(t *testing.T, karts ...string) *State {
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
		s.Karts = append(s.Karts, Kart{Seat: i, Player: "P" + name, Name: name, Vehicle: v.Name, Weight: v.Weight, Handling: v.Handling,
			MaxGear: v.MaxGear, Gear: gear, Hazards: hz, Collide: "evade", Lap: 1, Gate: 1,
			Pos: Rect{Centre: Vec{x, y}, Heading: h * math.Pi / 180, Length: KartLength, Width: KartWidth}})
	}
	s.Active = 0
	return s
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

func golden(t *testing.T, name, order string, s *State, ev []race.Event) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "order: %s\n", order)
	for _, e := range ev {
		fmt.Fprintf(&b, "- %s\n", e.Text)
	}
	for _, k := range s.Karts {
		fmt.Fprintf(&b, "%s: gear %d, %d hazards, at (%.1f, %.1f) facing %.1f°, lap %d, gate %d, item %q, finished %v\n",
			k.Name, k.Gear, k.Hazards, k.Pos.Centre.X, k.Pos.Centre.Y, k.Pos.Heading*180/math.Pi, k.Lap, k.Gate, k.Item, k.Finished)
	}
	path := filepath.Join("testdata", "activations", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if string(want) != b.String() {
		t.Errorf("%s: the activation changed:\n--- got\n%s--- want\n%s", name, b.String(), want)
	}
}

// On the bottom straight of Luigi Raceway the road runs east along y=170,
// 220 mm wide; the boost is on the top straight, the pipe at (300, 760).
func TestActivations(t *testing.T) {
	for _, tc := range []struct {
		name  string
		karts []string
		order string
		dice  []string
		check func(t *testing.T, s *State)
	}{
		{"trivial-sheds-a-token", []string{"Mario car 300 170 0 1 2"}, "short", nil,
			func(t *testing.T, s *State) {
				want(t, s.Karts[0].Hazards == 1, "a trivial template sheds one of two tokens")
			}},
		{"hazardous-gains-a-token", []string{"Mario car 300 120 0 4 0"}, "turn left", nil,
			func(t *testing.T, s *State) { want(t, s.Karts[0].Hazards == 1, "the turn is hazardous in gear 4") }},
		{"shift-discards-hazard", []string{"Mario car 300 170 0 2 0"}, "medium skid 2", []string{"d6=4", "d6=1"},
			func(t *testing.T, s *State) { want(t, s.Karts[0].Hazards == 0, "the SHIFT discards the HAZARD") }},
		{"shift-discards-token", []string{"Mario car 200 170 0 2 3"}, "long skid 1", []string{"d6=2"},
			func(t *testing.T, s *State) {
				want(t, s.Karts[0].Hazards == 2, "a spare SHIFT discards a token from the kart")
			}},
		{"shift-up", []string{"Mario car 300 170 0 2 0"}, "medium skid 2 shift up", []string{"d6=3", "d6=4"},
			func(t *testing.T, s *State) {
				want(t, s.Karts[0].Gear == 3 && s.Karts[0].Hazards == 2, "gear 3 with a token for the shift and one for the HAZARD")
			}},
		{"shift-down", []string{"Mario car 300 170 0 3 0"}, "medium skid 1 shift down", []string{"d6=1"},
			func(t *testing.T, s *State) {
				want(t, s.Karts[0].Gear == 2 && s.Karts[0].Hazards == 1, "gear 2, one token")
			}},
		{"push-it-free-on-road", []string{"Mario car 300 170 0 2 0"}, "medium skid 2 push", []string{"d6=6", "d6=3", "d6=1"},
			func(t *testing.T, s *State) {
				want(t, s.Karts[0].Hazards == 0, "the SPIN re-rolled to a SHIFT; Push It free on the road; the SHIFTs have nothing to discard")
			}},
		{"push-it-off-road-costs", []string{"Mario car 300 70 0 2 0"}, "medium skid 1 push", []string{"d6=5", "d6=1"},
			func(t *testing.T, s *State) {
				want(t, s.Karts[0].Hazards == 1, "Push It from the road's edge costs a token")
			}},
		{"slide", []string{"Mario car 300 170 0 1 0"}, "gentle left skid 1", []string{"d6=5"},
			func(t *testing.T, s *State) {
				plain := templateMotion(mustT("gentle"), true, s.Last.Start)
				end := plain.At(plain.Len).Centre
				want(t, s.Karts[0].Pos.Centre.Near(end.Add(Vec{45, 0}), 0.01), "slid 45 mm east, the way it faced before the gentle")
				want(t, s.Karts[0].Hazards == 1, "the SLIDE is a hazard")
			}},
		{"spin-chosen", []string{"Mario car 300 170 0 1 0"}, "medium skid 1 spin left 45", []string{"d6=6"},
			func(t *testing.T, s *State) { want(t, sameAngle(s.Karts[0].Pos.Heading, math.Pi/4), "spun 45° left") }},
		{"spin-default-faces-road", []string{"Mario car 300 170 -60 1 0"}, "short skid 1", []string{"d6=6"},
			func(t *testing.T, s *State) {
				want(t, math.Abs(angleTo(s.Karts[0].Pos.Heading, s.track.Heading(s.Karts[0].Pos.Centre))) < 0.1, "turned to face down the road")
			}},
		{"off-road", []string{"Mario car 600 250 90 2 0"}, "long", nil,
			func(t *testing.T, s *State) {
				want(t, s.Karts[0].Hazards == 1, "from the road into the grass: a token")
			}},
		{"collision-head-on", []string{"Mario car 600 170 0 2 0 ", "Bowser heavy-truck 770 170 180 2 0"}, "long smash",
			[]string{"d6=6", "d6=4", "d6=1", "d6=5", "d6=6"},
			func(t *testing.T, s *State) {
				// Head on: 2+2 dice, one fewer for the lighter car: 6, 4, 1 = 3 hits; Bowser evades with 2 dice: 5, 6 = 1 cancelled.
				// Bowser evades, so rolls no smash: Mario takes the least, 1.
				want(t, s.Karts[1].Hazards == 2 && s.Karts[0].Hazards == 1, "Bowser 2, Mario 1")
				want(t, !s.Karts[0].Pos.Overlaps(s.Karts[1].Pos), "karts never end a move on one another")
				want(t, s.Karts[0].Pos.Centre.Near(Vec{840, 170}, 1e-6), "Mario drove on through Bowser to the end of the long")
				want(t, s.Karts[1].Pos.Centre == Vec{770, 170}, "Bowser was not moved")
			}},
		{"collision-both-smash", []string{"Mario car 600 170 0 2 0 ", "Bowser heavy-truck 770 170 180 1 0"}, "long smash",
			[]string{"d6=1", "d6=1", "d6=4", "d6=1", "d6=2", "d6=3"},
			func(t *testing.T, s *State) {
				// Bowser smashes back (its standing choice), so neither evades: Mario's 2+1-1 = 2 dice miss;
				// Bowser's 2+1+1 = 4 dice: 4, 1, 2, 3 = 1 hit. Each takes 1.
				want(t, s.Karts[0].Hazards == 1 && s.Karts[1].Hazards == 1, "each 1")
			}},
		{"stops-short-of-a-kart", []string{"Mario car 600 170 0 2 0 ", "Bowser heavy-truck 830 170 0 2 0"}, "long",
			nil,
			func(t *testing.T, s *State) {
				// Mario runs into Bowser's rear (both evade: no dice, a hazard each) and on; the long's end is
				// on top of Bowser, so Mario stops where he last had room: nose to tail.
				want(t, !s.Karts[0].Pos.Overlaps(s.Karts[1].Pos), "no overlap at the end")
				want(t, s.Karts[0].Pos.Centre.X < 770+0.01 && s.Karts[0].Pos.Centre.X > 760, "stopped nose to tail behind Bowser")
			}},
		{"immovable-obstruction", []string{"Mario car 200 800 0 2 0"}, "short",
			[]string{"d6=4", "d6=4", "d6=2", "d6=6", "d6=1"},
			func(t *testing.T, s *State) {
				// The pipe (heavy, gear 0) smashes head on: 0+2 dice +1 heavier = 3: 4, 4, 2 = 2 hits; Mario evades 2 dice: 6 cancels 1.
				want(t, s.Karts[0].Hazards == 1, "1 hazard")
				want(t, s.Karts[0].Pos.Centre.X < 300-25-30+0.5, "stopped at the pipe")
			}},
		{"destructible-obstruction", []string{"Mario car 1040 330 90 2 0"}, "long",
			[]string{"d6=1", "d6=1"},
			func(t *testing.T, s *State) {
				// The mushroom (middle, gear 0) head on: 0+2 dice: 1, 1 = no hits; Mario evades? no hits, no evade roll... but every kart takes 1.
				want(t, s.Karts[0].Hazards == 1 && len(s.Gone) == 1, "1 hazard and the mushroom gone")
				want(t, s.Karts[0].Pos.Centre.Y > 420, "drove on through")
			}},
		{"boost", []string{"Mario car 760 730 180 2 0"}, "medium",
			nil,
			func(t *testing.T, s *State) {
				// Down the boost (its far end at x=545), then a medium straight on: 545-60-120 = 365 for the rear.
				want(t, s.Karts[0].Hazards == 1, "a token for the boost")
				want(t, s.Karts[0].Pos.Centre.Near(Vec{335, 730}, 1e-6), "carried down the boost and a medium straight on")
			}},
		{"boost-then-slide", []string{"Mario car 760 730 180 2 0"}, "medium skid 1 boost gentle left",
			[]string{"d6=5"},
			func(t *testing.T, s *State) {
				// The SLIDE waits for the forced move, then carries the kart 45 mm west, the way it faced before its template.
				want(t, s.Karts[0].Hazards == 2, "a token for the SLIDE, one for the boost")
				sl := s.Last.Slide
				want(t, len(sl) == 2 && sl[1].Sub(sl[0]).Near(Vec{-45, 0}, 1e-6), "slid 45 mm west after the forced move")
			}},
		{"gates-in-order", []string{"Mario car 700 170 0 2 0"}, "medium", nil,
			func(t *testing.T, s *State) {
				// Across the start line with gate 2 still due: no lap.
				want(t, s.Karts[0].Lap == 1 && s.Karts[0].Gate == 2, "no lap without the gates")
			}},
		{"shell", []string{"Mario car 300 170 0 2 0", "Luigi car 600 170 0 3 0"}, "short shell Luigi",
			[]string{"d6=6", "d6=5", "d6=4", "d6=1", "d6=2", "d6=6", "d6=3", "d6=6"},
			func(t *testing.T, s *State) {
				// 5 attack dice: 6 5 4 1 2 = 4 hits; Luigi in gear 3 evades: 6 3 6 = 2 cancelled: 2 hazards.
				want(t, s.Karts[1].Hazards == 2 && s.Karts[0].Item == "", "2 hazards, the shell spent")
			}},
		{"shell-nearest", []string{"Mario car 300 170 0 2 0", "Luigi car 600 170 0 3 0", "Peach bike 480 120 0 1 0"}, "short shell nearest",
			[]string{"d6=4", "d6=1", "d6=1", "d6=1", "d6=1", "d6=2"},
			func(t *testing.T, s *State) {
				// After the short, Mario's centre is at 435: Peach (67 mm off) is nearer than Luigi (165): 1 hit, her 1 evade die misses.
				want(t, s.Karts[2].Hazards == 1 && s.Karts[1].Hazards == 0 && s.Karts[0].Item == "", "the nearest kart took the shell")
			}},
		{"shell-nearest-none", []string{"Mario car 300 170 0 2 0", "Luigi car 1000 450 90 3 0"}, "short shell nearest", nil,
			func(t *testing.T, s *State) {
				want(t, s.Karts[0].Item == GreenShell, "no kart in reach: the shell is kept")
			}},
		{"wipeout", []string{"Mario car 300 120 0 3 5"}, "gentle left skid 1", []string{"d6=4", "d8=3"},
			func(t *testing.T, s *State) {
				k := s.Karts[0]
				want(t, k.Gear == 1 && k.Hazards == 0 && k.Wipeouts == 1, "gear 1, no tokens")
				want(t, sameAngle(k.Pos.Heading, math.Pi/4-math.Pi/2), "the scatter die's 3 turns it 90° clockwise from the gentle's 45°")
			}},
		{"wipeout-blocked", []string{"Mario car 300 170 0 1 5", "Luigi car 480 205 0 1 0"}, "medium skid 1", []string{"d6=4", "d8=3"},
			func(t *testing.T, s *State) {
				k := s.Karts[0]
				want(t, k.Gear == 1 && k.Hazards == 0, "wiped out")
				want(t, !k.Pos.Overlaps(s.Karts[1].Pos), "the turn stops short of Luigi")
				want(t, k.Pos.Heading < 0 && k.Pos.Heading > -math.Pi/2, "turned clockwise, but less than the die's 90°")
			}},
		{"bullet-bill", []string{"Mario car 300 170 0 2 0", "Luigi car 590 170 0 1 0"}, "short bill",
			[]string{"d6=6", "d6=6", "d6=1"},
			func(t *testing.T, s *State) {
				// Fired from Mario's nose after his move, the bill meets Luigi from behind: a tailgate with
				// Luigi in gear 1: 2-1 = 1 die, +2 for a heavy bill on a middleweight: 6, 6 = 4 hits; Luigi's 1 cancels none.
				want(t, len(s.Bills) == 0 && s.Karts[1].Hazards >= 1, "the bill hit Luigi and is spent")
			}},
		{"lap-and-finish", []string{"Mario car 700 170 0 2 0"}, "medium", nil,
			func(t *testing.T, s *State) {
				want(t, s.Karts[0].Finished && s.Karts[0].Place == 1, "crossing the line on the last lap finishes")
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := stage(t, tc.karts...)
			switch tc.name {
			case "shell", "shell-nearest", "shell-nearest-none":
				s.Karts[0].Item = GreenShell
			case "bullet-bill":
				s.Karts[0].Item = BulletBill
			case "lap-and-finish":
				s.Karts[0].Lap, s.Karts[0].Gate = 2, 0
			case "gates-in-order":
				s.Karts[0].Gate = 2
			case "collision-both-smash":
				s.Karts[1].Collide = "smash"
			}
			next, ev := playOrder(t, s, tc.order, tc.dice...)
			tc.check(t, next)
			golden(t, tc.name, tc.order, next, ev)
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
