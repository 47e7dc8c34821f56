package ludi

import (
	"fmt"
	"math"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
	"pitwall/rules/ludi/tables"
)

// simulate resolves the turn n times through Resolve, seat giving order k
// and the other chariots standing still (as the odds assume: out of the
// turn but on the track), and counts the first outcome of each.
func simulate(t *testing.T, st *State, seat int, k Kind, n int, seed uint64) map[string]int {
	t.Helper()
	s := st.clone()
	s.Orders = 1
	for i := range s.Chariots {
		if c := &s.Chariots[i]; c.Seat != seat && c.Active() {
			c.Out = RolledAway
		}
	}
	orders := map[int]race.Order{seat: Orders{Steps: []Step{{Kind: k}}}}
	e := &enumeration{c: *s.chariot(seat), k: k}
	counts := map[string]int{}
	for i := 0; i < n; i++ {
		after, ev, err := Ruleset{}.Resolve(s, orders, dice.New(dice.SeedFromInt(seed*1_000_003+uint64(i))), time.Unix(0, 0))
		if err != nil {
			t.Fatal(err)
		}
		counts[e.outcome(after.(*State), ev)]++
	}
	return counts
}

// near says whether a count out of n agrees with the odds p
// (racetest.Agrees, with a little more for the tails).
func near(p float64, count, n int) bool { return racetest.Agrees(float64(count), n, p, 0.005) }

// The odds listed for every allowed first order agree with Resolve played
// many times over, in states of bot races; they sum to 1, name every
// outcome, and an outcome of odds 0 never happens.
func TestOrderOddsMatchResolve(t *testing.T) {
	const n = 300
	seen := map[string]int{}
	var checked int
	for seed := uint64(1); seed <= 3; seed++ {
		_, p := botRace(t, seed, 8)
		for turn, st := range racetest.Sampled(t, p, 4) {
			s := st.(*State)
			for _, pr := range (Ruleset{}).Prompts(s) {
				v, err := Ruleset{}.Choices(s, pr.Seat)
				if err != nil {
					t.Fatal(err)
				}
				for _, ch := range v.(Choices).First {
					if !ch.Allowed {
						if ch.Odds != nil || ch.Level != "" {
							t.Fatalf("refused %s has odds %v", ch.Order, ch.Odds)
						}
						continue
					}
					if err := racetest.Distribution(ch.Odds, Outcomes, 1e-9); err != nil {
						t.Fatalf("%s: %v", ch.Order, err)
					}
					k, _ := parseKind(ch.Order)
					counts := simulate(t, s, pr.Seat, k, n, seed*1000+uint64(turn))
					for _, o := range Outcomes {
						if p := ch.Odds[o]; !near(p, counts[o], n) || (p == 0) != (counts[o] == 0) && (p == 0 || p > 0.05) {
							t.Fatalf("seed %d turn %d seat %d %s: %s has odds %.4f, happened %d of %d (%v)",
								seed, turn, pr.Seat, ch.Order, o, p, counts[o], n, ch.Odds)
						}
						if counts[o] > 0 {
							seen[o]++
						}
					}
					checked++
				}
			}
		}
	}
	racetest.Met(t, "outcome", seen, OutNone, OutSlip, OutNaufragia, OutWall)
	t.Logf("%d orders checked, outcomes seen: %v", checked, seen)
}

// alone is a hand-built race: seat 0 where the case puts it, Skill and
// Endurance as given, a fresh team; seat 1 far off on the back straight.
func alone(t *testing.T, pos Pos, l tables.Level, skill int) *State {
	t.Helper()
	_, p := botRace(t, 1, 2)
	s := p.Start.(*State).clone()
	c := &s.Chariots[0]
	c.Pos, c.Level, c.Skill = pos, l, skill
	c.Team.Speed = 0
	s.Chariots[1].Pos = Pos{Lane: 6, Seg: 2, Cell: 10}
	return s
}

