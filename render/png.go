package render

import (
	"image"
	"io"
	"math"
	"sync"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/math/fixed"
)

// Limits that keep a bad size or scale from allocating gigabytes.
const (
	maxPNGSide  = 8192
	maxPNGScale = 16
	maxFontPx   = 1024 // device pixels; glyph masks grow with the square
)

// PNG is a Canvas that rasterises with fogleman/gg. It is not safe for
// concurrent use; use one PNG per goroutine.
type PNG struct {
	w, h  float64
	dc    *gg.Context
	img   *image.RGBA
	m     affine // user space → device pixels, including the output scale
	faces map[faceKey]font.Face
}

var _ Canvas = (*PNG)(nil)

// NewPNG returns a transparent w×h drawing rendered at scale device pixels
// per pixel (2 for a sharper forum image). The image is ceil(w*scale) ×
// ceil(h*scale), at least 1×1 and at most 8192 on a side; scale outside
// (0, 16] becomes 1 or 16.
func NewPNG(w, h float64, scale float64) *PNG {
	w, h = canvasSize(w), canvasSize(h)
	if !finite(scale) || scale <= 0 {
		scale = 1
	}
	scale = math.Min(scale, maxPNGScale)
	pw := int(clamp(math.Ceil(w*scale), 1, maxPNGSide))
	ph := int(clamp(math.Ceil(h*scale), 1, maxPNGSide))
	img := image.NewRGBA(image.Rect(0, 0, pw, ph))
	dc := gg.NewContextForRGBA(img)
	// SVG output sets the same caps and joins on its root element.
	dc.SetLineCapRound()
	dc.SetLineJoinRound()
	return &PNG{
		w: w, h: h,
		dc:    dc,
		img:   img,
		m:     affine{a: scale, d: scale},
		faces: map[faceKey]font.Face{},
	}
}

// Size implements Canvas.
func (p *PNG) Size() (w, h float64) { return p.w, p.h }

// Image returns the drawing so far (shared, not a copy).
func (p *PNG) Image() *image.RGBA { return p.img }

// Encode writes the drawing as a PNG file. It favours speed over the last
// few percent of size: a turn's picture is drawn and posted once.
func (p *PNG) Encode(w io.Writer) error { return encodePNG(w, p.img) }

// Copy returns a new canvas holding a copy of this drawing, to draw on
// without changing this one: a picture's unchanging background is drawn
// once and copied for every turn.
func (p *PNG) Copy() *PNG {
	img := image.NewRGBA(p.img.Rect)
	copy(img.Pix, p.img.Pix)
	dc := gg.NewContextForRGBA(img)
	dc.SetLineCapRound()
	dc.SetLineJoinRound()
	return &PNG{w: p.w, h: p.h, dc: dc, img: img, m: p.m, faces: map[faceKey]font.Face{}}
}

// affine maps (x, y) to (a*x + c*y + e, b*x + d*y + f). Groups only
// translate, rotate and scale uniformly, so it is always a similarity.
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) apply(pt Point) Point {
	return Point{
		clampCoord(m.a*pt.X + m.c*pt.Y + m.e),
		clampCoord(m.b*pt.X + m.d*pt.Y + m.f),
	}
}

// then returns m∘n: n is applied first.
func (m affine) then(n affine) affine {
	return affine{
		a: m.a*n.a + m.c*n.b,
		b: m.b*n.a + m.d*n.b,
		c: m.a*n.c + m.c*n.d,
		d: m.b*n.c + m.d*n.d,
		e: m.a*n.e + m.c*n.f + m.e,
		f: m.b*n.e + m.d*n.f + m.f,
	}
}

func (m affine) scale() float64  { return math.Hypot(m.a, m.b) }
func (m affine) rotate() float64 { return math.Atan2(m.b, m.a) }

// Group implements Canvas.
func (p *PNG) Group(t Transform, draw func(Canvas)) {
	if draw == nil {
		return
	}
	t = t.norm()
	rad := t.Rotate * math.Pi / 180
	sin, cos := math.Sincos(rad)
	local := affine{
		a: cos * t.Scale, b: sin * t.Scale,
		c: -sin * t.Scale, d: cos * t.Scale,
		e: t.X, f: t.Y,
	}
	saved := p.m
	p.m = p.m.then(local)
	defer func() { p.m = saved }()
	draw(p)
}

