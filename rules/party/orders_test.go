package party

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"pitwall/race"
)

func orderErr(t *testing.T, s *State, seat int, text string, at time.Time) *race.OrderError {
	t.Helper()
	before := string(mustJSON(t, s))
	o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: seat, Text: text, At: at})
	if string(mustJSON(t, s)) != before {
		t.Fatalf("%q: ParseOrder changed the state", text)
	}
	if err == nil {
		t.Fatalf("%q: accepted as %v", text, o)
	}
	var oe *race.OrderError
	if !errors.As(err, &oe) {
		t.Fatalf("%q: %v is not an order error", text, err)
	}
	return oe
}

func TestParseOrders(t *testing.T) {
	s := testGame(t, smallBoard, 2)
	at := monday.Add(time.Hour)
	for text, want := range map[string]string{
		"roll":            "roll",
		"  ROLL  ":        "roll",
		"roll via N b1":   "roll via n b1",
		"try roll":        "try roll",
		"Try Roll via b1": "try roll via b1",
		"wait":            "wait",
	} {
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: 0, Text: text, At: at})
		if err != nil || o.String() != want || !o.(Order).At.Equal(at) {
			t.Errorf("%q: got %v %v, want %q at %v", text, o, err, want, at)
		}
	}
	for text, want := range map[string]string{
		"":            "empty",
		"jump":        "not an order",
		"roll b1":     "'via'",
		"roll via":    "needs the spaces",
		"roll via zz": `no space "zz"`,
		"wait now":    "nothing after it",
		"choose":      "needs the space",
		"try":         "not an order",
	} {
		if oe := orderErr(t, s, 0, text, at); oe.Kind != race.Invalid || !strings.Contains(oe.Reason, want) {
			t.Errorf("%q: %v (kind %d), want invalid %q", text, oe, oe.Kind, want)
		}
	}
	if oe := orderErr(t, s, 0, "choose b1", at); oe.Kind != race.Illegal || !strings.Contains(oe.Reason, "not at a fork") {
		t.Errorf("choose off a fork: %v", oe)
	}
	if oe := orderErr(t, s, 5, "wait", at); oe.Kind != race.Illegal {
		t.Errorf("no seat 5: %v", oe)
	}
}

// One movement roll per Boardplay Phase: a second one that week is refused
// with when the next phase opens; 'try roll' waits instead.
func TestOneRollPerPhase(t *testing.T) {
	s := testGame(t, smallBoard, 2)
	at := monday.Add(9 * time.Hour)
	s, _ = resolveWith(t, s, map[int]string{0: "roll via b1"}, at, "d10=4")
	later := at.Add(48 * time.Hour)
	oe := orderErr(t, s, 0, "roll", later)
	if oe.Kind != race.Illegal || !strings.Contains(oe.Reason, "week 1's movement roll already") || !strings.Contains(oe.Reason, "Mon 30 Nov 2026 00:00 UTC") {
		t.Errorf("second roll: %v", oe)
	}
	o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: 0, Text: "try roll", At: later})
	if err != nil || o.(Order).Kind != Wait || !strings.Contains(o.String(), "waits: ") {
		t.Errorf("try roll after rolling: %v %v", o, err)
	}
	// Luigi has not rolled: he still may.
	if _, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: 1, Text: "roll", At: later}); err != nil {
		t.Errorf("Luigi's first roll: %v", err)
	}
	// Next Monday, Mario rolls again.
	if _, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: 0, Text: "roll", At: monday.AddDate(0, 0, 7)}); err != nil {
		t.Errorf("next week's roll: %v", err)
	}
	// After the last week, nothing rolls.
	oe = orderErr(t, s, 0, "roll", monday.AddDate(0, 0, 28))
	if !strings.Contains(oe.Reason, "the game ended Mon 21 Dec 2026 00:00 UTC") {
		t.Errorf("after the end: %v", oe)
	}
}