// tableOdds is the tables' own odds of a check.
func tableOdds(t *testing.T, check string, args map[string]string) map[string]float64 {
	t.Helper()
	o, err := tables.Odds(check, args)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// Hand-built cases, worked out from the tables alone.
func TestOrderOddsByHand(t *testing.T) {
	lastOfStraight := func(lane int) Pos { return Pos{Lane: lane, Seg: 0, Cell: 19} }
	mid := func(lane int) Pos { return Pos{Lane: lane, Seg: 0, Cell: 6} }
	corner := func(lane int, l tables.Level, skill int, control bool) map[string]float64 {
		args := map[string]string{"lane": fmt.Sprint(lane), "level": l.String(), "skill": fmt.Sprint(skill)}
		if control {
			args["control"] = "true"
		}
		return tableOdds(t, "corner", args)
	}
	wall := func(skill int) float64 {
		return tableOdds(t, "wall", map[string]string{"skill": fmt.Sprint(skill)})["damage"]
	}
	slip, nauf, keep := tables.Slip.String(), tables.Naufragia.String(), tables.NoChange.String()
	for _, tc := range []struct {
		name  string
		s     *State
		k     Kind
		level tables.Level
		want  map[string]float64
	}{
		{"mid straight, lane 3: nothing to roll for", alone(t, mid(3), tables.Low, 1), Accelerate, tables.Fast,
			map[string]float64{OutNone: 1}},
		{"braking to a stop rolls no die", alone(t, mid(3), tables.Low, 1), Brake, tables.Stop,
			map[string]float64{OutNone: 1}},
		{"mid straight in lane 1: the spina", alone(t, mid(1), tables.Low, 0), Watch, tables.Low,
			map[string]float64{OutWall: wall(0), OutNone: 1 - wall(0)}},
		{"Left 1 from lane 2 ends by the spina", alone(t, mid(2), tables.Fast, 2), Left1, tables.Fast,
			map[string]float64{OutWall: wall(2), OutNone: 1 - wall(2)}},
		{"into the far meta in lane 3 at LOW", alone(t, lastOfStraight(3), tables.Low, 0), Watch, tables.Low,
			map[string]float64{OutSlip: corner(3, tables.Low, 0, false)[slip], OutNaufragia: corner(3, tables.Low, 0, false)[nauf],
				OutNone: corner(3, tables.Low, 0, false)[keep]}},
		{"accelerating into the far meta in lane 4", alone(t, lastOfStraight(4), tables.Fast, 1), Accelerate, tables.Max,
			map[string]float64{OutSlip: corner(4, tables.Max, 1, false)[slip], OutNaufragia: corner(4, tables.Max, 1, false)[nauf],
				OutNone: corner(4, tables.Max, 1, false)[keep]}},
		{"Control into the far meta at MAX", alone(t, lastOfStraight(3), tables.Max, 1), Control, tables.Max,
			map[string]float64{OutSlip: corner(3, tables.Max, 1, true)[slip], OutNaufragia: corner(3, tables.Max, 1, true)[nauf],
				OutNone: corner(3, tables.Max, 1, true)[keep]}},
		{"the far meta in lane 6, by the outer wall", alone(t, lastOfStraight(6), tables.Fast, 2), Watch, tables.Fast,
			map[string]float64{OutSlip: corner(6, tables.Fast, 2, false)[slip], OutNaufragia: corner(6, tables.Fast, 2, false)[nauf],
				OutWall: corner(6, tables.Fast, 2, false)[keep] * wall(2), OutNone: corner(6, tables.Fast, 2, false)[keep] * (1 - wall(2))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, got := tc.s.orderOdds(0, tc.k)
			if l != tc.level {
				t.Errorf("level %s, want %s", l, tc.level)
			}
			for _, o := range Outcomes {
				if math.Abs(got[o]-tc.want[o]) > 1e-12 {
					t.Errorf("%s: %.6f, want %.6f (all: %v)", o, got[o], tc.want[o], got)
				}
			}
		})
	}
}

// Whipping tired horses: the whip's harm stops them (their fourth point);
// otherwise nothing on the straight.
func TestOrderOddsWhipStopsTiredHorses(t *testing.T) {
	for end := 0; end <= 2; end++ {
		s := alone(t, Pos{Lane: 3, Seg: 0, Cell: 6}, tables.Low, 1)
		c := &s.Chariots[0]
		c.Team.Endurance, c.Endurance, c.HorseInjuries = 2, end, 3-(2-end)
		w := tableOdds(t, "whip", map[string]string{"endurance": fmt.Sprint(end)})
		hurt := w["success_damage"] + w["damage"]
		l, got := s.orderOdds(0, Whip)
		if l != tables.Fast || math.Abs(got[OutHorsesStopped]-hurt) > 1e-12 || math.Abs(got[OutNone]-(1-hurt)) > 1e-12 {
			t.Errorf("Endurance %d: %s %v, want horses stopped %.4f", end, l, got, hurt)
		}
		// With a point to spare the whip's harm stops nothing.
		c.HorseInjuries--
		if _, got := s.orderOdds(0, Whip); got[OutNone] != 1 {
			t.Errorf("Endurance %d, a point to spare: %v", end, got)
		}
	}
}

// A crash from a chariot with two points gone on that side: the recoil can
// flip it before it moves, at the odds the crash tables give.
func TestOrderOddsCrashRecoil(t *testing.T) {
	for _, side := range []Kind{CrashRight, CrashLeft} {
		s := alone(t, Pos{Lane: 3, Seg: 0, Cell: 6}, tables.Low, 1)
		a, d := &s.Chariots[0], &s.Chariots[1]
		d.Pos = Pos{Lane: 3 + side.Side(), Seg: 0, Cell: 6}
		if side == CrashRight {
			a.DamageR = 2
		} else {
			a.DamageL = 2
		}
		flip := 0.0
		for _, target := range []tables.Target{tables.Horses, tables.Chariot} {
			col := d.Team.Size
			if target == tables.Horses {
				col = min(d.Endurance, 2)
			}
			for v := 1; v <= 20; v++ {
				for dv := 1; dv <= 20; dv++ {
					self, _ := tables.CrashDamageRoll(a.Skill+a.Team.Size, col, dv)
					if tables.CrashHits(tables.Adjacent, a.Skill, d.Team.Size, target, v) && self {
						flip += 0.5 / 400 // the strike picks horses or chariot, 50-50
					}
				}
			}
		}
		_, got := s.orderOdds(0, side)
		if flip == 0 || math.Abs(got[OutNaufragia]-flip) > 1e-12 || math.Abs(got[OutNone]-(1-flip)) > 1e-12 {
			t.Errorf("%s: %v, want naufragia %.4f", side, got, flip)
		}
		// The other side has a point to spare: the recoil flips nothing.
		a.DamageL, a.DamageR = a.DamageR, a.DamageL
		if _, got := s.orderOdds(0, side); got[OutNone] != 1 {
			t.Errorf("%s, the other side worn: %v", side, got)
		}
	}
}

// Hanging on to a wreck: thrown clear at the fall table's odds, dragged on
// at the wreck's level otherwise; rolling away rolls nothing.
func TestOrderOddsHangOn(t *testing.T) {
	for con := 0; con <= 2; con++ {
		s := alone(t, Pos{Lane: 3, Seg: 0, Cell: 6}, tables.Fast, 1)
		c := &s.Chariots[0]
		c.Flipped, c.Team.Constitution = true, con
		thrown := 0.0
		for v := 1; v <= 20; v++ {
			if tables.FallDamage(con, v) {
				thrown += 1.0 / 20
			}
		}
		l, got := s.orderOdds(0, HangOn)
		if l != tables.Fast || thrown == 0 || math.Abs(got[OutThrown]-thrown) > 1e-12 || math.Abs(got[OutNone]-(1-thrown)) > 1e-12 {
			t.Errorf("Constitution %d: %s %v, want thrown %.4f", con, l, got, thrown)
		}
		if _, got := s.orderOdds(0, RollAway); got[OutNone] != 1 {
			t.Errorf("Constitution %d, rolling away: %v", con, got)
		}
	}
}
