package ludi

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/render"
)

// midRace is a 12-chariot race after turn 10, with every seat's bot orders for turn 11.
func midRace(b *testing.B) (*State, map[int]race.Order) {
	b.Helper()
	_, p := botRace(b, 3, 12)
	st, err := p.StateAt(10)
	if err != nil {
		b.Fatal(err)
	}
	s := st.(*State)
	rng := rand.New(rand.NewPCG(1, 2))
	orders := map[int]race.Order{}
	for _, pr := range (Ruleset{}).Prompts(s) {
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: pr.Seat, Text: Bot(s, pr.Seat, rng)})
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
		// A race's roller keeps its log; a fresh one per turn keeps the log from growing across iterations.
		if _, _, err := (Ruleset{}).Resolve(s, orders, dice.New(seed)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDrawPNG12 draws a turn as the host does: the track once, then for
// each turn a copy of it with the race drawn on top, encoded as PNG.
func BenchmarkDrawPNG12(b *testing.B) {
	s, _ := midRace(b)
	w, h := Picture(s)
	bg := render.NewPNG(w, h, 1)
	DrawTrack(bg, s)
	var buf bytes.Buffer
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		c := bg.Copy()
		DrawRace(c, s, "bench")
		buf.Reset()
		if err := c.Encode(&buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDrawSVG12(b *testing.B) {
	s, _ := midRace(b)
	w, h := Picture(s)
	for i := 0; i < b.N; i++ {
		c := render.NewSVG(w, h)
		Draw(c, s, "bench")
		_ = c.Bytes()
	}
}

// BenchmarkDrawPNG12Whole draws the whole picture from nothing, track included.
func BenchmarkDrawPNG12Whole(b *testing.B) {
	s, _ := midRace(b)
	w, h := Picture(s)
	var buf bytes.Buffer
	for i := 0; i < b.N; i++ {
		c := render.NewPNG(w, h, 1)
		Draw(c, s, "bench")
		buf.Reset()
		if err := c.Encode(&buf); err != nil {
			b.Fatal(err)
		}
	}
}
