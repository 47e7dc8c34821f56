package ludi

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

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
		if _, _, err := (Ruleset{}).Resolve(s, orders, dice.New(seed), time.Time{}); err != nil {
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

// setupArgs are a 12-chariot race's configuration and entrants, as a host sets it up.
func setupArgs() (race.Config, []race.Entrant) {
	var es []race.Entrant
	for i := 0; i < 12; i++ {
		es = append(es, race.Entrant{Player: pkgs[i%6] + string(rune('A'+i)), Racers: []string{"Auriga " + string(rune('A'+i))},
			Options: map[string]string{"package": pkgs[i%6], "extras": extras[(i/6+i)%6]}})
	}
	return race.Config{Track: "circus-maximus"}, es
}

// BenchmarkSetup12 sets a 12-chariot race up: the track looked up, the teams
// built, the grid drawn.
func BenchmarkSetup12(b *testing.B) {
	cfg, es := setupArgs()
	seed := dice.SeedFromInt(1)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Ruleset{}).Setup(cfg, es, dice.New(seed)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDecodeState12 reads a stored 12-chariot state back, as the host
// does for every snapshot it loads.
func BenchmarkDecodeState12(b *testing.B) {
	s, _ := midRace(b)
	js, err := json.Marshal(s)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Ruleset{}).DecodeState(js); err != nil {
			b.Fatal(err)
		}
	}
}