// device maps user-space points to device pixels.
func (p *PNG) device(pts []Point) []Point {
	out := make([]Point, len(pts))
	for i, pt := range pts {
		out[i] = p.m.apply(pt)
	}
	return out
}

// lines adds pts to gg's current path as one open subpath.
func (p *PNG) lines(pts []Point) {
	for i, pt := range pts {
		if i == 0 {
			p.dc.MoveTo(pt.X, pt.Y)
		} else {
			p.dc.LineTo(pt.X, pt.Y)
		}
	}
}

// shape fills (if closed) and strokes a path given in device pixels,
// clipped to the image plus a margin so that nothing visible changes.
func (p *PNG) shape(dev []Point, closed bool, st Style) {
	b := p.img.Bounds()
	w, h := float64(b.Dx()), float64(b.Dy())
	if f := st.fill(); closed && !f.IsNone() {
		if poly := clipPolygon(dev, box{-2, -2, w + 2, h + 2}); len(poly) >= 3 {
			p.dc.ClearPath()
			p.lines(poly)
			p.dc.ClosePath()
			p.dc.SetColor(f)
			p.dc.Fill()
		}
	}
	sw, dash := p.stroke(st)
	if sw == 0 {
		return
	}
	line := dev
	if closed {
		line = append(dev[:len(dev):len(dev)], dev[0])
	}
	if st.FlatEnds {
		p.dc.SetLineCapButt()
		defer p.dc.SetLineCapRound()
	}
	m := sw/2 + 2
	runs := clipPolyline(line, box{-m, -m, w + m, h + m})
	p.dc.ClearPath()
	if dash == nil {
		// One path: overlapping pieces are painted once, as in SVG.
		for _, r := range runs {
			p.lines(r.pts)
		}
		p.dc.Stroke()
		return
	}
	// gg has one dash offset per stroke, so each piece goes on its own to
	// keep the pattern in phase with the unclipped line.
	for _, r := range runs {
		p.dc.SetDashOffset(r.offset)
		p.lines(r.pts)
		p.dc.Stroke()
	}
	p.dc.SetDashOffset(0)
}

// stroke sets gg's stroke colour, width and dashes for st, returning the
// width (0: no stroke) and dashes in device pixels, which is what gg uses.
func (p *PNG) stroke(st Style) (width float64, dash []float64) {
	sw := st.strokeWidth()
	if sw == 0 {
		return 0, nil
	}
	s := p.m.scale()
	dash = st.dash()
	for i := range dash {
		dash[i] *= s
	}
	// Nested scaled groups can multiply a width past what gg's 26.6
	// fixed-point stroker can hold.
	width = math.Min(sw*s, maxCoord)
	p.dc.SetColor(st.stroke())
	p.dc.SetLineWidth(width)
	p.dc.SetDash(dash...)
	return width, dash
}

// Polygon implements Canvas.
func (p *PNG) Polygon(pts []Point, st Style) {
	pts = cleanPoints(pts)
	if len(pts) < 2 {
		return
	}
	p.shape(p.device(pts), true, st)
}

// Polyline implements Canvas.
func (p *PNG) Polyline(pts []Point, st Style) {
	pts = cleanPoints(pts)
	if len(pts) < 2 {
		return
	}
	p.shape(p.device(pts), false, st)
}

// bigCircle is the device radius above which circles become polygons, so
// that they are clipped like any other shape.
const bigCircle = 2048

// Circle implements Canvas.
func (p *PNG) Circle(c Point, r float64, st Style) {
	if !finite(c.X) || !finite(c.Y) || !finite(r) || r <= 0 {
		return
	}
	d := p.m.apply(Point{clampCoord(c.X), clampCoord(c.Y)})
	r = math.Min(r*p.m.scale(), maxCoord)
	if r > bigCircle {
		// Chords within 0.1 px of the arc. Angles go clockwise from +x,
		// where SVG starts a circle's dash pattern.
		n := int(clamp(math.Ceil(math.Pi*math.Sqrt(r/0.2)), 64, 20000))
		pts := make([]Point, n)
		for i := range pts {
			sin, cos := math.Sincos(2 * math.Pi * float64(i) / float64(n))
			pts[i] = Point{d.X + r*cos, d.Y + r*sin}
		}
		p.shape(pts, true, st)
		return
	}
	p.dc.ClearPath()
	p.dc.DrawCircle(d.X, d.Y, r)
	if f := st.fill(); !f.IsNone() {
		p.dc.SetColor(f)
		p.dc.FillPreserve()
	}
	if sw, _ := p.stroke(st); sw > 0 {
		p.dc.StrokePreserve()
	}
	p.dc.ClearPath()
}

