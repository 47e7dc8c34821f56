package rtd

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"pitwall/render"
)

// The course is drawn as a ring of segment tiles, first segment at the top,
// racing clockwise; each tile shows the segment's features, and the racers in
// it sit in a row, leader outermost.
const (
	picW    = 1000.0
	ringCY  = 330.0
	ringR   = 210.0
	tileR   = 78.0
	boardY  = 668.0
	rowH    = 22.0
	marginX = 24.0
)

var (
	paperCol  = render.RGB(0xf7, 0xf4, 0xfb)
	ink       = render.RGB(0x22, 0x1d, 0x33)
	shapeCols = map[Shape]render.Color{
		Straight: render.RGB(0xcf, 0xd6, 0xe0), BroadStraight: render.RGB(0xb9, 0xe0, 0xc4),
		Curve: render.RGB(0xf3, 0xd2, 0xa8), BroadCurve: render.RGB(0xd8, 0xc4, 0xf0),
	}
)

func (s *State) tileCentre(i int) render.Point {
	n := float64(len(s.course.Segments))
	a := -math.Pi/2 + 2*math.Pi*float64(i)/n
	return render.Pt(picW/2+ringR*math.Cos(a), ringCY+ringR*math.Sin(a))
}

// Picture is the size of the picture of s.
func (s *State) Picture() (w, h float64) {
	return picW, math.Ceil(boardY + rowH*float64(len(s.Racers)+1) + 30)
}

// DrawTrack draws the course: the ring, the segment tiles and their features, the board's frame.
func (s *State) Background(cv render.Canvas) {
	W, H := cv.Size()
	cv.Rect(0, 0, W, H, render.Style{Fill: paperCol})
	cv.Circle(render.Pt(picW/2, ringCY), ringR, render.Style{Stroke: render.RGB(0x9c, 0x94, 0xb8), StrokeWidth: 16, Opacity: 0.5})
	for i, seg := range s.course.Segments {
		c := s.tileCentre(i)
		cv.Circle(c, tileR, render.Style{Fill: shapeCols[seg.Shape], Stroke: ink, StrokeWidth: 1.5})
		cv.Text(render.Pt(c.X, c.Y-tileR+20), seg.Name, render.TextStyle{Size: 12, Bold: true, Color: ink, Anchor: render.AnchorMiddle})
		var feats []string
		feats = append(feats, seg.Shape.Words())
		if seg.ItemBoxes > 0 {
			feats = append(feats, fmt.Sprintf("%d item boxes", seg.ItemBoxes))
		}
		if seg.DashPanels {
			feats = append(feats, "dash panels")
		}
		if seg.Hazard != nil {
			feats = append(feats, seg.Hazard.Name, fmt.Sprintf("check %s, fail -%d momentum", signed(seg.Hazard.Check), seg.Hazard.Lose))
		}
		for _, p := range seg.Paths {
			feats = append(feats, "path: "+p.Name)
		}
		for _, e := range s.course.Events {
			if s.course.segmentIndex(e.Segment) != i {
				continue
			}
			when := fmt.Sprintf("every %d turns", e.Every)
			if e.Roll > 0 {
				when = fmt.Sprintf("on a d6 of %d+", e.Roll)
			}
			feats = append(feats, "event: "+e.Name+", "+when)
		}
		var lines []string
		for _, f := range feats {
			lines = append(lines, wrap(f, 24)...)
		}
		for j, f := range lines[:min(len(lines), 5)] {
			cv.Text(render.Pt(c.X, c.Y-tileR+36+float64(j)*13), f, render.TextStyle{Size: 11, Color: ink, Anchor: render.AnchorMiddle})
		}
		if seg.ItemBoxes > 0 { // '?' boxes along the tile's bottom, up to four and a count
			n := min(seg.ItemBoxes, 4)
			y := c.Y + tileR - 20
			x0 := c.X - float64(n)*8
			if seg.ItemBoxes > 4 {
				x0 -= 12
			}
			for k := 0; k < n; k++ {
				x := x0 + float64(k)*16 + 1
				cv.Rect(x, y, 14, 14, render.Style{Fill: render.RGB(0xff, 0xd2, 0x3f), Stroke: ink, StrokeWidth: 0.8, Radius: 2})
				cv.Text(render.Pt(x+7, y+7), "?", render.TextStyle{Size: 11, Bold: true, Color: ink, Anchor: render.AnchorMiddle, VAlign: render.Middle})
			}
			if seg.ItemBoxes > 4 {
				cv.Text(render.Pt(x0+float64(n)*16+3, y+7), fmt.Sprintf("×%d", seg.ItemBoxes), render.TextStyle{Size: 11, Bold: true, Color: ink, VAlign: render.Middle})
			}
		}
	}
	// The line, on the ring half-way between the last segment and the first.
	a := -math.Pi/2 - math.Pi/float64(len(s.course.Segments))
	in, out := render.Pt(picW/2+(ringR-20)*math.Cos(a), ringCY+(ringR-20)*math.Sin(a)), render.Pt(picW/2+(ringR+20)*math.Cos(a), ringCY+(ringR+20)*math.Sin(a))
	cv.Polyline([]render.Point{in, out}, render.Style{Stroke: ink, StrokeWidth: 5, Dash: []float64{4, 4}, FlatEnds: true})
	cv.Text(render.Pt(out.X-4, out.Y-6), "START / FINISH", render.TextStyle{Size: 11, Bold: true, Color: ink, Anchor: render.AnchorEnd})
	// What a token says: the racer's number, the board's, not a place.
	y := legendY
	x := marginX
	token(cv, render.Pt(x+10, y), 4)
	x += 26
	cv.Text(render.Pt(x, y), "a racer, numbered as on the board; in a segment, the racers stand in race order, leader on the left", legendText)
	x += render.MeasureText("a racer, numbered as on the board; in a segment, the racers stand in race order, leader on the left", legendText) + 24
	token(cv, render.Pt(x+13, y), 1)
	glow(cv, render.Pt(x+13, y))
	cv.Text(render.Pt(x+32, y), "star or ghost", legendText)
	cv.Rect(marginX-6, boardY-18, picW-2*marginX+12, rowH*float64(len(s.Racers)+1)+12, render.Style{Fill: render.RGB(0xec, 0xe8, 0xf4), Stroke: ink, StrokeWidth: 0.8, Radius: 5})
	header, _ := s.Board()
	for i, h := range header {
		cv.Text(render.Pt(marginX+boardCols[i], boardY), h, render.TextStyle{Size: 12, Bold: true, Color: ink})
	}
}

