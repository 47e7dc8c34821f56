package nascar

import (
	"bytes"
	"fmt"
	"image"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
	"pitwall/render"
)

// svgText is one text of a drawing: where it is and what it says.
type svgText struct {
	x, y float64
	text string
}

var textRE = regexp.MustCompile(`<text x="([-\d.]+)" y="([-\d.]+)"[^>]*>([^<]*)</text>`)

func drawSVG(s *State) string {
	w, h := s.Picture()
	svg := render.NewSVG(w, h)
	render.DrawScene(svg, s, "t")
	return string(svg.Bytes())
}

func texts(doc string) []svgText {
	var out []svgText
	for _, m := range textRE.FindAllStringSubmatch(doc, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		y, _ := strconv.ParseFloat(m[2], 64)
		out = append(out, svgText{x, y, m[3]})
	}
	return out
}

// statesOf is every fifth state of a bot race on each track, and its last.
func statesOf(t *testing.T) []*State {
	var out []*State
	for _, track := range []string{"oval", "road-course"} {
		_, p := botRace(t, 3, 8, track)
		for n := 0; n <= len(p.Turns); n++ {
			if n%5 != 0 && n != len(p.Turns) {
				continue
			}
			st := racetest.StateAt(t, p, n)
			out = append(out, Ruleset{}.Redact(st, race.Viewer{}).(*State))
		}
	}
	return out
}

// The legend has an entry for every kind of mark the picture draws, and
// none for a mark it does not (no sandbag before one is hit).
func TestDrawLegend(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range statesOf(t) {
		doc := drawSVG(s)
		trails, cars := false, false
		for _, c := range s.Cars {
			trails = trails || len(c.Trail) > 1
			cars = cars || c.racing()
		}
		var pit, pp, marker bool
		for _, q := range s.track.squares {
			pit, pp, marker = pit || q == Pit, pp || q == PPMark, marker || q == Marker
		}
		for _, e := range []struct {
			drawn bool
			text  string
		}{
			{cars, "car and its number, as on the board"},
			{trails, "its moves this turn"},
			{len(s.Oil) > 0, "oil slick"},
			{len(s.Found) > 0, "sandbag a car has hit"},
			{pit, "pit lane"},
			{marker, "pit marker"},
			{pp, "PP mark"},
			{len(s.track.Grid) > 0, "grid slot"},
			{true, "start/finish line"},
			{true, "square (x,y)"},
		} {
			if e.drawn {
				seen[e.text] = true
			}
			if got := strings.Contains(doc, ">"+e.text); got != e.drawn {
				t.Errorf("%s turn %d: legend entry %q is there: %v, want %v", s.TrackID, s.T, e.text, got, e.drawn)
			}
		}
	}
	// The races drew every kind of mark at least once, so each was checked.
	for _, want := range []string{"its moves this turn", "oil slick", "sandbag a car has hit", "pit marker"} {
		if !seen[want] {
			t.Errorf("no picture drew a %q: the test checked nothing for it", want)
		}
	}
}

// Every racing car carries its number, the board's, at the centre of its
// square; the numbers are at least 11 px.
func TestDrawCarNumbers(t *testing.T) {
	for _, s := range statesOf(t) {
		ts := texts(drawSVG(s))
		for _, c := range s.Cars {
			if !c.racing() {
				continue
			}
			p := s.track.px(c.Pos)
			found := false
			for _, x := range ts {
				if x.text == fmt.Sprint(c.Seat+1) && math.Abs(x.x-p.X) < 0.01 && math.Abs(x.y-p.Y) < 0.01 {
					found = true
				}
			}
			if !found {
				t.Errorf("%s turn %d: no number %d on %s at %v", s.TrackID, s.T, c.Seat+1, c.Name, c.Pos)
			}
		}
	}
	doc := drawSVG(statesOf(t)[0])
	for _, m := range regexp.MustCompile(`font-size="([\d.]+)"`).FindAllStringSubmatch(doc, -1) {
		if v, _ := strconv.ParseFloat(m[1], 64); v < 11 {
			t.Errorf("text of %v px: too small for a forum", v)
		}
	}
}

