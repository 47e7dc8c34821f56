package rtd

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
)

// choicesOf is seat's choices in st, failing t on an error.
func choicesOf(t *testing.T, st race.State, seat int) Choices {
	t.Helper()
	v, err := Ruleset{}.Choices(st, seat)
	if err != nil {
		t.Fatal(err)
	}
	return v.(Choices)
}

// Every choice listed as allowed is accepted, every one listed as refused is
// refused with the code it names, the words listed read as the order, and
// orders outside the list are refused: at turns of bot races on every
// course, for every racer prompted.
func TestChoicesMatchTheRules(t *testing.T) {
	rs := Ruleset{}
	codes := map[string]int{}
	var allowed, refused, aimed, named int
	for i, course := range []string{"luigi-circuit", "rainbow-road", "brickwork-bay"} {
		for seed := uint64(1); seed <= 3; seed++ {
			_, p := botRace(t, seed+uint64(10*i), 4+int(seed)*2, course)
			step := 2
			if testing.Short() {
				step = 5
			}
			for _, st := range racetest.Sampled(t, p, step) {
				s := st.(*State)
				for _, pr := range rs.Prompts(st) {
					ch := choicesOf(t, st, pr.Seat)
					x := s.racer(pr.Seat)
					if ch.Start != (s.T == 0) || ch.Place != s.position(x.Seat) || ch.Momentum != x.Momentum || ch.MaxMomentum != MaxMomentum(x.Debuff) ||
						ch.Segment != s.course.Segments[x.Segment].Name || ch.Shape != string(s.course.Segments[x.Segment].Shape) ||
						(ch.Hand != "") != (x.Hand != 0) || ch.Hand != "" && ch.Hand != x.Hand.String() || ch.Note == "" ||
						(ch.Ahead != "") != (s.aheadInSegment(x) != nil) || ch.Ahead != "" && ch.Ahead != s.aheadInSegment(x).Name {
						t.Fatalf("turn %d %s: choices %+v for %+v", s.T, x.Name, ch, *x)
					}
					if len(ch.Targets) != len(s.running())-1 || len(ch.Paths) != len(s.course.Segments[x.Segment].Paths) {
						t.Fatalf("turn %d %s: %d targets of %d racing, %d paths", s.T, x.Name, len(ch.Targets), len(s.running()), len(ch.Paths))
					}
					throwable := map[string]bool{}
					for _, tg := range ch.Targets {
						throwable[tg.Name] = tg.Throw
					}
					for _, c := range ch.Actions {
						o, err := rs.ParseOrder(st, race.Submission{Seat: pr.Seat, Text: c.Order})
						var oe *race.OrderError
						switch {
						case c.Allowed && err != nil:
							t.Fatalf("turn %d %s: %q is listed as allowed and is refused: %v", s.T, x.Name, c.Order, err)
						case !c.Allowed && err == nil:
							t.Fatalf("turn %d %s: %q is listed as refused (%s) and is accepted", s.T, x.Name, c.Order, c.Code)
						case !c.Allowed && (!errors.As(err, &oe) || oe.Kind != race.Illegal || oe.Code != c.Code || oe.Reason != c.Reason || c.Code == ""):
							t.Fatalf("turn %d %s: %q refused with %v, listed with %q %q", s.T, x.Name, c.Order, err, c.Code, c.Reason)
						case c.Allowed && (c.Code != "" || c.Reason != ""):
							t.Fatalf("%q is allowed with a code: %+v", c.Order, c)
						case !c.Allowed && (c.Odds != nil || c.Hits != nil):
							t.Fatalf("%q is refused with odds: %+v", c.Order, c)
						}
						if c.Allowed {
							allowed++
							if a := o.(Action); a.String() != c.Order {
								t.Fatalf("%q reads as %q", c.Order, a)
							}
						} else {
							refused++
							codes[c.Code]++
						}
						if a, _ := ParseAction(c.Order); a.Item != 0 && c.Allowed {
							named++
						}
						if a, _ := ParseAction(c.Order); a.Target != "" {
							aimed++
							if a.How == "throw" && !throwable[a.Target] {
								t.Fatalf("turn %d %s: %q is listed, and the target is not one a throw reaches: %+v", s.T, x.Name, c.Order, ch.Targets)
							}
						}
						if len(c.Words) == 0 || len(c.Words[0]) > len(c.Words[len(c.Words)-1]) {
							t.Fatalf("%q: words %q, shortest first", c.Order, c.Words)
						}
						for _, w := range c.Words { // every word listed reads as that order
							a, err := ParseAction(strings.ToUpper(w))
							if err != nil || !strings.EqualFold(a.String(), c.Order) {
								t.Fatalf("the word %q does not read as %s: %v", w, c.Order, err)
							}
						}
					}
					// outside the list: no action, a path the segment has not, an unknown racer
					for _, text := range []string{"fly", "path 9", "item throw at Nobody", ""} {
						if _, err := rs.ParseOrder(st, race.Submission{Seat: pr.Seat, Text: text}); err == nil {
							t.Fatalf("%q is outside the choices and was accepted", text)
						}
					}
				}
			}
		}
	}
	racetest.Met(t, "refusal with", codes, CodeRocketStartOnly, CodeStartIsOver, CodeNoItemInHand, CodeNotLaidOrThrown, CodeThrowNeedsTarget,
		CodeNotAGreenShell, CodeNoAlternatePath, CodePathNeedsItem, CodeDraggedFirst)
	if allowed == 0 || aimed == 0 || named == 0 {
		t.Fatalf("allowed %d, aimed %d, an item named %d: the sample misses a case", allowed, aimed, named)
	}
	t.Logf("%d choices allowed and accepted, %d refused as listed (%v), %d aimed, %d naming an item of several", allowed, refused, codes, aimed, named)
}

