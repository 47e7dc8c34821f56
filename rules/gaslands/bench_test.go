package gaslands

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/render"
)

// midRace is an 8-kart race on Bowser's Castle after activation 60, with the
// active kart's bot order for the next one.
func midRace(b *testing.B) (*State, map[int]race.Order) {
	b.Helper()
	_, p := botRace(b, 3, 8, "bowser-castle")
	st, err := p.StateAt(60)
	if err != nil {
		b.Fatal(err)
	}
	s := st.(*State)
	rng := rand.New(rand.NewPCG(1, 2))
	o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: s.Active, Text: Ruleset{}.BotOrder(s, s.Active, false, rng)})
	if err != nil {
		b.Fatal(err)
	}
	return s, map[int]race.Order{s.Active: o}
}

// BenchmarkActivation8 resolves one activation among 8 karts, no drawing.
func BenchmarkActivation8(b *testing.B) {
	s, orders := midRace(b)
	seed := dice.SeedFromInt(1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, _, err := (Ruleset{}).Resolve(s, orders, dice.New(seed), time.Time{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBotOrder8 is the bot's plan for the active kart: every template it may take, swept.
func BenchmarkBotOrder8(b *testing.B) {
	s, _ := midRace(b)
	rng := rand.New(rand.NewPCG(1, 2))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = Ruleset{}.BotOrder(s, s.Active, false, rng)
	}
}

// BenchmarkDrawPNG8 draws an activation as the host does: the track once, then the race on a copy.
func BenchmarkDrawPNG8(b *testing.B) {
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
