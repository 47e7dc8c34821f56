package nascar

import (
	"fmt"
	"math"

	"pitwall/render"
)

// The picture: the track's squares with their coordinates on the edges,
// this turn's oil, the sandbags hit, every car's moves and the cars, a
// legend of every mark drawn, and the status board underneath. Sizes are in
// pixels; no text is under 11 px, so the PNG reads at its own size.
const (
	maxCell   = 22.0 // a square, on the shipped tracks
	padX      = 38.0 // left and right of the map: the y coordinates
	titleH    = 50.0
	axisH     = 20.0 // above and below the map: the x coordinates
	legendRow = 28.0
	legendGap = 22.0 // between entries on a row
	rowH      = 22.0
	boardW    = 980.0
	boardGap  = 44.0 // from the legend's last row to the board's header
	axisEvery = 5    // a coordinate every so many squares
)

var (
	grass    = render.RGB(0x6f, 0xa8, 0x4c)
	grassAlt = render.RGB(0x69, 0xa1, 0x47)
	asphalt  = render.RGB(0x5b, 0x5e, 0x63)
	asphaltL = render.RGB(0x64, 0x67, 0x6c)
	pitCol   = render.RGB(0x3a, 0x3d, 0x42)
	markCol  = render.RGB(0xf2, 0xc2, 0x1d)
	ppCol    = render.RGB(0x2a, 0x6f, 0xd6)
	oilCol   = render.RGB(0x10, 0x10, 0x14)
	oilSheen = render.RGB(0x7a, 0x5c, 0xc8)
	bagCol   = render.RGB(0xd9, 0xb3, 0x78)
	glassCol = render.RGB(0x9c, 0xc9, 0xf0)
	ink      = render.RGB(0x1c, 0x1f, 0x24)
	paper    = render.RGB(0xf6, 0xf6, 0xf3)
	white    = render.RGB(0xff, 0xff, 0xff)
	carCols  = []render.Color{
		render.RGB(0xe6, 0x39, 0x2e), render.RGB(0xf5, 0xd0, 0x2a), render.RGB(0x2f, 0x80, 0xed), render.RGB(0xff, 0xff, 0xff),
		render.RGB(0xf2, 0x8c, 0x28), render.RGB(0x9b, 0x51, 0xe0), render.RGB(0x27, 0xae, 0x60), render.RGB(0xeb, 0x57, 0xa8),
		render.RGB(0x11, 0x11, 0x11), render.RGB(0x56, 0xcc, 0xf2), render.RGB(0x8d, 0x6e, 0x63), render.RGB(0xb8, 0xe9, 0x86),
	}
)

// Colour is a seat's car colour.
func Colour(seat int) render.Color { return carCols[seat%len(carCols)] }

// cell is the size of a square: 22 px, less on a map too wide for a picture.
func (t *Track) cell() float64 { return math.Min(maxCell, math.Max(8, 1400/float64(t.W))) }

// mapRect is the map's place in the picture.
func (t *Track) mapRect() (x, y, w, h float64) {
	return padX, titleH + axisH, float64(t.W) * t.cell(), float64(t.H) * t.cell()
}

func (t *Track) px(p Point) render.Point {
	x0, y0, _, _ := t.mapRect()
	c := t.cell()
	return render.Pt(x0+(float64(p.X)+0.5)*c, y0+(float64(t.H-1-p.Y)+0.5)*c)
}

// width is the picture's width.
func (t *Track) width() float64 {
	_, _, w, _ := t.mapRect()
	return math.Ceil(math.Max(2*padX+w, boardW))
}

// legendTop is where the legend's first row is centred.
func (t *Track) legendTop() float64 {
	_, y, _, h := t.mapRect()
	return y + h + axisH + legendRow/2 + 4
}

// boardTop is the baseline of the board's header: under every legend row
// the track could need, so that the board's frame stays in the background.
func (s *State) boardTop() float64 {
	return s.track.legendTop() + legendRow*float64(len(s.layoutLegend(s.track.legend(true)))-1) + boardGap
}

// Picture is the size of the picture of s.
func (s *State) Picture() (w, h float64) {
	return s.track.width(), math.Ceil(s.boardTop() + rowH*float64(len(s.Cars)) + 26)
}

