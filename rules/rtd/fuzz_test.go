package rtd

import (
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// FuzzResolve plays turns of a six-kart race with actions from the fuzzer and
// dice from a fuzzed seed, on a fuzzed course, with race options the fuzzer
// picks (one bit each, in optionFields' order: the second value), and checks after every turn
// that the state still makes sense: every racer on a real segment, Momentum
// within its kart's bounds, no lap count past the race's, no item out of the
// chart, the order a permutation, and Resolve left its input alone.
func FuzzResolve(f *testing.F) {
	f.Add(uint64(1), uint8(0), uint8(0), "rocket start|safe start", "aggressive|item forward|item throw at Racer 0|path 1|ram|power slide")
	f.Add(uint64(7), uint8(1), uint8(15), "rocket start", "item|item lay|draft|defensive|item backward|path 2")
	f.Add(uint64(99), uint8(2), uint8(5), "x", "item throw at Racer 5|aggressive")
	f.Add(uint64(11), uint8(0), uint8(0), "rocket start", "item green-shell forward|item banana lay then hold|item mushroom|aggressive then pull ahead|path 1")
	f.Add(uint64(12), uint8(1), uint8(6), "rocket start", "aggressive then pull ahead|item star|ram then hold|item triple-red-shell")
	f.Fuzz(func(t *testing.T, seed uint64, course, opts uint8, start, later string) {
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
		options := map[string]string{}
		for i, f := range optionFields {
			if opts&(1<<i) != 0 {
				options[f.Name] = f.Values[1]
			}
		}
		st, err := Ruleset{}.Setup(race.Config{Track: cs[int(course)%len(cs)].ID, Laps: 1, Options: options}, es, d)
		if err != nil {
			t.Fatal(err)
		}
		texts := [2][]string{strings.Split(start, "|"), strings.Split(later, "|")}
		for turn := 1; turn <= 15 && !st.Over(); turn++ {
			src := texts[min(turn-1, 1)]
			next := racetest.FuzzTurn(t, Ruleset{}, st, d, func(seat int) (string, bool) {
				return src[(seat+turn)%len(src)], false
			})
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
		case !itemsInOrder(x.items()) || len(x.Bag) > 0 && x.Hand == 0 || s.Opts.OneItem && len(x.Bag) > 0:
			t.Fatalf("%s holds %v and %v", x.Name, x.Hand, x.Bag)
		case x.Shells < 0 || x.Shells > 3*x.count(TripleRedShell):
			t.Fatalf("%s with %d shells and %d triple red shells", x.Name, x.Shells, x.count(TripleRedShell))
		}
	}
}
