package rtd

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"pitwall/race/racetest"
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
			s := racetest.StateAt(t, p, turn).(*State)
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

// A racer's token on the course carries the number the status board gives
// the racer ("5 Toad"), not its place; every racer still running has one,
// and the legend says what the number is.
func TestDrawTokensAreTheBoardsNumbers(t *testing.T) {
	circleRE := regexp.MustCompile(`<circle cx="([-\d.]+)" cy="([-\d.]+)" r="10" fill="(#[0-9a-f]{6})"`)
	textRE := regexp.MustCompile(`<text x="([-\d.]+)" y="([-\d.]+)"[^>]*>([^<]*)</text>`)
	_, p := botRace(t, 5, 8, "luigi-circuit")
	checked := 0
	for turn := 1; turn < p.State.Turn(); turn++ {
		s := racetest.StateAt(t, p, turn).(*State)
		w, h := s.Picture()
		svg := render.NewSVG(w, h)
		render.DrawScene(svg, s, "t")
		doc := string(svg.Bytes())
		if !strings.Contains(doc, "numbered as on the board") {
			t.Fatalf("turn %d: no legend says what a token's number is", turn)
		}
		// The board's number for each racer, by the racer's colour.
		_, rows := s.Board()
		number := map[string]string{}
		for _, row := range rows {
			n, name, _ := strings.Cut(row[1], " ")
			for _, x := range s.Racers {
				if x.Name == name {
					number[render.SeatColour(x.Seat).Hex()] = n
				}
			}
		}
		labels := map[string]string{}
		for _, m := range textRE.FindAllStringSubmatch(doc, -1) {
			labels[m[1]+","+m[2]] = m[3]
		}
		tokens := 0
		for _, m := range circleRE.FindAllStringSubmatch(doc, -1) {
			if y, _ := strconv.ParseFloat(m[2], 64); y > legendY-20 {
				continue // the legend's and the board's
			}
			tokens++
			want, ok := number[m[3]]
			if !ok {
				t.Errorf("turn %d: a token of colour %s is no racer's", turn, m[3])
				continue
			}
			if got := labels[m[1]+","+m[2]]; got != want {
				t.Errorf("turn %d: the token of the board's racer %s says %q", turn, want, got)
			}
			checked++
		}
		if want := len(s.running()); tokens != want {
			t.Errorf("turn %d: %d tokens on the course, want %d", turn, tokens, want)
		}
	}
	if checked == 0 {
		t.Fatal("no token was checked")
	}
}

// wrap breaks at the last space that fits, or cuts a long word, and never
// cuts a character in two.
func TestWrap(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want []string
	}{
		{"gravel trap on the bend", 12, []string{"gravel trap", "on the bend"}},
		{"abcdefghij", 4, []string{"abcd", "efgh", "ij"}},
		{"short", 24, []string{"short"}},
		{"aéééééééééééééééééééééééé", 24, []string{"aééééééééééééééééééééééé", "é"}},
	} {
		got := wrap(tc.in, tc.n)
		if !slices.Equal(got, tc.want) {
			t.Errorf("wrap(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
		for _, l := range got {
			if !utf8.ValidString(l) {
				t.Errorf("wrap(%q, %d): %q is not UTF-8", tc.in, tc.n, l)
			}
		}
	}
}
