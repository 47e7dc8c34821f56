package party

import (
	"crypto/sha256"
	"fmt"
	"math"
	"strings"

	"pitwall/render"
)

// The board is drawn as a graph: each space a disc coloured by its type at
// its at: position (or round a ring, for a board that gives none), arrows to
// its successors, the players as numbered discs on their spaces and this
// week's walks as coloured trails; the status board sits underneath.
const (
	picW     = 1000.0
	marginX  = 28.0
	topY     = 78.0  // where the board's area starts
	maxCell  = 118.0 // the largest grid cell
	spaceR   = 22.0
	rowH     = 22.0
	legendH  = 34.0
	boardGap = 40.0
)

var (
	paper   = render.RGB(0xfb, 0xf7, 0xec)
	ink     = render.RGB(0x2a, 0x23, 0x1c)
	faint   = render.RGB(0x9a, 0x8f, 0x80)
	plateCl = render.RGB(0xf1, 0xea, 0xd8)
	typeCol = map[Type]render.Color{
		Blank:     render.RGB(0xe4, 0xdf, 0xd3),
		Start:     render.RGB(0xff, 0xff, 0xff),
		Blue:      render.RGB(0x2f, 0x6f, 0xe0),
		Red:       render.RGB(0xdc, 0x32, 0x2f),
		Star:      render.RGB(0xf5, 0xc2, 0x1b),
		Happening: render.RGB(0x2e, 0xa0, 0x4a),
		Chance:    render.RGB(0x9b, 0x4d, 0xca),
	}
	typeMark = map[Type]string{Blue: "+3", Red: "-3", Happening: "!", Chance: "?", Start: "GO"}
	seatCols = []render.Color{
		render.RGB(0xe5, 0x25, 0x21), render.RGB(0x1f, 0x9d, 0x3a), render.RGB(0xf0, 0x7c, 0xb4), render.RGB(0xf2, 0xa1, 0x0f),
		render.RGB(0x12, 0x12, 0x12), render.RGB(0x7c, 0x3a, 0xbd), render.RGB(0x16, 0xa5, 0xb5), render.RGB(0x8d, 0x5a, 0x2b),
	}
)

// Colour is a seat's colour.
func Colour(seat int) render.Color { return seatCols[seat%len(seatCols)] }

// layout is where each space is drawn, and the board area's height.
type layout struct {
	at   map[string]render.Point
	cell float64
	h    float64
}

func (b *Board) layout() layout {
	l := layout{at: map[string]render.Point{}}
	have := true
	for _, sp := range b.Spaces {
		have = have && len(sp.At) == 2
	}
	xs, ys := make([]float64, len(b.Spaces)), make([]float64, len(b.Spaces))
	for i, sp := range b.Spaces {
		if have {
			xs[i], ys[i] = sp.At[0], sp.At[1]
		} else { // a ring, in board order, starting at the top
			n := float64(len(b.Spaces))
			r := math.Max(2, n/(2*math.Pi))
			a := -math.Pi/2 + 2*math.Pi*float64(i)/n
			xs[i], ys[i] = r*math.Cos(a), r*math.Sin(a)
		}
	}
	minX, maxX, minY, maxY := xs[0], xs[0], ys[0], ys[0]
	for i := range xs {
		minX, maxX = math.Min(minX, xs[i]), math.Max(maxX, xs[i])
		minY, maxY = math.Min(minY, ys[i]), math.Max(maxY, ys[i])
	}
	spanX, spanY := maxX-minX+1, maxY-minY+1
	l.cell = math.Min(maxCell, (picW-2*marginX)/spanX)
	l.cell = math.Max(l.cell, 2*spaceR+8)
	x0 := (picW - l.cell*spanX) / 2
	for i, sp := range b.Spaces {
		l.at[sp.ID] = render.Pt(x0+(xs[i]-minX+0.5)*l.cell, topY+(ys[i]-minY+0.5)*l.cell)
	}
	l.h = l.cell * spanY
	return l
}

// Picture is the size of the picture of s.
func (s *State) Picture() (w, h float64) {
	l := s.board.layout()
	return picW, math.Ceil(l.boardY() + s.boardHeight() + 24)
}

// lineH is the height of each further line of a board row whose last
// column takes more than one.
const lineH = 15.0

var cellText = render.TextStyle{Size: 11.5, Color: ink}

// lastRoom is the width of the board's last column.
var lastRoom = picW - 2*marginX - boardCols[len(boardCols)-1] - 6