// A roll that meets a fork with no route waits there for the player's
// choice; 'choose' carries the movement on; the player's space does not
// change until they land.
func TestForkPausesTheMove(t *testing.T) {
	s := testGame(t, smallBoard, 2)
	at := monday.Add(9 * time.Hour)
	s, events := resolveWith(t, s, map[int]string{0: "roll"}, at, "d10=5")
	p := s.player(0)
	if p.Pause == nil || p.Pause.Fork != "f" || p.Pause.Movement != 3 || p.Space != "o" {
		t.Fatalf("after the roll: %+v %+v", p, p.Pause)
	}
	if last := events[len(events)-1]; last.Kind != "fork" || !strings.Contains(last.Text, "b1 or n") {
		t.Errorf("fork event %+v", last)
	}
	var legal []string
	for _, pr := range (Ruleset{}).Prompts(s) {
		if pr.Seat == 0 {
			legal = pr.Legal
		}
	}
	if !reflect.DeepEqual(legal, []string{"choose b1", "choose n"}) {
		t.Errorf("legal at the fork: %v", legal)
	}
	if d := (Ruleset{}).DefaultOrder(s, 0); d.String() != "choose b1" {
		t.Errorf("default at the fork: %v", d)
	}
	for text, want := range map[string]string{"roll": "must choose first", "wait": "must choose first", "choose c1": "not a way on", "try roll": "must choose first"} {
		if oe := orderErr(t, s, 0, text, at.Add(time.Hour)); !strings.Contains(oe.Reason, want) {
			t.Errorf("%q at the fork: %v", text, oe)
		}
	}
	s2, _ := resolveWith(t, s, map[int]string{0: "choose n"}, at.Add(2*time.Hour))
	p = s2.player(0)
	// n costs nothing: c1, j, e spend the 3 left. Passing blue a and c1 pays nothing.
	if p.Pause != nil || p.Space != "e" || p.Coins != 10 || !reflect.DeepEqual(p.Path, [][]string{{"o", "a", "f", "n", "c1", "j", "e"}}) {
		t.Errorf("after choosing n: %+v", p)
	}
	// Silent at the deadline: the default takes the first way.
	s3, _ := resolveWith(t, s, map[int]string{}, at.Add(2*time.Hour))
	if p := s3.player(0); p.Space != "j" || p.Pause != nil {
		t.Errorf("default: on %s", p.Space)
	}
}

// A route given with the roll answers the forks in advance; a route entry
// that is not a way on at its fork leaves the player to choose there.
func TestRouteInAdvance(t *testing.T) {
	s := testGame(t, smallBoard, 2)
	at := monday.Add(9 * time.Hour)
	next, _ := resolveWith(t, s, map[int]string{0: "roll via n"}, at, "d10=4")
	if p := next.player(0); p.Pause != nil || p.Space != "j" {
		t.Errorf("via n: %+v", p)
	}
	next, events := resolveWith(t, s, map[int]string{0: "roll via c1"}, at, "d10=4")
	if p := next.player(0); p.Pause == nil || p.Pause.Fork != "f" || !strings.Contains(events[len(events)-1].Text, "route's c1 is not a way on") {
		t.Errorf("via c1: %+v %v", p, events)
	}
}

// Orders play in the order the host logged them, whatever the seats.
func TestOrdersPlayByTime(t *testing.T) {
	s := testGame(t, "start: a\nspaces:\n  - {id: a, next: [b]}\n  - {id: b, type: chance}\n", 3)
	orders := map[int]race.Order{}
	for seat, at := range map[int]time.Time{0: monday.Add(3 * time.Hour), 1: monday.Add(time.Hour), 2: monday.Add(2 * time.Hour)} {
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: seat, Text: "roll", At: at})
		if err != nil {
			t.Fatal(err)
		}
		orders[seat] = o
	}
	// Each lands on the chance space: with two others, a d2 picks the partner, then a d6.
	next, events, err := Ruleset{}.Resolve(s, orders, scripted(t, "d10=1", "d2=1", "d6=3", "d10=1", "d2=1", "d6=3", "d10=1", "d2=1", "d6=3"), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	var who []int
	for _, e := range events {
		if e.Kind == "roll" {
			who = append(who, e.Seat)
		}
	}
	if !reflect.DeepEqual(who, []int{1, 2, 0}) {
		t.Errorf("rolled in seat order %v, want by time 1, 2, 0", who)
	}
	_ = next
}

