package host

import (
	"strings"
	"testing"

	"pitwall/race"
)

// fakeState is a race's standings and whether it is over.
type fakeState struct {
	st   race.Standings
	turn int
	over bool
}

func (s fakeState) Turn() int          { return s.turn }
func (s fakeState) Over() bool         { return s.over }
func (s fakeState) Seats() []race.Seat { return nil }

// fakeRules gives a fakeState's standings; moments, when set, make it a Headliner.
type fakeRules struct{ race.Ruleset }

func (fakeRules) Standings(s race.State) race.Standings { return s.(fakeState).st }

type fakeHeadliner struct {
	fakeRules
	moments []string
}

func (h fakeHeadliner) Moments(_, _ race.State, _ []race.Event) []string { return h.moments }

// standings lists racers as NAME:STATUS:PLACE, with Detail "why" for one out.
func standings(xs ...string) race.Standings {
	var out race.Standings
	for i, x := range xs {
		var name, status string
		var place int
		for j, part := range strings.Split(x, ":") {
			switch j {
			case 0:
				name = part
			case 1:
				status = part
			case 2:
				place = int(part[0] - '0')
			}
		}
		st := race.Standing{Place: place, Seat: int(name[0] - 'A'), Name: name, Status: status}
		if st.Place == 0 {
			st.Place = i + 1
		}
		if status == "out" {
			st.Detail = "rolled away"
		}
		out = append(out, st)
	}
	return out
}

func TestHeadline(t *testing.T) {
	for _, tc := range []struct {
		name          string
		rs            race.Ruleset
		before, after fakeState
		want          string
	}{
		{"the first turn's leader leads", fakeRules{},
			fakeState{st: standings("A:racing", "B:racing"), turn: 1}, fakeState{st: standings("A:racing", "B:racing"), turn: 2},
			"A leads."},
		{"the same leader still leads", fakeRules{},
			fakeState{st: standings("A:racing", "B:racing"), turn: 3}, fakeState{st: standings("A:racing", "B:racing"), turn: 4},
			"A still leads."},
		{"a new leader takes the lead from the old", fakeRules{},
			fakeState{st: standings("A:racing", "B:racing"), turn: 3}, fakeState{st: standings("B:racing", "A:racing"), turn: 4},
			"B takes the lead from A."},
		{"the old leader out: the lead is taken, from nobody racing", fakeRules{},
			fakeState{st: standings("A:racing", "B:racing", "C:racing"), turn: 3}, fakeState{st: standings("B:racing", "C:racing", "A:out"), turn: 4},
			"A is out (rolled away); B takes the lead."},
		{"the winner and the places behind, the finish is the news", fakeRules{},
			fakeState{st: standings("A:racing", "B:racing", "C:racing", "D:racing"), turn: 9},
			fakeState{st: standings("B:finished", "A:finished", "C:finished", "D:racing"), turn: 10},
			"B wins; A finishes second, C third."},
		{"a finisher behind a winner who finished before", fakeRules{},
			fakeState{st: standings("A:finished", "B:racing", "C:racing"), turn: 9},
			fakeState{st: standings("A:finished", "C:finished", "B:racing"), turn: 10},
			"C finishes second."},
		{"after the winner, the racing leader leads the rest", fakeRules{},
			fakeState{st: standings("A:finished", "B:racing", "C:racing"), turn: 9},
			fakeState{st: standings("A:finished", "B:racing", "C:racing"), turn: 10},
			"B leads the rest."},
		{"and a new one now leads the rest", fakeRules{},
			fakeState{st: standings("A:finished", "B:racing", "C:racing"), turn: 9},
			fakeState{st: standings("A:finished", "C:racing", "B:racing"), turn: 10},
			"C now leads the rest."},
		{"a shared lead", fakeRules{},
			fakeState{st: standings("A:racing", "B:racing"), turn: 3}, fakeState{st: standings("A:racing:1", "B:racing:1"), turn: 4},
			"A and B share the lead."},
		{"a shared lead broken", fakeRules{},
			fakeState{st: standings("A:racing:1", "B:racing:1"), turn: 3}, fakeState{st: standings("B:racing", "A:racing"), turn: 4},
			"B leads alone."},
		{"winners level", fakeRules{},
			fakeState{st: standings("A:racing", "B:racing"), turn: 3}, fakeState{st: standings("A:finished:1", "B:finished:1"), turn: 4, over: true},
			"A and B win, level."},
		{"the game's moments, at most three, between the finish and who went out", fakeHeadliner{moments: []string{"naufragia: C overturns", "m2", "m3", "m4"}},
			fakeState{st: standings("A:racing", "B:racing", "C:racing", "D:racing"), turn: 9},
			fakeState{st: standings("A:finished", "B:racing", "D:racing", "C:out"), turn: 10},
			"A wins; naufragia: C overturns; m2; m3; C is out (rolled away)."},
		{"a race over with nothing in its last turn says nothing", fakeRules{},
			fakeState{st: standings("A:finished", "B:racing"), turn: 9}, fakeState{st: standings("A:finished", "B:racing"), turn: 10, over: true},
			""},
	} {
		if got := headline(tc.rs, tc.before, tc.after, nil); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
