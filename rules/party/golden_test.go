package party

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"pitwall/host"
	"pitwall/race"
	"pitwall/race/racetest"
	"pitwall/race/racetest/golden"
)

// A whole bot game in Auckland's zone, told turn by turn: the orders, the
// story, every roll, and the standings at the end.
func TestGoldenGame(t *testing.T) {
	_, p := botGame(t, 7, 4, map[string]string{"tz": "Pacific/Auckland", "weeks": "2"}, 30*time.Hour)
	var b strings.Builder
	for _, tn := range p.Turns {
		fmt.Fprintf(&b, "turn %d\n", tn.Turn)
		for seat := 0; seat < 4; seat++ {
			if o, ok := tn.Orders[seat]; ok {
				fmt.Fprintf(&b, "  order %d: %s\n", seat, o)
			}
		}
		racetest.WriteEvents(&b, tn.Events)
	}
	b.WriteString("standings\n")
	for _, st := range (Ruleset{}).Standings(p.State) {
		fmt.Fprintf(&b, "  %d. %s: %s\n", st.Place, st.Name, st.Detail)
	}
	golden.Check(t, "testdata/game.golden", b.String())
}

// The host's post of a turn where a player waits at a fork tells the fork,
// the board and the status board. (Not a golden file: the post's frame is
// the host's, which changes on its own.)
func TestGoldenPost(t *testing.T) {
	_, p := botGame(t, 3, 6, nil, 40*time.Hour)
	turn := racetest.FirstTurnWith(p, "fork")
	if turn == 0 {
		t.Fatal("no player waited at a fork")
	}
	post, err := host.Post(p.View(race.Host), turn, "markdown", "turn.png")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"must choose", "Toad Town Loop", "Stars"} {
		if !strings.Contains(post, w) {
			t.Errorf("the post lacks %q", w)
		}
	}
	header, _ := p.Turns[turn-1].After.(*State).Board()
	if !strings.Contains(post, "| "+strings.Join(header[1:], " | ")+" |") {
		t.Errorf("the post lacks the status board")
	}
}
