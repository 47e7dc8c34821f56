package gaslands

import (
	"fmt"
	"math"
	"strings"

	"pitwall/internal/words"
	"pitwall/render"
)

// The picture: the table from above, north up, with the road, its gates,
// boosts, obstructions and item boxes; over it the last activation's
// template, path, slide and collisions, and every kart with its facing and
// hazard tokens; the board below.
const (
	picW    = 1000.0
	marginX = 20.0
	tableY  = 52.0
	rowH    = 22.0
)

var (
	paperCol  = render.RGB(0xf4, 0xf1, 0xe8)
	ink       = render.RGB(0x22, 0x1d, 0x33)
	grassCol  = render.RGB(0x7d, 0xb0, 0x5a)
	roadCol   = render.RGB(0x8c, 0x8a, 0x90)
	kerbCol   = render.RGB(0xf0, 0xee, 0xe6)
	boostCol  = render.RGB(0xff, 0x9a, 0x1f)
	hazardCol = render.RGB(0xff, 0x6a, 0x00)
	templCol  = render.RGB(0xff, 0xe0, 0x4a)
	hitCol    = render.RGB(0xd8, 0x1b, 0x1b)
	pipeCol   = render.RGB(0x2f, 0x9e, 0x44)
	cubeCol   = render.RGB(0xe8, 0xb0, 0x1c)
	mushCol   = render.RGB(0xe5, 0x25, 0x21)
)

func (s *State) scale() float64 { return (picW - 2*marginX) / s.track.W }

// px turns a point on the table (mm, y up) into the picture (px, y down).
func (s *State) px(v Vec) render.Point {
	sc := s.scale()
	return render.Pt(marginX+float64(v.X*sc), tableY+float64((s.track.H-v.Y)*sc))
}

func (s *State) pxs(vs []Vec) []render.Point {
	out := make([]render.Point, len(vs))
	for i, v := range vs {
		out[i] = s.px(v)
	}
	return out
}

// tableRect is the table's place in the picture.
func (s *State) tableRect() (x, y, w, h float64) {
	sc := s.scale()
	return marginX, tableY, s.track.W * sc, s.track.H * sc
}

func (s *State) boardY() float64 { return tableY + float64(s.track.H*s.scale()) + 34 }

// Picture is the size of the picture of s.
func (s *State) Picture() (w, h float64) {
	return picW, math.Ceil(s.boardY() + float64(rowH*float64(len(s.Karts)+1)) + 16)
}

func (s *State) rect(cv render.Canvas, r Rect, st render.Style) {
	cs := r.Corners()
	cv.Polygon(s.pxs(cs[:]), st)
}

