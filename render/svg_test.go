package render

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"pitwall/race/racetest/golden"
)

var (
	red   = RGB(255, 0, 0)
	sand  = RGB(0xe8, 0xd8, 0xa8)
	grass = RGB(0x5a, 0x8f, 0x3c)
	ink   = RGB(0x22, 0x22, 0x22)
	blue  = RGB(0x1f, 0x5f, 0xbf)
)

// Sample geometry, shared with png_test.go.
const (
	sampleW, sampleH = 480, 320
)

var sampleRed = [4]float64{20, 20, 60, 40} // x, y, w, h of the plain red rect

// chariot draws a small chariot around the origin pointing along +x.
func chariot(c Canvas, col Color) {
	c.Polygon([]Point{{-9, -6}, {5, -6}, {10, 0}, {5, 6}, {-9, 6}}, Style{Fill: col, Stroke: ink, StrokeWidth: 1})
	c.Circle(Pt(-4, -7), 2.5, Style{Fill: ink})
	c.Circle(Pt(-4, 7), 2.5, Style{Fill: ink})
	c.Polyline([]Point{{10, 0}, {18, 0}}, Style{Stroke: ink, StrokeWidth: 1.5})
}

// drawSample uses every primitive and option once or more.
func drawSample(c Canvas) {
	w, h := c.Size()
	c.Rect(0, 0, w, h, Style{Fill: White})
	x, y, rw, rh := sampleRed[0], sampleRed[1], sampleRed[2], sampleRed[3]
	c.Rect(x, y, rw, rh, Style{Fill: red})
	c.Rect(100, 20, 80, 40, Style{Fill: blue, Opacity: 0.5, Stroke: ink, StrokeWidth: 2, Radius: 10})
	c.Rect(200, 20, 80, 40, Style{Stroke: red, StrokeWidth: 2, Dash: []float64{6, 4}})

	// Track: an oval ring with a dashed centre line.
	var outer, inner, centre []Point
	for i := 0; i < 64; i++ {
		a := 2 * math.Pi * float64(i) / 64
		outer = append(outer, Pt(240+200*math.Cos(a), 222+88*math.Sin(a)))
		inner = append(inner, Pt(240+140*math.Cos(a), 222+40*math.Sin(a)))
		centre = append(centre, Pt(240+170*math.Cos(a), 222+64*math.Sin(a)))
	}
	c.Polygon(outer, Style{Fill: sand, Stroke: ink, StrokeWidth: 2})
	c.Polygon(inner, Style{Fill: grass, Stroke: ink, StrokeWidth: 2})
	c.Polyline(append(centre, centre[0]), Style{Stroke: White, StrokeWidth: 2, Dash: []float64{8, 6}})
	c.Polyline([]Point{{300, 40}, {340, 20}, {380, 40}, {420, 20}}, Style{Stroke: blue, StrokeWidth: 3, Dash: []float64{1, 6}})

	// Chariots along the track, rotated to its heading; the third is
	// scaled to check that strokes scale too.
	for i, k := range []int{0, 16, 40} {
		p, q := centre[k], centre[(k+1)%len(centre)]
		t := At(p, Heading(p, q))
		if i == 2 {
			t.Scale = 1.5
		}
		c.Group(t, func(c Canvas) {
			chariot(c, []Color{red, blue, RGB(0xf0, 0xc0, 0x20)}[i])
			c.Text(Pt(0, -12), "Ω"+string(rune('1'+i)), TextStyle{Size: 9, Anchor: AnchorMiddle})
		})
	}

	// Text anchors around a marker line at x=240.
	c.Polyline([]Point{{240, 70}, {240, 120}}, Style{Stroke: red})
	ts := TextStyle{Size: 12, Color: ink}
	c.Text(Pt(240, 82), "start", ts)
	ts.Anchor = AnchorMiddle
	ts.Bold = true
	c.Text(Pt(240, 98), "middle bold", ts)
	ts.Anchor, ts.Bold = AnchorEnd, false
	ts.VAlign = Middle
	c.Text(Pt(240, 112), "end, v-middle", ts)
	c.Polyline([]Point{{180, 112}, {300, 112}}, Style{Stroke: red, StrokeWidth: 0.5})
	c.Text(Pt(12, 310), `A*b_[c]|<d> & "q" 'x'`, TextStyle{Size: 14, Color: blue})
	c.Circle(Pt(460, 300), 12, Style{Fill: red.WithAlpha(128), Stroke: ink, StrokeWidth: 1, Dash: []float64{3}})
}

