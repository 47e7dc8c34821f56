package nascar

import (
	"testing"

	"pitwall/race/racetest"
)

func TestShippedTracks(t *testing.T) {
	ts := racetest.Shipped(t, "track", Tracks, func(tr *Track) string { return tr.ID }, trackFiles, "tracks", ".txt")
	if len(ts) != 2 {
		t.Fatalf("%d tracks, want the oval and the road course", len(ts))
	}
	oval, err := LoadTrack("oval")
	if err != nil {
		t.Fatal(err)
	}
	if len(oval.Grid) != 12 || len(oval.Sandbag) == 0 || oval.Heading != E || oval.Laps != 3 {
		t.Fatalf("oval: %d slots, %d sandbags, heading %v, %d laps", len(oval.Grid), len(oval.Sandbag), oval.Heading, oval.Laps)
	}
	// The pit lane is walled off from the track but for its ## markers.
	for y := 0; y < oval.H; y++ {
		for x := 0; x < oval.W; x++ {
			p := Point{x, y}
			if oval.At(p) != Pit && oval.At(p) != PPMark {
				continue
			}
			for dx := -1; dx <= 1; dx++ {
				for dy := -1; dy <= 1; dy++ {
					q := oval.At(Point{x + dx, y + dy})
					if q.OnTrack() && !q.InPit() {
						t.Fatalf("the pit lane at %v touches the track at %v", p, Point{x + dx, y + dy})
					}
				}
			}
		}
	}
	road, err := LoadTrack("road-course")
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range road.Grid {
		if road.At(g) != Road {
			t.Fatalf("grid slot %v is not a track square", g)
		}
	}
	if _, err := LoadTrack("monza"); err == nil {
		t.Fatal("an unknown track was found")
	}
}

const small = `name: Test
laps: 2
heading: e
---
xxxxxxxxx
x.......x
x.xxxxx.x
x.21.F..x
xxxxxxxxx
`

func TestParseTrack(t *testing.T) {
	tr, err := ParseTrack("t.txt", []byte(small))
	if err != nil {
		t.Fatal(err)
	}
	if tr.W != 9 || tr.H != 5 || tr.Laps != 2 || tr.ID != "t" {
		t.Fatalf("%+v", tr)
	}
	// Slot 1 is on the third row from the top of five: y = 1. x = 3.
	if tr.Grid[0] != (Point{3, 1}) || tr.Grid[1] != (Point{2, 1}) {
		t.Fatalf("grid %v", tr.Grid)
	}
	if tr.At(Point{5, 1}) != Finish || tr.At(Point{0, 0}) != Off || tr.At(Point{-1, 0}) != Off || tr.At(Point{1, 3}) != Road {
		t.Fatal("squares read wrong")
	}
}

func TestTrackErrors(t *testing.T) {
	racetest.Edited(t, ParseTrack, "t.txt", small, [][3]string{
		{"name: Test\n", "", "t.txt:1: the header needs a name"},
		{"laps: 2", "laps: 0", "t.txt:2: laps is 1 to 20"},
		{"heading: e", "heading: up", "t.txt:3: a heading is one of"},
		{"heading: e", "colour: red", "t.txt:3: unknown header key"},
		{"laps: 2", "laps 2", "t.txt:2: a header line is 'key: value'"},
		{"---\n", "", "t.txt:4: a header line is 'key: value' (name, laps, heading), and a line '---' comes before the map"},
		{"---\nxxxxxxxxx\nx.......x\nx.xxxxx.x\nx.21.F..x\nxxxxxxxxx\n", "", "no map"},
		{"x.21.F..x", "x.21.F.?x", "t.txt:8:8: '?' is not a square"},
		{"x.21.F..x", "x.23.F..x", "grid slot 1 is missing"},
		{"x.21.F..x", "x.2..F..x", "at least 2 grid slots"},
		{"x.21.F..x", "x.11.F..x", "t.txt:8:4: grid slot 1 appears twice (first at line 8, column 3)"},
		{"x.21.F..x", "x.21....x", "no finish line"},
		{"x.......x", "x.....#.x", "at least two '#' squares"},
		{"x.......x", "x....#.#x", "needs a PP mark"},
		{"xxxxxxxxx\nx.......x", "xxxxxxx.x\nx.......x", ""},                                                             // joined diagonally: fine
		{"x.xxxxx.x", "x.xx.xx.x", ""},                                                                                   // touching the track diagonally: joined
		{"x.21.F..x\nxxxxxxxxx\n", "x.21.F..x\nxxxxxxxxx\nxxxxxxxxx\nxxxx.xxxx\n", "t.txt:11:5: this square is cut off"}, // an island
	})
}

func FuzzParseTrack(f *testing.F) {
	f.Add([]byte(small))
	b, _ := trackFiles.ReadFile("tracks/oval.txt")
	f.Add(b)
	f.Add([]byte("name: x\n---\n12F\n...\n...\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		tr, err := ParseTrack("f.txt", src)
		if err != nil {
			return
		}
		if len(tr.Grid) < 2 || tr.W*tr.H != len(tr.squares) {
			t.Fatalf("a track with %d slots and %dx%d squares for %d", len(tr.Grid), tr.W, tr.H, len(tr.squares))
		}
		for _, g := range tr.Grid {
			if !tr.At(g).OnTrack() {
				t.Fatalf("slot %v off the track", g)
			}
		}
	})
}
