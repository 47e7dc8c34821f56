// Package render holds the drawing and post-format helpers shared by the
// track renderer and the turn-summary writer.
//
// Drawing goes through the small Canvas interface, with two backends that
// must look the same: SVG (for the web) and PNG (for forums). Coordinates are
// pixels, y grows downwards, the origin is the top-left corner.
//
// Post formatting goes through Doc, which renders one document to both
// Markdown and BBCode.
package render

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Point is a position in pixels (y down).
type Point struct{ X, Y float64 }

// Pt is shorthand for Point{x, y}.
func Pt(x, y float64) Point { return Point{x, y} }

// Color is an 8-bit sRGB colour with straight (not premultiplied) alpha.
// The zero Color (A == 0) means "none": nothing is painted with it.
type Color struct{ R, G, B, A uint8 }

// A few colours everybody needs.
var (
	None  = Color{}
	Black = Color{0, 0, 0, 255}
	White = Color{255, 255, 255, 255}
)

// RGB returns an opaque colour.
func RGB(r, g, b uint8) Color { return Color{r, g, b, 255} }

// WithAlpha returns c with its alpha replaced.
func (c Color) WithAlpha(a uint8) Color { c.A = a; return c }

// IsNone reports whether c paints nothing.
func (c Color) IsNone() bool { return c.A == 0 }

// Hex returns "#rrggbb" for opaque colours and "#rrggbbaa" otherwise, so
// that ParseColor(c.Hex()) == c.
func (c Color) Hex() string {
	if c.A == 255 {
		return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B)
	}
	return fmt.Sprintf("#%02x%02x%02x%02x", c.R, c.G, c.B, c.A)
}

// String implements fmt.Stringer.
func (c Color) String() string { return c.Hex() }

// RGBA implements image/color.Color (alpha-premultiplied, 16 bits), so a
// Color can be handed straight to image and drawing libraries.
func (c Color) RGBA() (r, g, b, a uint32) {
	a = uint32(c.A) * 0x101
	r = uint32(c.R) * 0x101 * a / 0xffff
	g = uint32(c.G) * 0x101 * a / 0xffff
	b = uint32(c.B) * 0x101 * a / 0xffff
	return r, g, b, a
}

// ParseColor parses "#rgb", "#rrggbb" or "#rrggbbaa" (the '#' is optional,
// case does not matter). "none" and "transparent" give the zero Color.
func ParseColor(s string) (Color, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	if t == "none" || t == "transparent" {
		return None, nil
	}
	t = strings.TrimPrefix(t, "#")
	if len(t) == 3 {
		t = string([]byte{t[0], t[0], t[1], t[1], t[2], t[2]})
	}
	if len(t) == 6 {
		t += "ff"
	}
	if len(t) != 8 {
		return None, fmt.Errorf("render: bad colour %q: want #rgb, #rrggbb or #rrggbbaa", s)
	}
	v, err := strconv.ParseUint(t, 16, 32)
	if err != nil {
		return None, fmt.Errorf("render: bad colour %q: not hexadecimal", s)
	}
	return Color{uint8(v >> 24), uint8(v >> 16), uint8(v >> 8), uint8(v)}, nil
}

// Style says how a shape is painted: filled first, then stroked.
type Style struct {
	Fill   Color // zero: no fill
	Stroke Color // zero: no outline
	// StrokeWidth is in pixels; 0 means 1 (SVG's default), negative means no
	// stroke.
	StrokeWidth float64
	// Dash is an on/off pattern in pixels. As in SVG an odd-length pattern is
	// repeated once; a pattern with negative or non-finite values, or shorter
	// than half a pixel in total, draws a solid line.
	Dash []float64
	// Opacity multiplies the alpha of Fill and Stroke. 0 (unset) means 1, so
	// the zero Style stays usable; use None colours to paint nothing.
	Opacity float64
	// Radius rounds the corners of Rect; it is clamped to half the shorter side.
	Radius float64
	// FlatEnds ends lines (and each dash) square at their ends instead of
	// round: the same look on thin dashes, and much cheaper in PNG, where every
	// round end is an arc to rasterise.
	FlatEnds bool
}

// Anchor is the horizontal alignment of text relative to its point.
type Anchor uint8

// Horizontal text anchors (SVG text-anchor).
const (
	AnchorStart  Anchor = iota // text starts at the point
	AnchorMiddle               // text is centred on the point
	AnchorEnd                  // text ends at the point
)

// VAlign is the vertical alignment of text relative to its point.
type VAlign uint8

