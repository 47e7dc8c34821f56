package ludi

import (
	"fmt"
	"math"
	"strings"

	"pitwall/render"
)

// Drawing sizes, in pixels.
const (
	laneW    = 26.0 // width of a lane
	cellL    = 38.0 // length of a space on a straight
	spinaGap = 70.0 // radius of the inside of lane 1 round a meta
	margin   = 30.0
	titleH   = 56.0
	rowH     = 24.0
	boardW   = 1240.0
)

// geometry is where every space of a track lies on the picture.
type geometry struct {
	cells map[Pos]cellShape
	inner []render.Point // the spina's edge: the inside of lane 1, all round
	outer []render.Point // the outer wall
	w, h  float64
}

type cellShape struct {
	poly    []render.Point
	centre  render.Point
	heading float64 // degrees, as render.Transform.Rotate takes it
}

// layout walks the track like a turtle: straights run on, each corner turns
// left by its share of a full turn around a centre on the spina side.
func layout(t *Track) *geometry {
	g := &geometry{cells: map[Pos]cellShape{}}
	nCorners := 0
	for _, s := range t.Segments {
		if s.Corner {
			nCorners++
		}
	}
	turn := 2 * math.Pi / float64(nCorners)
	p := render.Point{} // on the inside edge of lane 1
	h := 0.0            // heading angle, radians, screen coordinates (y down)
	at := func(base render.Point, ang, along, out float64) render.Point {
		// along the heading ang, then 'out' to the right of it (outward from the spina)
		return render.Point{X: base.X + along*math.Cos(ang) - out*math.Sin(ang), Y: base.Y + along*math.Sin(ang) + out*math.Cos(ang)}
	}
	for si, s := range t.Segments {
		if !s.Corner {
			n := float64(t.Spaces(si, 1))
			for l := 1; l <= t.Lanes; l++ {
				for c := 0; c < int(n); c++ {
					a0, a1 := float64(c)*cellL, float64(c+1)*cellL
					o0, o1 := float64(l-1)*laneW, float64(l)*laneW
					poly := []render.Point{at(p, h, a0, o0), at(p, h, a1, o0), at(p, h, a1, o1), at(p, h, a0, o1)}
					g.cells[Pos{l, si, c}] = cellShape{poly: poly, centre: at(p, h, (a0+a1)/2, (o0+o1)/2), heading: h * 180 / math.Pi}
				}
			}
			g.inner = append(g.inner, p)
			g.outer = append(g.outer, at(p, h, 0, float64(t.Lanes)*laneW))
			p = at(p, h, n*cellL, 0)
			continue
		}
		// The centre is to the left of the heading, spinaGap away.
		c := render.Point{X: p.X + spinaGap*math.Sin(h), Y: p.Y - spinaGap*math.Cos(h)}
		phi0 := math.Atan2(p.Y-c.Y, p.X-c.X)
		arc := func(r, t0, t1 float64) []render.Point {
			var pts []render.Point
			steps := 6
			for i := 0; i <= steps; i++ {
				a := phi0 - (t0+(t1-t0)*float64(i)/float64(steps))*turn
				pts = append(pts, render.Point{X: c.X + r*math.Cos(a), Y: c.Y + r*math.Sin(a)})
			}
			return pts
		}
		for l := 1; l <= t.Lanes; l++ {
			n := t.Spaces(si, l)
			r0, r1 := spinaGap+float64(l-1)*laneW, spinaGap+float64(l)*laneW
			for k := 0; k < n; k++ {
				t0, t1 := float64(k)/float64(n), float64(k+1)/float64(n)
				in, out := arc(r0, t0, t1), arc(r1, t0, t1)
				poly := append([]render.Point(nil), in...)
				for i := len(out) - 1; i >= 0; i-- {
					poly = append(poly, out[i])
				}
				tm := (t0 + t1) / 2
				a := phi0 - tm*turn
				rm := (r0 + r1) / 2
				g.cells[Pos{l, si, k}] = cellShape{poly: poly, centre: render.Point{X: c.X + rm*math.Cos(a), Y: c.Y + rm*math.Sin(a)},
					heading: (h - tm*turn) * 180 / math.Pi}
			}
		}
		g.inner = append(g.inner, arc(spinaGap, 0, 1)...)
		g.outer = append(g.outer, arc(spinaGap+float64(t.Lanes)*laneW, 0, 1)...)
		a := phi0 - turn
		p = render.Point{X: c.X + spinaGap*math.Cos(a), Y: c.Y + spinaGap*math.Sin(a)}
		h -= turn
	}
	// Place the track inside the margins.
	minX, minY, maxX, maxY := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, pt := range g.outer {
		minX, minY = math.Min(minX, pt.X), math.Min(minY, pt.Y)
		maxX, maxY = math.Max(maxX, pt.X), math.Max(maxY, pt.Y)
	}
	for _, cs := range g.cells {
		for _, pt := range cs.poly {
			minX, minY = math.Min(minX, pt.X), math.Min(minY, pt.Y)
			maxX, maxY = math.Max(maxX, pt.X), math.Max(maxY, pt.Y)
		}
	}
	dx, dy := margin-minX, titleH+margin-minY
	move := func(pt render.Point) render.Point { return render.Point{X: pt.X + dx, Y: pt.Y + dy} }
	for k, cs := range g.cells {
		for i := range cs.poly {
			cs.poly[i] = move(cs.poly[i])
		}
		cs.centre = move(cs.centre)
		g.cells[k] = cs
	}
	for i := range g.inner {
		g.inner[i] = move(g.inner[i])
	}
	for i := range g.outer {
		g.outer[i] = move(g.outer[i])
	}
	g.w, g.h = maxX-minX+2*margin, maxY-minY+2*margin+titleH
	return g
}