// Rect implements Canvas. It is drawn as a polygon so that it rotates
// with its Group.
func (p *PNG) Rect(x, y, w, h float64, st Style) {
	x, y, w, h, r, ok := normRect(x, y, w, h, st.Radius)
	if !ok {
		return
	}
	// Enough segments per corner that the arc looks round at this size.
	segs := int(clamp(math.Ceil(math.Sqrt(r*p.m.scale())*2), 2, 32))
	p.shape(p.device(roundRectPoints(x, y, w, h, r, segs)), true, st)
}

// Text implements Canvas.
func (p *PNG) Text(pt Point, s string, ts TextStyle) {
	s = cleanText(s)
	if s == "" || !finite(pt.X) || !finite(pt.Y) {
		return
	}
	px := clamp(ts.size()*p.m.scale(), 1, maxFontPx)
	face := p.face(ts.Bold, px)
	w := float64(font.MeasureString(face, s)) / 64
	x := -ts.anchorFactor() * w
	y := 0.0
	if ts.VAlign == Middle {
		y = middleShift * px
	}
	d := p.m.apply(Point{clampCoord(pt.X), clampCoord(pt.Y)})
	col := ts.color()
	if rot := p.m.rotate(); math.Abs(rot) > 1e-9 {
		// gg draws each glyph through its matrix; only rotation is left in
		// it because the face is already at device size.
		p.dc.SetFontFace(face)
		p.dc.SetColor(col)
		p.dc.Translate(d.X, d.Y)
		p.dc.Rotate(rot)
		p.dc.DrawString(s, x, y)
		p.dc.Identity()
		return
	}
	// Unrotated text goes straight to the image: crisper and much faster
	// than gg's per-glyph resampling.
	dr := font.Drawer{
		Dst:  p.img,
		Src:  image.NewUniform(col),
		Face: face,
		Dot:  fixed.Point26_6{X: fix(d.X + x), Y: fix(d.Y + y)},
	}
	dr.DrawString(s)
}

func fix(v float64) fixed.Int26_6 { return fixed.Int26_6(math.Round(v * 64)) }

// face returns this canvas's face for a size, creating it once. Faces are
// per canvas because truetype faces are not safe for concurrent use.
func (p *PNG) face(bold bool, px float64) font.Face {
	k := faceKey{bold, px}
	if f, ok := p.faces[k]; ok {
		return f
	}
	if len(p.faces) >= 64 {
		clear(p.faces) // many distinct sizes: don't grow without bound
	}
	f := newFace(bold, px)
	p.faces[k] = f
	return f
}

type faceKey struct {
	bold bool
	px   float64
}

// The Go fonts are parsed once per process; a parsed truetype.Font is
// read-only and can be shared.
var goFonts = sync.OnceValues(func() (regular, bold *truetype.Font) {
	// The embedded fonts always parse; on failure newFace falls back to a
	// bitmap font rather than failing every drawing.
	regular, _ = truetype.Parse(goregular.TTF)
	bold, _ = truetype.Parse(gobold.TTF)
	return regular, bold
})

func newFace(bold bool, px float64) font.Face {
	regular, b := goFonts()
	f := regular
	if bold {
		f = b
	}
	if f == nil {
		return basicfont.Face7x13
	}
	// At the default 72 DPI one point is one pixel.
	return truetype.NewFace(f, &truetype.Options{Size: px, Hinting: font.HintingNone})
}

// measure holds faces for MeasureText, shared between goroutines under mu.
var measure struct {
	mu    sync.Mutex
	faces map[faceKey]font.Face
}

// MeasureText returns the advance width in pixels of s drawn with ts, as
// the PNG backend draws it (with the Go fonts). Browsers draw SVG text with
// their own sans-serif, usually within a few percent of this; leave some
// slack when sizing boxes around labels.
func MeasureText(s string, ts TextStyle) float64 {
	s = cleanText(s)
	if s == "" {
		return 0
	}
	k := faceKey{ts.Bold, ts.size()}
	measure.mu.Lock()
	defer measure.mu.Unlock()
	if measure.faces == nil || len(measure.faces) >= 64 {
		measure.faces = map[faceKey]font.Face{}
	}
	f, ok := measure.faces[k]
	if !ok {
		f = newFace(k.bold, k.px)
		measure.faces[k] = f
	}
	return float64(font.MeasureString(f, s)) / 64
}

