package nascar

import (
	"container/heap"
	"fmt"
	"math"
)

// The lap: how far round every track square lies, counted from the line.
//
// Distances are in tenths of a square: 10 for a step to a side, 14 for a
// diagonal step, so that the shortest way round follows the track's shape.
// The line is cut: the flood starts on the squares just past the finish line
// and never crosses the line, so it reaches every square of the racing track
// in racing order; the squares just behind the line come last. The pit lane
// is flooded afterwards from its entry marker (the one from which the other
// lies a short way forward), so that it, too, runs in racing order.

// Tenths in a square's step to a side and on a diagonal.
const (
	side     = 10
	diagonal = 14
)

type lapIndex struct {
	progress []int // per square, row by row from the top; -1 off the track
	length   int   // a lap, in tenths
}

// index works out the lap once, when a track loads.
func (t *Track) index() error {
	t.lap.progress = make([]int, len(t.squares))
	for i := range t.lap.progress {
		t.lap.progress[i] = -1
	}
	racing := func(q Square) bool { return q.OnTrack() && !q.InPit() }
	// The line itself is 0; the first squares past it start the flood.
	dx, dy := t.Heading.Step()
	step := side
	if dx != 0 && dy != 0 {
		step = diagonal
	}
	var start []seed
	for i, q := range t.squares {
		if q != Finish {
			continue
		}
		t.lap.progress[i] = 0
		p := t.point(i)
		if a := (Point{p.X + dx, p.Y + dy}); racing(t.At(a)) && t.At(a) != Finish {
			start = append(start, seed{a, step})
		}
	}
	if len(start) == 0 {
		return fmt.Errorf("nothing lies ahead of the finish line going %v: the heading must point along the track", t.Heading)
	}
	t.flood(start, func(q Square) bool { return racing(q) && q != Finish })
	t.lap.length = 0
	for i, q := range t.squares {
		if racing(q) && t.lap.progress[i] < 0 {
			return fmt.Errorf("square %v cannot be reached going round from the finish line", t.point(i))
		}
		t.lap.length = max(t.lap.length, t.lap.progress[i]+side)
	}
	return t.indexPit()
}

type seed struct {
	p    Point
	dist int
}

// flood runs Dijkstra from the seeds over squares that pass ok, setting the
// progress of squares not reached before.
func (t *Track) flood(seeds []seed, ok func(Square) bool) {
	pq := &seedHeap{}
	for _, s := range seeds {
		if i := t.idx(s.p); t.lap.progress[i] < 0 || s.dist < t.lap.progress[i] {
			t.lap.progress[i] = s.dist
			heap.Push(pq, s)
		}
	}
	for pq.Len() > 0 {
		s := heap.Pop(pq).(seed)
		if s.dist > t.lap.progress[t.idx(s.p)] {
			continue // a shorter way was found since
		}
		for _, n := range neighbours {
			q := Point{s.p.X + n[0], s.p.Y + n[1]}
			if !ok(t.At(q)) {
				continue
			}
			d := s.dist + side
			if n[0] != 0 && n[1] != 0 {
				d = s.dist + diagonal
			}
			if i := t.idx(q); t.lap.progress[i] < 0 || d < t.lap.progress[i] {
				t.lap.progress[i] = d
				heap.Push(pq, seed{q, d})
			}
		}
	}
}

// indexPit floods the pit lane from its entry marker.
func (t *Track) indexPit() error {
	var markers []Point
	for i, q := range t.squares {
		if q == Marker {
			markers = append(markers, t.point(i))
		}
	}
	if len(markers) == 0 {
		return nil
	}
	// Each marker takes the progress of the racing squares it touches.
	at := func(m Point) int {
		best := -1
		for _, n := range neighbours {
			q := Point{m.X + n[0], m.Y + n[1]}
			if q := t.At(q); q.OnTrack() && !q.InPit() && q != Finish {
				best = max(best, t.Progress(Point{m.X + n[0], m.Y + n[1]}))
			}
		}
		return best
	}
	// The entry is the marker from which every other lies less than half a lap ahead.
	entry := -1
	for i, m := range markers {
		a := at(m)
		if a < 0 {
			continue
		}
		okAll := true
		for j, o := range markers {
			if b := at(o); j != i && b >= 0 && t.ahead(a, b) <= 0 {
				okAll = false
			}
		}
		if okAll {
			entry = i
			break
		}
	}
	if entry < 0 {
		return fmt.Errorf("the pit markers do not touch the track one behind the other: mark the entry and the exit with '#'")
	}
	seeds := []seed{{markers[entry], at(markers[entry]) + side}}
	t.flood(seeds, func(q Square) bool { return q.InPit() })
	// A pit lane is longer than the racing line beside it. Where it runs past the
	// finish line, its count starts again exactly level with the line, so a
	// car in the pit crosses the line where the others do.
	dx, dy := t.Heading.Step()
	level := func(p Point) int { return p.X*dx + p.Y*dy }
	lineLevel, behind, beyond := math.MinInt, false, false
	for i, q := range t.squares {
		if q == Finish {
			lineLevel = max(lineLevel, level(t.point(i)))
		}
	}
	shift := -1
	for i, q := range t.squares {
		if !q.InPit() {
			continue
		}
		if t.lap.progress[i] < 0 {
			return fmt.Errorf("pit square %v cannot be reached from the pit entry", t.point(i))
		}
		switch l := level(t.point(i)); {
		case l < lineLevel:
			behind = true
		case l > lineLevel:
			beyond = true
		default:
			if shift < 0 || t.lap.progress[i] < shift {
				shift = t.lap.progress[i]
			}
		}
	}
	if !behind || !beyond || shift < 0 {
		shift = 0 // the pit lane does not run past the line
	}
	for i, q := range t.squares {
		if q.InPit() {
			t.lap.progress[i] = ((t.lap.progress[i]-shift)%t.lap.length + t.lap.length) % t.lap.length
		}
	}
	return nil
}

