package render

// Drawing that every game's picture does alike.

// BoardRow draws one row of a picture's board of racers at y, cell i at
// x+cols[i]: the first cell (the place) in bold, the second (the racer) indent
// further on, past the racer's colour, and each clipped to clip characters
// (none below 1).
func BoardRow(cv Canvas, x, y float64, cols []float64, indent float64, row []string, clip int, ts TextStyle) {
	for i, cell := range row {
		cx := x + cols[i]
		if i == 1 {
			cx += indent
		}
		ts.Bold = i == 0
		cv.Text(Pt(cx, y), Clip(cell, clip), ts)
	}
}

// Trail draws the way a racer came, under its counter: a line through the
// points of trail, each placed by at, and a dot of radius r where it began.
// A trail of fewer than two points is not drawn.
func Trail[P any](cv Canvas, trail []P, at func(P) Point, line Style, r float64, start Style) {
	if len(trail) < 2 {
		return
	}
	pts := make([]Point, len(trail))
	for i, p := range trail {
		pts[i] = at(p)
	}
	cv.Polyline(pts, line)
	cv.Circle(pts[0], r, start)
}
