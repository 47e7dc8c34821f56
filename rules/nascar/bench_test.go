package nascar

import (
	"testing"
	"time"

	"pitwall/race/racetest"
)

// midRace is a 12-car race on the oval after turn 10, with every seat's bot orders for turn 11.
func midRace(b *testing.B) racetest.Turn {
	b.Helper()
	_, p := botRace(b, 3, 12, "oval")
	return racetest.MidRace(b, p, 10, time.Time{})
}

func BenchmarkResolveTurn12(b *testing.B) { racetest.BenchResolve(b, Ruleset{}, midRace(b)) }
func BenchmarkDrawPNG12(b *testing.B)     { racetest.BenchPNG(b, midRace(b).State) }
func BenchmarkDrawSVG12(b *testing.B)     { racetest.BenchSVG(b, midRace(b).State) }