// Colours: sand for the track, the four factiones first for the chariots.
var (
	sand       = render.RGB(0xe9, 0xd8, 0xb4)
	sandDark   = render.RGB(0xdc, 0xc6, 0x9a)
	cornerTint = render.RGB(0xe8, 0xb8, 0x90)
	stone      = render.RGB(0xb9, 0xb0, 0xa0)
	wallCol    = render.RGB(0x7a, 0x5c, 0x3a)
	ink        = render.RGB(0x2b, 0x22, 0x18)
	grey       = render.RGB(0x80, 0x80, 0x80)
	wreckInk   = render.RGB(0x3c, 0x3c, 0x3c) // the cross on a wreck
	paper      = render.RGB(0xfb, 0xf7, 0xee)
	teamCols   = []render.Color{
		render.RGB(0x1f, 0x8a, 0x3b), // prasina, green
		render.RGB(0xf4, 0xf4, 0xf0), // albata, white
		render.RGB(0xc8, 0x1e, 0x1e), // russata, red
		render.RGB(0x1e, 0x4f, 0xc8), // veneta, blue
		render.RGB(0xe0, 0xa8, 0x10), render.RGB(0x7b, 0x2f, 0xa8), render.RGB(0x10, 0xa0, 0xa8),
		render.RGB(0xe0, 0x60, 0x10), render.RGB(0x60, 0x40, 0x20), render.RGB(0xd0, 0x50, 0x90),
		render.RGB(0x50, 0x60, 0x70), render.RGB(0x90, 0xb0, 0x20),
	}
)

// Colour is the colour of a seat's chariot.
func Colour(seat int) render.Color { return teamCols[seat%len(teamCols)] }

// Picture is the size of the picture of s.
func (s *State) Picture() (w, h float64) {
	g := s.geometry()
	// Whole pixels, so the background covers every pixel and the PNG is opaque.
	return math.Ceil(math.Max(g.w, boardW)), math.Ceil(g.h + boardHeight(s))
}

func boardHeight(s *State) float64 { return rowH*float64(len(s.Chariots)+1) + 2*margin }

func (s *State) geometry() *geometry {
	s.track.geoOnce.Do(func() { s.track.geo = layout(s.track) })
	return s.track.geo
}