// Vertical text alignments.
const (
	Baseline VAlign = iota // the point is on the alphabetic baseline
	Middle                 // the point is at the middle of capital letters
)

// middleShift is how far below the point the baseline goes for Middle, in
// ems. Both backends use it (SVG as dy) rather than SVG's dominant-baseline,
// whose meaning differs between browsers and has no PNG equivalent.
const middleShift = 0.35

// TextStyle says how text is drawn.
type TextStyle struct {
	Size   float64 // font size in pixels; 0 means 12
	Color  Color   // zero means black, so TextStyle{} is readable
	Bold   bool
	Anchor Anchor
	VAlign VAlign
}

// Transform places a Group: its contents are scaled, then rotated, then
// translated, like SVG's "translate(X,Y) rotate(Rotate) scale(Scale)".
type Transform struct {
	X, Y float64 // translation in pixels
	// Rotate is in degrees; positive turns clockwise on screen (y is down),
	// matching SVG. Heading gives the angle of a track segment.
	Rotate float64
	Scale  float64 // 0 means 1; clamped to [0.001, 1000]
}

// Translate returns a Transform that only moves.
func Translate(x, y float64) Transform { return Transform{X: x, Y: y} }

// At returns a Transform that moves to p and turns by deg degrees: the usual
// way to place an icon drawn around the origin and pointing along +x.
func At(p Point, deg float64) Transform { return Transform{X: p.X, Y: p.Y, Rotate: deg} }

// Heading returns the direction from a to b in degrees, as used by
// Transform.Rotate (0 is +x, 90 is down the screen). It is 0 if a == b.
func Heading(a, b Point) float64 {
	d := math.Atan2(b.Y-a.Y, b.X-a.X) * 180 / math.Pi
	if !finite(d) {
		return 0
	}
	return d
}

// Canvas is what track drawings are drawn on. Implementations skip shapes
// they cannot draw (NaN or infinite coordinates, fewer than two points, zero
// size) instead of failing.
type Canvas interface {
	// Size is the drawing size in pixels, as given to the constructor.
	Size() (w, h float64)
	// Polygon draws a closed shape, filled and/or stroked.
	Polygon(pts []Point, st Style)
	// Polyline draws an open line; st.Fill is ignored.
	Polyline(pts []Point, st Style)
	// Circle draws a circle of radius r around c.
	Circle(c Point, r float64, st Style)
	// Rect draws an axis-aligned (before any Group transform) rectangle with
	// top-left corner (x, y); negative sizes extend left/up.
	Rect(x, y, w, h float64, st Style)
	// Text draws one line of text. Control characters become spaces.
	Text(p Point, s string, ts TextStyle)
	// Group draws with t applied on top of the current transform. draw gets
	// the canvas to draw on (the same one); the transform is restored when
	// draw returns.
	Group(t Transform, draw func(Canvas))
	// Clip draws what draw draws cut to the rectangle (x, y, w, h), given
	// in the current transform's space: nothing draw draws shows outside
	// it. draw must draw on the canvas it is given, which may be another
	// than the one Clip was called on.
	Clip(x, y, w, h float64, draw func(Canvas))
}

// maxCoord bounds every coordinate and length: nothing sensible is that
// large, and it keeps fixed-point rasterizers and float formatting sane.
const maxCoord = 1e6

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func clamp(v, lo, hi float64) float64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func clampCoord(v float64) float64 { return clamp(v, -maxCoord, maxCoord) }

// cleanPoints drops non-finite points and clamps the rest.
func cleanPoints(pts []Point) []Point {
	out := make([]Point, 0, len(pts))
	for _, p := range pts {
		if finite(p.X) && finite(p.Y) {
			out = append(out, Point{clampCoord(p.X), clampCoord(p.Y)})
		}
	}
	return out
}

// opacity returns st.Opacity with the "0 means 1" rule applied.
func (st Style) opacity() float64 {
	if !finite(st.Opacity) || st.Opacity <= 0 || st.Opacity > 1 {
		return 1
	}
	return st.Opacity
}

func (st Style) fill() Color   { return fade(st.Fill, st.opacity()) }
func (st Style) stroke() Color { return fade(st.Stroke, st.opacity()) }

func fade(c Color, op float64) Color {
	c.A = uint8(math.Round(float64(c.A) * op))
	return c
}

// strokeWidth returns the stroke width, 0 when nothing is stroked.
func (st Style) strokeWidth() float64 {
	if st.stroke().IsNone() || !finite(st.StrokeWidth) || st.StrokeWidth < 0 {
		return 0
	}
	if st.StrokeWidth == 0 {
		return 1
	}
	return math.Min(st.StrokeWidth, maxCoord)
}

