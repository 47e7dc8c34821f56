package party

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"pitwall/race/racetest"
	"pitwall/render"
)

// Every turn of a bot game draws in SVG and PNG, and the SVG names every
// player and every space. PARTY_PICTURES=DIR keeps the PNGs to look at.
func TestDrawGame(t *testing.T) {
	_, p := botGame(t, 3, 6, nil, 40*time.Hour)
	dir := os.Getenv("PARTY_PICTURES")
	for turn := 0; turn <= len(p.Turns); turn++ {
		s := racetest.StateAt(t, p, turn).(*State)
		w, h := s.Picture()
		svg := render.NewSVG(w, h)
		render.DrawScene(svg, s, "t")
		text := string(svg.Bytes())
		for _, x := range s.Players {
			if !strings.Contains(text, x.Name) {
				t.Errorf("turn %d: picture lacks %s", turn, x.Name)
			}
		}
		for _, sp := range s.board.Spaces {
			if !strings.Contains(text, ">"+sp.ID+"<") {
				t.Errorf("turn %d: picture lacks space %s", turn, sp.ID)
			}
		}
		png := render.NewPNG(w, h, 1)
		render.DrawScene(png, s, "party-demo: after turn "+string(rune('0'+turn%10)))
		if dir != "" {
			var b bytes.Buffer
			if err := png.Encode(&b); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "turn"+string(rune('a'+turn))+".png"), b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// A board without positions is drawn round a ring, with every space in the
// picture; a player waiting at a fork is drawn there.
func TestDrawRingLayout(t *testing.T) {
	s := testGame(t, smallBoard, 3)
	s, _ = resolveWith(t, s, map[int]string{0: "roll", 1: "roll via n"}, monday.Add(time.Hour), "d10=3", "d10=3")
	w, h := s.Picture()
	l := s.board.layout()
	for id, p := range l.at {
		if p.X < spaceR || p.X > w-spaceR || p.Y < topY || p.Y > topY+l.h {
			t.Errorf("%s drawn at %v, outside the board's area", id, p)
		}
	}
	svg := render.NewSVG(w, h)
	render.DrawScene(svg, s, "ring")
	if !strings.Contains(string(svg.Bytes()), "fork f") {
		t.Error("the status board does not say Mario waits at the fork")
	}
	if dir := os.Getenv("PARTY_PICTURES"); dir != "" {
		png := render.NewPNG(w, h, 1)
		render.DrawScene(png, s, "ring")
		var b bytes.Buffer
		png.Encode(&b)
		os.WriteFile(filepath.Join(dir, "ring.png"), b.Bytes(), 0o644)
	}
}

// The board's last column tells each player's latest roll (a happening's
// d6, Chance Time's partner and d6) whole, over as many lines as it takes:
// no name in it is cut. Chance Time's line is longer than one line.
func TestDrawBoardTellsWholeRolls(t *testing.T) {
	textRE := regexp.MustCompile(`<text x="([-\d.]+)" y="([-\d.]+)"[^>]*>([^<]*)</text>`)
	s := testGame(t, effectsBoard, 3)
	s.Players[0].Space, s.Players[0].Coins = "hp", 12
	s.Players[1].Space = "o"
	s.Players[2].Coins, s.Players[2].Stars = 12, 1
	s, _ = resolveWith(t, s, map[int]string{0: "roll", 1: "roll"}, monday.Add(time.Hour), "d10=1", "d2=2", "d6=5", "d10=3", "d6=1")
	w, h := s.Picture()
	svg := render.NewSVG(w, h)
	render.DrawScene(svg, s, "t")
	var got []string
	col := fmt.Sprint(marginX + boardCols[len(boardCols)-1])
	for _, m := range textRE.FindAllStringSubmatch(string(svg.Bytes()), -1) {
		if m[1] == col {
			got = append(got, m[3])
		}
	}
	_, rows := s.Board()
	var want []string
	long := false
	for _, row := range rows {
		if row[len(row)-1] == "" {
			continue // nothing done yet: nothing drawn
		}
		want = append(want, row[len(row)-1])
		long = long || strings.Contains(row[len(row)-1], "Chance Time with") && strings.Contains(row[len(row)-1], "Mario now")
	}
	if !long {
		t.Fatalf("no player's last roll is Chance Time's swap: %q", want)
	}
	// The header, then each row's lines.
	if len(got) == 0 || got[0] != "Last" {
		t.Fatalf("the last column: %q", got)
	}
	if g, w := strings.Join(got[1:], " "), strings.Join(want, " "); g != w {
		t.Errorf("the board's last column reads\n%q\nwant\n%q", g, w)
	}
	if len(got)-1 <= len(want) {
		t.Errorf("the Chance Time line was not broken over two lines: %q", got)
	}
	if dir := os.Getenv("PARTY_PICTURES"); dir != "" {
		png := render.NewPNG(w, h, 1)
		render.DrawScene(png, s, "Chance Time")
		var b bytes.Buffer
		if err := png.Encode(&b); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "rolls.png"), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
