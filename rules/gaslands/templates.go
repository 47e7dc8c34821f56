package gaslands

import (
	"fmt"
	"math"
	"strings"
)

// Template is a maneuver template: a straight of Length, an arc of Radius
// through Degrees (veer, gentle, turn, hairpin), or a swerve: Length forward
// and Shift across, the heading kept. Right and left mirror each other.
type Template struct {
	Name    string
	Length  float64 // straights and swerves, mm
	Radius  float64 // arcs, mm
	Degrees float64 // arcs
	Shift   float64 // swerves, mm sideways
}

// TemplateWidth is a template's width (rules notes: the long straight is 3.5 cm wide).
const TemplateWidth = 35.0

// Templates are pitwall's default templates. The notes give the long
// straight (18 cm × 3.5 cm); the rest are this project's measures, chosen to
// keep the order of the game's templates from gentle to sharp, and meant to
// be replaced by a host's own.
var Templates = []Template{
	{Name: "short", Length: 75},
	{Name: "medium", Length: 120},
	{Name: "long", Length: 180},
	{Name: "veer", Radius: 300, Degrees: 22.5},
	{Name: "gentle", Radius: 150, Degrees: 45},
	{Name: "turn", Radius: 75, Degrees: 90},
	{Name: "hairpin", Radius: 40, Degrees: 180},
	{Name: "swerve", Length: 120, Shift: 30},
}

// TemplateNamed finds a default template by name.
func TemplateNamed(name string) (Template, error) {
	var names []string
	for _, t := range Templates {
		if strings.EqualFold(strings.TrimSpace(name), t.Name) {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return Template{}, fmt.Errorf("no template %q; templates: %s", name, strings.Join(names, ", "))
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
		return Vec{t.Radius * math.Sin(th), sign * t.Radius * (1 - math.Cos(th))}, sign * th
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