// Background draws what every turn shares: grass, track, pit lane,
// markers, the PP mark, the line, the grid slots, the coordinates and the
// board's frame. Sandbags are not drawn: they are hidden.
func (s *State) Background(cv render.Canvas) {
	t := s.track
	c := t.cell()
	W, H := cv.Size()
	cv.Rect(0, 0, W, H, render.Style{Fill: paper})
	for y := 0; y < t.H; y++ {
		for x := 0; x < t.W; x++ {
			p := Point{x, y}
			drawSquare(cv, t.px(p), c, t.At(p), (x+y)%2 == 0)
		}
	}
	for i, g := range t.Grid {
		drawSlot(cv, t.px(g), c, i+1)
	}
	s.drawAxes(cv)
	top := s.boardTop()
	cv.Rect(padX-12, top-20, W-2*padX+24, rowH*float64(len(s.Cars)+1)+14, render.Style{Fill: render.RGB(0xea, 0xec, 0xef), Stroke: ink, StrokeWidth: 0.8, Radius: 5})
	header, _ := s.Board()
	for i, h := range header {
		cv.Text(render.Pt(padX+boardCols[i], top), h, render.TextStyle{Size: 12, Bold: true, Color: ink})
	}
}

// drawSquare draws one square of the map, centred on p.
func drawSquare(cv render.Canvas, p render.Point, c float64, q Square, alt bool) {
	x0, y0 := p.X-c/2, p.Y-c/2
	fill := grass
	if alt {
		fill = grassAlt
	}
	switch {
	case q.InPit():
		fill = pitCol
	case q.OnTrack():
		fill = asphalt
		if alt {
			fill = asphaltL
		}
	}
	cv.Rect(x0, y0, c, c, render.Style{Fill: fill})
	switch q {
	case PPMark:
		cv.Rect(x0+1, y0+2, c-2, c-4, render.Style{Fill: ppCol, Radius: 2})
		cv.Text(p, "PP", render.TextStyle{Size: 11, Bold: true, Color: white, Anchor: render.AnchorMiddle, VAlign: render.Middle})
	case Marker:
		cv.Rect(x0+1, y0+1, c-2, c-2, render.Style{Fill: markCol, Radius: 2})
		cv.Text(p, "#", render.TextStyle{Size: 14, Bold: true, Color: ink, Anchor: render.AnchorMiddle, VAlign: render.Middle})
	case Finish:
		for i := 0; i < 4; i++ {
			for j := 0; j < 4; j++ {
				col := white
				if (i+j)%2 == 0 {
					col = ink
				}
				cv.Rect(x0+float64(i)*c/4, y0+float64(j)*c/4, c/4, c/4, render.Style{Fill: col})
			}
		}
	}
}

// drawSlot outlines a grid slot and numbers it in starting order.
func drawSlot(cv render.Canvas, p render.Point, c float64, n int) {
	cv.Rect(p.X-c/2+1.5, p.Y-c/2+1.5, c-3, c-3, render.Style{Stroke: white, StrokeWidth: 1, Opacity: 0.7, Radius: 2})
	cv.Text(p, fmt.Sprint(n), render.TextStyle{Size: 11, Color: render.RGB(0xd8, 0xda, 0xdd), Anchor: render.AnchorMiddle, VAlign: render.Middle})
}

