package ludi

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitwall/bot"
	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest/golden"
	"pitwall/sim"
)

// simRace is one race of the fingerprint: the simulator's race with the
// heuristic bot in every seat.
type simRace struct {
	seed     uint64
	chariots int
	options  map[string]string
}

// fingerprintRaces cover the field's sizes and every rule option away from
// its default.
var fingerprintRaces = []simRace{
	{1, 12, nil}, {2, 12, nil}, {3, 12, nil}, {4, 2, nil}, {5, 5, nil}, {6, 8, nil},
	{7, 12, map[string]string{"watch-crash": WatchCrashNone, "endurance-pace": EndurancePaceSpace, "lacerate-skill": LacerateSkillDifference}},
	{8, 12, map[string]string{"slip-lane": SlipLaneStart, "wreck-finish": WreckFinishPlace, "control-wheels": ControlWheelsNone, "endurance-pace": EndurancePaceNone}},
}

// simSetup is the simulator's setup of a race of n chariots (n of the
// demo's twelve aurigae, each a participant of its own).
func simSetup(seed uint64, n int, options map[string]string) sim.Setup {
	var es []race.Entrant
	for i := 0; i < n; i++ {
		es = append(es, race.Entrant{Player: fmt.Sprint("P", i), Racers: []string{fmt.Sprint("Auriga ", i)},
			Options: map[string]string{"package": pkgs[i%6], "extras": extras[(i/6+i)%6]}})
	}
	return sim.Setup{Config: race.Config{Track: defaultTrack, Options: options}, Entrants: es, Seed: dice.SeedFromInt(seed)}
}