// DrawTrack draws what is the same in every turn of a race on this track:
// the arena, the lanes and corner zones, the spina, the line.
func (s *State) Background(cv render.Canvas) {
	g := s.geometry()
	t := s.track
	W, H := cv.Size()
	cv.Rect(0, 0, W, H, render.Style{Fill: paper})

	// The outer wall, the track, the spina.
	cv.Polygon(g.outer, render.Style{Fill: sand, Stroke: wallCol, StrokeWidth: 6})
	for l := 1; l <= t.Lanes; l++ { // in a fixed order, so the SVG is the same every time
		for seg := range t.Segments {
			for cell := 0; cell < t.Spaces(seg, l); cell++ {
				pos := Pos{l, seg, cell}
				fill := sand
				if (pos.Lane+pos.Cell)%2 == 0 {
					fill = sandDark
				}
				if t.Segments[seg].Corner {
					fill = cornerTint
					if (pos.Lane+pos.Cell)%2 == 0 {
						fill = render.RGB(0xdd, 0xa8, 0x7e)
					}
				}
				cv.Polygon(g.cells[pos].poly, render.Style{Fill: fill, Stroke: render.RGB(0xc4, 0xad, 0x84), StrokeWidth: 0.6})
			}
		}
	}
	cv.Polygon(g.inner, render.Style{Fill: stone, Stroke: wallCol, StrokeWidth: 4})
	s.drawSpina(cv, g)

	// The line: a chequered band across every lane at the start of segment 0.
	for l := 1; l <= t.Lanes; l++ {
		cs := g.cells[Pos{l, 0, 0}]
		a, d := cs.poly[0], cs.poly[3]
		for i := 0; i < 4; i++ {
			f0, f1 := float64(i)/4, float64(i+1)/4
			p0 := render.Pt(a.X+(d.X-a.X)*f0, a.Y+(d.Y-a.Y)*f0)
			p1 := render.Pt(a.X+(d.X-a.X)*f1, a.Y+(d.Y-a.Y)*f1)
			col := render.RGB(0xff, 0xff, 0xff)
			if (i+l)%2 == 0 {
				col = ink
			}
			cv.Polygon([]render.Point{p0, p1, render.Pt(p1.X+6, p1.Y), render.Pt(p0.X+6, p0.Y)}, render.Style{Fill: col})
		}
		cv.Text(render.Pt(a.X-10, (a.Y+d.Y)/2), fmt.Sprint(l), render.TextStyle{Size: 11, Color: ink, Anchor: render.AnchorEnd, VAlign: render.Middle})
	}
	s.drawBoardFrame(cv, g.h)
}

// DrawRace draws a turn on top of the track: the title, every chariot, this
// turn's trails and the status board.
func (s *State) Draw(cv render.Canvas, title string) {
	g := s.geometry()
	t := s.track
	W, _ := cv.Size()
	cv.Text(render.Pt(margin, 36), title, render.TextStyle{Size: 22, Bold: true, Color: ink})
	cv.Text(render.Pt(W-margin, 36), fmt.Sprintf("%s, %d laps", t.Name, s.Laps), render.TextStyle{Size: 15, Color: ink, Anchor: render.AnchorEnd})
	if len(s.Finish) > 0 {
		// The winner's name on the spina, on the right of the obelisk.
		var xs, ys float64
		for _, p := range g.inner {
			xs += p.X
			ys += p.Y
		}
		n := float64(len(g.inner))
		w := s.chariot(s.Finish[0])
		cv.Rect(xs/n+40, ys/n-22, 250, 40, render.Style{Fill: paper, Stroke: Colour(w.Seat), StrokeWidth: 3, Radius: 6})
		cv.Text(render.Pt(xs/n+165, ys/n-5), "VICTOR", render.TextStyle{Size: 11, Bold: true, Color: wallCol, Anchor: render.AnchorMiddle})
		cv.Text(render.Pt(xs/n+165, ys/n+11), w.Name, render.TextStyle{Size: 14, Bold: true, Color: ink, Anchor: render.AnchorMiddle})
	}

	// Trails under the chariots, then the chariots.
	centre := func(p Pos) render.Point { return g.cells[p].centre }
	for i := range s.Chariots {
		c := &s.Chariots[i]
		render.Trail(cv, c.Trail, centre, render.Style{Stroke: Colour(c.Seat), StrokeWidth: 3, Dash: []float64{6, 4}, Opacity: 0.85, FlatEnds: true},
			3, render.Style{Fill: Colour(c.Seat), Stroke: ink, StrokeWidth: 0.5})
	}
	for i := range s.Chariots {
		c := &s.Chariots[i]
		if !c.OnTrack() {
			continue
		}
		cs := g.cells[c.Pos]
		drawChariot(cv, cs, c)
	}
	s.drawBoard(cv, g.h)
}

