package rtd

import (
	"fmt"
	"strings"
	"testing"

	"pitwall/render"
)

// The board lists every racer in race order; finished racers show their place.
func TestBoard(t *testing.T) {
	_, p := botRace(t, 3, 12, "luigi-circuit")
	s := p.State.(*State)
	header, rows := s.Board()
	if len(rows) != 12 {
		t.Fatalf("board has %d rows, want 12", len(rows))
	}
	for i, row := range rows {
		if len(row) != len(header) {
			t.Fatalf("row %d has %d cells, header %d", i, len(row), len(header))
		}
		if row[0] != fmt.Sprint(i+1) {
			t.Errorf("row %d: place %q, want %d", i, row[0], i+1)
		}
	}
	if !strings.HasPrefix(rows[0][6], "finished 1") {
		t.Errorf("winner's segment cell %q, want finished 1", rows[0][6])
	}
}

// Every course draws, in SVG and PNG, at every turn of a race without a panic,
// and the SVG names every racer on the board.
func TestDrawEveryCourse(t *testing.T) {
	courses, err := Courses()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range courses {
		id := c.ID
		_, p := botRace(t, 5, 8, id)
		for turn := 0; turn < p.State.Turn(); turn += 4 {
			st, err := p.StateAt(turn)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			w, h := s.Picture()
			svg := render.NewSVG(w, h)
			render.DrawScene(svg, s, "t")
			for _, x := range s.Racers {
				if !strings.Contains(string(svg.Bytes()), x.Name) {
					t.Errorf("%s turn %d: picture lacks %s", id, turn, x.Name)
				}
			}
			for range 4 { // the same state draws the same SVG, every time
				again := render.NewSVG(w, h)
				render.DrawScene(again, s, "t")
				if string(again.Bytes()) != string(svg.Bytes()) {
					t.Fatalf("%s turn %d: the SVG differs from one drawing to the next", id, turn)
				}
			}
			png := render.NewPNG(w, h, 1)
			render.DrawScene(png, s, "t")
		}
	}
}
