package gaslands

// Every float computation in this package gives the same bits on every build
// and machine, so that a race replays bit for bit (a state's hash covers the
// karts' positions). Two things stand in the way, and the package avoids both:
//
//   - The Go compiler may fuse x*y + z into one FMA instruction, rounded
//     once, and does on arm64 and on amd64 built with GOAMD64=v3; it never
//     fuses a product explicitly converted, float64(x*y) + z (the Go spec).
//     So every product that is added or subtracted, here or after inlining
//     (Vec.Scale's product in Vec.Add), is written float64(x*y), and so is a
//     halving, float64(x/2), which is compiled as x*0.5: cheap, and the code
//     reads as before. Fixed-point would do it too, at the cost of
//     rewriting all the geometry and its trigonometry for no other gain.
//   - math.Sin, Cos, Sincos, Atan and Atan2 are plain Go that fuses the same
//     way, and math.Hypot is assembly on amd64 and fused Go on arm64: the
//     package uses its own copies of them (fmath.go), converted likewise.
//
// fma_test.go checks the source for unconverted products and math functions
// that differ between builds, and the compiled code for amd64 v3 and arm64
// for fused instructions; crossbuild_test.go replays bot races against
// hashes written by a default build (.ci/run runs it under GOAMD64=v3).

import "math"

// Vec is a point or a direction on the table, in millimetres: x to the
// right, y up. Its methods are the plane's usual operations.
type Vec struct{ X, Y float64 }

func (a Vec) Add(b Vec) Vec       { return Vec{a.X + b.X, a.Y + b.Y} }
func (a Vec) Sub(b Vec) Vec       { return Vec{a.X - b.X, a.Y - b.Y} }
func (a Vec) Scale(k float64) Vec { return Vec{float64(a.X * k), float64(a.Y * k)} }
func (a Vec) Dot(b Vec) float64   { return float64(a.X*b.X) + float64(a.Y*b.Y) }
func (a Vec) Cross(b Vec) float64 { return float64(a.X*b.Y) - float64(a.Y*b.X) }
func (a Vec) Len() float64        { return detHypot(a.X, a.Y) }
func (a Vec) Rotate(r float64) Vec {
	s, c := detSincos(r)
	return Vec{float64(a.X*c) - float64(a.Y*s), float64(a.X*s) + float64(a.Y*c)}
}
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
	sn, cs := detSincos(r.Heading)
	f, l := Vec{cs, sn}.Scale(r.Length/2), Vec{-sn, cs}.Scale(r.Width/2)
	c := r.Centre
	return [4]Vec{c.Add(f).Add(l), c.Add(f).Sub(l), c.Sub(f).Sub(l), c.Sub(f).Add(l)}
}

// Overlaps says whether two rectangles share any area (touching edges do not
// count), by the separating axis test over both rectangles' axes. Rectangles
// whose bounding circles are apart are rejected first: most pairs on a table.
func (r Rect) Overlaps(o Rect) bool {
	reach := float64(detHypot(r.Length, r.Width)/2) + float64(detHypot(o.Length, o.Width)/2)
	if d := o.Centre.Sub(r.Centre); float64(d.X*d.X)+float64(d.Y*d.Y) >= reach*reach {
		return false
	}
	a, b := r.Corners(), o.Corners()
	rs, rc := detSincos(r.Heading)
	os, oc := detSincos(o.Heading)
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
	for _, e := range [4][2]float64{{-d.X, a.X + float64(r.Length/2)}, {d.X, float64(r.Length/2) - a.X}, {-d.Y, a.Y + float64(r.Width/2)}, {d.Y, float64(r.Width/2) - a.Y}} {
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

// Collide names the orientation of a collision of a into b, two rectangles
// that touch (or barely overlap), by the edges that meet, as the core game
// reads it: both front edges, head on; a side edge of both, a sideswipe; a
// side edge of one, a T-bone; otherwise a front meets a rear: a tailgate.
// The point of contact is the middle of where they meet; on a corner, the
// edge it lies furthest along decides.
func Collide(a, b Rect) Orientation {
	p, ok := contactPoint(a, b)
	if !ok {
		return collideByHeading(a, b)
	}
	ea, eb := a.Edge(p), b.Edge(p)
	switch {
	case ea == Front && eb == Front:
		return HeadOn
	case ea == Side && eb == Side:
		return Sideswipe
	case ea == Side || eb == Side:
		return TBone
	}
	return Tailgate
}

// An Edge of a rectangle: its front, its rear or one of its sides.
type Edge int

// The edges.
const (
	Front Edge = iota
	Rear
	Side
)

// Edge is the edge of r nearest p, in proportion to the rectangle's size.
func (r Rect) Edge(p Vec) Edge {
	l := p.Sub(r.Centre).Rotate(-r.Heading)
	nx, ny := l.X/(r.Length/2), l.Y/(r.Width/2)
	switch {
	case math.Abs(nx) < math.Abs(ny):
		return Side
	case nx > 0:
		return Front
	}
	return Rear
}

// contactPoint is the middle of where a and b meet: the centroid of the
// overlap of the two, each grown by half a millimetre all round (so that
// rectangles that only touch meet too). It is the same either way round.
func contactPoint(a, b Rect) (Vec, bool) {
	ga, gb := a, b
	ga.Length, ga.Width = a.Length+1, a.Width+1
	gb.Length, gb.Width = b.Length+1, b.Width+1
	ca, cb := ga.Corners(), gb.Corners()
	poly := clipConvex(ca[:], cb[:])
	if len(poly) < 3 {
		return Vec{}, false
	}
	// The area centroid: the same region gives the same point whatever its vertices.
	var c Vec
	area := 0.0
	for i, p := range poly {
		q := poly[(i+1)%len(poly)]
		w := p.Cross(q)
		area += w
		c = c.Add(p.Add(q).Scale(w))
	}
	if math.Abs(area) < 1e-12 {
		return Vec{}, false
	}
	return c.Scale(1 / (3 * area)), true
}

// clipConvex clips the convex polygon subject by the convex polygon clip
// (Sutherland-Hodgman); both wind the same way.
func clipConvex(subject, clip []Vec) []Vec {
	out := append([]Vec(nil), subject...)
	// The winding of clip decides which side of each edge is inside.
	area := 0.0
	for i, a := range clip {
		area += a.Cross(clip[(i+1)%len(clip)])
	}
	for i, a := range clip {
		b := clip[(i+1)%len(clip)]
		inside := func(p Vec) bool { return b.Sub(a).Cross(p.Sub(a))*area >= 0 }
		in := out
		out = nil
		for j, p := range in {
			q := in[(j+1)%len(in)]
			pin, qin := inside(p), inside(q)
			if pin {
				out = append(out, p)
			}
			if pin != qin {
				d := q.Sub(p)
				den := b.Sub(a).Cross(d)
				if den != 0 {
					t := b.Sub(a).Cross(a.Sub(p)) / den
					out = append(out, p.Add(d.Scale(t)))
				}
			}
		}
		if len(out) == 0 {
			return nil
		}
	}
	return out
}

// collideByHeading is the fallback when the rectangles do not meet: by
// their headings alone.
func collideByHeading(a, b Rect) Orientation {
	rel := math.Abs(math.Remainder(a.Heading-b.Heading, 2*math.Pi)) // 0..pi
	switch {
	case rel >= 3*math.Pi/4:
		return HeadOn
	case rel > math.Pi/4:
		return TBone
	}
	return Tailgate
}
