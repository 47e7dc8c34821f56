package render

import (
	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"testing"
)

var samplePath = flag.String("sample", "", "also write the sample drawing to this .png path (and the SVG next to it)")

func renderPNG(t testing.TB, p *PNG) image.Image {
	t.Helper()
	var buf bytes.Buffer
	if err := p.Encode(&buf); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func rgbaAt(img image.Image, x, y int) color.NRGBA {
	return color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
}

func isRed(c color.NRGBA) bool   { return c.R > 240 && c.G < 15 && c.B < 15 && c.A > 240 }
func isWhite(c color.NRGBA) bool { return c.R > 240 && c.G > 240 && c.B > 240 && c.A > 240 }
func isDark(c color.NRGBA) bool  { return c.A > 128 && int(c.R)+int(c.G)+int(c.B) < 3*128 }

func TestPNGSample(t *testing.T) {
	for _, scale := range []float64{1, 2} {
		p := NewPNG(sampleW, sampleH, scale)
		drawSample(p)
		img := renderPNG(t, p)
		if b := img.Bounds(); b.Dx() != int(sampleW*scale) || b.Dy() != int(sampleH*scale) {
			t.Fatalf("scale %v: size %v", scale, b)
		}
		x, y, w, h := sampleRed[0], sampleRed[1], sampleRed[2], sampleRed[3]
		if c := rgbaAt(img, int((x+w/2)*scale), int((y+h/2)*scale)); !isRed(c) {
			t.Errorf("scale %v: centre of red rect is %v", scale, c)
		}
		if c := rgbaAt(img, int((x-5)*scale), int((y+h/2)*scale)); !isWhite(c) {
			t.Errorf("scale %v: left of red rect is %v, want background", scale, c)
		}
		if *samplePath != "" && scale == 2 {
			f, err := os.Create(*samplePath)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Encode(f); err != nil {
				t.Fatal(err)
			}
			f.Close()
			svg := strings.TrimSuffix(*samplePath, ".png") + ".svg"
			if err := os.WriteFile(svg, sampleSVG(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func TestPNGSizeAndBackground(t *testing.T) {
	p := NewPNG(10.2, 5, 1)
	if w, h := p.Size(); w != 10.2 || h != 5 {
		t.Errorf("Size = %v, %v", w, h)
	}
	img := renderPNG(t, p)
	if b := img.Bounds(); b.Dx() != 11 || b.Dy() != 5 {
		t.Errorf("bounds %v, want 11x5", b)
	}
	if c := rgbaAt(img, 3, 3); c.A != 0 {
		t.Errorf("background %v, want transparent", c)
	}
	for _, p := range []*PNG{NewPNG(math.NaN(), -1, math.Inf(1)), NewPNG(1e9, 1e9, 1e9)} {
		b := p.Image().Bounds()
		if b.Dx() < 1 || b.Dy() < 1 || b.Dx() > maxPNGSide || b.Dy() > maxPNGSide {
			t.Errorf("bad size %v", b)
		}
	}
}

// countDark counts dark pixels in r.
func countDark(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if isDark(rgbaAt(img, x, y)) {
				n++
			}
		}
	}
	return n
}

func whitePNG(w, h, scale float64) *PNG {
	p := NewPNG(w, h, scale)
	p.Rect(0, 0, w, h, Style{Fill: White})
	return p
}

func TestPNGText(t *testing.T) {
	p := whitePNG(200, 100, 1)
	// Baseline at y=30: glyphs sit above it.
	p.Text(Pt(100, 30), "Hello", TextStyle{Size: 20, Anchor: AnchorMiddle})
	p.Text(Pt(100, 70), "Wd", TextStyle{Size: 20, Anchor: AnchorEnd, VAlign: Middle, Bold: true})
	img := renderPNG(t, p)
	if n := countDark(img, image.Rect(60, 10, 140, 31)); n < 50 {
		t.Errorf("only %d dark pixels where Hello should be", n)
	}
	// Centred: ink on both sides of x=100, none far away.
	left, right := countDark(img, image.Rect(60, 10, 100, 31)), countDark(img, image.Rect(100, 10, 140, 31))
	if left < 20 || right < 20 || math.Abs(float64(left-right)) > float64(left+right)/3 {
		t.Errorf("middle anchor unbalanced: %d left, %d right", left, right)
	}
	if n := countDark(img, image.Rect(0, 0, 60, 45)) + countDark(img, image.Rect(140, 0, 200, 45)); n != 0 {
		t.Errorf("%d dark pixels outside the Hello box", n)
	}
	// End anchor: all ink left of x=100; middle valign: ink above and
	// below y=70.
	if n := countDark(img, image.Rect(101, 50, 200, 100)); n != 0 {
		t.Errorf("end anchor: %d dark pixels right of the point", n)
	}
	above, below := countDark(img, image.Rect(50, 50, 101, 70)), countDark(img, image.Rect(50, 70, 101, 90))
	if above < 20 || below < 20 {
		t.Errorf("middle valign: %d above, %d below", above, below)
	}
	// MeasureText agrees with what was drawn.
	if w := MeasureText("Hello", TextStyle{Size: 20}); w < 40 || w > 70 {
		t.Errorf("MeasureText = %v", w)
	}
}

func TestPNGRotation(t *testing.T) {
	// A bar along +x, rotated 90° about (50,50), must point down (y is
	// down, positive angles turn clockwise, as in SVG).
	p := whitePNG(100, 100, 1)
	p.Group(Transform{X: 50, Y: 50, Rotate: 90}, func(c Canvas) {
		c.Rect(10, -5, 30, 10, Style{Fill: red})
	})
	img := renderPNG(t, p)
	if c := rgbaAt(img, 50, 75); !isRed(c) {
		t.Errorf("(50,75) = %v, want red", c)
	}
	for _, pt := range []image.Point{{75, 50}, {50, 25}, {25, 50}} {
		if c := rgbaAt(img, pt.X, pt.Y); !isWhite(c) {
			t.Errorf("%v = %v, want background", pt, c)
		}
	}

	// Nested groups with scale, on a 2x canvas: translate(20,20) then
	// scale 2 puts local (5,5) at user (30,30), device (60,60).
	p = whitePNG(50, 50, 2)
	p.Group(Translate(20, 20), func(c Canvas) {
		c.Group(Transform{Scale: 2}, func(c Canvas) { c.Rect(4, 4, 2, 2, Style{Fill: red}) })
	})
	img = renderPNG(t, p)
	if c := rgbaAt(img, 60, 60); !isRed(c) {
		t.Errorf("nested scale: (60,60) = %v, want red", c)
	}
	if c := rgbaAt(img, 40, 40); !isWhite(c) {
		t.Errorf("nested scale: transform leaked, (40,40) = %v", c)
	}

	// Rotated text still draws ink, below the point for +90°.
	p = whitePNG(100, 100, 1)
	p.Group(At(Pt(50, 10), 90), func(c Canvas) { c.Text(Pt(0, 0), "Rotated", TextStyle{Size: 14}) })
	img = renderPNG(t, p)
	if n := countDark(img, image.Rect(45, 10, 65, 80)); n < 30 {
		t.Errorf("rotated text: %d dark pixels below the point", n)
	}
	if n := countDark(img, image.Rect(0, 0, 100, 8)) + countDark(img, image.Rect(0, 0, 40, 100)); n != 0 {
		t.Errorf("rotated text: %d dark pixels in the wrong place", n)
	}
}

func TestPNGDash(t *testing.T) {
	p := whitePNG(100, 20, 1)
	// Width 2 with round caps: dashes cover x in [-1,11], [19,31], ...
	p.Polyline([]Point{{0, 10}, {100, 10}}, Style{Stroke: red, StrokeWidth: 2, Dash: []float64{10, 10}})
	img := renderPNG(t, p)
	if c := rgbaAt(img, 5, 9); !isRed(c) {
		t.Errorf("inside dash: %v", c)
	}
	if c := rgbaAt(img, 15, 9); !isWhite(c) {
		t.Errorf("inside gap: %v", c)
	}
	// Odd patterns repeat, as in SVG: [10] is 10 on, 10 off.
	p = whitePNG(100, 20, 1)
	p.Polyline([]Point{{0, 10}, {100, 10}}, Style{Stroke: red, StrokeWidth: 2, Dash: []float64{10, 5, 5}})
	img = renderPNG(t, p)
	// [10 5 5 10 5 5]: on 0-10, off 10-15, on 15-20, off 20-30, on 30-35.
	for x, on := range map[int]bool{5: true, 13: false, 17: true, 25: false, 32: true} {
		if c := rgbaAt(img, x, 9); isRed(c) != on {
			t.Errorf("odd dash at x=%d: %v, want on=%v", x, c, on)
		}
	}
}

func TestPNGOpacityAndStroke(t *testing.T) {
	p := whitePNG(40, 40, 1)
	p.Rect(5, 5, 30, 30, Style{Fill: red, Opacity: 0.5, Stroke: Black, StrokeWidth: 4})
	img := renderPNG(t, p)
	if c := rgbaAt(img, 20, 20); c.R < 240 || c.G < 110 || c.G > 145 {
		t.Errorf("half-transparent red over white = %v, want pink", c)
	}
	if c := rgbaAt(img, 5, 20); c.R > 160 {
		t.Errorf("stroke pixel = %v, want dark", c)
	}
}

func TestPNGBadInput(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	p := NewPNG(50, 50, 1)
	p.Polygon(nil, Style{Fill: red})
	p.Polygon([]Point{{nan, 1}, {1, inf}, {2, 2}}, Style{Fill: red, Stroke: red})
	p.Polyline([]Point{{1, 1}, {1e300, -1e300}, {nan, nan}}, Style{Stroke: red, Dash: []float64{0, 0}})
	p.Polyline([]Point{{0, 0}, {1e6, 1e6}}, Style{Stroke: red, Dash: []float64{0.25, 0.25}})
	p.Polyline([]Point{{0, 0}, {50, 50}}, Style{Stroke: red, StrokeWidth: 1e300})
	p.Circle(Pt(0, 0), inf, Style{Fill: red})
	p.Circle(Pt(0, 0), 1e12, Style{Stroke: red})
	p.Rect(nan, 0, 1, 1, Style{Fill: red})
	p.Rect(-1e300, -1e300, 1e300, 1e300, Style{Fill: red, Radius: 1e300})
	p.Text(Pt(0, 0), "", TextStyle{})
	p.Text(Pt(1e300, -1e300), "far", TextStyle{Size: 1e9})
	p.Text(Pt(10, 10), "\x00\xff\n", TextStyle{Size: nan})
	p.Group(Transform{X: nan, Y: inf, Rotate: nan, Scale: 1e300}, func(c Canvas) {
		c.Text(Pt(1, 1), "big", TextStyle{Size: 1000})
		c.Circle(Pt(0, 0), 1, Style{Fill: red})
	})
	p.Group(Transform{}, nil)
	renderPNG(t, p)
}

func TestPNGConcurrent(t *testing.T) {
	// Separate canvases may be drawn from separate goroutines (faces are
	// per canvas, the parsed fonts are shared).
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := NewPNG(100, 40, 1)
			p.Text(Pt(5, 20), "concurrent", TextStyle{Size: 12})
			MeasureText("concurrent", TextStyle{Size: 12})
			_ = p.Encode(io.Discard)
		}()
	}
	wg.Wait()
}

func BenchmarkPNG(b *testing.B) {
	for b.Loop() {
		p := NewPNG(800, 600, 1)
		p.Rect(0, 0, 800, 600, Style{Fill: White})
		// 60 × 8 primitives (the chariot is four) ≈ 500.
		for i := range 60 {
			x, y := float64(i%15)*52, float64(i/15)*140
			p.Rect(x, y, 30, 20, Style{Fill: sand, Stroke: ink, Radius: 4})
			p.Circle(Pt(x+15, y+40), 8, Style{Fill: red})
			p.Polyline([]Point{{x, y + 60}, {x + 20, y + 70}, {x + 35, y + 60}}, Style{Stroke: blue, StrokeWidth: 2, Dash: []float64{4, 3}})
			p.Group(At(Pt(x+20, y+85), float64(i*7)), func(c Canvas) { chariot(c, grass) })
			p.Text(Pt(x+15, y+95), "P12", TextStyle{Size: 10, Anchor: AnchorMiddle})
		}
		if err := p.Encode(io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

func TestCopyLeavesTheOriginal(t *testing.T) {
	bg := NewPNG(20, 20, 1)
	bg.Rect(0, 0, 20, 20, Style{Fill: RGB(0, 0, 255)})
	c := bg.Copy()
	c.Rect(0, 0, 10, 10, Style{Fill: RGB(255, 0, 0)})
	if got := bg.Image().RGBAAt(5, 5); got.R != 0 || got.B != 255 {
		t.Fatalf("drawing on the copy changed the original: %v", got)
	}
	if got := c.Image().RGBAAt(5, 5); got.R != 255 {
		t.Fatalf("the copy did not take the drawing: %v", got)
	}
	if got := c.Image().RGBAAt(15, 15); got.B != 255 {
		t.Fatalf("the copy lost the original's drawing: %v", got)
	}
	if w, h := c.Size(); w != 20 || h != 20 {
		t.Fatalf("size %v×%v", w, h)
	}
}

// Flat ends stop a line where it ends; round ends reach half the width beyond.
func TestFlatEnds(t *testing.T) {
	for _, flat := range []bool{false, true} {
		c := NewPNG(40, 20, 1)
		c.Rect(0, 0, 40, 20, Style{Fill: White})
		c.Polyline([]Point{Pt(10, 10), Pt(30, 10)}, Style{Stroke: Black, StrokeWidth: 8, FlatEnds: flat})
		beyond := c.Image().RGBAAt(7, 10) // 3 px past the start, inside a round cap of radius 4
		if dark := beyond.R < 128; dark == flat {
			t.Errorf("flat ends %v: the pixel past the line's end is %v", flat, beyond)
		}
	}
	s := NewSVG(10, 10)
	s.Polyline([]Point{Pt(1, 1), Pt(9, 9)}, Style{Stroke: Black, FlatEnds: true})
	if !bytes.Contains(s.Bytes(), []byte(`stroke-linecap="butt"`)) {
		t.Error("the SVG line has no butt cap")
	}
}
