package nascar

import (
	"math"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// near says whether a count out of n agrees with the odds p
// (racetest.Agrees, with a little more for the tails).
func near(p float64, count, n int) bool { return racetest.Agrees(float64(count), n, p, 0.005) }

// simulate resolves the turn n times through Resolve, seat driving o and
// the other cars standing still (speed 0, as the odds assume), and counts
// the outcomes.
func simulate(t *testing.T, st *State, seat int, o Order, n int, seed uint64) map[string]int {
	t.Helper()
	s := st.clone()
	for i := range s.Cars {
		if c := &s.Cars[i]; c.Seat != seat {
			c.Speed = 0
		}
	}
	counts := map[string]int{}
	for i := 0; i < n; i++ {
		_, ev, err := Ruleset{}.Resolve(s, map[int]race.Order{seat: o}, dice.New(dice.SeedFromInt(seed*1_000_003+uint64(i))), time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		counts[outcome(seat, ev)]++
	}
	return counts
}

// ahead is the square k squares ahead of c.
func ahead(c *RaceCar, k int) Point {
	dx, dy := c.Heading.Step()
	return Point{c.Pos.X + k*dx, c.Pos.Y + k*dy}
}

// The odds listed for every speed agree with Resolve played many times
// over, in states of bot races, as they were and with oil poured on the
// squares ahead of the car; they sum to 1 and name every outcome.
func TestSpeedOddsMatchResolve(t *testing.T) {
	const n = 200
	seen := map[string]int{}
	checked := 0
	for _, track := range []string{"oval", "road-course"} {
		_, p := botRace(t, 2, 6, track)
		for turn, st := range racetest.Sampled(t, p, 9) {
			for _, pr := range (Ruleset{}).Prompts(st) {
				for oily := 0; oily <= 2; oily++ {
					s := st.(*State).clone()
					c := s.car(pr.Seat)
					for k := 1; k <= oily; k++ { // slicks one, then one and two, squares ahead
						s.Oil = append(s.Oil, ahead(c, k))
					}
					v, err := Ruleset{}.Choices(s, pr.Seat)
					if err != nil {
						t.Fatal(err)
					}
					for _, sc := range v.(Choices).Speeds {
						if err := racetest.Distribution(sc.Odds, Outcomes, 1e-12); err != nil {
							t.Fatalf("speed %d: %v", sc.Speed, err)
						}
						if strings.Contains(sc.Before, "S") {
							continue // the slipstream needs the car ahead moving: not a still field
						}
						counts := simulate(t, s, pr.Seat, straight(sc.Before, sc.Speed), n, uint64(turn*10+oily))
						for _, x := range Outcomes {
							q := sc.Odds[x]
							if !near(q, counts[x], n) || (q == 0 && counts[x] > 0) {
								t.Fatalf("%s turn %d seat %d oil %d speed %d: %s has odds %.4f, happened %d of %d (%v)",
									track, turn, pr.Seat, oily, sc.Speed, x, q, counts[x], n, sc.Odds)
							}
							if counts[x] > 0 {
								seen[x]++
							}
						}
						checked++
					}
				}
			}
		}
	}
	for _, x := range Outcomes {
		if seen[x] == 0 {
			t.Errorf("no state of the sample gave %s: it checks nothing", x)
		}
	}
	t.Logf("%d speeds checked, outcomes seen: %v", checked, seen)
}

// A hand-built oval: car 0 on the front straight heading east, car 1 out of
// the way in the first turn, no sandbags.
func onOval(t *testing.T, pos Point, speed int, oil ...Point) *State {
	t.Helper()
	_, p := botRace(t, 1, 2, "oval")
	s := p.Start.(*State).clone()
	s.Sandbags, s.Found = nil, nil
	s.Oil = oil
	c := &s.Cars[0]
	c.Pos, c.Heading, c.Speed = pos, E, speed
	s.Cars[1].Pos = Point{7, 9}
	return s
}

// withCar puts car 1 at p.
func withCar(s *State, p Point) *State {
	s.Cars[1].Pos = p
	return s
}

func TestSpeedOddsByHand(t *testing.T) {
	for _, tc := range []struct {
		name  string
		s     *State
		speed int
		want  map[string]float64
	}{
		{"a clear straight: nothing rolled", onOval(t, Point{14, 2}, 3), 3, map[string]float64{OutNone: 1}},
		{"standing still", onOval(t, Point{14, 2}, 0), 0, map[string]float64{OutNone: 1}},
		{"straight off the end of the straight", onOval(t, Point{38, 1}, 3), 3, map[string]float64{OutOff: 1}},
		{"a slick ahead mid-track: slewed either way, still on", onOval(t, Point{14, 2}, 2, Point{15, 2}), 2,
			map[string]float64{OutOil: 1}},
		{"a slick ahead by the edge: one way off", onOval(t, Point{14, 1}, 2, Point{15, 1}), 2,
			map[string]float64{OutOil: 0.5, OutOff: 0.5}},
		{"a slick past the last move: never reached", onOval(t, Point{14, 1}, 2, Point{17, 1}), 2,
			map[string]float64{OutNone: 1}},
		{"a slick; a second on the left slew's path, the edge on the right's", onOval(t, Point{14, 2}, 3, Point{15, 2}, Point{16, 3}), 3,
			map[string]float64{OutOil: 0.5, OutOff: 0.5}},
		{"a slick; a second on the left slew's path, all on the track", onOval(t, Point{14, 2}, 2, Point{15, 2}, Point{16, 3}), 2,
			map[string]float64{OutOil: 1}},
		{"a slick ahead, then the edge either way", onOval(t, Point{14, 1}, 3, Point{15, 1}, Point{16, 2}, Point{17, 3}), 3,
			map[string]float64{OutOil: 0.5, OutOff: 0.5}},
		{"off the track over the infield and back on, into a car", withCar(onOval(t, Point{36, 5}, 4), Point{40, 5}), 4,
			map[string]float64{OutOff: 1}},
		{"a car ahead", withCar(onOval(t, Point{14, 2}, 3), Point{16, 2}), 3, map[string]float64{OutCrash: 1}},
		{"a slick slews it into a car", withCar(onOval(t, Point{14, 2}, 2, Point{15, 2}), Point{16, 3}), 2,
			map[string]float64{OutCrash: 0.5, OutOil: 0.5}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.s.orderOdds(0, straight("", tc.speed))
			for _, x := range Outcomes {
				if math.Abs(got[x]-tc.want[x]) > 1e-12 {
					t.Errorf("%s: %.4f, want %.4f (all: %v)", x, got[x], tc.want[x], got)
				}
			}
		})
	}
}

// The odds listed with each speed are those of straight on at it.
func TestChoicesCarryTheOdds(t *testing.T) {
	s := onOval(t, Point{14, 1}, 2, Point{15, 1})
	v, err := Ruleset{}.Choices(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range v.(Choices).Speeds {
		want := s.orderOdds(0, straight(sc.Before, sc.Speed))
		for _, x := range Outcomes {
			if sc.Odds[x] != want[x] {
				t.Fatalf("speed %d: %v, want %v", sc.Speed, sc.Odds, want)
			}
		}
		if sc.Speed == 2 && sc.Odds[OutOff] != 0.5 {
			t.Fatalf("speed 2 over the slick by the edge: %v", sc.Odds)
		}
	}
}
