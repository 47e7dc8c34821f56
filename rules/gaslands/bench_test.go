package gaslands

import (
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/race/racetest"
)

// midRace is 8 karts on Bowser's Castle after activation 60, with the active kart's bot order.
func midRace(b *testing.B) racetest.Turn {
	b.Helper()
	_, p := botRace(b, 3, 8, "bowser-castle")
	return racetest.MidRace(b, p, 60, time.Time{})
}

// BenchmarkActivation8 resolves one activation among 8 karts, no drawing.
func BenchmarkActivation8(b *testing.B) { racetest.BenchResolve(b, Ruleset{}, midRace(b)) }

// BenchmarkBotOrder8 is the bot's plan for the active kart: every template it may take, swept, and the move after.
func BenchmarkBotOrder8(b *testing.B) {
	s := midRace(b).State.(*State)
	rng := rand.New(rand.NewPCG(1, 2))
	for b.Loop() {
		_ = Ruleset{}.BotOrder(s, s.Active, false, rng)
	}
}

func BenchmarkDrawPNG8(b *testing.B) { racetest.BenchPNG(b, midRace(b).State) }
func BenchmarkDrawSVG8(b *testing.B) { racetest.BenchSVG(b, midRace(b).State) }