// DrawTrack draws what stays: the table, the road, gates, boosts, item boxes
// and immovable obstructions.
func (s *State) Background(cv render.Canvas) {
	W, H := cv.Size()
	t := s.track
	sc := s.scale()
	cv.Rect(0, 0, W, H, render.Style{Fill: paperCol})
	cv.Rect(marginX, tableY, t.W*sc, t.H*sc, render.Style{Fill: grassCol, Stroke: ink, StrokeWidth: 1.5})
	line := append(s.pxs(t.Line), s.px(t.Line[0]), s.px(t.Line[1]))
	cv.Polyline(line, render.Style{Stroke: kerbCol, StrokeWidth: float64(t.Width*sc) + 6})
	cv.Polyline(line, render.Style{Stroke: roadCol, StrokeWidth: t.Width * sc})
	cv.Polyline(line, render.Style{Stroke: kerbCol, StrokeWidth: 1.2, Dash: []float64{10, 14}, Opacity: 0.6})
	// The start line, chequered; the checkpoints, dashed and numbered.
	g0 := t.Gates[0]
	a, b := s.px(g0.A), s.px(g0.B)
	cv.Polyline([]render.Point{a, b}, render.Style{Stroke: render.RGB(0xff, 0xff, 0xff), StrokeWidth: 7, FlatEnds: true})
	cv.Polyline([]render.Point{a, b}, render.Style{Stroke: ink, StrokeWidth: 7, Dash: []float64{3.5, 3.5}, FlatEnds: true})
	for i, g := range t.Gates[1:] {
		a, b := s.px(g.A), s.px(g.B)
		cv.Polyline([]render.Point{a, b}, render.Style{Stroke: render.RGB(0xff, 0xf0, 0x60), StrokeWidth: 2, Dash: []float64{6, 5}})
		cv.Text(a, fmt.Sprintf("gate %d", i+1), render.TextStyle{Size: 11, Bold: true, Color: ink, Anchor: render.AnchorMiddle})
	}
	for _, bo := range t.Boosts {
		s.rect(cv, bo.Rect, render.Style{Fill: boostCol, Stroke: ink, StrokeWidth: 1})
		// Chevrons down the boost's way.
		for k := -1; k <= 1; k++ {
			c := bo.Rect.Centre.Add(heading(bo.Rect.Heading).Scale(float64(k) * bo.Rect.Length / 4))
			tip := c.Add(heading(bo.Rect.Heading).Scale(8))
			l := c.Add(heading(bo.Rect.Heading + 2.4).Scale(bo.Rect.Width / 3))
			r := c.Add(heading(bo.Rect.Heading - 2.4).Scale(bo.Rect.Width / 3))
			cv.Polyline(s.pxs([]Vec{l, tip, r}), render.Style{Stroke: render.RGB(0xff, 0xff, 0xff), StrokeWidth: 2.5})
		}
	}
	for _, box := range t.ItemBoxes {
		p := s.px(box)
		r := ItemBoxRadius * sc
		cv.Group(render.At(p, 45), func(c render.Canvas) {
			c.Rect(-r, -r, 2*r, 2*r, render.Style{Fill: render.RGB(0x6c, 0xc9, 0xf0), Stroke: render.RGB(0xff, 0xff, 0xff), StrokeWidth: 1.5, Radius: 2})
		})
		cv.Text(p, "?", render.TextStyle{Size: 11, Bold: true, Color: render.RGB(0xff, 0xff, 0xff), Anchor: render.AnchorMiddle, VAlign: render.Middle})
	}
	for _, o := range t.Obstructions {
		if o.Kind == Immovable {
			s.obstruction(cv, o)
		}
	}
	cv.Text(render.Pt(marginX, tableY+float64(t.H*sc)+16), "Obstructions: pipes, blocks and cubes are immovable; mushrooms go when hit. Orange strips are boosts; ? are item boxes.",
		render.TextStyle{Size: 11, Color: ink})
	// A 100 mm scale bar.
	y := tableY + float64(t.H*sc) + 22
	cv.Polyline([]render.Point{render.Pt(W-marginX-float64(100*sc), y), render.Pt(W-marginX, y)}, render.Style{Stroke: ink, StrokeWidth: 3, FlatEnds: true})
	cv.Text(render.Pt(W-marginX-float64(50*sc), y-5), "100 mm", render.TextStyle{Size: 11, Color: ink, Anchor: render.AnchorMiddle})
}

