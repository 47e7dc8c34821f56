package ludi

import (
	"regexp"
	"strings"
	"testing"

	"pitwall/render"
)

var paintRE = regexp.MustCompile(`(?:fill|stroke)="(#[0-9a-f]{6})"`)

// paints is every colour an SVG fills or strokes with.
func paints(doc string) map[string]bool {
	out := map[string]bool{}
	for _, m := range paintRE.FindAllStringSubmatch(doc, -1) {
		out[m[1]] = true
	}
	return out
}

// A wreck is drawn in the legend's grey, crossed out in a darker grey, with
// its number in black on white: none of its chariot's colour, whatever the seat.
func TestDrawWreckIsGrey(t *testing.T) {
	allowed := map[string]bool{grey.Hex(): true, wreckInk.Hex(): true, ink.Hex(): true, "#ffffff": true}
	for seat := range teamCols {
		for _, c := range []Chariot{{Seat: seat, Out: Racing, Flipped: true}, {Seat: seat, Out: "rolled away"}} {
			svg := render.NewSVG(100, 100)
			drawChariot(svg, cellShape{centre: render.Pt(50, 50), heading: 30}, &c)
			doc := string(svg.Bytes())
			for col := range paints(doc) {
				if !allowed[col] {
					t.Errorf("seat %d (out %q, flipped %v): the wreck is painted %s, not in the legend's greys", seat, c.Out, c.Flipped, col)
				}
			}
			if !strings.Contains(doc, `fill="`+grey.Hex()+`"`) {
				t.Errorf("seat %d: the wreck has no grey body", seat)
			}
		}
	}
}

// The spina's legend says what a wreck looks like, and shows one: a grey
// body crossed out in the wreck's darker grey.
func TestDrawWreckLegend(t *testing.T) {
	_, p := botRace(t, 1, 4)
	s := p.State.(*State)
	w, h := s.Picture()
	svg := render.NewSVG(w, h)
	s.Background(svg)
	doc := string(svg.Bytes())
	if !strings.Contains(doc, ">Grey, crossed out: a wreck.<") {
		t.Error("the legend does not say what a wreck looks like")
	}
	if !strings.Contains(doc, `fill="`+grey.Hex()+`"`) || !strings.Contains(doc, `stroke="`+wreckInk.Hex()+`"`) {
		t.Error("the legend shows no wreck")
	}
}
