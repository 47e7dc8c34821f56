package party

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"pitwall/race"
	"pitwall/race/racetest"
)

// Every choice listed as allowed is accepted as that order, every one listed
// as refused is refused with its code and reason, orders outside the list are
// refused, and every route a move can need is listed: at every turn of bot
// games of every size, in zones far from UTC, for every player.
func TestChoicesMatchTheRules(t *testing.T) {
	rs := Ruleset{}
	var allowed, refused int
	codes := map[string]int{}
	zones := []string{"UTC", "Pacific/Auckland", "America/Los_Angeles"}
	for seed := uint64(1); seed <= 12; seed++ {
		opts := map[string]string{"tz": zones[seed%3], "weeks": fmt.Sprint(1 + seed%3)}
		_, p := botGame(t, seed, 2+int(seed%5), opts, time.Duration(10+seed%50)*time.Hour)
		for n := 0; n <= p.Resolved(); n++ {
			st := racetest.StateAt(t, p, n)
			if st.Over() {
				if _, err := rs.Choices(st, 0); !hasCode(err, "game_over") {
					t.Fatalf("a game over has choices: %v", err)
				}
				continue
			}
			s := st.(*State)
			for _, pr := range rs.Prompts(s) {
				v, err := rs.Choices(s, pr.Seat)
				if err != nil {
					t.Fatal(err)
				}
				ch := v.(Choices)
				where := fmt.Sprintf("seed %d turn %d seat %d", seed, s.Turn(), pr.Seat)
				checkChoices(t, where, s, pr.Seat, ch)
				for _, c := range ch.Orders {
					if c.Allowed {
						allowed++
					} else {
						refused++
						codes[c.Code]++
					}
				}
			}
		}
	}
	racetest.Met(t, "refusal with", codes, codeChooseFirst, codeNotAtAFork, codeMinigamePhase, codeRolledThisWeek)
	if allowed == 0 || refused == 0 {
		t.Fatalf("allowed %d, refused %d: the sample misses a case", allowed, refused)
	}
	t.Logf("%d choices allowed and accepted, %d refused as listed: %v", allowed, refused, codes)
}

