package ludi

import (
	"errors"
	"strings"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
)

// Every choice listed as allowed is accepted, every one listed as refused is
// refused with the code it names, and orders outside the list are refused:
// at every turn of bot races, for every racer prompted, in one-, two- and
// three-order turns.
func TestChoicesMatchTheRules(t *testing.T) {
	rs := Ruleset{}
	var allowed, refused, multi int
	for seed := uint64(1); seed <= 6; seed++ {
		_, p := botRace(t, seed, 8)
		for _, st := range racetest.Sampled(t, p, 1) {
			for orders := 1; orders <= 3; orders++ {
				s := st
				if orders != st.(*State).Orders {
					var err error
					if s, err = rs.Set(st, "orders", string(rune('0'+orders))); err != nil {
						t.Fatal(err)
					}
				}
				for _, pr := range rs.Prompts(s) {
					v, err := rs.Choices(s, pr.Seat)
					if err != nil {
						t.Fatal(err)
					}
					ch := v.(Choices)
					if ch.Orders != orders || len(ch.First) != int(RollAway) {
						t.Fatalf("turn %d seat %d: %d orders, %d choices", s.Turn(), pr.Seat, ch.Orders, len(ch.First))
					}
					if orders > 1 && (len(ch.Later) == 0 || len(ch.Contingencies) == 0) {
						t.Fatalf("a %d-order turn lists no later orders or contingencies", orders)
					}
					for _, c := range ch.First {
						text := c.Order
						for i := 1; i < orders; i++ {
							text += ", " + ch.Later[0] + " else " + ch.Contingencies[i%len(ch.Contingencies)]
						}
						if orders > 1 {
							multi++
						}
						_, err := rs.ParseOrder(s, race.Submission{Seat: pr.Seat, Text: text})
						var oe *race.OrderError
						switch {
						case c.Allowed && err != nil:
							t.Fatalf("turn %d seat %d: %q is listed as allowed and is refused: %v", s.Turn(), pr.Seat, text, err)
						case !c.Allowed && err == nil:
							t.Fatalf("turn %d seat %d: %q is listed as refused (%s) and is accepted", s.Turn(), pr.Seat, text, c.Reason)
						case !c.Allowed && (!errors.As(err, &oe) || oe.ErrCode() != c.Code || c.Reason == ""):
							t.Fatalf("turn %d seat %d: %q refused with %v, listed with code %q", s.Turn(), pr.Seat, text, err, c.Code)
						}
						if c.Allowed {
							allowed++
						} else {
							refused++
						}
						for _, w := range c.Words { // every word listed reads as that order
							if o, err := ParseOrders(w); err != nil || o.Steps[0].Kind.String() != c.Order {
								t.Fatalf("the word %q does not read as %s: %v", w, c.Order, err)
							}
						}
					}
					// outside the list: an order no one may name, a bonus
					// outside the window, one order too many
					for _, text := range []string{"Cruise", ch.First[0].Order + ", bonus move", strings.Repeat("Control, ", orders) + "Control"} {
						if _, err := rs.ParseOrder(s, race.Submission{Seat: pr.Seat, Text: text}); err == nil {
							t.Fatalf("%q is outside the choices and was accepted", text)
						}
					}
				}
			}
		}
	}
	if allowed == 0 || refused == 0 || multi == 0 {
		t.Fatalf("allowed %d, refused %d, multi-order %d: the sample misses a case", allowed, refused, multi)
	}
	t.Logf("%d choices allowed and accepted, %d refused as listed", allowed, refused)
}

func TestChoicesOfNoSeat(t *testing.T) {
	_, p := botRace(t, 1, 4)
	if _, err := (Ruleset{}).Choices(p.Start, 9); err == nil {
		t.Fatal("seat 9 of 4 has choices")
	}
	if _, err := (Ruleset{}).Choices(nil, 0); err == nil {
		t.Fatal("a nil state has choices")
	}
}
