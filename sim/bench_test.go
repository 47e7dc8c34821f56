package sim_test

import (
	"context"
	"runtime"
	"strconv"
	"testing"

	"pitwall/race"
	"pitwall/sim"
)

// BenchmarkSim plays b.N complete races of each game with the heuristic
// bot in every seat, the game's usual number of racers and its tracks'
// own laps: on one worker (races a second per core), and on every core.
func BenchmarkSim(b *testing.B) {
	for _, id := range race.IDs() {
		for _, w := range []int{1, max(2, runtime.NumCPU())} {
			name := id + "/workers=" + strconv.Itoa(w)
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				r, err := sim.Run(context.Background(), sim.Spec{Ruleset: id, Races: b.N, Seed: 1, Workers: w}, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "races/s")
				b.ReportMetric(float64(r.DiceRolled)/float64(b.N), "dice/race")
				b.ReportMetric(r.Results.Turns.Mean, "turns/race")
			})
		}
	}
}
