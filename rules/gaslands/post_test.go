package gaslands

import (
	"path/filepath"
	"strings"
	"testing"

	"pitwall/host"
	"pitwall/race"
	"pitwall/race/racetest"
	"pitwall/race/racetest/golden"
)

// The posts of a bot race's first collision and of its grid, as a forum sees
// them, against testdata/posts (-update rewrites them; read the diff).
func TestGoldenPosts(t *testing.T) {
	_, p := botRace(t, 5, 6, "luigi-raceway")
	turn := racetest.FirstTurnWith(p, "collision")
	if turn == 0 {
		t.Fatal("no collision in the race")
	}
	for _, tc := range []struct {
		name, format string
		turn         int
	}{{"grid.md", "markdown", 0}, {"collision.md", "markdown", turn}, {"collision.bbcode", "bbcode", turn}} {
		post, err := host.Post(p.View(race.Host), tc.turn, tc.format, "turn.png")
		if err != nil {
			t.Fatal(err)
		}
		if tc.turn > 0 && !strings.Contains(post, "Collision, ") {
			t.Errorf("%s: the post does not tell the collision", tc.name)
		}
		t.Run(tc.name, func(t *testing.T) { golden.Check(t, filepath.Join("testdata", "posts", tc.name), post) })
	}
}
