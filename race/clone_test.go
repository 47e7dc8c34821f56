package race

import (
	"testing"
	"time"
)

// A clone rolls its own dice: a turn resolved on the clone does not move
// the race's stream, so the race resolves that turn the same. A race not
// started yet (no dice) clones too.
func TestCloneRollsItsOwnDice(t *testing.T) {
	if c := Begin(dash{}, newDash(t)).Clone(); c.Started {
		t.Fatal("a clone of a race not started is started")
	}
	p, err := Start(dash{}, newDash(t))
	if err != nil {
		t.Fatal(err)
	}
	resolve := Entry{Seq: 1, Kind: EntryResolve, Turn: 1, Seat: -1, At: time.Unix(5, 0)}
	c := p.Clone()
	if err := c.Apply(resolve); err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(resolve); err != nil {
		t.Fatal(err)
	}
	got, want := p.State.(*dashState).Pos, c.State.(*dashState).Pos
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("after turn 1: the race at %v, its clone at %v; want the same", got, want)
	}
}

// IntFlag takes lo and hi themselves and refuses one past either.
func TestIntFlagBounds(t *testing.T) {
	for v, ok := range map[string]bool{"2": true, "5": true, "1": false, "6": false, " 3 ": true, "x": false} {
		n, err := IntFlag(map[string]string{"n": v}, "n", 0, 2, 5)
		if (err == nil) != ok {
			t.Errorf("--n %q: %d, %v; want accepted %v", v, n, err, ok)
		}
	}
	if n, err := IntFlag(nil, "n", 4, 2, 5); n != 4 || err != nil {
		t.Errorf("--n not given: %d, %v; want the default 4", n, err)
	}
}
