package render

import (
	"bytes"
	"io"
	"math"
	"strconv"
	"strings"
)

// SVG is a Canvas that records an SVG 1.1 document. Output is
// deterministic: the same calls give the same bytes, which keeps golden
// files and caches stable.
type SVG struct {
	w, h  float64
	body  bytes.Buffer
	depth int // nesting of open <g> elements, for indentation
	clips int // clipPaths so far, for their ids
}

var _ Canvas = (*SVG)(nil)

// NewSVG returns an empty w×h pixel drawing. Non-finite or negative sizes
// become 0.
func NewSVG(w, h float64) *SVG {
	return &SVG{w: canvasSize(w), h: canvasSize(h)}
}

func canvasSize(v float64) float64 {
	if !finite(v) || v < 0 {
		return 0
	}
	return math.Min(v, maxCoord)
}

// Size implements Canvas.
func (s *SVG) Size() (w, h float64) { return s.w, s.h }

// Bytes returns the complete document.
func (s *SVG) Bytes() []byte {
	var b bytes.Buffer
	w, h := num(s.w), num(s.h)
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	// Round caps and joins are set once here because the PNG backend always
	// uses them; xml:space keeps runs of spaces in labels like the PNG does.
	b.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="` + w +
		`" height="` + h + `" viewBox="0 0 ` + w + ` ` + h +
		`" font-family="sans-serif" stroke-linecap="round" stroke-linejoin="round" xml:space="preserve">` + "\n")
	b.Write(s.body.Bytes())
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// WriteTo writes the complete document to w; it implements io.WriterTo.
func (s *SVG) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(s.Bytes())
	return int64(n), err
}

func (s *SVG) open(tag string) {
	s.body.WriteString(strings.Repeat("  ", s.depth+1))
	s.body.WriteString("<" + tag)
}

func (s *SVG) attr(name, val string) {
	s.body.WriteString(" " + name + `="` + val + `"`)
}

func (s *SVG) points(pts []Point) {
	s.body.WriteString(` points="`)
	for i, p := range pts {
		if i > 0 {
			s.body.WriteByte(' ')
		}
		s.body.WriteString(num(p.X) + "," + num(p.Y))
	}
	s.body.WriteByte('"')
}

// style writes paint attributes. fill is false for open lines.
func (s *SVG) style(st Style, fill bool) {
	if f := st.fill(); fill && !f.IsNone() {
		s.attr("fill", rgbHex(f))
		if f.A < 255 {
			s.attr("fill-opacity", alpha(f.A))
		}
	} else {
		s.attr("fill", "none")
	}
	sw := st.strokeWidth()
	if sw == 0 {
		return
	}
	c := st.stroke()
	s.attr("stroke", rgbHex(c))
	if c.A < 255 {
		s.attr("stroke-opacity", alpha(c.A))
	}
	if sw != 1 {
		s.attr("stroke-width", num(sw))
	}
	if d := st.dash(); d != nil {
		parts := make([]string, len(d))
		for i, v := range d {
			parts[i] = num(v)
		}
		s.attr("stroke-dasharray", strings.Join(parts, ","))
	}
	if st.FlatEnds {
		s.attr("stroke-linecap", "butt")
	}
}

func (s *SVG) end() { s.body.WriteString("/>\n") }

// Polygon implements Canvas.
func (s *SVG) Polygon(pts []Point, st Style) {
	pts = cleanPoints(pts)
	if len(pts) < 2 {
		return
	}
	s.open("polygon")
	s.points(pts)
	s.style(st, true)
	s.end()
}

// Polyline implements Canvas.
func (s *SVG) Polyline(pts []Point, st Style) {
	pts = cleanPoints(pts)
	if len(pts) < 2 || st.strokeWidth() == 0 {
		return
	}
	s.open("polyline")
	s.points(pts)
	s.style(st, false)
	s.end()
}

// Circle implements Canvas.
func (s *SVG) Circle(c Point, r float64, st Style) {
	if !finite(c.X) || !finite(c.Y) || !finite(r) || r <= 0 {
		return
	}
	s.open("circle")
	s.attr("cx", num(clampCoord(c.X)))
	s.attr("cy", num(clampCoord(c.Y)))
	s.attr("r", num(math.Min(r, maxCoord)))
	s.style(st, true)
	s.end()
}