func (s *State) obstruction(cv render.Canvas, o Obstruction) {
	sc := s.scale()
	switch {
	case o.Kind == Destructible:
		p := s.px(o.Rect.Centre)
		r := math.Min(o.Rect.Length, o.Rect.Width) / 2 * sc
		cv.Rect(p.X-float64(r*0.35), p.Y, r*0.7, r*0.8, render.Style{Fill: render.RGB(0xf6, 0xe7, 0xc8), Stroke: ink, StrokeWidth: 0.8})
		cv.Circle(p, r, render.Style{Fill: mushCol, Stroke: ink, StrokeWidth: 1})
		cv.Circle(render.Pt(p.X-float64(r*0.4), p.Y-float64(r*0.2)), r*0.25, render.Style{Fill: render.RGB(0xff, 0xff, 0xff)})
		cv.Circle(render.Pt(p.X+float64(r*0.45), p.Y-float64(r*0.1)), r*0.2, render.Style{Fill: render.RGB(0xff, 0xff, 0xff)})
	case o.Name == "warp pipe" || o.Name == "pipe":
		s.rect(cv, o.Rect, render.Style{Fill: pipeCol, Stroke: ink, StrokeWidth: 1.5})
		cv.Circle(s.px(o.Rect.Centre), math.Min(o.Rect.Length, o.Rect.Width)/2*sc*0.7, render.Style{Fill: render.RGB(0x10, 0x3a, 0x18)})
	default:
		col := cubeCol
		if o.Name == "thwomp" {
			col = render.RGB(0x8a, 0x93, 0xa8)
		}
		s.rect(cv, o.Rect, render.Style{Fill: col, Stroke: ink, StrokeWidth: 1.5})
		mark := "?"
		if o.Name == "thwomp" {
			mark = "ò_ó"
		}
		cv.Text(s.px(o.Rect.Centre), mark, render.TextStyle{Size: 12, Bold: true, Color: ink, Anchor: render.AnchorMiddle, VAlign: render.Middle})
	}
}

