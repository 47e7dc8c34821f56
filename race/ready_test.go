package race

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// A racer's ready marks: taken from the seats the turn prompts, "yes" or
// "no", the last one standing; a new turn starts with none; every viewer
// sees them.
func TestReadyMarks(t *testing.T) {
	p, err := Start(dash{}, newDash(t))
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	apply := func(seat int, text string) error {
		err := p.Apply(Entry{Seq: seq + 1, Kind: EntryReady, Turn: p.Turn(), Seat: seat, Text: text})
		if err == nil {
			seq++
		}
		return err
	}
	for _, tc := range []struct {
		seat       int
		text, want string
	}{{5, "yes", "nothing to do on turn 1"}, {-1, "yes", "nothing to do"}, {0, "maybe", `"yes" or "no"`}, {0, "", `"yes" or "no"`}, {0, "YES", `"yes" or "no"`}} {
		if err := apply(tc.seat, tc.text); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("seat %d %q: %v, want %q", tc.seat, tc.text, err, tc.want)
		}
	}
	if len(p.Ready) != 0 || p.Seq != 0 {
		t.Fatalf("refused marks left %v, seq %d", p.Ready, p.Seq)
	}
	for _, step := range []struct {
		seat int
		text string
		want string
	}{{0, "yes", "map[0:true]"}, {1, "yes", "map[0:true 1:true]"}, {0, "no", "map[1:true]"}, {0, "no", "map[1:true]"}, {0, "yes", "map[0:true 1:true]"}} {
		if err := apply(step.seat, step.text); err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(p.Ready); got != step.want {
			t.Errorf("after seat %d %s: %s, want %s", step.seat, step.text, got, step.want)
		}
	}
	if p.Seq != 5 {
		t.Errorf("five marks, seq %d", p.Seq)
	}
	for _, v := range []Viewer{Host, Spectator, SeatViewer(1)} {
		if w := p.View(v); fmt.Sprint(w.Ready) != "map[0:true 1:true]" {
			t.Errorf("%s sees ready %v", v, w.Ready)
		}
	}
	if err := p.Apply(Entry{Seq: seq + 1, Kind: EntryResolve, Turn: 1, Seat: -1, At: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	if len(p.Ready) != 0 || len(p.View(Host).Ready) == 0 || p.View(Host).Ready[0] {
		t.Errorf("turn 2 opens with marks %v (view %v)", p.Ready, p.View(Host).Ready)
	}
	if err := p.CheckReady(0, "yes"); err != nil {
		t.Errorf("a mark on turn 2: %v", err)
	}
}

func TestReadyAfterTheEnd(t *testing.T) {
	p := play(t, newDash(t), dash{})
	if !p.State.Over() {
		t.Fatal("the dash race did not end")
	}
	if err := p.CheckReady(0, "yes"); !errors.Is(err, ErrOver) {
		t.Errorf("a mark after the end: %v", err)
	}
}
