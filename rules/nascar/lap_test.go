package nascar

import (
	"strings"
	"testing"
)

func TestLapOnTheOval(t *testing.T) {
	tr, err := LoadTrack("oval")
	if err != nil {
		t.Fatal(err)
	}
	// The grid is behind the line: the pole is furthest round, the back of the grid least.
	for i := 1; i < len(tr.Grid); i++ {
		if tr.Progress(tr.Grid[i-1]) <= tr.Progress(tr.Grid[i]) {
			t.Fatalf("slot %d (%v, %d) is not ahead of slot %d (%v, %d)", i, tr.Grid[i-1], tr.Progress(tr.Grid[i-1]), i+1, tr.Grid[i], tr.Progress(tr.Grid[i]))
		}
	}
	if p := tr.Progress(tr.Grid[0]); p < tr.LapLength()*3/4 {
		t.Fatalf("the pole is %d tenths round a lap of %d: not just behind the line", p, tr.LapLength())
	}
	// Headings along the track, anticlockwise: E on the front straight, N up the
	// right, W along the back, S down the left.
	mid := tr.W / 2
	for _, tc := range []struct {
		p    Point
		want Heading
	}{
		{Point{mid, 1}, E},             // front straight, outer lane
		{Point{mid, tr.H - 3}, W},      // back straight
		{Point{tr.W - 8, tr.H / 2}, N}, // the right-hand bend, halfway up
		{Point{7, tr.H / 2}, S},        // the left-hand bend
	} {
		if got := tr.Along(tr.Nearest(tc.p)); got != tc.want {
			t.Errorf("along the track at %v: %v, want %v", tc.p, got, tc.want)
		}
	}
	// The pit lane runs the racing way too: from its entry, each square further round.
	var pit []Point
	for x := 0; x < tr.W; x++ {
		for y := 0; y < tr.H; y++ {
			if tr.At(Point{x, y}) == Pit {
				pit = append(pit, Point{x, y})
			}
		}
	}
	if len(pit) < 10 {
		t.Fatalf("only %d pit squares", len(pit))
	}
	for _, p := range pit {
		if h := tr.Along(p); h != E && h != NE && h != SE { // the last square turns down to the exit marker
			t.Errorf("the pit lane at %v points %v", p, h)
		}
		dx, dy := tr.Along(p).Step()
		if next := (Point{p.X + dx, p.Y + dy}); !tr.At(next).InPit() {
			t.Errorf("the pit lane at %v leads out of the pit to %v", p, next)
		}
	}
	// Off the track: put back on the nearest racing square, never in the pit.
	for _, p := range []Point{{mid, tr.H / 2}, {0, 0}, {tr.W - 1, tr.H - 1}, {mid, tr.H/2 - 2}} {
		q := tr.Nearest(p)
		if !tr.At(q).OnTrack() || tr.At(q).InPit() {
			t.Errorf("Nearest(%v) = %v, a %q square", p, q, tr.At(q))
		}
	}
	if q := tr.Nearest(tr.Grid[0]); q != tr.Grid[0] {
		t.Errorf("a track square's nearest is itself; got %v", q)
	}
	if tr.Progress(Point{0, 0}) != -1 {
		t.Error("off the track has progress")
	}
}

func TestLapTies(t *testing.T) {
	// Two squares equally near an off-track square: the one less far round wins.
	tr, err := ParseTrack("t.txt", []byte(small))
	if err != nil {
		t.Fatal(err)
	}
	p := Point{4, 2} // infield, between the back (y=3) and the front (y=1) straights
	q := tr.Nearest(p)
	for _, other := range []Point{{4, 3}, {4, 1}} {
		if other != q && tr.Progress(other) < tr.Progress(q) {
			t.Fatalf("Nearest(%v) = %v (progress %d), but %v is as near and less far round (%d)", p, q, tr.Progress(q), other, tr.Progress(other))
		}
	}
}

func TestLapRefusesALineWithNothingAhead(t *testing.T) {
	src := strings.Replace(small, "x.21.F..x", "x.21F...x", 1)
	src = strings.Replace(src, "heading: e", "heading: s", 1)
	if _, err := ParseTrack("t.txt", []byte(src)); err == nil || !strings.Contains(err.Error(), "nothing lies ahead of the finish line") {
		t.Fatalf("a line facing the wall: %v", err)
	}
}