// drawAxes numbers every fifth column along the top and bottom of the map
// and every fifth row up both sides, with a tick on the edge: the squares a
// turn's story names, as (x,y), can be found.
func (s *State) drawAxes(cv render.Canvas) {
	t := s.track
	x0, y0, w, h := t.mapRect()
	ts := render.TextStyle{Size: 11, Color: ink, Anchor: render.AnchorMiddle, VAlign: render.Middle}
	tick := render.Style{Stroke: ink, StrokeWidth: 1, FlatEnds: true}
	for x := 0; x < t.W; x += axisEvery {
		cx := t.px(Point{x, 0}).X
		cv.Polyline([]render.Point{render.Pt(cx, y0-4), render.Pt(cx, y0)}, tick)
		cv.Polyline([]render.Point{render.Pt(cx, y0+h), render.Pt(cx, y0+h+4)}, tick)
		cv.Text(render.Pt(cx, y0-axisH/2-1), fmt.Sprint(x), ts)
		cv.Text(render.Pt(cx, y0+h+axisH/2+1), fmt.Sprint(x), ts)
	}
	for y := 0; y < t.H; y += axisEvery {
		cy := t.px(Point{0, y}).Y
		cv.Polyline([]render.Point{render.Pt(x0-4, cy), render.Pt(x0, cy)}, tick)
		cv.Polyline([]render.Point{render.Pt(x0+w, cy), render.Pt(x0+w+4, cy)}, tick)
		ts.Anchor = render.AnchorEnd
		cv.Text(render.Pt(x0-7, cy), fmt.Sprint(y), ts)
		ts.Anchor = render.AnchorStart
		cv.Text(render.Pt(x0+w+7, cy), fmt.Sprint(y), ts)
	}
	// The corner says which way each count runs.
	cv.Text(render.Pt(x0-7, y0-axisH/2-1), "y\\x", render.TextStyle{Size: 11, Bold: true, Color: ink, Anchor: render.AnchorEnd, VAlign: render.Middle})
}

// drawOil draws a slick on the square centred on p.
func drawOil(cv render.Canvas, p render.Point, c float64) {
	cv.Circle(p, c*0.42, render.Style{Fill: oilCol, Opacity: 0.9})
	cv.Circle(render.Pt(p.X-c*0.12, p.Y-c*0.12), c*0.13, render.Style{Fill: oilSheen, Opacity: 0.8})
}

// drawSandbag draws a sandbag (one that has been hit) on the square centred on p.
func drawSandbag(cv render.Canvas, p render.Point, c float64) {
	cv.Rect(p.X-c*0.36, p.Y-c*0.26, c*0.72, c*0.52, render.Style{Fill: bagCol, Stroke: ink, StrokeWidth: 1, Radius: 3})
	cv.Polyline([]render.Point{render.Pt(p.X-c*0.2, p.Y), render.Pt(p.X+c*0.2, p.Y)}, render.Style{Stroke: ink, StrokeWidth: 1, Dash: []float64{2, 2}, FlatEnds: true})
}

// drawCar draws a car on the square centred on p, nose along its heading,
// with its number (the board's) upright on it.
func drawCar(cv render.Canvas, p render.Point, c float64, h Heading, seat int) {
	col := Colour(seat)
	k := c / maxCell
	cv.Group(render.Transform{X: p.X, Y: p.Y, Rotate: float64(h)*45 - 90, Scale: k}, func(cv render.Canvas) { // N is up the page
		cv.Polygon([]render.Point{render.Pt(7, -5), render.Pt(11, 0), render.Pt(7, 5)}, render.Style{Fill: glassCol, Stroke: ink, StrokeWidth: 1})
		cv.Rect(-9, -7, 17, 14, render.Style{Fill: col, Stroke: ink, StrokeWidth: 1.2, Radius: 3})
	})
	cv.Text(p, fmt.Sprint(seat+1), render.TextStyle{Size: math.Max(11, 12*k), Bold: true, Color: render.Contrast(col, ink), Anchor: render.AnchorMiddle, VAlign: render.Middle})
}

// trailStyle is how a car's moves this turn are drawn.
func trailStyle(seat int) render.Style {
	return render.Style{Stroke: Colour(seat), StrokeWidth: 3, Dash: []float64{6, 4}, Opacity: 0.9, FlatEnds: true}
}

