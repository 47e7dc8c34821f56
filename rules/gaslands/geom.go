package gaslands

import "math"

// Vec is a point or a direction on the table, in millimetres: x to the
// right, y up. Its methods are the plane's usual operations.
type Vec struct{ X, Y float64 }

func (a Vec) Add(b Vec) Vec                { return Vec{a.X + b.X, a.Y + b.Y} }
func (a Vec) Sub(b Vec) Vec                { return Vec{a.X - b.X, a.Y - b.Y} }
func (a Vec) Scale(k float64) Vec          { return Vec{a.X * k, a.Y * k} }
func (a Vec) Dot(b Vec) float64            { return a.X*b.X + a.Y*b.Y }
func (a Vec) Cross(b Vec) float64          { return a.X*b.Y - a.Y*b.X }
func (a Vec) Len() float64                 { return math.Hypot(a.X, a.Y) }
func (a Vec) Rotate(r float64) Vec         { s, c := math.Sincos(r); return Vec{a.X*c - a.Y*s, a.X*s + a.Y*c} }
func heading(r float64) Vec                { return Vec{1, 0}.Rotate(r) }
func (a Vec) Near(b Vec, eps float64) bool { return a.Sub(b).Len() <= eps }

// Rect is a kart's (or an obstruction's) footprint: a rectangle of Length
// along its heading and Width across it, centred on Centre, facing Heading
// (radians, counter-clockwise from the x axis).
type Rect struct {
	Centre        Vec
	Heading       float64
	Length, Width float64
}

// Corners are the rectangle's corners: front left, front right, rear right, rear left.
func (r Rect) Corners() [4]Vec {
	sn, cs := math.Sincos(r.Heading)
	f, l := Vec{cs, sn}.Scale(r.Length/2), Vec{-sn, cs}.Scale(r.Width/2)
	c := r.Centre
	return [4]Vec{c.Add(f).Add(l), c.Add(f).Sub(l), c.Sub(f).Sub(l), c.Sub(f).Add(l)}
}

// Overlaps says whether two rectangles share any area (touching edges do not
// count), by the separating axis test over both rectangles' axes. Rectangles
// whose bounding circles are apart are rejected first: most pairs on a table.
func (r Rect) Overlaps(o Rect) bool {
	reach := math.Hypot(r.Length, r.Width)/2 + math.Hypot(o.Length, o.Width)/2
	if d := o.Centre.Sub(r.Centre); d.X*d.X+d.Y*d.Y >= reach*reach {
		return false
	}
	a, b := r.Corners(), o.Corners()
	rs, rc := math.Sincos(r.Heading)
	os, oc := math.Sincos(o.Heading)
	for _, axis := range [4]Vec{{rc, rs}, {-rs, rc}, {oc, os}, {-os, oc}} {
		amin, amax := project(a, axis)
		bmin, bmax := project(b, axis)
		if amax <= bmin+1e-9 || bmax <= amin+1e-9 {
			return false
		}
	}
	return true
}

func project(ps [4]Vec, axis Vec) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, p := range ps {
		d := p.Dot(axis)
		lo, hi = min(lo, d), max(hi, d)
	}
	return lo, hi
}

// Crosses says whether the segment from p to q passes through the
// rectangle's inside: the test behind line of sight and cover.
func (r Rect) Crosses(p, q Vec) bool {
	// Into the rectangle's own frame, where it is axis-aligned; then clip the segment (Liang-Barsky).
	to := func(v Vec) Vec { return v.Sub(r.Centre).Rotate(-r.Heading) }
	a, b := to(p), to(q)
	d := b.Sub(a)
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]float64{{-d.X, a.X + r.Length/2}, {d.X, r.Length/2 - a.X}, {-d.Y, a.Y + r.Width/2}, {d.Y, r.Width/2 - a.Y}} {
		pp, qq := e[0], e[1]
		if math.Abs(pp) < 1e-12 {
			if qq <= 0 {
				return false
			}
			continue
		}
		t := qq / pp
		if pp < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
		if t0 >= t1 {
			return false
		}
	}
	return t1-t0 > 1e-9
}

// Collide names the orientation of a collision of the active kart a into b
// (a reading, docs/rules/gaslands.md): headings within 45 degrees of opposite
// meet head on; within 45 degrees of square, a T-bone; near the same heading,
// a tailgate when a is behind b (its centre further back along b's heading
// than b's rear), otherwise a sideswipe.
func Collide(a, b Rect) Orientation {
	rel := math.Abs(math.Remainder(a.Heading-b.Heading, 2*math.Pi)) // 0..pi
	switch {
	case rel >= 3*math.Pi/4:
		return HeadOn
	case rel > math.Pi/4:
		return TBone
	}
	// Nose to tail whichever of the two is ahead; alongside, a sideswipe.
	if along := a.Centre.Sub(b.Centre).Dot(heading(b.Heading)); math.Abs(along) >= b.Length/2 {
		return Tailgate
	}
	return Sideswipe
}