// A roll logged on Thursday counts for that week even when the host has
// moved the clock past the phase before resolving.
func TestRollLoggedInPhaseStands(t *testing.T) {
	s := testGame(t, smallBoard, 2)
	thu := monday.Add(3*24*time.Hour + 23*time.Hour)
	o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: 0, Text: "roll via b1", At: thu})
	if err != nil {
		t.Fatal(err)
	}
	st, err := Ruleset{}.Set(s, "clock", "2026-11-28T12:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	next, _, err := Ruleset{}.Resolve(st, map[int]race.Order{0: o, 1: Order{Kind: Wait}}, scripted(t, "d10=2"), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	ns := next.(*State)
	if p := ns.player(0); p.Space != "f" || p.Week != 1 || ns.Phase != Minigame {
		t.Errorf("Mario %+v, phase %s", p, ns.Phase)
	}
	if _, err := (Ruleset{}).ParseOrder(ns, race.Submission{Seat: 0, Text: "roll", At: monday.AddDate(0, 0, 7)}); err != nil {
		t.Errorf("week 2's roll: %v", err)
	}
}

// Everyone is prompted while the game runs: those who may roll get the roll
// orders, the rest 'try roll' and 'wait' with when the next phase opens.
func TestPrompts(t *testing.T) {
	s := testGame(t, smallBoard, 2)
	s, _ = resolveWith(t, s, map[int]string{0: "roll via b1"}, monday.Add(time.Hour), "d10=1")
	ps := Ruleset{}.Prompts(s)
	if len(ps) != 2 {
		t.Fatalf("%d prompts", len(ps))
	}
	if !reflect.DeepEqual(ps[0].Legal, []string{"try roll", "wait"}) || !strings.Contains(ps[0].Note, "Mon 30 Nov 2026 00:00 UTC") {
		t.Errorf("Mario, rolled: %+v", ps[0])
	}
	if ps[1].Legal[0] != "roll" || !strings.Contains(ps[1].Note, "open until Fri 27 Nov 2026 00:00 UTC") {
		t.Errorf("Luigi, to roll: %+v", ps[1])
	}
	o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: 1, Text: "try roll", At: monday.AddDate(0, 0, 5)})
	if err != nil || o.(Order).Kind != Wait || o.String() != "try roll (waits: week 1's Minigame Phase)" {
		t.Errorf("try roll on Saturday: %v %v", o, err)
	}
}

// The host's bot enters a week's minigame results once, in the Minigame Phase only.
func TestHostSettings(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	_, p := botGame(t, 2, 3, map[string]string{"weeks": "2"}, 30*time.Hour)
	seen := 0
	for n := 0; n <= len(p.Turns); n++ {
		st, _ := p.StateAt(n)
		s := st.(*State)
		got := Ruleset{}.HostSettings(s, rng)
		want := !s.Over() && s.Phase == Minigame && !s.hasResults(s.Week)
		if (len(got) == 1) != want {
			t.Fatalf("after turn %d (%s, week %d): %v", n, s.Phase, s.Week, got)
		}
		if want {
			seen++
			k, v, _ := strings.Cut(got[0], "=")
			if _, err := (Ruleset{}).Set(s, k, v); err != nil {
				t.Fatalf("after turn %d: %q refused: %v", n, got[0], err)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no Minigame Phase without results in two weeks")
	}
}
