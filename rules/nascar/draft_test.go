package nascar

import (
	"slices"
	"strings"
	"testing"
)

// legalOrders lists every order of single letters a car may give, and every
// prefix of a string the search walked (legal or not), by brute force: a
// string is dropped only when nothing written after it could make it legal
// (a letter out of place, more than two of a kind, more moves than the max
// speed).
func legalOrders(c Car) (legal map[string]bool, walked []string) {
	legal = map[string]bool{}
	var walk func(s string)
	walk = func(s string) {
		walked = append(walked, s)
		if o, err := Parse(s); err == nil {
			if _, err := Check(o, c); err == nil {
				legal[s] = true
			}
		}
		for _, l := range "SABMLR" {
			t := s + string(l)
			o, err := Parse(t)
			if err != nil || len(o.Moves) > c.MaxSpeed {
				continue
			}
			if strings.Count(t, "S") > 1 || strings.Count(t, "A") > 2 || strings.Count(t, "B") > 2 ||
				strings.Count(t, "L") > 2 || strings.Count(t, "R") > 2 {
				continue
			}
			walk(t)
		}
	}
	walk("")
	return legal, walked
}

// Every draft the brute force walks is judged as the brute force judges it:
// whole and legal, and each letter offered next begins a legal order, each
// letter not offered begins none.
func TestDraftMatchesBruteForce(t *testing.T) {
	cars := []Car{
		{Speed: 2, MaxSpeed: 4, Wildcards: 6, Heading: N},
		{Speed: 0, MaxSpeed: 3, Wildcards: 0, Heading: E},
		{Speed: 3, MaxSpeed: 3, Wildcards: 1, Upgrade: Turbo, Heading: S},
		{Speed: 1, MaxSpeed: 3, Wildcards: 0, Upgrade: Swaybars, CanSlipstream: true, Heading: W},
	}
	for _, c := range cars {
		legal, walked := legalOrders(c)
		if len(legal) == 0 {
			t.Fatalf("%+v: no legal order at all", c)
		}
		begins := map[string]bool{}
		for s := range legal {
			for i := 0; i <= len(s); i++ {
				begins[s[:i]] = true
			}
		}
		for _, s := range walked {
			d := Draft(c, s)
			if d.Complete != legal[s] {
				t.Errorf("%+v: draft %q: complete %v, brute force %v (%s)", c, s, d.Complete, legal[s], d.Reason)
			}
			if d.Complete && (d.Plan == nil || d.Plan.TurnSpeed != strings.Count(s, "M")+strings.Count(s, "L")+strings.Count(s, "R")) {
				t.Errorf("%+v: draft %q: plan %+v", c, s, d.Plan)
			}
			if !d.Complete && s != "" && (d.Code == "" || d.Reason == "") {
				t.Errorf("%+v: draft %q: not whole, and no code or reason", c, s)
			}
			var want []string
			for _, l := range []string{"S", "A", "B", "M", "L", "R"} {
				if begins[s+l] {
					want = append(want, l)
				}
			}
			if !slices.Equal(d.Next, want) && !(len(want) == 0 && len(d.Next) == 0) {
				t.Errorf("%+v: draft %q: next %v, brute force %v", c, s, d.Next, want)
			}
		}
	}
}

func TestDraftCases(t *testing.T) {
	c := Car{Speed: 4, MaxSpeed: 12, Wildcards: 6, Heading: N}
	for _, tc := range []struct {
		draft, next, code string
		complete          bool
	}{
		{"", "A B M L R", "", false},                     // no S: the car is not in a slipstream
		{"A", "A B M L R", "wrong_move_count", false},    // speed 5 needs five moves
		{"MMMM", "A B", "", true},                        // whole at speed 4: no A can come before the moves now
		{"AMMMMM", "A B", "", true},                      // five moves at speed 5: only speed changes after
		{"MMMMMM", "", "wrong_move_count", false},        // six moves at speed 4, and no A can come before them now
		{"LLL", "", "too_many_of_a_kind", false},         // a third left turn
		{"MAM", "", "speed_change_between_moves", false}, // not understood
		{"Q", "", "unknown_letter", false},               // not understood
		{"BBBB", "", "too_many_of_a_kind", false},        // four brakes
		{"BBMM", "A", "", true},                          // speed 2: two moves, a wildcard for the second brake; a third B is too many
	} {
		d := Draft(c, tc.draft)
		if got := strings.Join(d.Next, " "); got != tc.next || d.Complete != tc.complete || (tc.code != "" && d.Code != tc.code) {
			t.Errorf("draft %q: next %q complete %v code %q; want next %q complete %v code %q", tc.draft, got, d.Complete, d.Code, tc.next, tc.complete, tc.code)
		}
	}
}