// DrawRace draws the race over the track: mushrooms standing, the last
// activation, Bullet Bills, karts, the title and the board.
func (s *State) Draw(cv render.Canvas, title string) {
	sc := s.scale()
	cv.Text(render.Pt(marginX, 34), title, render.TextStyle{Size: 20, Bold: true, Color: ink})
	sub := fmt.Sprintf("%s, %s · round %d, gear phase %d", s.track.Name, plural(s.Laps, "lap"), s.Round, s.Phase)
	if s.Active >= 0 {
		sub = fmt.Sprintf("%s, %s · next: %s, round %d, gear phase %d", s.track.Name, plural(s.Laps, "lap"), s.Karts[s.Active].Name, s.Round, s.Phase)
	}
	if s.Done {
		sub = fmt.Sprintf("%s, %s · finished in round %d", s.track.Name, plural(s.Laps, "lap"), s.Round)
	}
	cv.Text(render.Pt(picW-marginX, 34), sub, render.TextStyle{Size: 13, Color: ink, Anchor: render.AnchorEnd})
	// Everything on the table is cut to it: a template or an arrow can reach
	// past its edge, and must not run over the title, the legend or the board.
	tx, ty, tw, th := s.tableRect()
	cv.Clip(tx, ty, tw, th, func(cv render.Canvas) {
		for i, o := range s.track.Obstructions {
			if o.Kind == Destructible && !s.gone(i) {
				s.obstruction(cv, o)
			}
		}
		if a := s.Last; a != nil {
			col := render.SeatColour(a.Seat)
			if len(a.Outline) > 2 {
				cv.Polygon(s.pxs(a.Outline), render.Style{Fill: templCol, Stroke: ink, StrokeWidth: 1, Opacity: 0.55})
			}
			s.rect(cv, a.Start, render.Style{Stroke: col, StrokeWidth: 1.5, Dash: []float64{4, 3}})
			if len(a.Path) > 1 {
				cv.Polyline(s.pxs(a.Path), render.Style{Stroke: col, StrokeWidth: 2.5})
			}
			if len(a.Slide) > 1 {
				// The slide template, laid from where the move ended along the slide.
				from, to := a.Slide[0], a.Slide[len(a.Slide)-1]
				if d := to.Sub(from); d.Len() > 0.5 {
					n := heading(detAtan2(d.Y, d.X) + math.Pi/2).Scale(TemplateWidth / 2)
					cv.Polygon(s.pxs([]Vec{from.Add(n), to.Add(n), to.Sub(n), from.Sub(n)}), render.Style{Fill: render.RGB(0xff, 0xb0, 0x70), Stroke: ink, StrokeWidth: 0.8, Opacity: 0.6})
				}
				s.arrow(cv, from, to, hitCol, "slide")
			}
			for _, h := range a.Hits {
				p := s.px(h)
				for _, d := range [][2]float64{{-7, -7}, {-7, 7}} {
					cv.Polyline([]render.Point{render.Pt(p.X+d[0], p.Y+d[1]), render.Pt(p.X-d[0], p.Y-d[1])}, render.Style{Stroke: hitCol, StrokeWidth: 3})
				}
				cv.Circle(p, 10, render.Style{Stroke: hitCol, StrokeWidth: 1.5})
			}
		}
		for _, b := range s.Bills {
			s.rect(cv, b.Pos, render.Style{Fill: render.RGB(0x15, 0x15, 0x15), Stroke: render.RGB(0xff, 0xff, 0xff), StrokeWidth: 1})
			nose := b.Pos.Centre.Add(heading(b.Pos.Heading).Scale(b.Pos.Length / 2))
			cv.Circle(s.px(nose), b.Pos.Width/2*sc, render.Style{Fill: render.RGB(0x15, 0x15, 0x15)})
		}
		for i, k := range s.Karts {
			if k.Finished {
				continue
			}
			col := render.SeatColour(k.Seat)
			st := render.Style{Fill: col, Stroke: ink, StrokeWidth: 1.2}
			if i == s.Active && !s.Done {
				st.Stroke, st.StrokeWidth = render.RGB(0xff, 0xff, 0xff), 2.5
			}
			s.rect(cv, k.Pos, st)
			// The nose: a pale wedge at the front shows the facing.
			f := heading(k.Pos.Heading)
			l := heading(k.Pos.Heading + math.Pi/2)
			nose := k.Pos.Centre.Add(f.Scale(k.Pos.Length / 2))
			wedge := []Vec{nose, nose.Sub(f.Scale(k.Pos.Length / 4)).Add(l.Scale(k.Pos.Width / 2)), nose.Sub(f.Scale(k.Pos.Length / 4)).Sub(l.Scale(k.Pos.Width / 2))}
			cv.Polygon(s.pxs(wedge), render.Style{Fill: render.RGB(0xff, 0xff, 0xff), Opacity: 0.8})
			p := s.px(k.Pos.Centre.Sub(f.Scale(k.Pos.Length / 8)))
			cv.Text(p, fmt.Sprint(k.Seat+1), render.TextStyle{Size: 11, Bold: true, Color: render.Contrast(col, ink), Anchor: render.AnchorMiddle, VAlign: render.Middle})
			// Hazard tokens: orange dots in a row behind the kart.
			for h := 0; h < k.Hazards; h++ {
				q := k.Pos.Centre.Sub(f.Scale(float64(k.Pos.Length/2) + 7)).Add(l.Scale((float64(h) - float64(float64(k.Hazards-1)/2)) * 9))
				cv.Circle(s.px(q), 3.6, render.Style{Fill: hazardCol, Stroke: ink, StrokeWidth: 0.8})
			}
		}
		// The attack's lines go over the karts, so that a shell between two karts shows.
		if a := s.Last; a != nil {
			if len(a.Shot) == 2 {
				s.arrow(cv, a.Shot[0], a.Shot[1], render.RGB(0x0e, 0x7a, 0x22), "shell")
			}
			for k := 0; k+1 < len(a.BillPath); k += 2 {
				s.arrow(cv, a.BillPath[k], a.BillPath[k+1], ink, "Bullet Bill")
			}
		}
		if s.Done && s.placed() > 0 {
			for _, k := range s.Karts {
				if k.Place == 1 {
					cv.Text(render.Pt(picW/2, tableY+float64(s.track.H*sc/2)), "Winner: "+k.Name, render.TextStyle{Size: 22, Bold: true, Color: ink, Anchor: render.AnchorMiddle})
				}
			}
		}
	})
	header, rows := s.Board()
	standings := Ruleset{}.Standings(s)
	y0 := s.boardY()
	for i, h := range header {
		cv.Text(render.Pt(marginX+boardCols[i], y0), h, render.TextStyle{Size: 11.5, Bold: true, Color: ink})
	}
	for r, row := range rows {
		y := y0 + float64(rowH*float64(r+1))
		cv.Circle(render.Pt(marginX+boardCols[1]+3, y-4), 6, render.Style{Fill: render.SeatColour(standings[r].Seat), Stroke: ink, StrokeWidth: 0.6})
		render.BoardRow(cv, marginX, y, boardCols, 14, row, 34, render.TextStyle{Size: 11.5, Color: ink})
	}
}

