// Package nascartest holds what the tests of other packages need to know
// of nascar's secrets: the sandbags a race hides, and where a document
// shows sandbags.
package nascartest

import (
	"fmt"
	"strings"
	"testing"

	"pitwall/rules/nascar"
)

// Hidden are the sandbags of st not yet hit, as "[x,y]": what no one but
// the host may see while the race runs.
func Hidden(st *nascar.State) []string {
	hit := map[nascar.Point]bool{}
	for _, p := range st.Found {
		hit[p] = true
	}
	var out []string
	for _, p := range st.Sandbags {
		if !hit[p] {
			out = append(out, fmt.Sprintf("[%d,%d]", p.X, p.Y))
		}
	}
	return out
}

// SandbagsIn collects every point ({"X": x, "Y": y}) listed under a
// "sandbags" key anywhere in a decoded JSON document, as "[x,y]".
func SandbagsIn(doc any) map[string]bool {
	out := map[string]bool{}
	var walk func(v any, under bool)
	walk = func(v any, under bool) {
		switch x := v.(type) {
		case map[string]any:
			if under {
				if a, ok := x["X"].(float64); ok {
					if b, ok := x["Y"].(float64); ok {
						out[fmt.Sprintf("[%d,%d]", int(a), int(b))] = true
					}
				}
			}
			for k, y := range x {
				walk(y, k == "sandbags")
			}
		case []any:
			for _, y := range x {
				walk(y, under)
			}
		}
	}
	walk(doc, false)
	return out
}

// HostSandbags is a sandbags option for the oval: half the track's own, so
// that the option changes something, as "x,y;x,y...".
func HostSandbags(t testing.TB) string {
	t.Helper()
	tr, err := nascar.LoadTrack("oval")
	if err != nil {
		t.Fatal(err)
	}
	var bags []string
	for i, p := range tr.Sandbag {
		if i%2 == 0 {
			bags = append(bags, fmt.Sprintf("%d,%d", p.X, p.Y))
		}
	}
	return strings.Join(bags, ";")
}