// drawSpina decorates the spina: the two metae at the corners' centres, and
// the obelisk in the middle.
func (s *State) drawSpina(cv render.Canvas, g *geometry) {
	var xs, ys float64
	for _, p := range g.inner {
		xs += p.X
		ys += p.Y
	}
	n := float64(len(g.inner))
	mid := render.Pt(xs/n, ys/n)
	cv.Rect(mid.X-6, mid.Y-22, 12, 44, render.Style{Fill: render.RGB(0xd8, 0xcf, 0xb8), Stroke: wallCol, StrokeWidth: 1.5})
	cv.Text(render.Pt(mid.X, mid.Y+40), "SPINA", render.TextStyle{Size: 12, Bold: true, Color: wallCol, Anchor: render.AnchorMiddle})
	legend := []string{
		"The race runs anticlockwise: lane 1 hugs the spina.",
		"Shaded ends are corner zones (a cornering check).",
		"Dashes: each chariot's moves this turn.",
		"Grey, crossed out: a wreck.",
	}
	ts := render.TextStyle{Size: 11, Color: wallCol, Anchor: render.AnchorEnd}
	for i, l := range legend {
		cv.Text(render.Pt(mid.X-40, mid.Y-20+float64(i)*15), l, ts)
	}
	// The wreck's sample, before its line.
	y := mid.Y - 20 + float64(len(legend)-1)*15 - 4
	cv.Group(render.Transform{X: mid.X - 40 - render.MeasureText(legend[len(legend)-1], ts) - 14, Y: y, Scale: 0.75}, drawWreck)
	for si, seg := range s.track.Segments {
		if !seg.Corner {
			continue
		}
		// The meta stands where the corner's inner arc is centred.
		a := g.cells[Pos{1, si, 0}].poly[0]
		b := g.cells[Pos{1, si, s.track.Spaces(si, 1) - 1}]
		e := b.poly[len(b.poly)/2-1]
		c := render.Pt((a.X+e.X)/2, (a.Y+e.Y)/2)
		for k := 0; k < 3; k++ {
			cv.Circle(render.Pt(c.X, c.Y-12+float64(k)*12), 5, render.Style{Fill: render.RGB(0xc9, 0xa2, 0x3c), Stroke: wallCol, StrokeWidth: 1})
		}
		cv.Text(render.Pt(c.X, c.Y+28), strings.ToUpper(seg.Name), render.TextStyle{Size: 11, Color: wallCol, Anchor: render.AnchorMiddle})
	}
}

// drawChariot draws a chariot with its four horses ahead, pointing along the lane.
func drawChariot(cv render.Canvas, cs cellShape, c *Chariot) {
	col := Colour(c.Seat)
	cv.Group(render.At(cs.centre, cs.heading), func(cv render.Canvas) {
		if c.Flipped || !c.Active() {
			drawWreck(cv)
			return
		}
		for i := 0; i < 4; i++ {
			y := -7.5 + float64(i)*5
			cv.Rect(2, y-1.8, 14, 3.6, render.Style{Fill: render.RGB(0x6b, 0x43, 0x22), Radius: 1.5})
		}
		cv.Rect(-15, -8, 13, 16, render.Style{Fill: col, Stroke: ink, StrokeWidth: 1.2, Radius: 3})
	})
	label := fmt.Sprint(c.Seat + 1)
	cv.Circle(cs.centre, 8, render.Style{Fill: render.RGB(0xff, 0xff, 0xff), Stroke: ink, StrokeWidth: 1, Opacity: 0.9})
	cv.Text(cs.centre, label, render.TextStyle{Size: 11, Bold: true, Color: ink, Anchor: render.AnchorMiddle, VAlign: render.Middle})
}

// drawWreck draws a wreck round the origin: the chariot on its side, grey
// and crossed out, no horses and none of its colour (its number, drawn over
// it, says whose it was). The spina's legend shows the same.
func drawWreck(cv render.Canvas) {
	cv.Rect(-12, -8, 20, 16, render.Style{Fill: grey, Stroke: ink, StrokeWidth: 1, Radius: 2})
	for _, y := range []float64{-8, 8} {
		cv.Polyline([]render.Point{render.Pt(-12, y), render.Pt(8, -y)}, render.Style{Stroke: wreckInk, StrokeWidth: 2.5})
	}
}