// DrawRace draws a turn: the title, every racer in its segment, the board.
func (s *State) Draw(cv render.Canvas, title string) {
	cv.Text(render.Pt(marginX, 34), title, render.TextStyle{Size: 20, Bold: true, Color: ink})
	cv.Text(render.Pt(picW-marginX, 34), fmt.Sprintf("%s, %d laps", s.course.Name, s.Laps), render.TextStyle{Size: 14, Color: ink, Anchor: render.AnchorEnd})
	bySeg := map[int][]*Racer{}
	var segs []int // in order, so that the SVG is the same on every run
	for _, x := range s.running() {
		if bySeg[x.Segment] == nil {
			segs = append(segs, x.Segment)
		}
		bySeg[x.Segment] = append(bySeg[x.Segment], x)
	}
	sort.Ints(segs)
	for _, seg := range segs {
		xs := bySeg[seg]
		c := s.tileCentre(seg)
		for k, x := range xs {
			// Six to a row; a full field in one segment takes two rows.
			row, inRow := k/6, min(6, len(xs)-k/6*6)
			p := render.Pt(c.X-float64(inRow-1)*11+float64(k%6)*22, c.Y+26+float64(row)*21)
			token(cv, p, x.Seat)
			if x.Star > 0 || x.Ghost > 0 {
				glow(cv, p)
			}
		}
	}
	if b := s.BlueShell; b != nil {
		cv.Text(render.Pt(picW/2, ringCY), "BLUE SHELL IN FLIGHT", render.TextStyle{Size: 13, Bold: true, Color: render.RGB(0x1e, 0x6f, 0xd9), Anchor: render.AnchorMiddle})
	}
	if len(s.Finish) > 0 {
		w := s.racer(s.Finish[0])
		cv.Text(render.Pt(picW/2, ringCY+22), "Winner: "+w.Name, render.TextStyle{Size: 14, Bold: true, Color: ink, Anchor: render.AnchorMiddle})
	}
	_, rows := s.Board()
	standings := Ruleset{}.Standings(s) // the board's rows, in the same order
	for r, row := range rows {
		y := boardY + rowH*float64(r+1)
		// The racer's token, as on the course, then the name: the board's
		// "5 Toad" without the number the token carries.
		seat := standings[r].Seat
		token(cv, render.Pt(marginX+boardCols[1]+8, y-4), seat)
		row[1] = strings.TrimPrefix(row[1], fmt.Sprint(seat+1)+" ")
		for i, cell := range row {
			x := marginX + boardCols[i]
			if i == 1 {
				x += 22
			}
			w := 30
			if i == 3 {
				w = 34 // the kart column is the widest
			}
			cell = render.Clip(cell, w)
			cv.Text(render.Pt(x, y), cell, render.TextStyle{Size: 11.5, Color: ink, Bold: i == 0})
		}
	}
}

