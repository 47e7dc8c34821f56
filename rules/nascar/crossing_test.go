package nascar

import (
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// playTurn resolves one turn on the test loop with the scripted coins.
func playTurn(t *testing.T, s *State, texts map[int]string, rolls ...string) (*State, []race.Event) {
	t.Helper()
	orders := map[int]race.Order{}
	for seat, text := range texts {
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: seat, Text: text})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		orders[seat] = o
	}
	sc, err := dice.NewScript(rolls...)
	if err != nil {
		t.Fatal(err)
	}
	n, ev, err := Ruleset{}.Resolve(s, orders, dice.WithSource(sc), time.Time{})
	if err != nil || sc.Err() != nil {
		t.Fatal(err, sc.Err())
	}
	return n.(*State), ev
}

func loopWith(t *testing.T, cars ...RaceCar) *State {
	tr := loadLoop(t)
	return &State{TrackID: tr.ID, T: 5, Laps: 3, track: tr, Cars: cars}
}

// A slipstream accepted against the car ahead stands even when that car
// brakes this turn: orders are checked against the turn's start.
func TestSlipstreamCheckedAtTheTurnsStart(t *testing.T) {
	s := loopWith(t,
		RaceCar{Seat: 0, Name: "Livia", Pos: Point{6, 2}, Heading: E, Speed: 1, MaxSpeed: 12, Wildcards: 6, Crossings: 1},
		RaceCar{Seat: 1, Name: "Marcus", Pos: Point{5, 2}, Heading: E, Speed: 4, MaxSpeed: 12, Wildcards: 6, Crossings: 1})
	n, ev := playTurn(t, s, map[int]string{0: "B", 1: "S(5M)"}, "coin=1", "coin=1")
	if !strings.HasPrefix(n.Cars[1].Orders, "S") {
		t.Errorf("Marcus's slipstream was replaced: %q", n.Cars[1].Orders)
	}
	for _, e := range ev {
		if strings.Contains(e.Text, "no longer fit") {
			t.Errorf("an accepted order refused: %s", e.Text)
		}
	}
}

// Driving back over the line takes the crossing back: wiggling over it wins no laps.
func TestBackOverTheLine(t *testing.T) {
	s := loopWith(t,
		RaceCar{Seat: 0, Name: "Livia", Pos: Point{17, 2}, Heading: W, Speed: 3, MaxSpeed: 12, Wildcards: 6, Crossings: 1},
		RaceCar{Seat: 1, Name: "Marcus", Pos: Point{25, 7}, Heading: W, Speed: 0, MaxSpeed: 12, Wildcards: 6, Crossings: 1})
	n, ev := playTurn(t, s, map[int]string{0: "MMM"})
	if n.Cars[0].Crossings != 0 {
		t.Fatalf("back over the line: %d crossings, want 0", n.Cars[0].Crossings)
	}
	told := false
	for _, e := range ev {
		told = told || strings.Contains(e.Text, "crosses the line backwards")
	}
	if !told {
		t.Error("the post does not tell the backward crossing")
	}
	for i := 0; i < 3; i++ { // forward and back again, as turns of L L could
		n.Cars[0].Heading = E
		n, _ = playTurn(t, n, map[int]string{0: "MMM"})
		n.Cars[0].Heading = W
		n, _ = playTurn(t, n, map[int]string{0: "MMM"})
	}
	if c := n.Cars[0]; c.Crossings != 0 || c.Out != "" {
		t.Errorf("after three wiggles: %d crossings, out %q", c.Crossings, c.Out)
	}
}

// A car put back behind the line by a crash has not begun the lap it crossed into.
func TestCrashOnTheLine(t *testing.T) {
	s := loopWith(t,
		RaceCar{Seat: 0, Name: "Livia", Pos: Point{15, 1}, Heading: E, Speed: 0, MaxSpeed: 12, Wildcards: 6, Crossings: 1},
		RaceCar{Seat: 1, Name: "Marcus", Pos: Point{13, 1}, Heading: E, Speed: 2, MaxSpeed: 12, Wildcards: 6, Crossings: 1})
	n, ev := playTurn(t, s, map[int]string{1: "MM"}, "coin=2")
	crashed := false
	for _, e := range ev {
		crashed = crashed || e.Kind == "crash"
	}
	if !crashed || n.Cars[1].Pos != (Point{14, 1}) {
		t.Fatalf("Marcus should run into Livia on the line and be put back at (14,1); he is at %v", n.Cars[1].Pos)
	}
	if n.Cars[1].Crossings != 1 {
		t.Errorf("put back behind the line, Marcus has %d crossings, want 1 (as before the turn)", n.Cars[1].Crossings)
	}
}

// Both cars in a crash stop for the turn: the one hit does not drive on.
func TestCrashStopsBoth(t *testing.T) {
	for _, coin := range []string{"coin=1", "coin=2"} {
		s := loopWith(t,
			RaceCar{Seat: 0, Name: "Livia", Pos: Point{11, 1}, Heading: E, Speed: 3, MaxSpeed: 12, Wildcards: 6, Crossings: 1},
			RaceCar{Seat: 1, Name: "Marcus", Pos: Point{11, 2}, Heading: E, Speed: 1, MaxSpeed: 12, Wildcards: 6, Crossings: 1})
		n, ev := playTurn(t, s, map[int]string{0: "LRM", 1: "M"}, coin)
		crashes := 0
		for _, e := range ev {
			if e.Kind == "crash" {
				crashes++
			}
		}
		if crashes != 1 {
			t.Errorf("%s: %d crashes, want 1", coin, crashes)
		}
		for _, c := range n.Cars {
			if c.MaxSpeed != 11 {
				t.Errorf("%s: %s max speed %d, want 11 (one crash)", coin, c.Name, c.MaxSpeed)
			}
			if last := c.Trail[len(c.Trail)-1]; last != c.Pos {
				t.Errorf("%s: %s's trail ends at %v, not where it stands (%v)", coin, c.Name, last, c.Pos)
			}
		}
	}
}