func sampleSVG() []byte {
	s := NewSVG(sampleW, sampleH)
	drawSample(s)
	return s.Bytes()
}

func TestSVGGolden(t *testing.T) {
	golden.Check(t, filepath.Join("testdata", "sample.svg"), string(sampleSVG()))
}

func TestSVGWellFormed(t *testing.T) {
	checkXML(t, sampleSVG())
}

func checkXML(t *testing.T, doc []byte) {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(doc))
	d.Strict = true
	depth, root := 0, ""
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v\n%s", err, doc)
		}
		if se, ok := tok.(xml.StartElement); ok {
			if depth == 0 {
				root = se.Name.Space + " " + se.Name.Local
			}
			depth++
		}
		if _, ok := tok.(xml.EndElement); ok {
			depth--
		}
	}
	if root != "http://www.w3.org/2000/svg svg" {
		t.Errorf("root element = %q, want svg in the SVG namespace", root)
	}
}

func TestSVGDeterministic(t *testing.T) {
	a, b := sampleSVG(), sampleSVG()
	if !bytes.Equal(a, b) {
		t.Fatal("same calls gave different SVG")
	}
	var buf bytes.Buffer
	s := NewSVG(sampleW, sampleH)
	drawSample(s)
	n, err := s.WriteTo(&buf)
	if err != nil || n != int64(len(a)) || !bytes.Equal(buf.Bytes(), a) {
		t.Fatalf("WriteTo = %d, %v; differs from Bytes", n, err)
	}
}

func TestSVGEscaping(t *testing.T) {
	s := NewSVG(100, 100)
	name := "A*b_[c]|<d> & \"e\" 'f'\x00\n"
	s.Text(Pt(1, 2), name, TextStyle{})
	doc := s.Bytes()
	checkXML(t, doc)
	want := `>A*b_[c]|&lt;d&gt; &amp; &quot;e&quot; &apos;f&apos;  </text>`
	if !bytes.Contains(doc, []byte(want)) {
		t.Errorf("escaped text not found; want %s in\n%s", want, doc)
	}
	// Decoding gives back the name with control characters as spaces.
	var v struct {
		Text string `xml:"text"`
	}
	if err := xml.Unmarshal(doc, &v); err != nil {
		t.Fatal(err)
	}
	if v.Text != "A*b_[c]|<d> & \"e\" 'f'  " {
		t.Errorf("round trip = %q", v.Text)
	}
}

func TestSVGBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	s := NewSVG(nan, -5)
	s.Polygon(nil, Style{Fill: red})
	s.Polygon([]Point{{nan, 1}, {1, inf}}, Style{Fill: red})
	s.Polyline([]Point{{1, 1}}, Style{Stroke: red})
	s.Polyline([]Point{{1, 1}, {1e300, -1e300}, {nan, nan}}, Style{Stroke: red, Dash: []float64{0, 0}})
	s.Polygon([]Point{{1, 1}, {2, 2}}, Style{Stroke: red, StrokeWidth: nan})
	s.Polyline([]Point{{0, 0}, {5, 5}}, Style{Stroke: red, Dash: []float64{-1, 2}})
	s.Circle(Pt(nan, 0), 5, Style{Fill: red})
	s.Circle(Pt(0, 0), -5, Style{Fill: red})
	s.Rect(0, 0, 0, 10, Style{Fill: red})
	s.Rect(10, 10, -5, -5, Style{Fill: red, Radius: nan})
	s.Text(Pt(nan, 0), "x", TextStyle{})
	s.Text(Pt(0, 0), "\xff\xfe", TextStyle{Size: inf})
	s.Group(Transform{X: nan, Rotate: inf, Scale: -1}, func(c Canvas) {
		c.Rect(0, 0, 1, 1, Style{Fill: red})
	})
	s.Group(Transform{}, nil)
	doc := s.Bytes()
	checkXML(t, doc)
	for _, bad := range []string{"NaN", "Inf", "-0", "e+"} {
		if bytes.Contains(doc, []byte(bad)) {
			t.Errorf("output contains %q:\n%s", bad, doc)
		}
	}
	// The inverted rect is normalised, the huge point clamped, the broken
	// dash dropped.
	for _, want := range []string{
		`<rect x="5" y="5" width="5" height="5" fill="#ff0000"/>`,
		`points="1,1 1000000,-1000000"`,
		`<polyline points="0,0 5,5" fill="none" stroke="#ff0000"/>`,
		"\uFFFD",
	} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("missing %s in\n%s", want, doc)
		}
	}
}