// Rect implements Canvas.
func (s *SVG) Rect(x, y, w, h float64, st Style) {
	x, y, w, h, r, ok := normRect(x, y, w, h, st.Radius)
	if !ok {
		return
	}
	s.open("rect")
	s.attr("x", num(x))
	s.attr("y", num(y))
	s.attr("width", num(w))
	s.attr("height", num(h))
	if r > 0 {
		s.attr("rx", num(r))
		s.attr("ry", num(r))
	}
	s.style(st, true)
	s.end()
}

// Text implements Canvas.
func (s *SVG) Text(p Point, str string, ts TextStyle) {
	str = cleanText(str)
	if str == "" || !finite(p.X) || !finite(p.Y) {
		return
	}
	s.open("text")
	s.attr("x", num(clampCoord(p.X)))
	s.attr("y", num(clampCoord(p.Y)))
	if ts.VAlign == Middle {
		s.attr("dy", num(middleShift)+"em")
	}
	s.attr("font-size", num(ts.size()))
	if ts.Bold {
		s.attr("font-weight", "bold")
	}
	switch ts.Anchor {
	case AnchorMiddle:
		s.attr("text-anchor", "middle")
	case AnchorEnd:
		s.attr("text-anchor", "end")
	}
	c := ts.color()
	s.attr("fill", rgbHex(c))
	if c.A < 255 {
		s.attr("fill-opacity", alpha(c.A))
	}
	s.body.WriteByte('>')
	xmlEscape(&s.body, str)
	s.body.WriteString("</text>\n")
}

// Group implements Canvas.
func (s *SVG) Group(t Transform, draw func(Canvas)) {
	if draw == nil {
		return
	}
	t = t.norm()
	var parts []string
	if t.X != 0 || t.Y != 0 {
		parts = append(parts, "translate("+num(t.X)+","+num(t.Y)+")")
	}
	if r := num(t.Rotate); r != "0" {
		parts = append(parts, "rotate("+r+")")
	}
	if sc := num(t.Scale); sc != "1" {
		parts = append(parts, "scale("+sc+")")
	}
	if len(parts) == 0 {
		draw(s)
		return
	}
	s.group("transform", strings.Join(parts, " "), draw)
}

// group draws draw inside a <g> with one attribute. It closes the group even
// if draw panics, so a recovered caller still gets a well-formed document.
func (s *SVG) group(attr, val string, draw func(Canvas)) {
	s.open("g")
	s.attr(attr, val)
	s.body.WriteString(">\n")
	s.depth++
	defer func() {
		s.depth--
		s.body.WriteString(strings.Repeat("  ", s.depth+1) + "</g>\n")
	}()
	draw(s)
}

// num formats v compactly with at most two decimals and never "-0".
func num(v float64) string {
	if !finite(v) {
		return "0"
	}
	r := math.Round(v*100) / 100
	if r == 0 {
		r = 0 // turns -0 into 0
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// rgbHex is "#rrggbb": SVG 1.1 has no alpha in colours, it goes in a
// separate *-opacity attribute.
func rgbHex(c Color) string { return c.WithAlpha(255).Hex() }

func alpha(a uint8) string {
	return strconv.FormatFloat(math.Round(float64(a)/255*1000)/1000, 'f', -1, 64)
}

// xmlEscape writes s escaped for use in both text and attribute values.
func xmlEscape(b *bytes.Buffer, s string) {
	for _, r := range s {
		switch r {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&apos;")
		default:
			b.WriteRune(r)
		}
	}
}

// Clip implements Canvas with a clipPath. Ids are numbered per drawing, so
// the same calls give the same bytes.
func (s *SVG) Clip(x, y, w, h float64, draw func(Canvas)) {
	if draw == nil {
		return
	}
	x, y, w, h, _, ok := normRect(x, y, w, h, 0)
	if !ok {
		return // an empty rectangle shows nothing
	}
	s.clips++
	id := "clip" + strconv.Itoa(s.clips)
	s.open("clipPath")
	s.attr("id", id)
	s.body.WriteString(">")
	s.body.WriteString(`<rect x="` + num(x) + `" y="` + num(y) + `" width="` + num(w) + `" height="` + num(h) + `"/>`)
	s.body.WriteString("</clipPath>\n")
	s.group("clip-path", "url(#"+id+")", draw)
}
