package racetest

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/render"
)

// Turn is one turn to benchmark: a state, every prompt's orders, and the
// time they came in.
type Turn struct {
	State  race.State
	Orders map[int]race.Order
	At     time.Time
}

// MidRace is the turn after turn n of p, with the game's bot orders for
// every prompt (drawn from a fixed stream), sent at at.
func MidRace(b testing.TB, p *race.Played, n int, at time.Time) Turn {
	b.Helper()
	s := StateAt(b, p, n)
	rs := p.Ruleset
	bot, ok := rs.(race.Botter)
	if !ok {
		b.Fatalf("%s has no bot", rs.Game().ID)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	orders := map[int]race.Order{}
	for _, pr := range rs.Prompts(s) {
		o, err := rs.ParseOrder(s, race.Submission{Seat: pr.Seat, Text: bot.BotOrder(s, pr.Seat, false, rng), At: at})
		if err != nil {
			b.Fatal(err)
		}
		orders[pr.Seat] = o
	}
	return Turn{State: s, Orders: orders, At: at}
}

// BenchResolve times resolving the turn, each time with a fresh roller on
// one seed (a roller keeps its rolls, so one kept across the loop would grow).
func BenchResolve(b *testing.B, rs race.Ruleset, t Turn) {
	b.Helper()
	seed := dice.SeedFromInt(1)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := rs.Resolve(t.State, t.Orders, dice.New(seed), t.At); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchPNG times drawing s as the host does: the background once, then
// for each turn a copy of it with the race drawn on top, encoded as PNG.
func BenchPNG(b *testing.B, st race.State) {
	b.Helper()
	s := scene(b, st)
	w, h := s.Picture()
	bg := render.NewPNG(w, h, 1)
	s.Background(bg)
	var buf bytes.Buffer
	for b.Loop() {
		c := bg.Copy()
		s.Draw(c, "bench")
		buf.Reset()
		if err := c.Encode(&buf); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchSVG times drawing s whole as SVG, background included.
func BenchSVG(b *testing.B, st race.State) {
	b.Helper()
	s := scene(b, st)
	w, h := s.Picture()
	for b.Loop() {
		c := render.NewSVG(w, h)
		render.DrawScene(c, s, "bench")
		_ = c.Bytes()
	}
}

func scene(b *testing.B, st race.State) render.Scene {
	s, ok := st.(render.Scene)
	if !ok {
		b.Fatalf("%T does not draw itself (render.Scene)", st)
	}
	return s
}
