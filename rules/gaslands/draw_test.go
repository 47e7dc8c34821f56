package gaslands

import (
	"fmt"
	"image"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"pitwall/race/racetest"
	"pitwall/render"
)

// Every track draws, in SVG and PNG, at every activation of a bot race
// without a panic; with PITWALL_PICTURES=DIR the PNGs of one race are written
// there to be looked at.
func TestDrawRace(t *testing.T) {
	dir := os.Getenv("PITWALL_PICTURES")
	for _, tr := range []string{"luigi-raceway", "bowser-castle"} {
		_, p := botRace(t, 3, 8, tr)
		for n := 0; n <= len(p.Turns); n += 1 + len(p.Turns)/12 {
			s := racetest.StateAt(t, p, n).(*State)
			w, h := s.Picture()
			svg := render.NewSVG(w, h)
			render.DrawScene(svg, s, "t")
			png := render.NewPNG(w, h, 1)
			render.DrawScene(png, s, "Activation")
			if dir != "" {
				f, err := os.Create(filepath.Join(dir, tr+"-"+strconv.Itoa(n)+".png"))
				if err != nil {
					t.Fatal(err)
				}
				if err := png.Encode(f); err != nil {
					t.Fatal(err)
				}
				f.Close()
			}
		}
	}
}

// pixels is the picture of s as drawn for a forum, over its background
// (drawn once a track, as the host does).
func pixels(s *State) *image.RGBA {
	w, h := s.Picture()
	key := fmt.Sprint(s.TrackID, w, h)
	bg, ok := backgrounds[key]
	if !ok {
		bg = render.NewPNG(w, h, 1)
		s.Background(bg)
		backgrounds[key] = bg
	}
	c := bg.Copy()
	s.Draw(c, "t")
	return c.Image()
}

var backgrounds = map[string]*render.PNG{}

// The last activation (template, start, path, slide, hits, shell and
// Bullet Bill lines) is drawn on the table and nowhere else: at every
// activation of bot races, and for one laid far past the table's edge.
func TestDrawActivationStaysOnTheTable(t *testing.T) {
	check := func(name string, s *State) {
		t.Helper()
		x, y, w, h := s.tableRect()
		table := image.Rect(int(x)-1, int(y)-1, int(x+w)+2, int(y+h)+2)
		bare := *s
		bare.Last = nil
		in, out := racetest.ChangedPixels(pixels(s), pixels(&bare), table)
		if out > 0 {
			t.Errorf("%s: the activation changes %d pixels off the table (%d on it)", name, out, in)
		}
	}
	for _, tr := range []string{"luigi-raceway", "bowser-castle"} {
		_, p := botRace(t, 3, 8, tr)
		for n := 1; n <= len(p.Turns); n += 1 + len(p.Turns)/40 {
			if s := racetest.StateAt(t, p, n).(*State); s.Last != nil {
				check(fmt.Sprintf("%s activation %d", tr, n), s)
			}
		}
	}
	_, p := botRace(t, 3, 5, "luigi-raceway")
	s := racetest.StateAt(t, p, 1).(*State)
	a := *s.Last
	W, H := s.track.W, s.track.H
	// Past the right edge and past the bottom, where the legend and board are.
	a.Outline = []Vec{{W - 50, 100}, {W + 400, 100}, {W + 400, -300}, {W - 50, -300}}
	a.Path = []Vec{{W - 40, 40}, {W + 200, -200}}
	a.Slide = []Vec{{W - 30, 30}, {W + 150, -150}}
	a.Hits = []Vec{{W + 2, 10}, {W / 2, -3}}
	a.Shot = []Vec{{W / 2, 20}, {W / 2, -400}}
	a.BillPath = []Vec{{20, H / 2}, {-300, H / 2}}
	s.Last = &a
	check("an activation past the edge", s)
}
