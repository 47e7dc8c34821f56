package gaslands

import (
	"math"
	"testing"

	"pitwall/race/racetest"
)

func TestShippedTracks(t *testing.T) {
	ts := racetest.Shipped(t, "track", ShippedTracks, func(tr *Track) string { return tr.ID }, trackFiles, "tracks", ".yaml")
	if len(ts) < 2 {
		t.Fatalf("%d tracks; the issue asks for two", len(ts))
	}
	for _, tr := range ts {
		// The start line is at lap distance 0 and the first control point.
		p, _ := tr.At(0)
		if !tr.OnRoad(p) || tr.Progress(p) > 1 {
			t.Errorf("%s: the start %v is not on the road at distance 0", tr.ID, p)
		}
		// Walking the centreline, progress grows and the road is wide enough for a kart everywhere.
		for s := 5.0; s < tr.Length-5; s += 10 {
			q, h := tr.At(s)
			if got := tr.Progress(q); math.Abs(got-s) > 1 {
				t.Errorf("%s: the centreline at %.0f projects to %.0f: the road crosses itself or doubles back", tr.ID, s, got)
				break
			}
			if !tr.RectOnRoad(Rect{Centre: q, Heading: h, Length: KartLength, Width: KartWidth}) {
				t.Errorf("%s: a kart on the centreline at %.0f is not wholly on the road", tr.ID, s)
				break
			}
			if !tr.Inside(Rect{Centre: q, Heading: h, Length: tr.Width, Width: tr.Width}) {
				t.Errorf("%s: the road at %.0f runs off the table", tr.ID, s)
				break
			}
		}
		grid := tr.Grid(tr.Seats)
		for i := range grid {
			for j := i + 1; j < len(grid); j++ {
				if grid[i].Overlaps(grid[j]) {
					t.Errorf("%s: grid slots %d and %d overlap", tr.ID, i+1, j+1)
				}
			}
			if tr.Progress(grid[i].Centre) < tr.Length/2 {
				t.Errorf("%s: grid slot %d is past the start line", tr.ID, i+1)
			}
		}
	}
}

func TestTrackErrors(t *testing.T) {
	base := `id: x
name: X
laps: 1
seats: 2
table: [1200, 900]
road:
  width: 200
  smooth: 3
  centreline: [[600, 150], [1000, 150], [1000, 750], [200, 750], [200, 150]]
`
	racetest.Edited(t, ParseTrack, "x.yaml", base, [][3]string{
		{"laps: 1", "laps: 0", "laps is 1 to 20"},
		{"seats: 2", "seats: 13", "seats is 2 to 12"},
		{"width: 200", "width: 20", "road width is 80 to 1000"},
		{"[200, 150]]", "[200, 150], [1300, 150]]", "off the table"},
		{"laps: 1", "laps: 1\ngates: [0.5, 0.2]", "increasing"},
		{"laps: 1", "laps: 1\nobstructions: [{name: pipe, kind: solid, at: [50, 50], size: [10, 10]}]", "immovable or destructible"},
		{"laps: 1", "laps: 1\nobstructions: [{name: pipe, kind: immovable, at: [550, 200], size: [40, 40]}]", "grid slot 1 overlaps the pipe"},
		{"laps: 1", "laps: 1\nboosts: [{at: [5, 5], heading: 0, length: 100, width: 50}]", "not wholly on the table"},
		{"laps: 1", "lap: 1", "unknown field"},
		{"laps: 1", "laps: 1\ngrid: [[550, 150, 0]]", "1 slots for 2 seats"},
		{"laps: 1", "laps: 1\ngrid: [[550, 150, 0], [560, 150, 0]]", "grid slots 1 and 2 overlap"},
		{"laps: 1", "laps: 1\ngrid: [[550, 150, 0], [550, 20, 0]]", "grid slot 2 is not wholly on the road"},
	})
	// A grid of the file's own.
	tr, err := ParseTrack("x.yaml", []byte(base+"grid: [[500, 150, 0], [400, 150, 0]]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if g := tr.Grid(2); g[1].Centre != (Vec{400, 150}) || g[0].Heading != 0 {
		t.Errorf("the file's grid: %+v", g)
	}
}