// boardRows is the board's rows, each with its last column (what the
// player last did: the space landed on, a happening's or Chance Time's roll
// and whom it names) broken into lines that fit, never cut: a roll's story
// keeps every name in it.
func (s *State) boardRows() (header []string, rows [][]string, last [][]string) {
	header, rows = s.Board()
	for _, row := range rows {
		last = append(last, wrapWidth(row[len(row)-1], lastRoom, cellText))
	}
	return header, rows, last
}

// boardHeight is the height of the board's rows below its header.
func (s *State) boardHeight() float64 {
	_, rows, last := s.boardRows()
	h := rowH * float64(len(rows))
	for _, l := range last {
		h += lineH * float64(max(len(l), 1)-1)
	}
	return h
}

// wrapWidth breaks s at spaces into lines no wider than w drawn with ts; a
// word wider than w on its own is cut by runes over several lines.
func wrapWidth(s string, w float64, ts render.TextStyle) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && render.MeasureText(line+" "+word, ts) <= w {
			line += " " + word
			continue
		}
		if line != "" {
			lines = append(lines, line)
		}
		line = word
		for render.MeasureText(line, ts) > w && len([]rune(line)) > 1 {
			r := []rune(line)
			n := len(r) - 1
			for n > 1 && render.MeasureText(string(r[:n]), ts) > w {
				n--
			}
			lines = append(lines, string(r[:n]))
			line = string(r[n:])
		}
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}

func (l layout) boardY() float64 { return topY + l.h + legendH + boardGap }

// arrow draws a successor's arrow from a's rim to b's rim.
func arrow(cv render.Canvas, a, b render.Point, col render.Color) {
	dx, dy := b.X-a.X, b.Y-a.Y
	d := math.Hypot(dx, dy)
	if d < 2*spaceR+4 {
		return
	}
	ux, uy := dx/d, dy/d
	from := render.Pt(a.X+ux*(spaceR+3), a.Y+uy*(spaceR+3))
	tip := render.Pt(b.X-ux*(spaceR+3), b.Y-uy*(spaceR+3))
	base := render.Pt(tip.X-ux*11, tip.Y-uy*11)
	cv.Polyline([]render.Point{from, base}, render.Style{Stroke: col, StrokeWidth: 3})
	cv.Polygon([]render.Point{tip, render.Pt(base.X-uy*6, base.Y+ux*6), render.Pt(base.X+uy*6, base.Y-ux*6)}, render.Style{Fill: col})
}

func starPoints(c render.Point, r float64) []render.Point {
	var pts []render.Point
	for i := 0; i < 10; i++ {
		rr := r
		if i%2 == 1 {
			rr = r * 0.45
		}
		a := -math.Pi/2 + float64(i)*math.Pi/5
		pts = append(pts, render.Pt(c.X+rr*math.Cos(a), c.Y+rr*math.Sin(a)))
	}
	return pts
}

// DrawBoard draws what stays the same: the spaces, the arrows, the legend,
// the status board's frame.
func (s *State) Background(cv render.Canvas) {
	W, H := cv.Size()
	b := s.board
	l := b.layout()
	cv.Rect(0, 0, W, H, render.Style{Fill: paper})
	cv.Rect(marginX-10, topY-8, picW-2*marginX+20, l.h+16, render.Style{Fill: plateCl, Stroke: faint, StrokeWidth: 1, Radius: 10})
	for _, sp := range b.Spaces {
		for _, n := range b.Successors(sp.ID) {
			arrow(cv, l.at[sp.ID], l.at[n], faint)
		}
	}
	drawSpaces(cv, b, l)
	// The legend.
	y := topY + l.h + 24
	x := marginX
	for _, t := range []struct {
		t    Type
		text string
	}{{Start, "start"}, {Blue, "blue +3 coins"}, {Red, "red -3 coins"}, {Happening, "happening (d6)"}, {Chance, "chance time"}, {Star, fmt.Sprintf("star: %d coins, passed", starPrice)}} {
		c := render.Pt(x+8, y-4)
		if t.t == Star {
			cv.Polygon(starPoints(c, 9), render.Style{Fill: typeCol[Star], Stroke: ink, StrokeWidth: 1})
		} else {
			cv.Circle(c, 8, render.Style{Fill: typeCol[t.t], Stroke: ink, StrokeWidth: 1})
		}
		cv.Text(render.Pt(x+22, y), t.text, render.TextStyle{Size: 11.5, Color: ink})
		x += 22 + render.MeasureText(t.text, render.TextStyle{Size: 11.5}) + 22
	}
	cv.Circle(render.Pt(x+8, y-4), 10, render.Style{Stroke: ink, StrokeWidth: 1.5, Dash: []float64{3, 3}})
	cv.Text(render.Pt(x+24, y), "fork", render.TextStyle{Size: 11.5, Color: ink})
}

