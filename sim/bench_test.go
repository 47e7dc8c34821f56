package sim_test

import (
	"context"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"
	"time"

	"pitwall/race"
	"pitwall/sim"
)

// BenchmarkSim plays b.N complete races of each game with the heuristic
// bot in every seat, the game's usual number of racers and its tracks'
// own laps: on one worker (races a second per core), and on every core.
// On one worker it also says how many times the cost of its dice alone a
// race takes (x-dice-alone).
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
				elapsed := b.Elapsed()
				b.StopTimer()
				// The cost of the dice alone: as many ChaCha8 draws as the
				// races rolled dice, timed in the same run.
				src := rand.NewChaCha8([32]byte{1})
				var sink uint64
				start := time.Now()
				for range r.DiceRolled {
					sink += src.Uint64() % 20
				}
				diceAlone := time.Since(start)
				if sink == 1 {
					b.Log(sink) // keeps the draws from being optimised away
				}
				b.ReportMetric(float64(b.N)/elapsed.Seconds(), "races/s")
				if diceAlone > 0 && w == 1 {
					b.ReportMetric(float64(elapsed)/float64(diceAlone), "x-dice-alone")
				}
				b.ReportMetric(float64(r.DiceRolled)/float64(b.N), "dice/race")
				b.ReportMetric(r.Results.Turns.Mean, "turns/race")
			})
		}
	}
}
