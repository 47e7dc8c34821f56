package gaslands

import (
	"math"
)

// Template is a maneuver template: a straight of Length, an arc of Radius
// through Degrees (veer, gentle, turn, hairpin), or a swerve: Length forward
// and Shift across, the heading kept. Right and left mirror each other.
type Template struct {
	Name    string  `json:"name" yaml:"name"`
	Length  float64 `json:"length,omitempty" yaml:"length"`   // straights and swerves, mm
	Radius  float64 `json:"radius,omitempty" yaml:"radius"`   // arcs, mm
	Degrees float64 `json:"degrees,omitempty" yaml:"degrees"` // arcs
	Shift   float64 `json:"shift,omitempty" yaml:"shift"`     // swerves, mm sideways
}

// TemplateWidth is a template's width (rules notes: the long straight is 3.5 cm wide).
const TemplateWidth = 35.0

// Templates are pitwall's default templates, from data/maneuvers.yaml.
var Templates = DefaultManeuvers().Templates

// TemplateNamed finds a default template by name.
func TemplateNamed(name string) (Template, error) { return DefaultManeuvers().Template(name) }

// Straight says the template has no side.
func (t Template) Straight() bool { return t.Radius == 0 && t.Shift == 0 }

// PathLength is how far along the template its end lies, in mm (a swerve's
// sideways shift counted along its curve, approximately).
func (t Template) PathLength() float64 {
	switch {
	case t.Radius > 0:
		return t.Radius * t.Degrees * math.Pi / 180
	case t.Shift != 0:
		return detHypot(t.Length, t.Shift*math.Pi/2)
	}
	return t.Length
}

// Pose is the point and heading at fraction u (0 to 1) along the template
// placed at the origin facing along x; left mirrors it. A swerve follows a
// half cosine from one line to the other, so it starts and ends straight.
func (t Template) Pose(u float64, left bool) (Vec, float64) {
	sign := -1.0
	if left {
		sign = 1
	}
	switch {
	case t.Radius > 0:
		th := u * t.Degrees * math.Pi / 180
		return Vec{t.Radius * detSin(th), sign * t.Radius * (1 - detCos(th))}, sign * th
	case t.Shift != 0:
		x := u * t.Length
		y := sign * t.Shift * (1 - detCos(math.Pi*u)) / 2
		dy := sign * t.Shift * math.Pi / 2 * detSin(math.Pi*u) / t.Length
		return Vec{x, y}, detAtan(dy)
	}
	return Vec{u * t.Length, 0}, 0
}

// Outline is the template's shape, placed at the origin facing along x: its
// two edges, TemplateWidth apart, as one closed polygon.
func (t Template) Outline(left bool) []Vec {
	const n = 24
	var l, r []Vec
	for i := 0; i <= n; i++ {
		p, h := t.Pose(float64(i)/n, left)
		off := heading(h + math.Pi/2).Scale(TemplateWidth / 2)
		l, r = append(l, p.Add(off)), append(r, p.Sub(off))
	}
	for i := len(r) - 1; i >= 0; i-- {
		l = append(l, r[i])
	}
	return l
}

// End is where the template ends, placed at the origin facing along x:
// the point and the heading there. left mirrors the template.
func (t Template) End(left bool) (Vec, float64) {
	sign := -1.0 // right turns clockwise: towards -y
	if left {
		sign = 1
	}
	switch {
	case t.Radius > 0:
		th := t.Degrees * math.Pi / 180
		return Vec{t.Radius * detSin(th), sign * t.Radius * (1 - detCos(th))}, sign * th
	case t.Shift != 0:
		return Vec{t.Length, sign * t.Shift}, 0
	}
	return Vec{t.Length, 0}, 0
}

// Move places the template at the front of kart k and moves the kart along
// it: the kart ends with its rear edge's middle on the template's end, facing
// the way the template ends.
func (t Template) Move(k Rect, left bool) Rect {
	end, turn := t.End(left)
	front := k.Centre.Add(heading(k.Heading).Scale(k.Length / 2))
	out := k
	out.Heading = k.Heading + turn
	out.Centre = front.Add(end.Rotate(k.Heading)).Add(heading(out.Heading).Scale(k.Length / 2))
	return out
}
