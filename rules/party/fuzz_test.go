package party

import (
	"errors"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// FuzzBoard: the loader never panics, and a board it accepts is playable:
// from every space, any movement up to 30 with the first ways taken at every
// fork ends, on a decrementing space or where it began, in bounded steps.
func FuzzBoard(f *testing.F) {
	f.Add([]byte(smallBoard))
	f.Add([]byte(effectsBoard))
	src, _ := boardFiles.ReadFile("boards/toad-town.yaml")
	f.Add(src)
	f.Add([]byte("start: a\nspaces:\n  - {id: a, next: [b]}\n  - {id: b, next: [c], decrementing: false}\n  - {id: c, next: [b, a], decrementing: false}\n"))
	f.Add([]byte("start: s\nmrdl: [2d6, -3]\nspaces:\n  - {id: s, type: star}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		b, err := ParseBoard("f.yaml", src)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if b.Space(b.Start) == nil || b.Space(b.Start).Type == Star {
			t.Fatalf("accepted a board with start %q", b.Start)
		}
		for _, sp := range b.Spaces {
			for m := -1; m <= 30; m += 7 {
				w := b.walk(sp.ID, m, nil, nil)
				for w.fork != "" && w.err == nil {
					// Take the first way at each fork, as the default does.
					w2 := b.walk(w.fork, w.movement, []string{b.Successors(w.fork)[0]}, nil)
					w2.passed = append(w.passed, w2.passed...)
					w = w2
				}
				if w.err != nil {
					t.Fatalf("a validated board: %v", w.err)
				}
				if m > 0 && !b.Space(w.at).Decrements() {
					t.Fatalf("from %s by %d: landed on the non-decrementing %s", sp.ID, m, w.at)
				}
				if len(w.passed) > (m+1)*(len(b.Spaces)+1) {
					t.Fatalf("from %s by %d: %d spaces passed", sp.ID, m, len(w.passed))
				}
			}
		}
	})
}

// FuzzOrder: any text, at any time, for any seat, is parsed without a
// panic; a refusal is an order error and changes nothing; an accepted order
// resolves, and its canonical text is accepted again when it is a roll,
// choose or wait.
func FuzzOrder(f *testing.F) {
	for _, s := range []string{"roll", "roll via c1", "try roll via p9 d1", "choose c1", "wait", "ROLL VIA", "go p9", "choose p9 p15 d1", "try", "roll via \x00"} {
		f.Add(s, int64(0), uint8(0), true)
	}
	f.Fuzz(func(t *testing.T, text string, hours int64, seat uint8, paused bool) {
		s := setup(t, map[string]string{"start": "2026-11-23", "tz": "Pacific/Auckland"}, 3)
		if paused {
			s.Players[0].Pause = &Pause{Fork: "p8", Movement: 3}
		}
		at := monday.Add(time.Duration(hours%(24*60)) * time.Hour)
		before := string(mustJSON(t, s))
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: int(seat % 4), Text: text, At: at})
		if string(mustJSON(t, s)) != before {
			t.Fatal("ParseOrder changed the state")
		}
		if err != nil {
			var oe *race.OrderError
			if !errors.As(err, &oe) || oe.Reason == "" || strings.Contains(oe.Reason, "\n") {
				t.Fatalf("%q: %#v", text, err)
			}
			return
		}
		next, _, err := Ruleset{}.Resolve(s, map[int]race.Order{int(seat % 4): o}, dice.New(dice.SeedFromInt(uint64(hours))), time.Time{})
		if err != nil {
			t.Fatalf("%q: %v", text, err)
		}
		if string(mustJSON(t, s)) != before {
			t.Fatal("Resolve changed the state")
		}
		for _, p := range next.(*State).Players {
			if s.board.Space(p.Space) == nil || p.Coins < 0 || (p.Pause != nil && !s.board.IsFork(p.Pause.Fork)) {
				t.Fatalf("%q: a player out of bounds: %+v", text, p)
			}
		}
		if oo := o.(Order); !oo.Try || oo.Kind != Wait {
			if _, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: int(seat % 4), Text: o.String(), At: at}); err != nil {
				t.Fatalf("%q: its canonical text %q is refused: %v", text, o, err)
			}
		}
	})
}
