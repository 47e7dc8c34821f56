package rtd

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/render"
)

// midRace is a 12-kart race on Rainbow Road after turn 8, with every seat's bot orders for turn 9.
func midRace(b *testing.B) (*State, map[int]race.Order) {
	b.Helper()
	_, p := botRace(b, 3, 12, "rainbow-road")
	st, err := p.StateAt(8)
	if err != nil {
		b.Fatal(err)
	}
	s := st.(*State)
	rng := rand.New(rand.NewPCG(1, 2))
	orders := map[int]race.Order{}
	for _, pr := range (Ruleset{}).Prompts(s) {
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: pr.Seat, Text: Ruleset{}.BotOrder(s, pr.Seat, false, rng)})
		if err != nil {
			b.Fatal(err)
		}
		orders[pr.Seat] = o
	}
	return s, orders
}

func BenchmarkResolveTurn12(b *testing.B) {
	s, orders := midRace(b)
	seed := dice.SeedFromInt(1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := (Ruleset{}).Resolve(s, orders, dice.New(seed), time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDrawPNG12 draws a turn as the host does: the course once, then the racers and the board on a copy.
func BenchmarkDrawPNG12(b *testing.B) {
	s, _ := midRace(b)
	w, h := Picture(s)
	bg := render.NewPNG(w, h, 1)
	DrawTrack(bg, s)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := bg.Copy()
		DrawRace(c, s, "bench")
		var buf bytes.Buffer
		if err := c.Encode(&buf); err != nil {
			b.Fatal(err)
		}
	}
}
