package rtd

import (
	"testing"
	"time"

	"pitwall/race/racetest"
)

// midRace is a 12-kart race on Rainbow Road after turn 8, with every seat's bot orders for turn 9.
func midRace(b *testing.B) racetest.Turn {
	b.Helper()
	_, p := botRace(b, 3, 12, "rainbow-road")
	return racetest.MidRace(b, p, 8, time.Time{})
}

func BenchmarkResolveTurn12(b *testing.B) { racetest.BenchResolve(b, Ruleset{}, midRace(b)) }
func BenchmarkDrawPNG12(b *testing.B)     { racetest.BenchPNG(b, midRace(b).State) }
func BenchmarkDrawSVG12(b *testing.B)     { racetest.BenchSVG(b, midRace(b).State) }
