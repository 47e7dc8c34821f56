package gaslands

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

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
			st, err := p.StateAt(n)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
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
