package party

import (
	"strings"
	"testing"
	"time"

	"pitwall/race"
)

// Every refusal carries a stable code of its own, and its kind: words not
// understood are invalid, orders the game will not take now illegal.
func TestRefusalCodes(t *testing.T) {
	s := testGame(t, smallBoard, 2)
	at := monday.Add(time.Hour)
	for text, code := range map[string]string{
		"":                                    "empty_order",
		strings.Repeat("x", maxOrderLen+1):    "order_too_long",
		"jump":                                "unknown_order",
		"wait now":                            "wait_takes_nothing",
		"choose":                              "choose_needs_space",
		"roll b1":                             "roll_needs_via",
		"try roll via":                        "via_needs_spaces",
		"roll via" + strings.Repeat(" a", 51): "route_too_long",
		"roll via zz":                         "no_such_space",
	} {
		if oe := orderErr(t, s, 0, text, at); oe.Kind != race.Invalid || oe.ErrCode() != code {
			t.Errorf("%.20q: kind %d code %q, want invalid %q", text, oe.Kind, oe.ErrCode(), code)
		}
	}
	// At the limits: the longest order and the longest route are read.
	for _, text := range []string{"wait" + strings.Repeat(" ", maxOrderLen-4), "roll via" + strings.Repeat(" a", maxRoute)} {
		if _, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: 0, Text: text, At: at}); err != nil {
			t.Errorf("%.20q (%d characters): %v", text, len(text), err)
		}
	}
	if oe := orderErr(t, s, 0, "try roll via"+strings.Repeat(" a", maxRoute+1), at); !strings.Contains(oe.Reason, "at most 50 forks; got 51") {
		t.Errorf("a route too long: %s", oe.Reason)
	}
	illegal := func(s *State, seat int, text string, at time.Time, code string) {
		t.Helper()
		if oe := orderErr(t, s, seat, text, at); oe.Kind != race.Illegal || oe.ErrCode() != code {
			t.Errorf("%q: kind %d code %q (%s), want illegal %q", text, oe.Kind, oe.ErrCode(), oe.Reason, code)
		}
	}
	illegal(s, 7, "wait", at, "no_such_seat")
	illegal(s, 0, "choose b1", at, "not_at_a_fork")
	illegal(s, 0, "roll", monday.Add(-time.Hour), "before_week_1")
	illegal(s, 0, "roll", monday.Add(4*24*time.Hour), "minigame_phase")
	illegal(s, 0, "roll", monday.Add(28*24*time.Hour), "game_over")
	// Movement 3 from o stops at the fork f with one point left.
	s, _ = resolveWith(t, s, map[int]string{0: "roll", 1: "roll via b1"}, at, "d10=3", "d10=1")
	illegal(s, 1, "roll", at, "rolled_this_week")
	illegal(s, 0, "roll", at, "choose_first")
	illegal(s, 0, "wait", at, "choose_first")
	illegal(s, 0, "choose c1", at, "not_a_way_on")
	over := s.clone()
	over.Phase = Ended
	illegal(over, 0, "wait", at, "game_over")
}