// heuristicBots is the heuristic bot in 12 seats.
func heuristicBots(tb testing.TB) []race.BotFunc {
	h, err := bot.New(Ruleset{}, bot.Heuristic, bot.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	bots := make([]race.BotFunc, 12)
	for i := range bots {
		bots[i] = h
	}
	return bots
}

// story is a digest of a turn's events and rolls, text and all: a change
// to what a turn tells, not only to where it leaves the chariots, shows.
func story(tn race.Turn) string {
	h := sha256.New()
	for _, e := range tn.Events {
		fmt.Fprintf(h, "%d|%s|%s|%v\n", e.Seat, e.Kind, e.Text, e.Rolls)
	}
	for _, r := range tn.Rolls {
		fmt.Fprintf(h, "%+v\n", r)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// TestFingerprint holds the simulator's ludi races to testdata/fingerprint.txt:
// every bot order sim.Play's heuristic bots send, its outcome, and (from the
// same race played on a host's log) the state hash and the story of every
// turn; then the test's bot races (missed turns, two-order turns, the bonus
// window) the same way. A change to the bot's choices, to a replay or to a
// turn's story changes the file (-update rewrites it: read the diff).
func TestFingerprint(t *testing.T) {
	var out strings.Builder
	fmt.Fprintln(&out, "# ludi bot races: the orders, outcome, state hashes and stories (sim_test.go).")
	bots := heuristicBots(t)
	for _, fr := range fingerprintRaces {
		su := simSetup(fr.seed, fr.chariots, fr.options)
		var sent []string
		rec := make([]race.BotFunc, len(bots))
		for i := range rec {
			rec[i] = func(s race.State, seat int, in bool, rng *rand.Rand) string {
				text := bots[seat](s, seat, in, rng)
				sent = append(sent, fmt.Sprintf("t%d s%d %s", s.Turn(), seat, text))
				return text
			}
		}
		o, err := sim.Play(Ruleset{}, su, rec, rand.New(rand.NewPCG(fr.seed, 7)), 300)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "sim seed=%d chariots=%d options=%v turns=%d dice=%d over=%v\n", fr.seed, fr.chariots, fr.options, o.Turns, o.Dice, o.Over)
		for _, st := range o.Final {
			fmt.Fprintf(&out, "  place %d seat %d %s %s\n", st.Place, st.Seat, st.Status, st.Detail)
		}
		for _, line := range sent {
			fmt.Fprintln(&out, "  "+line)
		}

		r := &race.Race{ID: "r", Ruleset: "ludi", Config: su.Config, Entrants: su.Entrants, Seed: su.Seed}
		p, err := race.Start(Ruleset{}, r)
		if err != nil {
			t.Fatal(err)
		}
		b := race.BotRace{MaxTurns: 300, Bot: func(s race.State, seat int, in bool, rng *rand.Rand) string { return bots[seat](s, seat, in, rng) }}
		if err := b.Play(Ruleset{}, race.LogTable{P: p, At: race.BotTime}, rand.New(rand.NewPCG(fr.seed, 7))); err != nil {
			t.Fatal(err)
		}
		if p.Resolved() != o.Turns {
			t.Errorf("seed %d: sim.Play played %d turns, the host's race %d", fr.seed, o.Turns, p.Resolved())
		}
		for _, tn := range p.Turns {
			fmt.Fprintf(&out, "  turn %d hash %s story %s\n", tn.Turn, tn.Hash, story(tn))
		}
	}
	for seed := uint64(1); seed <= 3; seed++ {
		_, p := botRace(t, seed, 12)
		fmt.Fprintf(&out, "botRace seed=%d chariots=12 turns=%d\n", seed, p.Resolved())
		for _, tn := range p.Turns {
			fmt.Fprintf(&out, "  turn %d hash %s story %s orders %v defaulted %v\n", tn.Turn, tn.Hash, story(tn), tn.Orders, tn.Defaulted)
		}
	}
	golden.Check(t, filepath.Join("testdata", "fingerprint.txt"), out.String())
}

// BenchmarkRace12 plays whole 12-chariot races as the simulator does
// (sim.Play, the heuristic bot in every seat, a new seed each race), then
// times as many ChaCha8 draws as the races rolled dice: races/s is a core's
// rate, x-dice how many times a race costs its dice alone.
func BenchmarkRace12(b *testing.B) {
	bots := heuristicBots(b)
	seeds := make([]dice.Seed, 256)
	for i := range seeds {
		seeds[i] = dice.SeedFromInt(uint64(i))
	}
	g := Ruleset{}.Game()
	su := sim.Setup{Config: race.Config{Track: defaultTrack}, Entrants: g.Demo.Entrants}
	rng := rand.New(rand.NewPCG(1, 2))
	races, rolls, turns := 0, 0, 0
	b.ReportAllocs()
	for b.Loop() {
		su.Seed = seeds[races%len(seeds)]
		o, err := sim.Play(Ruleset{}, su, bots, rng, 300)
		if err != nil || !o.Over {
			b.Fatalf("race %d: over %v, %v", races, o.Over, err)
		}
		races, rolls, turns = races+1, rolls+o.Dice, turns+o.Turns
	}
	perRace := b.Elapsed().Seconds() / float64(races)
	diceSec := chachaDraws(rolls).Seconds() / float64(races)
	b.ReportMetric(1/perRace, "races/s")
	b.ReportMetric(float64(turns)/float64(races), "turns/race")
	b.ReportMetric(float64(rolls)/float64(races), "rolls/race")
	b.ReportMetric(diceSec*1e9, "dice-ns/race")
	b.ReportMetric(perRace/diceSec, "x-dice")
}

// chachaDraws times n draws of a d20 from a ChaCha8 stream, as the dice
// draw a face: the cost of a race's dice alone.
func chachaDraws(n int) time.Duration {
	r := rand.New(rand.NewChaCha8(dice.SeedFromInt(1)))
	sum := 0
	start := time.Now()
	for i := 0; i < n; i++ {
		sum += r.IntN(20)
	}
	d := time.Since(start)
	if sum < 0 {
		panic("unreachable: keeps the draws from being optimised away")
	}
	return d
}

// BenchmarkDice12 is the dice alone: per op, as many ChaCha8 draws as a
// 12-chariot race of BenchmarkRace12 rolls on average (counted with the
// roller's Mark over the same 64 races).
func BenchmarkDice12(b *testing.B) {
	bots := heuristicBots(b)
	g := Ruleset{}.Game()
	su := sim.Setup{Config: race.Config{Track: defaultTrack}, Entrants: g.Demo.Entrants}
	rng := rand.New(rand.NewPCG(1, 2))
	rolls := 0
	for i := range 64 {
		su.Seed = dice.SeedFromInt(uint64(i))
		o, err := sim.Play(Ruleset{}, su, bots, rng, 300)
		if err != nil {
			b.Fatal(err)
		}
		rolls += o.Dice
	}
	n := rolls / 64
	r := rand.New(rand.NewChaCha8(dice.SeedFromInt(1)))
	sum := 0
	for b.Loop() {
		for i := 0; i < n; i++ {
			sum += r.IntN(20)
		}
	}
	b.ReportMetric(float64(n), "rolls/race")
	if sum < 0 {
		b.Fatal("unreachable")
	}
}