// drawSpaces draws every space: a disc in its type's colour, a ring round
// a fork, the id at its lower right, clear of the roads.
func drawSpaces(cv render.Canvas, b *Board, l layout) {
	for _, sp := range b.Spaces {
		c := l.at[sp.ID]
		col := typeCol[sp.Type]
		switch sp.Type {
		case Star:
			cv.Circle(c, spaceR, render.Style{Fill: render.RGB(0xff, 0xf3, 0xc4), Stroke: ink, StrokeWidth: 1.5, Dash: []float64{4, 3}})
			cv.Polygon(starPoints(c, spaceR-2), render.Style{Fill: col, Stroke: ink, StrokeWidth: 1.2})
		case Start:
			cv.Rect(c.X-spaceR, c.Y-spaceR, 2*spaceR, 2*spaceR, render.Style{Fill: col, Stroke: ink, StrokeWidth: 2.5, Radius: 7})
		default:
			cv.Circle(c, spaceR, render.Style{Fill: col, Stroke: ink, StrokeWidth: 1.5})
		}
		if b.IsFork(sp.ID) { // a fork: a second ring
			cv.Circle(c, spaceR+4, render.Style{Stroke: ink, StrokeWidth: 1.5, Dash: []float64{3, 3}})
		}
		if !sp.Decrements() && sp.Type != Star { // a space that costs no Movement
			cv.Circle(c, spaceR-4, render.Style{Stroke: render.White, StrokeWidth: 1.5, Dash: []float64{2, 2}})
		}
		if m := typeMark[sp.Type]; m != "" {
			tc := render.White
			if sp.Type == Start {
				tc = ink
			}
			cv.Text(c, m, render.TextStyle{Size: 14, Bold: true, Color: tc, Anchor: render.AnchorMiddle, VAlign: render.Middle})
		}
		cv.Text(render.Pt(c.X+spaceR*0.6, c.Y+spaceR+13), sp.ID, render.TextStyle{Size: 11, Bold: b.IsFork(sp.ID), Color: ink})
	}
}

// DrawGame draws a turn: the title, this week's walks, the players, the board's rows.
func (s *State) Draw(cv render.Canvas, title string) {
	b := s.board
	l := b.layout()
	cv.Text(render.Pt(marginX, 34), title, render.TextStyle{Size: 20, Bold: true, Color: ink})
	cv.Text(render.Pt(marginX, 58), status(s), render.TextStyle{Size: 13, Color: ink})
	cv.Text(render.Pt(picW-marginX, 34), b.Name, render.TextStyle{Size: 15, Bold: true, Color: ink, Anchor: render.AnchorEnd})
	// This week's walks, each a trail a little off the centre line so that
	// trails along the same road stay apart.
	n := float64(len(s.Players))
	for _, p := range s.Players {
		off := (float64(p.Seat) - (n-1)/2) * 4
		for _, walk := range p.Path {
			var pts []render.Point
			for _, id := range walk {
				c := l.at[id]
				pts = append(pts, render.Pt(c.X+off, c.Y+off))
			}
			if len(pts) > 1 {
				cv.Polyline(pts, render.Style{Stroke: Colour(p.Seat), StrokeWidth: 5, Opacity: 0.85})
			}
		}
	}
	drawSpaces(cv, b, l) // over the trails, which then run between the spaces
	// The players: on their space, or at the fork they wait at.
	by := map[string][]*Player{}
	var order []string
	for i := range s.Players {
		p := &s.Players[i]
		at := p.Space
		if p.Pause != nil {
			at = p.Pause.Fork
		}
		if by[at] == nil {
			order = append(order, at)
		}
		by[at] = append(by[at], p)
	}
	for _, at := range order {
		ps := by[at]
		c := l.at[at]
		for k, p := range ps {
			// Round the space, starting at its upper left.
			a := -3*math.Pi/4 + float64(k)*math.Pi/4
			d := render.Pt(c.X+(spaceR+2)*math.Cos(a), c.Y+(spaceR+2)*math.Sin(a))
			cv.Circle(d, 10, render.Style{Fill: Colour(p.Seat), Stroke: render.White, StrokeWidth: 2})
			cv.Text(d, fmt.Sprint(p.Seat+1), render.TextStyle{Size: 11, Bold: true, Color: render.White, Anchor: render.AnchorMiddle, VAlign: render.Middle})
			if p.Pause != nil {
				cv.Circle(d, 13, render.Style{Stroke: Colour(p.Seat), StrokeWidth: 2, Dash: []float64{3, 2}})
			}
		}
	}
	if s.Over() {
		st := (Ruleset{}).Standings(s)
		cv.Text(render.Pt(picW-marginX, 58), "Winner: "+st[0].Name, render.TextStyle{Size: 14, Bold: true, Color: ink, Anchor: render.AnchorEnd})
	}
	// The board: its frame is drawn here, not with the background, because
	// its rows grow with what the players last did.
	header, rows, last := s.boardRows()
	standings := (Ruleset{}).Standings(s)
	y := l.boardY()
	cv.Rect(marginX-6, y-18, picW-2*marginX+12, rowH+s.boardHeight()+12, render.Style{Fill: plateCl, Stroke: faint, StrokeWidth: 0.8, Radius: 5})
	for i, h := range header {
		cv.Text(render.Pt(marginX+boardCols[i], y), h, render.TextStyle{Size: 12, Bold: true, Color: ink})
	}
	for r, row := range rows {
		y += rowH
		cv.Circle(render.Pt(marginX+boardCols[1]+7, y-4), 9, render.Style{Fill: Colour(standings[r].Seat)})
		cv.Text(render.Pt(marginX+boardCols[1]+7, y-4), fmt.Sprint(standings[r].Seat+1), render.TextStyle{Size: 11, Bold: true, Color: render.White, Anchor: render.AnchorMiddle, VAlign: render.Middle})
		render.BoardRow(cv, marginX, y, boardCols, 20, row[:len(row)-1], 22, cellText)
		for k, line := range last[r] {
			if k > 0 {
				y += lineH
			}
			cv.Text(render.Pt(marginX+boardCols[len(row)-1], y), line, cellText)
		}
	}
}