// ahead is how far b lies ahead of a round the lap, in tenths, in [-L/2, L/2).
func (t *Track) ahead(a, b int) int {
	l := t.lap.length
	d := ((b-a)%l + l) % l
	if d >= l-l/2 {
		d -= l
	}
	return d
}

// neighbours in a fixed order (clockwise from North), so the index is the same on every load.
var neighbours = [8][2]int{{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}

func (t *Track) idx(p Point) int   { return (t.H-1-p.Y)*t.W + p.X }
func (t *Track) point(i int) Point { return Point{X: i % t.W, Y: t.H - 1 - i/t.W} }

// Progress is how far round the lap p lies from the line, in tenths of a
// square (-1 off the track).
func (t *Track) Progress(p Point) int {
	if !t.At(p).OnTrack() {
		return -1
	}
	return t.lap.progress[t.idx(p)]
}

// LapLength is a lap, in tenths of a square.
func (t *Track) LapLength() int { return t.lap.length }

// Along is the heading along the track at p: the step that gains the most
// progress per tenth of distance (the line's squares point the grid's way).
func (t *Track) Along(p Point) Heading {
	here := t.Progress(p)
	if here < 0 || t.At(p) == Finish {
		return t.Heading
	}
	best, bestH := 0.0, t.Heading
	for h := N; h <= NW; h++ {
		dx, dy := h.Step()
		q := Point{p.X + dx, p.Y + dy}
		pr := t.Progress(q)
		if pr < 0 || t.At(q).InPit() != t.At(p).InPit() && t.At(q) != Marker && t.At(p) != Marker {
			continue
		}
		gain := float64(t.ahead(here, pr)) // round the lap: the line (0) lies just ahead of the last squares
		if dx != 0 && dy != 0 {
			gain /= math.Sqrt2
		}
		if gain > best+1e-9 {
			best, bestH = gain, h
		}
	}
	return bestH
}

// Nearest is the racing square nearest to p (p itself when on the track):
// where a car that left the track is put back. Ties go to the square less far
// round, so leaving the track never gains ground.
func (t *Track) Nearest(p Point) Point {
	if t.At(p).OnTrack() {
		return p
	}
	// Squared distances in whole squares: exact, and the same on every build
	// (math.Hypot is assembly on amd64 and fused Go on arm64).
	best, bestD, bestPr := Point{}, math.MaxInt, 0
	for i, q := range t.squares {
		if !q.OnTrack() || q.InPit() {
			continue
		}
		c := t.point(i)
		d := dist2(c, p)
		pr := t.lap.progress[i]
		if d < bestD || d == bestD && pr < bestPr {
			best, bestD, bestPr = c, d, pr
		}
	}
	return best
}

// dist2 is the squared distance between two squares.
func dist2(a, b Point) int {
	dx, dy := a.X-b.X, a.Y-b.Y
	return dx*dx + dy*dy
}

type seedHeap []seed

func (h seedHeap) Len() int { return len(h) }
func (h seedHeap) Less(i, j int) bool {
	if h[i].dist != h[j].dist {
		return h[i].dist < h[j].dist
	}
	if h[i].p.Y != h[j].p.Y { // a fixed order among equals: the index is the same on every load
		return h[i].p.Y > h[j].p.Y
	}
	return h[i].p.X < h[j].p.X
}
func (h seedHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *seedHeap) Push(x any)   { *h = append(*h, x.(seed)) }
func (h *seedHeap) Pop() any {
	old := *h
	s := old[len(old)-1]
	*h = old[:len(old)-1]
	return s
}