// Every fifth column is numbered above and below the map, every fifth row
// on both sides, on the column's or row's centre: a story's (x,y) can be found.
func TestDrawCoordinates(t *testing.T) {
	for _, s := range statesOf(t)[:1] {
		tr := s.track
		x0, y0, w, h := tr.mapRect()
		ts := texts(drawSVG(s))
		has := func(text string, ok func(x, y float64) bool) bool {
			for _, x := range ts {
				if x.text == text && ok(x.x, x.y) {
					return true
				}
			}
			return false
		}
		for x := 0; x < tr.W; x += 5 {
			cx := tr.px(Point{x, 0}).X
			above := has(fmt.Sprint(x), func(px, py float64) bool { return math.Abs(px-cx) < 0.01 && py < y0 && py > y0-axisH })
			below := has(fmt.Sprint(x), func(px, py float64) bool { return math.Abs(px-cx) < 0.01 && py > y0+h && py < y0+h+axisH })
			if !above || !below {
				t.Errorf("%s: column %d numbered above %v, below %v", s.TrackID, x, above, below)
			}
		}
		for y := 0; y < tr.H; y += 5 {
			cy := tr.px(Point{0, y}).Y
			left := has(fmt.Sprint(y), func(px, py float64) bool { return math.Abs(py-cy) < 0.01 && px < x0 })
			right := has(fmt.Sprint(y), func(px, py float64) bool { return math.Abs(py-cy) < 0.01 && px > x0+w })
			if !left || !right {
				t.Errorf("%s: row %d numbered left %v, right %v", s.TrackID, y, left, right)
			}
		}
	}
}

// A trail that leaves the map (a car off the track, past the map's edge) is
// cut at the map's edge: outside the map the picture is the same as without it.
func TestDrawTrailStaysOnTheMap(t *testing.T) {
	_, p := botRace(t, 3, 8, "oval")
	s := racetest.StateAt(t, p, 3).(*State)
	draw := func(s *State) *image.RGBA {
		w, h := s.Picture()
		c := render.NewPNG(w, h, 1)
		render.DrawScene(c, s, "t")
		return c.Image()
	}
	without := draw(s)
	off := s.clone()
	c := &off.Cars[0]
	c.Trail = []Point{c.Pos, {c.Pos.X, -1}, {c.Pos.X + 1, -4}, {c.Pos.X + 2, -9}}
	with := draw(off)
	x0, y0, w, h := s.track.mapRect()
	inMap := image.Rect(int(x0)-1, int(y0)-1, int(x0+w)+1, int(y0+h)+1)
	changedIn, changedOut := racetest.ChangedPixels(with, without, inMap)
	if changedIn == 0 {
		t.Fatal("the trail did not draw at all")
	}
	if changedOut > 0 {
		t.Errorf("the trail changed %d pixels outside the map (the coordinates or the board)", changedOut)
	}
}

// The picture shows the sandbags hit and never one that is still hidden,
// even drawn from the host's own state, which holds them all.
func TestDrawHidesSandbags(t *testing.T) {
	_, p := botRace(t, 3, 8, "oval")
	for n := 0; n <= len(p.Turns); n += 10 {
		s := racetest.StateAt(t, p, n).(*State)
		if len(s.Sandbags) <= len(s.Found) {
			continue
		}
		bags := strings.Count(drawSVG(s), `fill="`+bagCol.Hex()+`"`)
		want := len(s.Found)
		if want > 0 {
			want++ // the legend's
		}
		if bags != want {
			t.Errorf("turn %d: %d sandbags drawn, want %d (%d hit, %d hidden)", n, bags, want, len(s.Found), len(s.Sandbags)-len(s.Found))
		}
	}
}

// With PITWALL_PICTURES=DIR, the PNGs of a race on each track are written
// there to be looked at.
func TestDrawPictures(t *testing.T) {
	dir := os.Getenv("PITWALL_PICTURES")
	if dir == "" {
		t.Skip("PITWALL_PICTURES is not set")
	}
	for _, s := range statesOf(t) {
		w, h := s.Picture()
		c := render.NewPNG(w, h, 1)
		render.DrawScene(c, s, fmt.Sprintf("%s: after turn %d", s.TrackID, s.T))
		var b bytes.Buffer
		if err := c.Encode(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("nascar-%s-%03d.png", s.TrackID, s.T)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
