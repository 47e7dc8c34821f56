package rtd

import (
	"reflect"
	"testing"

	"pitwall/race"
)

func TestRecords(t *testing.T) {
	s := &State{Laps: 3, T: 14, Racers: []Racer{
		{Seat: 0, Name: "Mario", Player: "Sam", LapTurns: []int{5, 9, 14}, Laps: 3, Finished: true, FinishTurn: 14},
		{Seat: 1, Name: "Luigi", Player: "Kit", LapTurns: []int{6, 10}, Laps: 2}, // laps of 6 and 4
		{Seat: 2, Name: "Peach", Player: "Ade", LapTurns: []int{4}, Laps: 1},     // a first lap of 4, set on turn 4: the record
	}, Finish: []int{0}}
	got := Ruleset{}.Records(s)
	want := []race.Record{
		{Kind: "fastest lap", Seat: 2, Name: "Peach", Player: "Ade", Turns: 4, Turn: 5, Lap: 1},
		{Kind: "fastest completion, 3 laps", Seat: 0, Name: "Mario", Player: "Sam", Turns: 14, Turn: 15},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records:\n got %+v\nwant %+v", got, want)
	}
	// Without Peach's 4, Mario's second lap (4, ending turn 9) and Luigi's
	// (4, ending turn 10) tie on turns: the one set first holds it.
	s.Racers[2].LapTurns = []int{5}
	if r := (Ruleset{}).Records(s)[0]; r.Name != "Mario" || r.Turns != 4 || r.Lap != 2 {
		t.Fatalf("tie: %+v, want Mario's second lap", r)
	}
	if rs := (Ruleset{}).Records(&State{Laps: 3, Racers: []Racer{{Name: "A"}}}); len(rs) != 0 {
		t.Fatalf("no laps yet, but records %+v", rs)
	}
}

// A played race keeps its lap turns: every finisher has one per lap, rising.
func TestLapTurnsInARace(t *testing.T) {
	_, p := botRace(t, 11, 6, "brickwork-bay")
	s := p.State.(*State)
	for _, x := range s.Racers {
		if x.Finished && len(x.LapTurns) != s.Laps {
			t.Errorf("%s finished with lap turns %v", x.Name, x.LapTurns)
		}
		for i := 1; i < len(x.LapTurns); i++ {
			if x.LapTurns[i] <= x.LapTurns[i-1] {
				t.Errorf("%s: lap turns %v", x.Name, x.LapTurns)
			}
		}
	}
	if len(Ruleset{}.Records(s)) != 2 {
		t.Fatalf("a finished race has a fastest lap and completion: %+v", Ruleset{}.Records(s))
	}
}