// checkChoices checks one player's choices against ParseOrder, sent at the
// game's clock, and against the board's walk.
func checkChoices(t *testing.T, where string, s *State, seat int, ch Choices) {
	t.Helper()
	rs := Ruleset{}
	p := s.player(seat)
	parse := func(text string) (Order, error) {
		o, err := rs.ParseOrder(s, race.Submission{Seat: seat, Text: text, At: s.Clock})
		if err != nil {
			return Order{}, err
		}
		return o.(Order), nil
	}
	if ch.Space != p.Space || ch.Coins != p.Coins || ch.Stars != p.Stars || ch.Boost != p.Boost || ch.Week != s.Week || ch.Phase != s.Phase {
		t.Fatalf("%s: choices %+v for player %+v", where, ch, p)
	}
	// The calendar the orders were judged by: the game's clock, and the
	// close of the roll when one is open and the calendar is fixed.
	asOf, until := "", ""
	if !s.Clock.IsZero() {
		asOf = s.Clock.Format(time.RFC3339)
	}
	if o, err := parse("roll"); err == nil && s.First != "" {
		until = s.calendar(s.Clock).MinigameStart(o.Week).Format(time.RFC3339)
	}
	if ch.AsOf != asOf || ch.RollUntil != until || (ch.Note != "") != (s.First == "") {
		t.Fatalf("%s: as of %q until %q note %q; want %q, %q (first Monday %q)", where, ch.AsOf, ch.RollUntil, ch.Note, asOf, until, s.First)
	}
	listed := map[string]Choice{}
	var roll Choice
	for _, c := range ch.Orders {
		if _, dup := listed[c.Order]; dup {
			t.Fatalf("%s: %q is listed twice", where, c.Order)
		}
		listed[c.Order] = c
		if c.Order == "roll" {
			roll = c
		}
		if len(c.Words) == 0 || !strings.EqualFold(c.Words[0], c.Order) {
			t.Fatalf("%s: %q is written %v", where, c.Order, c.Words)
		}
		for _, w := range append(c.Words, strings.ToUpper(c.Words[0])) {
			o, err := parse(w)
			var oe *race.OrderError
			switch {
			case c.Allowed && err != nil:
				t.Fatalf("%s: %q is listed as allowed and is refused: %v", where, w, err)
			case c.Allowed && o.Kind == Wait && o.Try:
				if c.Note != "waits: "+o.Note || c.Odds != nil {
					t.Fatalf("%s: %q waits (%s); listed %+v", where, w, o.Note, c)
				}
			case c.Allowed:
				if o.String() != c.Order || c.Code != "" || c.Reason != "" || c.Note != "" {
					t.Fatalf("%s: %q reads as %q; listed %+v", where, w, o, c)
				}
				if o.Kind == Wait {
					if c.Odds != nil {
						t.Fatalf("%s: wait has odds %+v", where, c.Odds)
					}
				} else {
					checkOdds(t, where+" "+c.Order, c.Odds)
				}
			case !c.Allowed && err == nil:
				t.Fatalf("%s: %q is listed as refused (%s) and is accepted", where, w, c.Reason)
			case !c.Allowed && (!errors.As(err, &oe) || oe.Kind != race.Illegal || oe.ErrCode() != c.Code || oe.Reason != c.Reason || c.Odds != nil):
				t.Fatalf("%s: %q refused with %v; listed %+v", where, w, err, c)
			}
		}
	}
	// The routes: every fork the move can meet with Movement left and its
	// route used up is listed, and every way on from it extends the route.
	from, ms, verb := p.Space, ch.Movement, "roll via "
	if p.Pause != nil {
		from, ms, verb = p.Pause.Fork, []Movement{{p.Pause.Movement, 1}}, "choose "
		if ch.Fork != p.Pause.Fork || ch.Left != p.Pause.Movement {
			t.Fatalf("%s: waits at %s with %d; listed %s with %d", where, p.Pause.Fork, p.Pause.Movement, ch.Fork, ch.Left)
		}
	}
	forks := map[string][]string{}
	for _, f := range ch.Forks {
		forks[f.Space] = f.Ways
	}
	routes := [][]string{nil}
	for _, c := range ch.Orders {
		if r, ok := strings.CutPrefix(c.Order, verb); ok {
			routes = append(routes, strings.Fields(r))
		}
	}
	for _, r := range routes {
		if p.Pause != nil && r == nil {
			continue // choose needs a way
		}
		for _, m := range ms {
			w := s.board.walk(from, m.Movement, r, nil)
			if w.fork == "" || w.used < len(r) {
				continue
			}
			if ways, ok := forks[w.fork]; !ok || strings.Join(ways, " ") != strings.Join(s.board.Successors(w.fork), " ") {
				t.Fatalf("%s: route %v with Movement %d meets the fork %s; forks listed %v", where, r, m.Movement, w.fork, ch.Forks)
			}
			for _, way := range s.board.Successors(w.fork) {
				text := verb + strings.Join(append(append([]string(nil), r...), way), " ")
				if _, ok := listed[text]; !ok && !ch.More {
					t.Fatalf("%s: %q is left out", where, text)
				}
			}
		}
	}
	// Outside the list: words no order has, a way that is none, a roll
	// through a fork refused as the roll is.
	for text, code := range map[string]string{"jump": "unknown_order", "wait now": "wait_takes_nothing"} {
		if _, err := parse(text); !hasCode(err, code) {
			t.Fatalf("%s: %q: %v, want %s", where, text, err, code)
		}
	}
	notAWay := s.board.Spaces[0].ID
	for _, sp := range s.board.Spaces {
		if p.Pause == nil || !slices.Contains(s.board.Successors(p.Pause.Fork), sp.ID) {
			notAWay = sp.ID
			break
		}
	}
	want := codeNotAtAFork
	if p.Pause != nil {
		want = codeNotAWayOn
	}
	if _, err := parse("choose " + notAWay); !hasCode(err, want) {
		t.Fatalf("%s: choose %s: %v, want %s", where, notAWay, err, want)
	}
	if _, err := parse("roll via " + notAWay); (err == nil) != roll.Allowed || (err != nil && !hasCode(err, roll.Code)) {
		t.Fatalf("%s: roll via %s: %v; the roll is listed %+v", where, notAWay, err, roll)
	}
}

// checkOdds: a move lands or waits, for sure; types sum the spaces landed on.
func checkOdds(t *testing.T, where string, o *Odds) {
	t.Helper()
	if o == nil {
		t.Fatalf("%s: allowed and moves, with no odds", where)
	}
	lands, types, waits := 0.0, 0.0, 0.0
	for _, p := range o.Lands {
		lands += p
	}
	for _, p := range o.Types {
		types += p
	}
	for _, p := range o.Waits {
		waits += p
	}
	if math.Abs(lands+waits-1) > 1e-9 || math.Abs(types-lands) > 1e-9 || o.Star < 0 || o.Star > 1+1e-9 {
		t.Fatalf("%s: odds %+v", where, o)
	}
}

func hasCode(err error, code string) bool {
	var oe *race.OrderError
	return errors.As(err, &oe) && oe.ErrCode() == code
}

func TestChoicesOfNoSeat(t *testing.T) {
	s := testGame(t, smallBoard, 2)
	if _, err := (Ruleset{}).Choices(s, 2); !hasCode(err, codeNoSeat) {
		t.Fatalf("seat 2 of 2: %v", err)
	}
	if _, err := (Ruleset{}).Choices(nil, 0); err == nil {
		t.Fatal("a nil state has choices")
	}
	var none *State
	if _, err := (Ruleset{}).Choices(none, 0); err == nil {
		t.Fatal("a nil party state has choices")
	}
}
