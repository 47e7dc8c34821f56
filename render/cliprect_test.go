package render

import (
	"image"
	"strings"
	"testing"
)

// A clip cuts everything drawn in it, in PNG: shapes, circles and text, at
// the output scale and under a rotation; outside it nothing changes.
func TestPNGClip(t *testing.T) {
	for _, scale := range []float64{1, 2} {
		p := whitePNG(100, 100, scale)
		p.Clip(20, 30, 40, 30, func(c Canvas) {
			c.Rect(0, 0, 100, 100, Style{Fill: red})
			c.Circle(Pt(60, 60), 30, Style{Fill: red})
			c.Text(Pt(0, 80), "WWWWWWWWWWWW", TextStyle{Size: 30})
		})
		img := renderPNG(t, p)
		at := func(x, y float64) image.Point { return image.Pt(int(x*scale), int(y*scale)) }
		for _, pt := range []image.Point{at(21, 31), at(40, 45), at(59, 50)} {
			if c := rgbaAt(img, pt.X, pt.Y); !isRed(c) {
				t.Errorf("scale %v: %v inside the clip = %v, want red", scale, pt, c)
			}
		}
		if n := countDark(img, image.Rectangle{at(20, 50), at(60, 60)}); n == 0 {
			t.Errorf("scale %v: the text's top does not show inside the clip", scale)
		}
		for _, pt := range []image.Point{at(19, 45), at(61, 45), at(40, 29), at(40, 61), at(80, 80), at(5, 75)} {
			if c := rgbaAt(img, pt.X, pt.Y); !isWhite(c) {
				t.Errorf("scale %v: %v outside the clip = %v, want the background", scale, pt, c)
			}
		}
	}

	// Rotated 45° about (50,50), the square (-10,-10,20,20) is a diamond:
	// its corners' neighbourhoods along the axes are in, the box corners out.
	p := whitePNG(100, 100, 1)
	p.Group(At(Pt(50, 50), 45), func(c Canvas) {
		c.Clip(-10, -10, 20, 20, func(c Canvas) { c.Rect(-50, -50, 100, 100, Style{Fill: red}) })
	})
	img := renderPNG(t, p)
	if c := rgbaAt(img, 50, 37); !isRed(c) {
		t.Errorf("rotated clip: (50,37) = %v, want red", c)
	}
	if c := rgbaAt(img, 41, 41); !isWhite(c) {
		t.Errorf("rotated clip: (41,41) = %v, want the background", c)
	}

	// Drawn in a clip that holds everything, a drawing is what it is
	// without one (within rounding).
	direct, clipped := whitePNG(sampleW, sampleH, 1), whitePNG(sampleW, sampleH, 1)
	drawSample(direct)
	clipped.Clip(0, 0, sampleW, sampleH, func(c Canvas) { drawSample(c) })
	a, b := direct.Image(), clipped.Image()
	worst := 0
	for i := range a.Pix {
		worst = max(worst, abs(int(a.Pix[i])-int(b.Pix[i])))
	}
	if worst > 2 {
		t.Errorf("a clip round the whole drawing changes a pixel by %d", worst)
	}
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// In SVG a clip is a clipPath round a group, numbered per drawing; an empty
// clip draws nothing.
func TestSVGClip(t *testing.T) {
	s := NewSVG(100, 100)
	s.Clip(10, 20, 30, 40, func(c Canvas) { c.Rect(0, 0, 100, 100, Style{Fill: red}) })
	s.Clip(0, 0, 5, 5, func(c Canvas) { c.Circle(Pt(0, 0), 9, Style{Fill: red}) })
	s.Clip(0, 0, 0, 5, func(c Canvas) { c.Text(Pt(0, 0), "hidden", TextStyle{}) })
	doc := string(s.Bytes())
	checkXML(t, []byte(doc))
	for _, want := range []string{
		`<clipPath id="clip1"><rect x="10" y="20" width="30" height="40"/></clipPath>`,
		`<g clip-path="url(#clip1)">`,
		`<clipPath id="clip2">`,
		`<g clip-path="url(#clip2)">`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("the SVG lacks %s:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "hidden") {
		t.Errorf("an empty clip drew its content:\n%s", doc)
	}
}