// Board is the status board: one row per chariot, in race order.
func (s *State) Board() (header []string, rows [][]string) {
	header = []string{"#", "Auriga", "Player", "Package", "Speed", "Lap", "Damage L/R", "Endurance", "Pace loss", "Status", "Orders"}
	for _, st := range (Ruleset{}).Standings(s) {
		c := s.chariot(st.Seat)
		lap := fmt.Sprintf("%d/%d", min(c.Lap+1, s.Laps), s.Laps)
		status := "racing"
		switch {
		case c.Out == Finished:
			status, lap = fmt.Sprintf("finished %d", st.Place), "-"
		case c.Out != Racing:
			status = "out: " + c.Out
		case c.Flipped:
			status = "flipped"
		case c.Stunned > 0:
			status = fmt.Sprintf("stunned (%d)", c.Stunned)
		}
		if c.Injured > 0 {
			status += ", auriga hurt"
		}
		level := c.Level.String()
		if c.Out != Racing {
			level = "-"
		}
		rows = append(rows, []string{fmt.Sprint(st.Place), fmt.Sprintf("%d %s", c.Seat+1, c.Name), c.Player, c.Package, level, lap,
			fmt.Sprintf("%d/%d", c.DamageL, c.DamageR), fmt.Sprintf("%d/%d", c.Endurance, c.Team.Endurance),
			paceLoss(c, s.Rules), status, c.Orders})
	}
	return header, rows
}

// paceLoss is the spaces a chariot loses every move to lasting damage and,
// with the endurance-pace option 'cap', what tired horses take off the speed
// die's top face ("-1, top -1").
func paceLoss(c *Chariot, rules Rules) string {
	var parts []string
	if p := penalty(c, rules); p > 0 {
		parts = append(parts, fmt.Sprintf("-%d", p))
	}
	if lost := c.enduranceSpent(); rules.enduranceCaps() && lost > 0 {
		parts = append(parts, fmt.Sprintf("top -%d", lost))
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, ", ")
}

// BackgroundKey implements host.Presenter: the track fixes the background.
func (s *State) BackgroundKey() string { return s.TrackID }

var boardCols = []float64{0, 30, 180, 290, 380, 440, 490, 600, 690, 775, 925}

// drawBoardFrame draws the board's panel and header, the same every turn.
func (s *State) drawBoardFrame(cv render.Canvas, top float64) {
	header, _ := s.Board()
	y := top + margin
	cv.Rect(margin-8, y-18, boardW-2*margin+16, rowH*float64(len(s.Chariots)+1)+12, render.Style{Fill: render.RGB(0xf2, 0xea, 0xd8), Stroke: wallCol, StrokeWidth: 1, Radius: 6})
	for i, h := range header {
		cv.Text(render.Pt(margin+boardCols[i], y), h, render.TextStyle{Size: 13, Bold: true, Color: ink})
	}
}

func (s *State) drawBoard(cv render.Canvas, top float64) {
	_, rows := s.Board()
	y := top + margin
	x0 := margin
	for _, row := range rows {
		y += rowH
		seat := -1
		fmt.Sscanf(row[1], "%d", &seat)
		if seat > 0 {
			cv.Rect(x0+boardCols[1]-2, y-11, 12, 12, render.Style{Fill: Colour(seat - 1), Stroke: ink, StrokeWidth: 0.8, Radius: 2})
		}
		col := ink
		if strings.HasPrefix(row[9], "out") {
			col = grey
		}
		// Only the last cell (what befell the chariot) is long enough to clip.
		row[len(row)-1] = render.Clip(row[len(row)-1], 42)
		render.BoardRow(cv, x0, y, boardCols, 16, row, 0, render.TextStyle{Size: 12.5, Color: col})
	}
}

// GridNote implements host.Presenter: the grid is drawn by lot (Setup).
func (s *State) GridNote() string {
	return fmt.Sprintf("%d racers line up, grid places drawn by lot.", len(s.Seats()))
}

// TrackName implements host.Presenter: every race runs on a shipped track.
func (s *State) TrackName() string { return "" }
