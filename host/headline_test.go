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
		turn          int    // before the turn; after it, turn+1
		before, after string // the racers, space-separated, as standings takes them
		over          bool   // after the turn
		want          string
	}{
		{"the first turn's leader leads", fakeRules{}, 1, "A:racing B:racing", "A:racing B:racing", false, "A leads."},
		{"the same leader still leads", fakeRules{}, 3, "A:racing B:racing", "A:racing B:racing", false, "A still leads."},
		{"a new leader takes the lead from the old", fakeRules{}, 3, "A:racing B:racing", "B:racing A:racing", false, "B takes the lead from A."},
		{"the old leader out: the lead is taken, from nobody racing", fakeRules{}, 3, "A:racing B:racing C:racing", "B:racing C:racing A:out", false, "A is out (rolled away); B takes the lead."},
		{"the winner and the places behind, the finish is the news", fakeRules{}, 9, "A:racing B:racing C:racing D:racing", "B:finished A:finished C:finished D:racing", false, "B wins; A finishes second, C third."},
		{"a finisher behind a winner who finished before", fakeRules{}, 9, "A:finished B:racing C:racing", "A:finished C:finished B:racing", false, "C finishes second."},
		{"after the winner, the racing leader leads the rest", fakeRules{}, 9, "A:finished B:racing C:racing", "A:finished B:racing C:racing", false, "B leads the rest."},
		{"and a new one now leads the rest", fakeRules{}, 9, "A:finished B:racing C:racing", "A:finished C:racing B:racing", false, "C now leads the rest."},
		{"a shared lead", fakeRules{}, 3, "A:racing B:racing", "A:racing:1 B:racing:1", false, "A and B share the lead."},
		{"a shared lead broken", fakeRules{}, 3, "A:racing:1 B:racing:1", "B:racing A:racing", false, "B leads alone."},
		{"winners level", fakeRules{}, 3, "A:racing B:racing", "A:finished:1 B:finished:1", true, "A and B win, level."},
		{"the game's moments, at most three, between the finish and who went out", fakeHeadliner{moments: []string{"naufragia: C overturns", "m2", "m3", "m4"}},
			9, "A:racing B:racing C:racing D:racing", "A:finished B:racing D:racing C:out", false, "A wins; naufragia: C overturns; m2; m3; C is out (rolled away)."},
		{"a race over with nothing in its last turn says nothing", fakeRules{}, 9, "A:finished B:racing", "A:finished B:racing", true, ""},
	} {
		before := fakeState{st: standings(strings.Fields(tc.before)...), turn: tc.turn}
		after := fakeState{st: standings(strings.Fields(tc.after)...), turn: tc.turn + 1, over: tc.over}
		if got := headline(tc.rs, before, after, nil); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}
