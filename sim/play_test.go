package sim_test

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"pitwall/bot"
	"pitwall/dice"
	"pitwall/race"
	_ "pitwall/rules/gaslands"
	_ "pitwall/rules/ludi"
	_ "pitwall/rules/nascar"
	_ "pitwall/rules/party"
	_ "pitwall/rules/rtd"
	"pitwall/sim"
)

// sim.Play plays the race a host plays with the same bots, dice and times:
// the same turns, the same standings, the same dice, for every game, with
// the heuristic bot and with cruise in every other seat.
func TestPlayIsTheHostsRace(t *testing.T) {
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		g := rs.Game()
		for seed := uint64(1); seed <= 3; seed++ {
			t.Run(fmt.Sprint(id, seed), func(t *testing.T) {
				su := sim.Setup{Config: race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps}, Entrants: g.Demo.Entrants, Seed: dice.SeedFromInt(seed)}
				heur, _ := bot.New(rs, bot.Heuristic, bot.Options{})
				cruise, _ := bot.New(rs, bot.Cruise, bot.Options{})
				bots := make([]race.BotFunc, 16)
				for i := range bots {
					bots[i] = heur
					if seed == 3 && i%2 == 1 {
						bots[i] = cruise
					}
				}
				out, err := sim.Play(rs, su, bots, rand.New(rand.NewPCG(seed, 9)), 60)
				if err != nil {
					t.Fatal(err)
				}
				r := &race.Race{ID: "r", Ruleset: id, Config: su.Config, Entrants: su.Entrants, Seed: su.Seed}
				p, err := race.Start(rs, r)
				if err != nil {
					t.Fatal(err)
				}
				b := race.BotRace{MaxTurns: 60, Bot: func(s race.State, seat int, in bool, rng *rand.Rand) string { return bots[seat](s, seat, in, rng) }}
				err = b.Play(rs, race.LogTable{P: p, At: race.BotTime}, rand.New(rand.NewPCG(seed, 9)))
				if over := err == nil; over != out.Over {
					t.Fatalf("sim says over %v; the host's race: %v", out.Over, err)
				}
				if out.Turns != p.Resolved() || out.Turns == 0 {
					t.Errorf("sim played %d turns; the host %d", out.Turns, p.Resolved())
				}
				if !reflect.DeepEqual(out.Final, rs.Standings(p.State)) {
					t.Errorf("sim's standings %+v\nthe host's %+v", out.Final, rs.Standings(p.State))
				}
				if !reflect.DeepEqual(out.Grid, rs.Standings(p.Start)) {
					t.Errorf("sim's grid %+v\nthe host's %+v", out.Grid, rs.Standings(p.Start))
				}
				var rolls int
				for _, tn := range p.Turns {
					rolls += len(tn.Rolls)
				}
				if out.Dice < rolls || out.Dice == 0 {
					t.Errorf("sim counted %d dice; the host's turns rolled %d", out.Dice, rolls)
				}
			})
		}
	}
}

func TestPlayStops(t *testing.T) {
	rs, _ := race.Lookup("ludi")
	g := rs.Game()
	su := sim.Setup{Config: race.Config{Track: g.Tracks[0].ID}, Entrants: g.Demo.Entrants, Seed: dice.SeedFromInt(1)}
	heur, _ := bot.New(rs, bot.Heuristic, bot.Options{})
	bots := []race.BotFunc{heur, heur, heur, heur, heur, heur, heur, heur, heur, heur, heur, heur}
	out, err := sim.Play(rs, su, bots, rand.New(rand.NewPCG(1, 1)), 3)
	if err != nil || out.Over || out.Turns != 3 || len(out.Final) != 12 {
		t.Errorf("a 3-turn cap: %v, over %v after %d turns, %d standings", err, out.Over, out.Turns, len(out.Final))
	}
	bad := func(race.State, int, bool, *rand.Rand) string { return "Fly" }
	if _, err := sim.Play(rs, su, []race.BotFunc{bad}, rand.New(rand.NewPCG(1, 1)), 100); err == nil || !strings.Contains(err.Error(), `seat 0, "Fly"`) {
		t.Errorf("a bot's refused order: %v", err)
	}
	su.Config.Track = "nowhere"
	if _, err := sim.Play(rs, su, bots, rand.New(rand.NewPCG(1, 1)), 100); err == nil {
		t.Error("a race on no track was played")
	}
}
