package nascar

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"pitwall/race"
)

func car(speed int, h Heading) Car {
	return Car{Heading: h, Speed: speed, MaxSpeed: 12, Wildcards: 6}
}

// The text's worked example: speed 4, heading North, "A(2M)RM(R+1)".
func TestTheTextsExample(t *testing.T) {
	o, err := Parse("A(2M)RM(R+1)")
	if err != nil {
		t.Fatal(err)
	}
	p, err := Check(o, car(4, N))
	if err != nil {
		t.Fatal(err)
	}
	want := [][2]int{{0, 1}, {0, 2}, {1, 3}, {2, 4}, {3, 4}} // N, N, NE, NE, E
	if p.TurnSpeed != 5 || p.EndSpeed != 5 || p.Heading != E || p.Wildcards != 1 || fmt.Sprint(p.Path) != fmt.Sprint(want) {
		t.Fatalf("got %+v; want speed 5, heading E, path %v, 1 wildcard", p, want)
	}
}

func TestOrders(t *testing.T) {
	for _, tc := range []struct {
		order   string
		c       Car
		turn    int
		end     int
		heading Heading
		wc      int
		last    [2]int
	}{
		{"MMMM", car(4, N), 4, 4, N, 0, [2]int{0, 4}},
		{"mmmm", car(4, E), 4, 4, E, 0, [2]int{4, 0}},
		{"(4M)", car(4, S), 4, 4, S, 0, [2]int{0, -4}},
		{"AMMMMM", car(4, N), 5, 5, N, 0, [2]int{0, 5}},
		{"BMMM", car(4, N), 3, 3, N, 0, [2]int{0, 3}},
		{"MMMMA", car(4, N), 4, 5, N, 0, [2]int{0, 4}},        // accelerating out of a corner: after the move
		{"MMMMB", car(4, N), 4, 3, N, 0, [2]int{0, 4}},        // slowing for a corner: after the move
		{"AMMMMMB", car(4, N), 5, 4, N, 0, [2]int{0, 5}},      // accelerate and brake: no wildcard
		{"A(A+1)(6M)", car(4, N), 6, 6, N, 1, [2]int{0, 6}},   // a second accelerate: one wildcard
		{"AA(6M)", car(4, N), 6, 6, N, 1, [2]int{0, 6}},       // unmarked, it costs the same
		{"B(B+1)MMMMMM", car(8, N), 6, 6, N, 1, [2]int{0, 6}}, // the pit example's order
		{"RMMM", car(4, N), 4, 4, NE, 0, [2]int{4, 4}},
		{"LMMM", car(4, N), 4, 4, NW, 0, [2]int{-4, 4}},
		{"MLRM", car(4, N), 4, 4, N, 0, [2]int{-1, 4}},        // a lane change to the left: free
		{"MRLM", car(4, N), 4, 4, N, 0, [2]int{1, 4}},         // and to the right
		{"RR(2M)", car(4, N), 4, 4, E, 1, [2]int{4, 1}},       // two rights: one wildcard; NE (1,1), E (2,1), (3,1), (4,1)
		{"RRLL", car(4, N), 4, 4, N, 1, [2]int{3, 3}},         // two rights and two lefts: still one; (1,1), (2,1), (3,2), (3,3)
		{"RLRL", car(4, N), 4, 4, N, 1, [2]int{2, 4}},         // in any order
		{"A(A+1)RR(2M)", car(2, N), 4, 4, E, 2, [2]int{4, 1}}, // accel 2 and right 2 together are allowed
		{"B", car(1, N), 0, 0, N, 0, [2]int{}},                // brake to a stop: no square
		{"SMMMMM", Car{Speed: 4, MaxSpeed: 12, Wildcards: 6, CanSlipstream: true}, 5, 5, N, 0, [2]int{0, 5}},
		{"S(A)(A+1)(7M)", Car{Speed: 4, MaxSpeed: 12, Wildcards: 6, CanSlipstream: true}, 7, 7, N, 1, [2]int{0, 7}}, // the text's rare +3
		{"AA(6M)", Car{Speed: 4, MaxSpeed: 12, Wildcards: 0, Upgrade: Turbo}, 6, 6, N, 0, [2]int{0, 6}},             // turbo: the second A is free
		{"RR(2M)", Car{Speed: 4, MaxSpeed: 12, Wildcards: 0, Upgrade: Swaybars}, 4, 4, E, 0, [2]int{4, 1}},          // swaybars: the second R is free
		{"AABB(4M)", car(4, N), 4, 4, N, 2, [2]int{0, 4}},                                                           // two doubles: two wildcards
		{"BMMMB", car(4, N), 3, 2, N, 1, [2]int{0, 3}},                                                              // two brakes split round the moves: still a double
		{"AMMMMMA", car(4, N), 5, 6, N, 1, [2]int{0, 5}},                                                            // and two accelerates
		{"BB(2M)", Car{Speed: 4, MaxSpeed: 12, Wildcards: 0, Upgrade: Turbo}, 2, 2, N, 0, [2]int{0, 2}},             // turbo: the second B is free too
		{"BMMMB", Car{Speed: 4, MaxSpeed: 12, Wildcards: 0, Upgrade: Turbo}, 3, 2, N, 0, [2]int{0, 3}},              // split as well
		{"LL(2M)", Car{Speed: 4, MaxSpeed: 12, Wildcards: 1, Upgrade: Turbo}, 4, 4, W, 1, [2]int{-4, 1}},            // turbo frees speed, not steering
		{"AA(6M)", Car{Speed: 4, MaxSpeed: 12, Wildcards: 1, Upgrade: Swaybars}, 6, 6, N, 1, [2]int{0, 6}},          // swaybars free steering, not speed
	} {
		o, err := Parse(tc.order)
		if err != nil {
			t.Errorf("Parse(%q): %v", tc.order, err)
			continue
		}
		p, err := Check(o, tc.c)
		if err != nil {
			t.Errorf("%q at speed %d: %v", tc.order, tc.c.Speed, err)
			continue
		}
		last := [2]int{}
		if len(p.Path) > 0 {
			last = p.Path[len(p.Path)-1]
		}
		if p.TurnSpeed != tc.turn || p.EndSpeed != tc.end || p.Heading != tc.heading || p.Wildcards != tc.wc || last != tc.last {
			t.Errorf("%q: turn %d end %d heading %v wc %d last %v; want %d %d %v %d %v", tc.order, p.TurnSpeed, p.EndSpeed, p.Heading, p.Wildcards, last, tc.turn, tc.end, tc.heading, tc.wc, tc.last)
		}
		if len(p.Path) != p.TurnSpeed {
			t.Errorf("%q: %d squares at speed %d", tc.order, len(p.Path), p.TurnSpeed)
		}
	}
}