// dash returns the normalised dash pattern (even length) or nil for solid.
// Tiny patterns are refused because they would explode into millions of
// segments in the PNG backend.
func (st Style) dash() []float64 {
	if len(st.Dash) == 0 {
		return nil
	}
	sum := 0.0
	for _, d := range st.Dash {
		if !finite(d) || d < 0 {
			return nil
		}
		sum += d
	}
	if sum < 0.5 {
		return nil
	}
	out := make([]float64, 0, 2*len(st.Dash))
	for _, d := range st.Dash {
		out = append(out, math.Min(d, maxCoord))
	}
	if len(out)%2 == 1 {
		out = append(out, out...)
	}
	return out
}

func (ts TextStyle) size() float64 {
	if !finite(ts.Size) || ts.Size <= 0 {
		return 12
	}
	return clamp(ts.Size, 1, 1000)
}

func (ts TextStyle) color() Color {
	if ts.Color == (Color{}) {
		return Black
	}
	return ts.Color
}

// anchorFactor is the fraction of the text width left of the point.
func (ts TextStyle) anchorFactor() float64 {
	switch ts.Anchor {
	case AnchorMiddle:
		return 0.5
	case AnchorEnd:
		return 1
	}
	return 0
}

// cleanText makes s safe to draw on one line: invalid UTF-8 becomes U+FFFD
// and control characters become spaces (XML 1.0 cannot even contain most of
// them, and fonts have no glyphs for them).
func cleanText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		switch {
		case r < 0x20, r >= 0x7f && r < 0xa0, r == 0xfffe, r == 0xffff:
			return ' '
		case r >= 0xd800 && r < 0xe000:
			return '\uFFFD'
		}
		return r
	}, s)
}

// norm returns t with unset or silly values replaced.
func (t Transform) norm() Transform {
	if !finite(t.X) {
		t.X = 0
	}
	if !finite(t.Y) {
		t.Y = 0
	}
	t.X, t.Y = clampCoord(t.X), clampCoord(t.Y)
	if !finite(t.Rotate) {
		t.Rotate = 0
	}
	t.Rotate = math.Mod(t.Rotate, 360)
	if !finite(t.Scale) || t.Scale <= 0 {
		t.Scale = 1
	}
	t.Scale = clamp(t.Scale, 0.001, 1000)
	return t
}

// roundRectPoints approximates a rounded rectangle by a polygon, for
// backends (and transforms) that have no rounded-rectangle primitive.
// segs is the number of segments per quarter circle.
func roundRectPoints(x, y, w, h, r float64, segs int) []Point {
	if r <= 0 || segs < 1 {
		return []Point{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}
	}
	pts := make([]Point, 0, 4*(segs+1))
	corner := func(cx, cy, start float64) {
		for i := 0; i <= segs; i++ {
			a := start + float64(i)*math.Pi/2/float64(segs)
			pts = append(pts, Point{cx + r*math.Cos(a), cy + r*math.Sin(a)})
		}
	}
	corner(x+w-r, y+r, -math.Pi/2)
	corner(x+w-r, y+h-r, 0)
	corner(x+r, y+h-r, math.Pi/2)
	corner(x+r, y+r, math.Pi)
	// Start at the top-left end of the top edge, where SVG's <rect> path
	// starts, so dash patterns line up in both backends.
	last := pts[len(pts)-1]
	return append([]Point{last}, pts[:len(pts)-1]...)
}

// normRect makes w and h non-negative and clamps everything; ok is false if
// there is nothing to draw.
func normRect(x, y, w, h, r float64) (nx, ny, nw, nh, nr float64, ok bool) {
	if !finite(x) || !finite(y) || !finite(w) || !finite(h) {
		return 0, 0, 0, 0, 0, false
	}
	if w < 0 {
		x, w = x+w, -w
	}
	if h < 0 {
		y, h = y+h, -h
	}
	x, y = clampCoord(x), clampCoord(y)
	w, h = math.Min(w, maxCoord), math.Min(h, maxCoord)
	if w == 0 || h == 0 {
		return 0, 0, 0, 0, 0, false
	}
	if !finite(r) || r < 0 {
		r = 0
	}
	r = math.Min(r, math.Min(w, h)/2)
	return x, y, w, h, r, true
}

// Clip shortens s to at most n characters (runes, not bytes, so a name is
// never cut inside a letter), ending with "…" when it cut.
func Clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 1 {
		return s
	}
	return string(r[:n-1]) + "…"
}