func TestNum(t *testing.T) {
	for v, want := range map[float64]string{
		0: "0", -0.001: "0", math.Copysign(0, -1): "0", 1.005: "1", 1.25: "1.25",
		-3.14159: "-3.14", 100: "100", 1e6: "1000000", 0.1 + 0.2: "0.3",
	} {
		if got := num(v); got != want {
			t.Errorf("num(%v) = %q, want %q", v, got, want)
		}
	}
}

func TestGroupTransformSVG(t *testing.T) {
	s := NewSVG(10, 10)
	s.Group(Transform{X: 5, Y: -0.001, Rotate: 450, Scale: 2}, func(c Canvas) {
		c.Group(Translate(0, 0), func(c Canvas) { c.Circle(Pt(0, 0), 1, Style{Fill: red}) })
	})
	doc := string(s.Bytes())
	if !strings.Contains(doc, `<g transform="translate(5,0) rotate(90) scale(2)">`+"\n"+`    <circle cx="0" cy="0" r="1" fill="#ff0000"/>`+"\n  </g>\n") {
		t.Errorf("unexpected group output:\n%s", doc)
	}
}

func TestColor(t *testing.T) {
	for in, want := range map[string]Color{
		"#ff0000": red, "FF0000": red, "#f00": red, " #0000ff80 ": {0, 0, 255, 128}, "none": None,
	} {
		got, err := ParseColor(in)
		if err != nil || got != want {
			t.Errorf("ParseColor(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "#12", "#ggg", "#12345", "red", "#1234567"} {
		if _, err := ParseColor(bad); err == nil {
			t.Errorf("ParseColor(%q) did not fail", bad)
		}
	}
	for _, c := range []Color{red, {1, 2, 3, 4}, None, White} {
		if back, err := ParseColor(c.Hex()); err != nil || back != c {
			t.Errorf("round trip of %v gave %v, %v", c, back, err)
		}
	}
	if red.Hex() != "#ff0000" {
		t.Errorf("Hex = %s", red.Hex())
	}
	if r, g, b, a := (Color{255, 0, 0, 128}).RGBA(); r != 0x8080 || g != 0 || b != 0 || a != 0x8080 {
		t.Errorf("RGBA premultiplied = %x %x %x %x", r, g, b, a)
	}
}

func TestHeading(t *testing.T) {
	for _, c := range []struct {
		a, b Point
		want float64
	}{
		{Pt(0, 0), Pt(1, 0), 0}, {Pt(0, 0), Pt(0, 1), 90}, {Pt(0, 0), Pt(-1, 0), 180}, {Pt(0, 0), Pt(0, -1), -90}, {Pt(1, 1), Pt(1, 1), 0},
	} {
		if got := Heading(c.a, c.b); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Heading(%v, %v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// Seat colours come round after twelve; a counter's number reads on each:
// ink on the light ones, white on the dark ones, at the luma of 150.
func TestSeatColours(t *testing.T) {
	ink := RGB(1, 2, 3)
	if SeatColour(12) != SeatColour(0) || SeatColour(13) == SeatColour(0) {
		t.Error("the seat colours do not come round after twelve")
	}
	for _, tc := range []struct {
		c    Color
		want Color
	}{
		{RGB(0xff, 0xff, 0xff), ink}, {RGB(0, 0, 0), RGB(0xff, 0xff, 0xff)},
		{RGB(0xf2, 0xc3, 0x1b), ink},                   // yellow
		{RGB(0x16, 0xb5, 0xb5), RGB(0xff, 0xff, 0xff)}, // teal, luma 133.5
		{RGB(150, 150, 150), RGB(0xff, 0xff, 0xff)},    // luma exactly 150
		{RGB(151, 150, 150), ink},                      // luma 150.3
	} {
		if got := Contrast(tc.c, ink); got != tc.want {
			t.Errorf("Contrast(%v) = %v, want %v", tc.c, got, tc.want)
		}
	}
}
