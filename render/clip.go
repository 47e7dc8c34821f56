package render

import "math"

// Clipping to the visible area, used by the PNG backend in device pixels.
// The rasteriser's work grows with path length, and dashing multiplies it by
// the number of dashes, so a stray coordinate far off the image could take
// minutes; clipping first keeps the work proportional to what is visible.

type box struct{ x0, y0, x1, y1 float64 }

func (b box) contains(p Point) bool {
	return p.X >= b.x0 && p.X <= b.x1 && p.Y >= b.y0 && p.Y <= b.y1
}

// run is a visible piece of a polyline; offset is the length of the line
// before it, so that a dash pattern continues where it would have been.
type run struct {
	pts    []Point
	offset float64
}

// clipPolyline cuts pts to b, returning the visible runs in order.
func clipPolyline(pts []Point, b box) []run {
	var runs []run
	var cur *run
	length := 0.0
	for i := 0; i+1 < len(pts); i++ {
		a, c := pts[i], pts[i+1]
		seg := math.Hypot(c.X-a.X, c.Y-a.Y)
		t0, t1, ok := clipSegment(a, c, b)
		if ok {
			p0, p1 := lerp(a, c, t0), lerp(a, c, t1)
			if cur == nil || t0 > 0 {
				runs = append(runs, run{pts: []Point{p0}, offset: length + t0*seg})
				cur = &runs[len(runs)-1]
			}
			cur.pts = append(cur.pts, p1)
			if t1 < 1 {
				cur = nil
			}
		} else {
			cur = nil
		}
		length += seg
	}
	return runs
}

func lerp(a, b Point, t float64) Point {
	if t == 0 {
		return a
	}
	if t == 1 {
		return b
	}
	return Point{a.X + (b.X-a.X)*t, a.Y + (b.Y-a.Y)*t}
}

// clipSegment is Liang–Barsky: the part of a→c inside b is t in [t0, t1].
func clipSegment(a, c Point, b box) (t0, t1 float64, ok bool) {
	t0, t1 = 0, 1
	dx, dy := c.X-a.X, c.Y-a.Y
	for _, e := range [4][2]float64{
		{-dx, a.X - b.x0}, {dx, b.x1 - a.X},
		{-dy, a.Y - b.y0}, {dy, b.y1 - a.Y},
	} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return 0, 0, false
			}
			continue
		}
		r := q / p
		if p < 0 {
			t0 = math.Max(t0, r)
		} else {
			t1 = math.Min(t1, r)
		}
		if t0 > t1 {
			return 0, 0, false
		}
	}
	return t0, t1, true
}

// clipPolygon is Sutherland–Hodgman against b. Inside b the winding number
// of every point is unchanged, so non-zero filling gives the same pixels.
func clipPolygon(pts []Point, b box) []Point {
	inside := true
	for _, p := range pts {
		if !b.contains(p) {
			inside = false
			break
		}
	}
	if inside {
		return pts
	}
	type edge struct {
		in    func(Point) bool
		cross func(p, q Point) Point
	}
	atX := func(x float64) func(p, q Point) Point {
		return func(p, q Point) Point { return Point{x, p.Y + (q.Y-p.Y)*(x-p.X)/(q.X-p.X)} }
	}
	atY := func(y float64) func(p, q Point) Point {
		return func(p, q Point) Point { return Point{p.X + (q.X-p.X)*(y-p.Y)/(q.Y-p.Y), y} }
	}
	edges := []edge{
		{func(p Point) bool { return p.X >= b.x0 }, atX(b.x0)},
		{func(p Point) bool { return p.X <= b.x1 }, atX(b.x1)},
		{func(p Point) bool { return p.Y >= b.y0 }, atY(b.y0)},
		{func(p Point) bool { return p.Y <= b.y1 }, atY(b.y1)},
	}
	out := pts
	for _, e := range edges {
		in := out
		out = make([]Point, 0, len(in)+4)
		for i, q := range in {
			p := in[(i+len(in)-1)%len(in)]
			switch qi, pi := e.in(q), e.in(p); {
			case qi && pi:
				out = append(out, q)
			case qi:
				out = append(out, e.cross(p, q), q)
			case pi:
				out = append(out, e.cross(p, q))
			}
		}
		if len(out) == 0 {
			return nil
		}
	}
	return out
}