// Clip implements Canvas: draw draws on a layer of its own, which is then
// laid over this drawing through a mask of the rectangle. Laying a layer
// over gives the same pixels as drawing straight on (source-over composes),
// and the mask cuts text and circles as exactly as lines.
func (p *PNG) Clip(x, y, w, h float64, draw func(Canvas)) {
	if draw == nil {
		return
	}
	x, y, w, h, _, ok := normRect(x, y, w, h, 0)
	if !ok {
		return
	}
	dev := p.device([]Point{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}})
	b := p.img.Bounds()
	area := image.Rectangle{
		Min: image.Pt(int(math.Floor(min(dev[0].X, dev[1].X, dev[2].X, dev[3].X))), int(math.Floor(min(dev[0].Y, dev[1].Y, dev[2].Y, dev[3].Y)))),
		Max: image.Pt(int(math.Ceil(max(dev[0].X, dev[1].X, dev[2].X, dev[3].X))), int(math.Ceil(max(dev[0].Y, dev[1].Y, dev[2].Y, dev[3].Y)))),
	}.Intersect(b)
	if area.Empty() {
		return
	}
	// The layer reaches as far right and down as the clip: nothing beyond it shows.
	layer := image.NewRGBA(image.Rect(0, 0, area.Max.X, area.Max.Y))
	dc := gg.NewContextForRGBA(layer)
	dc.SetLineCapRound()
	dc.SetLineJoinRound()
	sub := &PNG{w: p.w, h: p.h, dc: dc, img: layer, m: p.m, faces: p.faces}
	draw(sub)

	over(p.img, layer, clipMask(dev, area), area)
}

// clipMask is the coverage (0 to 255) of each pixel of area by the device
// quadrilateral dev, row by row: exact for an upright rectangle, rasterised
// by gg for a turned one.
func clipMask(dev []Point, area image.Rectangle) []uint8 {
	w, h := area.Dx(), area.Dy()
	m := make([]uint8, w*h)
	if dev[0].Y == dev[1].Y && dev[1].X == dev[2].X || dev[0].X == dev[1].X && dev[1].Y == dev[2].Y {
		x0, x1 := min(dev[0].X, dev[2].X), max(dev[0].X, dev[2].X)
		y0, y1 := min(dev[0].Y, dev[2].Y), max(dev[0].Y, dev[2].Y)
		cover := func(a, lo, hi float64) float64 { return max(0, min(a+1, hi)-max(a, lo)) }
		cx := make([]float64, w)
		for i := range w {
			cx[i] = cover(float64(area.Min.X+i), x0, x1)
		}
		for j := range h {
			cy := cover(float64(area.Min.Y+j), y0, y1)
			for i := range w {
				m[j*w+i] = uint8(255*cy*cx[i] + 0.5)
			}
		}
		return m
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	dc := gg.NewContextForRGBA(img)
	for i, pt := range dev {
		if i == 0 {
			dc.MoveTo(pt.X-float64(area.Min.X), pt.Y-float64(area.Min.Y))
		} else {
			dc.LineTo(pt.X-float64(area.Min.X), pt.Y-float64(area.Min.Y))
		}
	}
	dc.ClosePath()
	dc.SetColor(Black)
	dc.Fill()
	for k := range m {
		m[k] = img.Pix[4*k+3]
	}
	return m
}

// over lays src over dst within area through mask (one byte a pixel of
// area), source-over on premultiplied pixels as image/draw does. Most of a
// layer is empty, and its empty pixels are skipped.
func over(dst, src *image.RGBA, mask []uint8, area image.Rectangle) {
	w := area.Dx()
	for j := 0; j < area.Dy(); j++ {
		y := area.Min.Y + j
		for i := range w {
			m := uint32(mask[j*w+i])
			if m == 0 {
				continue
			}
			x := area.Min.X + i
			si := src.PixOffset(x, y)
			sa := uint32(src.Pix[si+3])
			if sa == 0 {
				continue
			}
			di := dst.PixOffset(x, y)
			// In 0..255*255: the source through the mask, and what is left of dst.
			keep := 255*255 - sa*m
			for c := range 4 {
				v := (uint32(src.Pix[si+c])*m*255 + uint32(dst.Pix[di+c])*keep) / (255 * 255)
				dst.Pix[di+c] = uint8(min(v, 255))
			}
		}
	}
}
