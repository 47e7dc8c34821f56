package party

import (
	"strings"
	"testing"
	"time"
)

// In bot games, every star got is a moment, and so is the top prize of the
// week's minigame results when they are told; a turn with neither has no
// moment.
func TestMoments(t *testing.T) {
	stars, results := 0, 0
	for seed := uint64(1); seed <= 4; seed++ {
		_, p := botGame(t, seed, 4, nil, 48*time.Hour)
		for _, tn := range p.Turns {
			was, s := tn.Before.(*State), tn.After.(*State)
			ms := Ruleset{}.Moments(tn.Before, tn.After, tn.Events)
			joined := strings.Join(ms, "\n")
			want := 0
			for _, x := range s.Players {
				if x.Stars > was.player(x.Seat).Stars {
					stars++
					want++
					if !strings.Contains(joined, x.Name+" gets a star") {
						t.Errorf("seed %d turn %d: %s's star not among %q", seed, tn.Turn, x.Name, ms)
					}
				}
			}
			for _, e := range tn.Events {
				if e.Kind == "news" && strings.Contains(e.Text, "minigame results") {
					best := 0
					for _, x := range s.Players {
						best = max(best, x.Prize)
					}
					if best == 0 {
						continue // nobody won a coin: nothing to tell
					}
					results++
					want++
					if !strings.Contains(joined, " the week's minigames (+") || !strings.Contains(joined, "+"+plural(best, "coin")+")") {
						t.Errorf("seed %d turn %d: the top prize %d not among %q", seed, tn.Turn, best, ms)
					}
				}
			}
			if len(ms) != want {
				t.Errorf("seed %d turn %d: %d moments, want %d: %q", seed, tn.Turn, len(ms), want, ms)
			}
		}
	}
	if stars == 0 || results == 0 {
		t.Fatalf("%d stars and %d results in the bot games: the test tests nothing", stars, results)
	}
}