func TestOrdersRefused(t *testing.T) {
	for _, tc := range []struct {
		order string
		c     Car
		kind  race.ErrorKind
		says  string
	}{
		{"", car(4, N), race.Invalid, "no order"},
		{"AXM", car(4, N), race.Invalid, "not an order letter"},
		{"A(2M", car(4, N), race.Invalid, "never closed"},
		{"(M+1)MMM", car(4, N), race.Invalid, "a wildcard is marked on one of A, B, L or R"},
		{"(0M)", car(4, N), race.Invalid, "a count is 1 to 99"},
		{"(2A)MM", car(4, N), race.Invalid, "count and M, L or R"},
		{"MMAMM", car(4, N), race.Invalid, "beginning or the end"},
		{"AS(5M)", car(4, N), race.Invalid, "S (slipstream) comes first"},
		{"MMMMS", car(4, N), race.Invalid, "only at the beginning"},
		{"A(A+1)(A+1)MMMMMMM", car(4, N), race.Illegal, "at most 2 accelerates"},                                              // the text's own example
		{"A(A+1)(A+1)(9M)", Car{Speed: 6, MaxSpeed: 12, Wildcards: 6, Upgrade: Turbo}, race.Illegal, "at most 2 accelerates"}, // upgrades included
		{"RRR(1M)", car(4, N), race.Illegal, "at most 2 right turns"},
		{"LLL(1M)", car(4, N), race.Illegal, "at most 2 left turns"},
		{"BBB", car(4, N), race.Illegal, "at most 2 brakes"},
		{"MMM", car(4, N), race.Illegal, "must move 4 squares"},
		{"MMMMM", car(4, N), race.Illegal, "must move 4 squares"},
		{"A(12M)", car(12, N), race.Illegal, "above the car's max speed 12"},
		{"(12M)A", car(12, N), race.Illegal, "after the turn is above"},
		{"BB", car(1, N), race.Illegal, "below 0"},
		{"SMMMMM", car(4, N), race.Illegal, "directly behind another"},
		{"AA(6M)", Car{Speed: 4, MaxSpeed: 12, Wildcards: 0}, race.Illegal, "needs 1 wildcard; the car has 0"},
		{"AABB(4M)", Car{Speed: 4, MaxSpeed: 12, Wildcards: 1}, race.Illegal, "needs 2 wildcards"},
		{"BMMMB", Car{Speed: 4, MaxSpeed: 12, Wildcards: 0}, race.Illegal, "needs 1 wildcard; the car has 0"},
		{"LL(2M)", Car{Speed: 4, MaxSpeed: 12, Wildcards: 0, Upgrade: Turbo}, race.Illegal, "needs 1 wildcard; the car has 0"},
	} {
		o, err := Parse(tc.order)
		if err == nil {
			_, err = Check(o, tc.c)
		}
		var oe *race.OrderError
		if !errors.As(err, &oe) {
			t.Errorf("%q: %v, want an order error", tc.order, err)
			continue
		}
		if oe.Kind != tc.kind || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%q: %v (kind %d), want kind %d saying %q", tc.order, err, oe.Kind, tc.kind, tc.says)
		}
	}
}

