package gaslands

import (
	"math"
	"math/rand/v2"
	"testing"
)

func kart(x, y, deg float64) Rect {
	return Rect{Centre: Vec{x, y}, Heading: deg * math.Pi / 180, Length: 40, Width: 20}
}

func TestCorners(t *testing.T) {
	c := kart(0, 0, 90).Corners() // facing up: the front is at y=20
	for i, want := range [4]Vec{{-10, 20}, {10, 20}, {10, -20}, {-10, -20}} {
		if !c[i].Near(want, 1e-9) {
			t.Errorf("corner %d: %v, want %v", i, c[i], want)
		}
	}
}

// Hand-drawn cases: 40×20 karts facing right at the origin unless turned.
func TestOverlaps(t *testing.T) {
	diamond := Rect{Centre: Vec{30, 20}, Heading: math.Pi / 4, Length: 20, Width: 20}
	for _, tc := range []struct {
		name string
		b    Rect
		want bool
	}{
		{"nose into tail, 1 mm deep", kart(39, 0, 0), true},
		{"nose touching tail", kart(40, 0, 0), false},
		{"a millimetre apart", kart(41, 0, 0), false},
		{"side by side, touching", kart(0, 20, 0), false},
		{"side by side, 1 mm over", kart(0, 19, 0), true},
		{"square across the nose", kart(29, 0, 90), true},
		{"square, clear of the nose", kart(31, 0, 90), false},
		// Its bounding box overlaps the kart, but the diamond's edge x+y=35.86 passes beyond the corner (20,10).
		{"a diamond off the corner", diamond, false},
		{"the diamond 6 mm closer", Rect{Centre: Vec{26, 14}, Heading: math.Pi / 4, Length: 20, Width: 20}, true},
		{"the same place", kart(0, 0, 0), true},
		{"inside, turned", Rect{Centre: Vec{0, 0}, Heading: 1, Length: 5, Width: 5}, true},
	} {
		a := kart(0, 0, 0)
		if got := a.Overlaps(tc.b); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		if got := tc.b.Overlaps(a); got != tc.want {
			t.Errorf("%s, the other way: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// Properties over random pairs: overlap is symmetric, and turning or moving
// the whole table changes nothing.
func TestOverlapProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	r := func() Rect {
		return Rect{Centre: Vec{rng.Float64()*120 - 60, rng.Float64()*120 - 60}, Heading: rng.Float64() * 2 * math.Pi,
			Length: 10 + rng.Float64()*60, Width: 5 + rng.Float64()*30}
	}
	for i := 0; i < 20000; i++ {
		a, b := r(), r()
		got := a.Overlaps(b)
		if b.Overlaps(a) != got {
			t.Fatalf("not symmetric: %+v %+v", a, b)
		}
		turn, shift := rng.Float64()*2*math.Pi, Vec{rng.Float64() * 500, rng.Float64() * 500}
		move := func(x Rect) Rect {
			x.Centre = x.Centre.Rotate(turn).Add(shift)
			x.Heading += turn
			return x
		}
		// Near-touching pairs may flip on rounding: only clear cases must agree.
		if a2, b2 := move(a), move(b); a2.Overlaps(b2) != got && clearance(a, b) > 1e-6 {
			t.Fatalf("moving the table changed the overlap: %+v %+v", a, b)
		}
		if !a.Overlaps(a) {
			t.Fatalf("a rectangle does not overlap itself: %+v", a)
		}
	}
}

// clearance is how far apart or how deep two rectangles are along their best separating axis.
func clearance(a, b Rect) float64 {
	best := math.Inf(1)
	for _, axis := range []Vec{heading(a.Heading), heading(a.Heading + math.Pi/2), heading(b.Heading), heading(b.Heading + math.Pi/2)} {
		alo, ahi := project(a.Corners(), axis)
		blo, bhi := project(b.Corners(), axis)
		best = min(best, math.Abs(ahi-blo), math.Abs(bhi-alo))
	}
	return best
}

func TestCrosses(t *testing.T) {
	a := kart(0, 0, 0) // x -20..20, y -10..10
	for _, tc := range []struct {
		name string
		p, q Vec
		want bool
	}{
		{"straight through", Vec{-50, 0}, Vec{50, 0}, true},
		{"above it", Vec{-50, 11}, Vec{50, 11}, false},
		{"along its edge", Vec{-50, 10}, Vec{50, 10}, false},
		{"stops short", Vec{-50, 0}, Vec{-21, 0}, false},
		{"ends inside", Vec{-50, 0}, Vec{0, 0}, true},
		{"across a corner", Vec{12, 20}, Vec{24, 0}, true}, // inside for y<=10, where x is 18 to 20
		{"past the corner", Vec{18, 20}, Vec{28, 0}, false},
		{"diagonal through", Vec{-30, -30}, Vec{30, 30}, true},
	} {
		if got := a.Crosses(tc.p, tc.q); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		if got := a.Crosses(tc.q, tc.p); got != tc.want {
			t.Errorf("%s, reversed: %v, want %v", tc.name, got, tc.want)
		}
	}
	// Turned 90 degrees, the kart is 20 wide and 40 tall: a line at y=15 now crosses it.
	if !kart(0, 0, 90).Crosses(Vec{-50, 15}, Vec{50, 15}) {
		t.Error("a turned kart is not crossed at y=15")
	}
}

func TestCollide(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b Rect
		want Orientation
	}{
		{"nose to nose", kart(-39, 0, 0), kart(0, 0, 180), HeadOn},
		{"nearly nose to nose (150°)", kart(-39, 0, 30), kart(0, 0, 180), HeadOn},
		{"into the side", kart(0, -29, 90), kart(0, 0, 0), TBone},
		{"into the side at 60°", kart(0, -29, 60), kart(0, 0, 0), TBone},
		{"into the rear", kart(-39, 0, 0), kart(0, 0, 0), Tailgate},
		{"alongside", kart(5, -19, 0), kart(0, 0, 0), Sideswipe},
		{"alongside, slightly turned in", kart(5, -19, 20), kart(0, 0, 0), Sideswipe},
		// The edges decide, not the headings: square to each other, but nose to nose at the corners.
		{"noses meet at right angles", kart(-29, -9, 0), kart(0, 0, 90), TBone},
		{"a nose on a rear corner", kart(-39, 12, 0), kart(0, 0, 0), Tailgate},
		{"a nose on a side, heading the same way", kart(-10, -19.5, 30), kart(0, 0, 0), TBone},
	} {
		if got := Collide(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// The orientation does not depend on which kart moved; the overlap of two
// squares is where they share area.
func TestCollideProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	n := 0
	for n < 2000 {
		a := kart(rng.Float64()*80-40, rng.Float64()*80-40, rng.Float64()*360)
		b := kart(0, 0, rng.Float64()*360)
		if !a.Overlaps(b) {
			continue
		}
		n++
		if x, y := Collide(a, b), Collide(b, a); x != y {
			t.Fatalf("%+v into %+v is %s, the other way %s", a, b, x, y)
		}
	}
	sq := func(x, y float64) []Vec { return []Vec{{x, y}, {x + 10, y}, {x + 10, y + 10}, {x, y + 10}} }
	got := clipConvex(sq(0, 0), sq(5, 5))
	area := 0.0
	for i, v := range got {
		area += v.Cross(got[(i+1)%len(got)]) / 2
	}
	if math.Abs(area-25) > 1e-9 {
		t.Errorf("two 10 mm squares a corner apart share %v mm², want 25 (%v)", area, got)
	}
	if clipConvex(sq(0, 0), sq(20, 20)) != nil {
		t.Error("squares apart share area")
	}
}
