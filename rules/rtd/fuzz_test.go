package rtd

import (
	"errors"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// FuzzResolve plays turns of a six-kart race with actions from the fuzzer and
// dice from a fuzzed seed, on a fuzzed course, and checks after every turn
// that the state still makes sense: every racer on a real segment, Momentum
// within its kart's bounds, no lap count past the race's, no item out of the
// chart, the order a permutation, and Resolve left its input alone.
func FuzzResolve(f *testing.F) {
	f.Add(uint64(1), uint8(0), "rocket start|safe start", "aggressive|item forward|item throw at Racer 0|path 1|ram|power slide")
	f.Add(uint64(7), uint8(1), "rocket start", "item|item lay|draft|defensive|item backward|path 2")
	f.Add(uint64(99), uint8(2), "x", "item throw at Racer 5|aggressive")
	f.Fuzz(func(t *testing.T, seed uint64, course uint8, start, later string) {
		cs, err := Courses()
		if err != nil {
			t.Fatal(err)
		}
		karts := []map[string]string{nil, {"perk": "item-bonus", "debuff": "slow"}, {"perk": "ramming-speed", "debuff": "low-loot"},
			{"perk": "high-acceleration", "debuff": "featherweight"}}
		var es []race.Entrant
		for i := 0; i < 6; i++ {
			es = append(es, race.Entrant{Player: "P" + string(rune('0'+i)), Racers: []string{"Racer " + string(rune('0'+i))}, Options: karts[i%4]})
		}
		d := dice.New(dice.SeedFromInt(seed))
		st, err := Ruleset{}.Setup(race.Config{Track: cs[int(course)%len(cs)].ID, Laps: 1}, es, d)
		if err != nil {
			t.Fatal(err)
		}
		texts := [2][]string{strings.Split(start, "|"), strings.Split(later, "|")}
		for turn := 1; turn <= 15 && !st.Over(); turn++ {
			os := map[int]race.Order{}
			src := texts[min(turn-1, 1)]
			for _, p := range (Ruleset{}).Prompts(st) {
				text := src[(p.Seat+turn)%len(src)]
				o, err := Ruleset{}.ParseOrder(st, race.Submission{Seat: p.Seat, Text: text})
				if err != nil {
					var oe *race.OrderError
					if !errors.As(err, &oe) {
						t.Fatalf("%q: an error that is not an order error: %v", text, err)
					}
					if oe.Code == "" {
						t.Fatalf("%q: refused without a code of its own: %v", text, err)
					}
					o = Ruleset{}.DefaultOrder(st, p.Seat)
				}
				os[p.Seat] = o
			}
			before, _ := race.Hash(st)
			next, _, err := Ruleset{}.Resolve(st, os, d, time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			if after, _ := race.Hash(st); after != before {
				t.Fatal("Resolve changed its input")
			}
			checkState(t, next.(*State))
			st = next
		}
	})
}

func checkState(t *testing.T, s *State) {
	t.Helper()
	seen := map[int]bool{}
	for _, seat := range s.Order {
		if seen[seat] || s.racer(seat) == nil {
			t.Fatalf("the order %v is not a permutation of the seats", s.Order)
		}
		seen[seat] = true
	}
	if len(seen) != len(s.Racers) {
		t.Fatalf("the order %v misses racers", s.Order)
	}
	for _, x := range s.Racers {
		switch {
		case x.Segment < 0 || x.Segment >= len(s.course.Segments):
			t.Fatalf("%s on segment %d", x.Name, x.Segment)
		case x.Momentum < 0 || x.Momentum > MaxMomentum(x.Debuff):
			t.Fatalf("%s with Momentum %d", x.Name, x.Momentum)
		case x.Laps > s.Laps:
			t.Fatalf("%s on lap %d of %d", x.Name, x.Laps, s.Laps)
		case x.Hand < 0 || x.Hand > Thunderbolt:
			t.Fatalf("%s holds %d", x.Name, x.Hand)
		case x.Shells < 0 || x.Shells > 3:
			t.Fatalf("%s with %d shells", x.Name, x.Shells)
		}
	}
}