func TestHeadings(t *testing.T) {
	for h := N; h <= NW; h++ {
		if h.Turn(1).Turn(-1) != h || h.Turn(8) != h || h.Turn(-8) != h {
			t.Errorf("%v: turning round does not come back", h)
		}
		dx, dy := h.Step()
		if dx == 0 && dy == 0 {
			t.Errorf("%v does not move", h)
		}
		back, err := ParseHeading(strings.ToLower(h.String()))
		if err != nil || back != h {
			t.Errorf("ParseHeading(%v) = %v, %v", h, back, err)
		}
	}
	if N.Turn(1) != NE || N.Turn(-1) != NW || W.Turn(2) != N {
		t.Error("right is clockwise")
	}
	if _, err := ParseHeading("up"); err == nil {
		t.Error("a heading of 'up' was accepted")
	}
	for _, u := range []string{"none", "Turbo", "SWAYBARS", "performance"} {
		if _, err := ParseUpgrade(u); err != nil {
			t.Errorf("ParseUpgrade(%q): %v", u, err)
		}
	}
	if _, err := ParseUpgrade("nitro"); err == nil {
		t.Error("an unknown upgrade was accepted")
	}
}

func FuzzParseAndCheck(f *testing.F) {
	for _, s := range []string{"A(2M)RM(R+1)", "S(A)(A+1)(7M)", "((", "(99M)", "RRLL", "(+1)", "B(B+1)MMMMMM", "(2)", "()"} {
		f.Add(s, 4, 2)
	}
	f.Fuzz(func(t *testing.T, s string, speed, h int) {
		o, err := Parse(s)
		if err != nil {
			var oe *race.OrderError
			if !errors.As(err, &oe) || oe.Kind != race.Invalid {
				t.Fatalf("%q: %v is not an Invalid order error", s, err)
			}
			return
		}
		if back, err := Parse(o.String()); err != nil || back.String() != o.String() {
			t.Fatalf("%q: the canonical %q does not read back (%v)", s, o, err)
		}
		c := Car{Speed: ((speed % 13) + 13) % 13, MaxSpeed: 12, Wildcards: 6, Heading: Heading(((h % 8) + 8) % 8), CanSlipstream: true}
		p, err := Check(o, c)
		if err != nil {
			var oe *race.OrderError
			if !errors.As(err, &oe) {
				t.Fatalf("%q: %v is not an order error", s, err)
			}
			return
		}
		if len(p.Path) != p.TurnSpeed || p.TurnSpeed > c.MaxSpeed || p.EndSpeed > c.MaxSpeed || p.EndSpeed < 0 || p.Wildcards > c.Wildcards {
			t.Fatalf("%q from %+v: %+v", s, c, p)
		}
		for i, sq := range p.Path {
			prev := [2]int{c.X, c.Y}
			if i > 0 {
				prev = p.Path[i-1]
			}
			if dx, dy := sq[0]-prev[0], sq[1]-prev[1]; dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0) {
				t.Fatalf("%q: a step from %v to %v is not one square", s, prev, sq)
			}
		}
	})
}