// status is the line under the title: the week, the phase, the calendar's clock.
func status(s *State) string {
	if s.First == "" {
		return fmt.Sprintf("%d weeks; the calendar starts with the first order (%s)", s.Weeks, s.TZ)
	}
	c := s.calendar(s.Clock)
	switch s.Phase {
	case Before:
		return fmt.Sprintf("Week 1 of %d opens %s", s.Weeks, c.When(c.WeekStart(1)))
	case Ended:
		return fmt.Sprintf("%d weeks played; the game ended %s", s.Weeks, c.When(c.End()))
	}
	return fmt.Sprintf("Week %d of %d, %s; clock %s", s.Week, s.Weeks, s.Phase.Title(), c.When(s.Clock))
}

var boardCols = []float64{0, 26, 170, 290, 345, 400, 455, 535}

// StatusBoard is the status board, in standings order.
func (s *State) Board() (header []string, rows [][]string) {
	header = []string{"#", "Character", "Player", "Stars", "Coins", "Space", "MRDL", "Last"}
	for _, st := range (Ruleset{}).Standings(s) {
		p := s.player(st.Seat)
		space := p.Space
		if p.Pause != nil {
			space = "fork " + p.Pause.Fork
		}
		mrdl := strings.Trim(p.MRDL.String(), "[]")
		if p.Boost != 0 {
			mrdl += fmt.Sprintf(" %+d", p.Boost)
		}
		rows = append(rows, []string{fmt.Sprint(st.Place), p.Name, p.Player, fmt.Sprint(p.Stars), fmt.Sprint(p.Coins), space, mrdl, p.Last})
	}
	return header, rows
}

// BackgroundKey implements host.Presenter: the board and the number of
// players (the status board's frame) fix the background.
func (s *State) BackgroundKey() string {
	id := s.BoardID
	if s.BoardYAML != "" { // a host's own board may reuse a shipped board's id
		id = fmt.Sprintf("%s-%x", id, sha256.Sum256([]byte(s.BoardYAML)))
	}
	return fmt.Sprintf("%s/%d", id, len(s.Players))
}

// TrackName implements host.Presenter: the board's name, a host's own board's too.
func (s *State) TrackName() string {
	if s.board != nil && s.board.Name != "" {
		return s.board.Name
	}
	return ""
}

// GridNote implements host.Presenter.
func (s *State) GridNote() string {
	c := s.calendar(s.Clock)
	when := "the week of the first order (a Monday-to-Thursday order opens week 1)"
	if s.First != "" {
		when = c.When(c.WeekStart(1))
	}
	return fmt.Sprintf("%d players start on %s with %d coins each and no stars, on %s. The game lasts %d weeks from %s, in %s: "+
		"Boardplay Monday to Thursday (one movement roll each), Minigame Friday to Sunday. Most stars wins, then most coins. "+
		"Orders: 'roll', or 'roll via SPACE SPACE' to choose the ways at the forks ahead; 'choose SPACE' at a fork; 'wait'.",
		len(s.Players), s.board.Start, s.Players[0].Coins, s.board.Name, s.Weeks, when, s.TZ)
}
