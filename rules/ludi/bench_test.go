package ludi

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
	"pitwall/render"
)

// midRace is a 12-chariot race after turn 10, with every seat's bot orders for turn 11.
func midRace(b *testing.B) racetest.Turn {
	b.Helper()
	_, p := botRace(b, 3, 12)
	return racetest.MidRace(b, p, 10, time.Time{})
}

func BenchmarkResolveTurn12(b *testing.B) { racetest.BenchResolve(b, Ruleset{}, midRace(b)) }
func BenchmarkDrawPNG12(b *testing.B)     { racetest.BenchPNG(b, midRace(b).State) }
func BenchmarkDrawSVG12(b *testing.B)     { racetest.BenchSVG(b, midRace(b).State) }

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
	js, err := json.Marshal(midRace(b).State)
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

// BenchmarkDrawPNG12Whole draws the whole picture from nothing, track
// included: a process's first picture of a track.
func BenchmarkDrawPNG12Whole(b *testing.B) {
	s := midRace(b).State.(*State)
	w, h := s.Picture()
	var buf bytes.Buffer
	for b.Loop() {
		c := render.NewPNG(w, h, 1)
		render.DrawScene(c, s, "bench")
		buf.Reset()
		if err := c.Encode(&buf); err != nil {
			b.Fatal(err)
		}
	}
}
