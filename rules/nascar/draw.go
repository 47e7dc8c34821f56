package nascar

import (
	"fmt"
	"math"

	"pitwall/render"
)

// Drawing sizes, in pixels.
const (
	cellPx  = 16.0
	margin  = 24.0
	titleH  = 52.0
	rowH    = 22.0
	boardW  = 980.0
	boardTo = 14.0
)

var (
	grass    = render.RGB(0x6f, 0xa8, 0x4c)
	grassAlt = render.RGB(0x69, 0xa1, 0x47)
	asphalt  = render.RGB(0x5b, 0x5e, 0x63)
	asphaltL = render.RGB(0x64, 0x67, 0x6c)
	pitCol   = render.RGB(0x44, 0x47, 0x4c)
	markCol  = render.RGB(0xf2, 0xc2, 0x1d)
	ppCol    = render.RGB(0x2a, 0x6f, 0xd6)
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

func (t *Track) px(p Point) render.Point {
	return render.Pt(margin+(float64(p.X)+0.5)*cellPx, titleH+(float64(t.H-1-p.Y)+0.5)*cellPx)
}

// Picture is the size of the picture of s.
func (s *State) Picture() (w, h float64) {
	t := s.track
	w = math.Max(2*margin+float64(t.W)*cellPx, boardW)
	h = titleH + float64(t.H)*cellPx + boardTo + rowH*float64(len(s.Cars)+1) + 2*margin
	return math.Ceil(w), math.Ceil(h)
}

// DrawTrack draws what every turn shares: grass, track, pit lane, markers,
// the PP mark and the line. Sandbags are not drawn: they are hidden.
func (s *State) Background(cv render.Canvas) {
	t := s.track
	W, H := cv.Size()
	cv.Rect(0, 0, W, H, render.Style{Fill: paper})
	for y := 0; y < t.H; y++ {
		for x := 0; x < t.W; x++ {
			p := Point{x, y}
			c := t.px(p)
			x0, y0 := c.X-cellPx/2, c.Y-cellPx/2
			fill := grass
			if (x+y)%2 == 0 {
				fill = grassAlt
			}
			switch q := t.At(p); {
			case q == Pit || q == PPMark:
				fill = pitCol
			case q == Marker:
				fill = markCol
			case q.OnTrack():
				fill = asphalt
				if (x+y)%2 == 0 {
					fill = asphaltL
				}
			}
			cv.Rect(x0, y0, cellPx, cellPx, render.Style{Fill: fill})
			switch t.At(p) {
			case PPMark:
				cv.Rect(x0+2, y0+2, cellPx-4, cellPx-4, render.Style{Fill: ppCol})
				cv.Text(c, "PP", render.TextStyle{Size: 7, Bold: true, Color: white, Anchor: render.AnchorMiddle, VAlign: render.Middle})
			case Marker:
				cv.Text(c, "#", render.TextStyle{Size: 11, Bold: true, Color: ink, Anchor: render.AnchorMiddle, VAlign: render.Middle})
			case Finish:
				for i := 0; i < 4; i++ {
					for j := 0; j < 4; j++ {
						col := white
						if (i+j)%2 == 0 {
							col = ink
						}
						cv.Rect(x0+float64(i)*cellPx/4, y0+float64(j)*cellPx/4, cellPx/4, cellPx/4, render.Style{Fill: col})
					}
				}
			}
		}
	}
	// The grid slots, numbered, faintly.
	for i, g := range t.Grid {
		c := t.px(g)
		cv.Rect(c.X-cellPx/2+1, c.Y-cellPx/2+1, cellPx-2, cellPx-2, render.Style{Stroke: white, StrokeWidth: 0.8, Opacity: 0.5})
		cv.Text(render.Pt(c.X, c.Y+cellPx/2-2), fmt.Sprint(i+1), render.TextStyle{Size: 6, Color: white})
	}
	top := titleH + float64(t.H)*cellPx + boardTo
	cv.Rect(margin-6, top+2, boardW-2*margin+12, rowH*float64(len(s.Cars)+1)+10, render.Style{Fill: render.RGB(0xea, 0xec, 0xef), Stroke: ink, StrokeWidth: 0.8, Radius: 5})
	header, _ := s.Board()
	for i, h := range header {
		cv.Text(render.Pt(margin+boardCols[i], top+rowH), h, render.TextStyle{Size: 12, Bold: true, Color: ink})
	}
}

// DrawRace draws a turn over the track: title, oil, sandbags found, trails, cars, the board.
func (s *State) Draw(cv render.Canvas, title string) {
	t := s.track
	W, _ := cv.Size()
	cv.Text(render.Pt(margin, 34), title, render.TextStyle{Size: 20, Bold: true, Color: ink})
	cv.Text(render.Pt(W-margin, 34), fmt.Sprintf("%s, %d laps", t.Name, s.Laps), render.TextStyle{Size: 14, Color: ink, Anchor: render.AnchorEnd})
	for _, o := range s.Oil {
		c := t.px(o)
		cv.Circle(c, cellPx*0.42, render.Style{Fill: render.RGB(0x10, 0x10, 0x14), Opacity: 0.85})
		cv.Circle(render.Pt(c.X-2, c.Y-2), cellPx*0.12, render.Style{Fill: render.RGB(0x7a, 0x5c, 0xc8), Opacity: 0.7})
	}
	for _, b := range s.Found {
		c := t.px(b)
		cv.Rect(c.X-5, c.Y-4, 10, 8, render.Style{Fill: render.RGB(0xc8, 0xa2, 0x6b), Stroke: ink, StrokeWidth: 0.8, Radius: 2})
	}
	for i := range s.Cars {
		c := &s.Cars[i]
		if len(c.Trail) < 2 {
			continue
		}
		var pts []render.Point
		for _, p := range c.Trail {
			pts = append(pts, t.px(p))
		}
		cv.Polyline(pts, render.Style{Stroke: Colour(c.Seat), StrokeWidth: 2.5, Dash: []float64{5, 3}, Opacity: 0.9, FlatEnds: true})
	}
	for i := range s.Cars {
		c := &s.Cars[i]
		if !c.racing() {
			continue
		}
		p := t.px(c.Pos)
		deg := float64(c.Heading)*45 - 90 // N is up the page: -90 degrees from +x
		cv.Group(render.At(p, deg), func(cv render.Canvas) {
			cv.Rect(-7, -4.5, 14, 9, render.Style{Fill: Colour(c.Seat), Stroke: ink, StrokeWidth: 1, Radius: 2.5})
			cv.Rect(2, -3, 3, 6, render.Style{Fill: render.RGB(0x9c, 0xc9, 0xf0), Stroke: ink, StrokeWidth: 0.4})
		})
		cv.Text(render.Pt(p.X, p.Y-cellPx*0.55), fmt.Sprint(c.Seat+1), render.TextStyle{Size: 9, Bold: true, Color: white, Anchor: render.AnchorMiddle})
	}
	top := titleH + float64(t.H)*cellPx + boardTo
	_, rows := s.Board()
	for r, row := range rows {
		y := top + rowH*float64(r+2)
		var seat int
		fmt.Sscanf(row[1], "%d", &seat)
		cv.Rect(margin+boardCols[1]-2, y-10, 11, 11, render.Style{Fill: Colour(seat - 1), Stroke: ink, StrokeWidth: 0.6, Radius: 2})
		for i, cell := range row {
			x := margin + boardCols[i]
			if i == 1 {
				x += 14
			}
			cell = render.Clip(cell, 30)
			cv.Text(render.Pt(x, y), cell, render.TextStyle{Size: 11.5, Color: ink, Bold: i == 0})
		}
	}
}

var boardCols = []float64{0, 26, 170, 260, 350, 405, 455, 525, 570, 630, 740}

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