// arrow draws a line from a to b with a head, and a label at its middle.
func (s *State) arrow(cv render.Canvas, a, b Vec, col render.Color, label string) {
	pa, pb := s.px(a), s.px(b)
	cv.Polyline([]render.Point{pa, pb}, render.Style{Stroke: col, StrokeWidth: 2.2, Dash: []float64{6, 4}})
	h := render.Heading(pa, pb)
	cv.Group(render.At(pb, h), func(c render.Canvas) {
		c.Polygon([]render.Point{render.Pt(0, 0), render.Pt(-9, -5), render.Pt(-9, 5)}, render.Style{Fill: col})
	})
	if label != "" {
		m := render.Pt(float64((pa.X+pb.X)/2), float64((pa.Y+pb.Y)/2)-12)
		ts := render.TextStyle{Size: 11, Bold: true, Color: col, Anchor: render.AnchorMiddle}
		w := render.MeasureText(label, ts) + 8
		cv.Rect(m.X-float64(w/2), m.Y-11, w, 15, render.Style{Fill: render.RGB(0xff, 0xff, 0xff), Opacity: 0.85, Radius: 3})
		cv.Text(m, label, ts)
	}
}

var boardCols = []float64{0, 26, 150, 260, 440, 490, 555, 610, 740}

// Board is the status board, in race order.
func (s *State) Board() (header []string, rows [][]string) {
	header = []string{"#", "Kart", "Player", "Vehicle", "Gear", "Hazards", "Lap", "Item", "Next"}
	for _, st := range (Ruleset{}).Standings(s) {
		k := s.Karts[st.Seat]
		lap := fmt.Sprintf("%d/%d", max(1, min(k.Lap, s.Laps)), s.Laps)
		next := ""
		switch {
		case k.Finished:
			lap, next = "-", fmt.Sprintf("finished %s", words.Nth(k.Place))
		case k.Gate == 0 && k.Lap > 0:
			next = "the line"
		case k.Gate > 0:
			next = fmt.Sprintf("gate %d", k.Gate)
		default:
			next = "the start line"
		}
		item := ""
		if k.Item != "" {
			item = itemWord(k.Item)
		}
		rows = append(rows, []string{fmt.Sprint(st.Place), fmt.Sprintf("%d %s", k.Seat+1, k.Name), k.Player,
			fmt.Sprintf("%s (%s)", k.Vehicle, k.Weight), fmt.Sprintf("%d/%d", k.Gear, k.MaxGear), fmt.Sprint(k.Hazards), lap, item, next})
	}
	return header, rows
}

// BackgroundKey implements host.Presenter: the track fixes the background.
func (s *State) BackgroundKey() string { return s.TrackID }

// GridNote implements host.Presenter.
func (s *State) GridNote() string {
	return fmt.Sprintf("%d karts line up two abreast behind the start line, in gear 1, pole position first. "+
		"Each post is one activation: in each gear phase every kart in that gear or higher moves, from pole position round the seats. "+
		"An order is a template (%s), with left or right for all but a straight, then as wanted: skid N (up to the kart's Handling), push, "+
		"shift up or down, spin left or right DEGREES, boost medium|gentle|turn SIDE, shell NAME or shell nearest, bill, smash or evade; "+
		"for example 'gentle left skid 2 shift up'.", len(s.Seats()), strings.Join(templateNames(s.M), ", "))
}

// TrackName implements host.Presenter: every race runs on a shipped track.
func (s *State) TrackName() string { return "" }