// Draw draws a turn over the track: the title, oil, the sandbags hit,
// trails, cars, the legend and the board's rows.
func (s *State) Draw(cv render.Canvas, title string) {
	t := s.track
	c := t.cell()
	W, _ := cv.Size()
	cv.Text(render.Pt(padX, 32), title, render.TextStyle{Size: 20, Bold: true, Color: ink})
	cv.Text(render.Pt(W-padX, 32), fmt.Sprintf("%s, %d laps", t.Name, s.Laps), render.TextStyle{Size: 14, Color: ink, Anchor: render.AnchorEnd})
	for _, o := range s.Oil {
		drawOil(cv, t.px(o), c)
	}
	// Only the sandbags hit: the rest are the host's secret (Redact keeps
	// them out of a viewer's state, and the picture never reads Sandbags).
	for _, b := range s.Found {
		drawSandbag(cv, t.px(b), c)
	}
	// A trail can leave the map (a car off the track): it is cut to the
	// map, so that it never runs over the coordinates or the board.
	x0, y0, w, h := t.mapRect()
	cv.Clip(x0, y0, w, h, func(cv render.Canvas) {
		for i := range s.Cars {
			car := &s.Cars[i]
			render.Trail(cv, car.Trail, t.px, trailStyle(car.Seat), 3.5, render.Style{Fill: Colour(car.Seat), Stroke: ink, StrokeWidth: 0.8})
		}
	})
	for i := range s.Cars {
		car := &s.Cars[i]
		if car.racing() {
			drawCar(cv, t.px(car.Pos), c, car.Heading, car.Seat)
		}
	}
	s.drawLegend(cv)
	top := s.boardTop()
	_, rows := s.Board()
	for r, row := range rows {
		y := top + rowH*float64(r+1)
		var seat int
		fmt.Sscanf(row[1], "%d", &seat)
		cv.Rect(padX+boardCols[1]-2, y-11, 12, 12, render.Style{Fill: Colour(seat - 1), Stroke: ink, StrokeWidth: 0.6, Radius: 2})
		render.BoardRow(cv, padX, y, boardCols, 15, row, 30, render.TextStyle{Size: 11.5, Color: ink})
	}
}

// legendEntry is one mark of the picture and what it means.
type legendEntry struct {
	swW   float64 // the swatch's width
	text  string
	draw  func(cv render.Canvas, p render.Point, c float64) // the swatch, centred on p
	width float64                                           // swatch, gap and text
}

// legend is every entry for a mark this picture draws; with all, every
// entry the track could ever need (to keep room for them).
func (t *Track) legend(all bool, drawn ...string) []legendEntry {
	has := map[string]bool{}
	for _, d := range drawn {
		has[d] = true
	}
	var pit, pp, marker bool
	for _, q := range t.squares {
		pit = pit || q == Pit
		pp = pp || q == PPMark
		marker = marker || q == Marker
	}
	sq := func(q Square) func(cv render.Canvas, p render.Point, c float64) {
		return func(cv render.Canvas, p render.Point, c float64) { drawSquare(cv, p, c, q, false) }
	}
	var out []legendEntry
	add := func(ok bool, text string, swW float64, draw func(cv render.Canvas, p render.Point, c float64)) {
		if ok {
			out = append(out, legendEntry{text: text, swW: swW, draw: draw})
		}
	}
	add(all || has["car"], "car and its number, as on the board (the pale nose points its way)", maxCell, func(cv render.Canvas, p render.Point, c float64) {
		drawSquare(cv, p, c, Road, false)
		drawCar(cv, p, c, E, 0)
	})
	add(all || has["trail"], "its moves this turn, from the dot", 40, func(cv render.Canvas, p render.Point, _ float64) {
		a := render.Pt(p.X-18, p.Y)
		cv.Polyline([]render.Point{a, render.Pt(p.X+18, p.Y)}, trailStyle(2))
		cv.Circle(a, 3.5, render.Style{Fill: Colour(2), Stroke: ink, StrokeWidth: 0.8})
	})
	add(all || has["oil"], "oil slick", maxCell, func(cv render.Canvas, p render.Point, c float64) {
		drawSquare(cv, p, c, Road, false)
		drawOil(cv, p, c)
	})
	add(all || has["sandbag"], "sandbag a car has hit (the others stay hidden)", maxCell, func(cv render.Canvas, p render.Point, c float64) {
		drawSquare(cv, p, c, Road, false)
		drawSandbag(cv, p, c)
	})
	add(pit, "pit lane", maxCell, sq(Pit))
	add(marker, fmt.Sprintf("pit marker: speed %d at most from # to #", PitSpeedLimit), maxCell, sq(Marker))
	add(pp, "PP mark: repairs", maxCell, sq(PPMark))
	add(len(t.Grid) > 0, "grid slot, in starting order", maxCell, func(cv render.Canvas, p render.Point, c float64) {
		drawSquare(cv, p, c, Road, false)
		drawSlot(cv, p, c, 1)
	})
	add(true, "start/finish line", maxCell, sq(Finish))
	// Not a mark, but how to find the squares a turn's story names.
	add(true, "square (x,y): x along the top and bottom, y up the sides", 0, func(render.Canvas, render.Point, float64) {})
	for i := range out {
		out[i].width = out[i].swW + render.MeasureText(out[i].text, legendText)
		if out[i].swW > 0 {
			out[i].width += 6
		}
	}
	return out
}