// A seat that is not in the race or has finished has no choices, and says
// why with the code ParseOrder gives.
func TestChoicesOfNoSeat(t *testing.T) {
	_, p := botRace(t, 1, 4, "luigi-circuit")
	for _, tc := range []struct {
		st   race.State
		seat int
		code string
	}{{p.Start, 9, CodeNoSuchSeat}, {p.Start, -1, CodeNoSuchSeat}, {p.State, 0, CodeFinished}} {
		_, err := Ruleset{}.Choices(tc.st, tc.seat)
		var oe *race.OrderError
		if !errors.As(err, &oe) || oe.Code != tc.code || oe.Kind != race.Illegal {
			t.Errorf("seat %d: %v, want %s", tc.seat, err, tc.code)
		}
	}
	if _, err := (Ruleset{}).Choices(nil, 0); err == nil {
		t.Fatal("a nil state has choices")
	}
	if _, err := (Ruleset{}).Choices((*State)(nil), 0); err == nil {
		t.Fatal("a nil rtd state has choices")
	}
}

// The choices marshal to the JSON the docs show.
func TestChoicesJSON(t *testing.T) {
	s := fixture(t)
	b, err := json.Marshal(choicesOf(t, s, 3))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"start":false`, `"place":5`, `"momentum":2,"max_momentum":5,"segment":"Start Straight","shape":"broad-straight"`,
		`"hand":"banana"`, `"ahead":"Peach"`, `"order":"item throw at Mario"`, `"order":"item throw at Luigi"`, `"code":"not_a_green_shell"`, `"odds":{"pass":`,
		`"targets":[{"name":"Yoshi","seat":4,"place":1,"same_segment":false,"throw":false},{"name":"Mario","seat":0,"place":2,"same_segment":true,"throw":true},` +
			`{"name":"Luigi","seat":1,"place":3,"same_segment":true,"throw":true},{"name":"Peach","seat":2,"place":4,"same_segment":true,"throw":false}]`,
		`holding a banana;`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("no %s in %s", want, b)
		}
	}
	if strings.Contains(string(b), "at Peach") || strings.Contains(string(b), "at Yoshi") || strings.Contains(string(b), "blue shell") {
		t.Errorf("a throw listed at a racer it cannot reach, or a blue shell: %s", b)
	}
	// Luigi's green shell is aimed forward at Mario, backward at Peach and Toad.
	var aims []string
	for _, c := range choicesOf(t, s, 1).Actions {
		if a, _ := ParseAction(c.Order); a.Target != "" && a.Pull == "" {
			aims = append(aims, c.Order)
		}
	}
	if strings.Join(aims, ", ") != "item forward at Mario, item backward at Peach, item backward at Toad" {
		t.Errorf("a green shell aimed %q", aims)
	}
	// The leader, no item, a blue shell on its way.
	s.BlueShell = &BlueShellShot{By: 3, Turn: 4}
	yoshi := choicesOf(t, s, 4)
	if yoshi.Ahead != "" || yoshi.Hand != "" || !strings.Contains(yoshi.Note, "blue shell") || strings.Contains(yoshi.Note, "holding") || yoshi.Targets[0].SameSegment {
		t.Errorf("the leader's choices: %+v", yoshi)
	}
}

// fixture is a race at turn 3 on luigi-circuit's Start Straight: Yoshi
// leads a segment on; Mario, Luigi (a green shell), Peach and Toad (a
// banana) follow in the first.
func fixture(t testing.TB) *State {
	c, err := LoadCourse("luigi-circuit")
	if err != nil {
		t.Fatal(err)
	}
	return &State{CourseID: c.ID, course: c, T: 3, Laps: 3, Order: []int{4, 0, 1, 2, 3}, Racers: []Racer{
		{Seat: 0, Name: "Mario", Momentum: 2},
		{Seat: 1, Name: "Luigi", Momentum: 3, Hand: GreenShell},
		{Seat: 2, Name: "Peach", Momentum: 1},
		{Seat: 3, Name: "Toad", Momentum: 2, Hand: Banana},
		{Seat: 4, Name: "Yoshi", Momentum: 2, Segment: 1},
	}}
}

// After the start every allowed action is offered again with the pull
// clause that changes something in the race: 'then hold' by default,
// 'then pull ahead' when pulling ahead is only on order; with the same
// odds; none at the start.
func TestChoicesPullClause(t *testing.T) {
	for _, when := range []bool{false, true} {
		s := fixture(t)
		s.Opts.PullWhenOrdered = when
		clause, other := " then hold", " then pull ahead"
		if when {
			clause, other = other, clause
		}
		ch := choicesOf(t, s, 3)
		byOrder := map[string]Choice{}
		for _, c := range ch.Actions {
			byOrder[c.Order] = c
			if strings.HasSuffix(c.Order, other) {
				t.Errorf("pull-ahead when-ordered %v: %q offered", when, c.Order)
			}
		}
		n := 0
		for _, c := range ch.Actions {
			if strings.Contains(c.Order, " then ") {
				continue
			}
			v, ok := byOrder[c.Order+clause]
			switch {
			case c.Allowed != ok:
				t.Errorf("%q allowed %v, and%s offered %v", c.Order, c.Allowed, clause, ok)
			case ok && (!v.Allowed || !sameOdds(v.Odds, c.Odds) || !sameHits(v.Hits, c.Hits) || v.Words[0] != c.Words[0]+clause):
				t.Errorf("%q: %+v beside %+v", c.Order+clause, v, c)
			case ok:
				n++
			}
		}
		if n < 5 {
			t.Errorf("pull-ahead when-ordered %v: %d actions offered with%s", when, n, clause)
		}
		if p := (Ruleset{}).Prompts(s); !slices.Contains(p[0].Legal, "ACTION"+clause) {
			t.Errorf("the orders menu %q lacks the clause%s", p[0].Legal, clause)
		}
	}
	s := fixture(t)
	s.T = 0
	for _, c := range choicesOf(t, s, 3).Actions {
		if strings.Contains(c.Order, " then ") {
			t.Errorf("at the start: %q", c.Order)
		}
	}
}
