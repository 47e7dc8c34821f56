package gaslands

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestTemplateDefaults(t *testing.T) {
	long, err := TemplateNamed("long")
	if err != nil || long.Length != 180 || TemplateWidth != 35 {
		t.Fatalf("the long straight is 18 cm × 3.5 cm (notes): %+v %v", long, err)
	}
	if _, err := TemplateNamed("loop"); err == nil {
		t.Error("a loop template found")
	}
	// From gentle to sharp: each arc turns more on a tighter radius.
	prev := Template{Radius: math.Inf(1)}
	for _, n := range []string{"veer", "gentle", "turn", "hairpin"} {
		a, _ := TemplateNamed(n)
		if a.Degrees <= prev.Degrees || a.Radius >= prev.Radius {
			t.Errorf("%s (%v mm, %v°) is not sharper than the one before", n, a.Radius, a.Degrees)
		}
		prev = a
	}
}

// Hand-worked moves of a 40×20 kart at the origin facing right (its front at x=20).
func TestMove(t *testing.T) {
	k := kart(0, 0, 0)
	for _, tc := range []struct {
		name    string
		left    bool
		centre  Vec
		degrees float64
	}{
		// Medium straight: the front runs 120 mm, then the kart's rear sits there: centre 20+120+20.
		{"medium", false, Vec{160, 0}, 0},
		// A right turn of radius 75 through 90°: the front ends at (20+75, -75) facing down; the centre 20 further down.
		{"turn", false, Vec{95, -95}, -90},
		{"turn", true, Vec{95, 95}, 90},
		// A hairpin (radius 40, 180°): the front ends at (20, -80) facing left; the centre 20 further left.
		{"hairpin", false, Vec{0, -80}, -180},
		// A swerve: 120 forward, 30 across, the heading kept.
		{"swerve", true, Vec{160, 30}, 0},
	} {
		tm, _ := TemplateNamed(tc.name)
		got := tm.Move(k, tc.left)
		if !got.Centre.Near(tc.centre, 1e-9) || math.Abs(got.Heading-tc.degrees*math.Pi/180) > 1e-9 {
			t.Errorf("%s (left %v): centre %v heading %.1f°, want %v %.1f°", tc.name, tc.left, got.Centre, got.Heading*180/math.Pi, tc.centre, tc.degrees)
		}
	}
}

// Properties: left mirrors right; moving is the same wherever and however the
// kart stands on the table; an arc's end stays on its circle and turns by its angle.
func TestMoveProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 5000; i++ {
		tm := Templates[rng.IntN(len(Templates))]
		k := Rect{Centre: Vec{rng.Float64()*1000 - 500, rng.Float64()*1000 - 500}, Heading: rng.Float64() * 2 * math.Pi, Length: 20 + rng.Float64()*40, Width: 20}
		// In the kart's own frame, left is right mirrored.
		r, l := tm.Move(k, false), tm.Move(k, true)
		toLocal := func(v Vec) Vec { return v.Sub(k.Centre).Rotate(-k.Heading) }
		rl, ll := toLocal(r.Centre), toLocal(l.Centre)
		if !rl.Near(Vec{ll.X, -ll.Y}, 1e-6) || math.Abs(math.Remainder((r.Heading-k.Heading)+(l.Heading-k.Heading), 2*math.Pi)) > 1e-9 {
			t.Fatalf("%s: left does not mirror right: %v %v", tm.Name, rl, ll)
		}
		// The same move from the origin, then carried to the kart: the same result.
		o := k
		o.Centre, o.Heading = Vec{}, 0
		m := tm.Move(o, false)
		if want := m.Centre.Rotate(k.Heading).Add(k.Centre); !r.Centre.Near(want, 1e-6) {
			t.Fatalf("%s: the move depends on where the kart stands", tm.Name)
		}
		if tm.Radius > 0 {
			end, turn := tm.End(false)
			if d := end.Sub(Vec{0, -tm.Radius}).Len(); math.Abs(d-tm.Radius) > 1e-9 {
				t.Fatalf("%s: the end is %v from the turn's centre, not %v", tm.Name, d, tm.Radius)
			}
			if math.Abs(-turn-tm.Degrees*math.Pi/180) > 1e-12 {
				t.Fatalf("%s turns %v", tm.Name, turn)
			}
		}
	}
}