var legendText = render.TextStyle{Size: 12, Color: ink, VAlign: render.Middle}

// layoutLegend breaks the entries into rows that fit the picture.
func (s *State) layoutLegend(es []legendEntry) [][]legendEntry {
	room := s.track.width() - 2*padX
	var rows [][]legendEntry
	x := room + 1
	for _, e := range es {
		if x+e.width > room {
			rows = append(rows, nil)
			x = 0
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], e)
		x += e.width + legendGap
	}
	return rows // never empty: the finish and the axes are always there
}

// drawn lists the kinds of mark this turn's picture draws over the track.
func (s *State) drawn() []string {
	var d []string
	for i := range s.Cars {
		if s.Cars[i].racing() {
			d = append(d, "car")
			break
		}
	}
	for i := range s.Cars {
		if len(s.Cars[i].Trail) > 1 {
			d = append(d, "trail")
			break
		}
	}
	if len(s.Oil) > 0 {
		d = append(d, "oil")
	}
	if len(s.Found) > 0 {
		d = append(d, "sandbag")
	}
	return d
}

// drawLegend draws an entry for every kind of mark in the picture.
func (s *State) drawLegend(cv render.Canvas) {
	y := s.track.legendTop()
	for _, row := range s.layoutLegend(s.track.legend(false, s.drawn()...)) {
		x := padX
		for _, e := range row {
			e.draw(cv, render.Pt(x+e.swW/2, y), maxCell)
			tx := x + e.swW
			if e.swW > 0 {
				tx += 6
			}
			cv.Text(render.Pt(tx, y), e.text, legendText)
			x += e.width + legendGap
		}
		y += legendRow
	}
}

var boardCols = []float64{0, 26, 180, 275, 370, 430, 480, 550, 600, 660, 780}

// Board is the status board, in race order. Max is the max speed, which
// damage lowers (never below 6) and the pits raise; the heading is where the
// car points for its next order. A finished car's order is shown only on
// the turn it finished.
func (s *State) Board() (header []string, rows [][]string) {
	header = []string{"#", "Car", "Driver", "Upgrade", "Speed", "Max", "Heading", "WC", "Lap", "Status", "Order"}
	for _, st := range (Ruleset{}).Standings(s) {
		c := s.car(st.Seat)
		lap := fmt.Sprintf("%d/%d", max(1, min(c.Crossings, s.Laps)), s.Laps)
		status, heading, orders := "racing", c.Heading.String(), c.Orders
		switch {
		case c.Out == Finished:
			status, lap, heading = fmt.Sprintf("finished %d", st.Place), "-", "-"
			if c.FinishTurn != s.T-1 {
				orders = ""
			}
		case c.InPit && c.PitBroken:
			status = "pit (limit broken)"
		case c.InPit:
			status = "in the pit"
		}
		rows = append(rows, []string{fmt.Sprint(st.Place), fmt.Sprintf("%d %s", c.Seat+1, c.Name), c.Player, c.Upgrade.String(),
			fmt.Sprint(c.Speed), fmt.Sprint(c.MaxSpeed), heading, fmt.Sprint(c.Wildcards), lap, status, orders})
	}
	return header, rows
}

// BackgroundKey implements host.Presenter: the track fixes the background.
func (s *State) BackgroundKey() string { return s.TrackID }

// GridNote implements host.Presenter: the grid is drawn by lot (Setup).
func (s *State) GridNote() string {
	return fmt.Sprintf("%d racers line up, grid places drawn by lot.", len(s.Seats()))
}

// TrackName implements host.Presenter: every race runs on a shipped track.
func (s *State) TrackName() string { return "" }