// legendY is the middle of the legend's line, between the ring and the board.
const legendY = boardY - 38

var legendText = render.TextStyle{Size: 12, Color: ink, VAlign: render.Middle}

// token is a racer on the course (and on the board): a disc in the seat's
// colour carrying the racer's number, the number the board gives it.
func token(cv render.Canvas, p render.Point, seat int) {
	col := render.SeatColour(seat)
	cv.Circle(p, 10, render.Style{Fill: col, Stroke: ink, StrokeWidth: 1.2})
	cv.Text(p, fmt.Sprint(seat+1), render.TextStyle{Size: 11, Bold: true, Color: render.Contrast(col, ink), Anchor: render.AnchorMiddle, VAlign: render.Middle})
}

// glow rings a token whose racer has a star or a ghost.
func glow(cv render.Canvas, p render.Point) {
	cv.Circle(p, 13, render.Style{Stroke: render.RGB(0xff, 0xc8, 0x00), StrokeWidth: 2})
}

// wrap breaks s into lines of at most n bytes, at spaces where it can.
func wrap(s string, n int) []string {
	var out []string
	r := []rune(s) // a course's words may be any text: never cut a character in two
	for len(r) > n {
		cut := n
		for i := n; i > 0; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		out = append(out, strings.TrimSpace(string(r[:cut])))
		r = []rune(strings.TrimSpace(string(r[cut:])))
	}
	return append(out, string(r))
}

var boardCols = []float64{0, 26, 150, 215, 425, 475, 525, 650, 840}

// Board is the status board, in race order.
func (s *State) Board() (header []string, rows [][]string) {
	header = []string{"#", "Racer", "Player", "Kart", "Mom.", "Lap", "Segment", "Item", "Action"}
	for _, st := range (Ruleset{}).Standings(s) {
		x := s.racer(st.Seat)
		kart := "standard"
		if x.Perk != Standard {
			kart = x.Perk.String() + " / " + x.Debuff.String()
		}
		lap, seg := fmt.Sprintf("%d/%d", min(x.Laps+1, s.Laps), s.Laps), s.course.Segments[x.Segment].Name
		if x.Finished {
			lap, seg = "-", fmt.Sprintf("finished %d", st.Place)
		}
		item := x.itemsText()
		var fx []string
		for _, e := range []struct {
			n string
			v int
		}{{"ink", x.Ink}, {"shrunk", x.Shrunk}, {"star", x.Star}, {"ghost", x.Ghost}} {
			if e.v > 0 {
				fx = append(fx, e.n)
			}
		}
		if len(fx) > 0 {
			item = strings.TrimSpace(item + " (" + strings.Join(fx, ", ") + ")")
		}
		action := x.Action
		if x.Finished && x.FinishTurn+1 != s.T {
			action = "" // finished before this turn: no action in it
		}
		rows = append(rows, []string{fmt.Sprint(st.Place), fmt.Sprintf("%d %s", x.Seat+1, x.Name), x.Player, kart,
			fmt.Sprint(x.Momentum), lap, seg, item, action})
	}
	return header, rows
}

// BackgroundKey implements host.Presenter: the track fixes the background.
func (s *State) BackgroundKey() string { return s.CourseID }

// GridNote implements host.Presenter.
func (s *State) GridNote() string {
	return fmt.Sprintf("%d racers wait at the line on Momentum 0, in the order they entered; the start (turn 1) sets the grid: "+
		"more Momentum ahead, ties broken by opposed Racing Checks.", len(s.Seats()))
}

// TrackName implements host.Presenter: every race runs on a shipped track.
func (s *State) TrackName() string { return "" }
