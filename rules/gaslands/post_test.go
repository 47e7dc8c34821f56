package gaslands

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pitwall/host"
	"pitwall/race"
)

// The posts of a bot race's first collision and of its grid, as a forum sees
// them, against testdata/posts (-update rewrites them; read the diff).
func TestGoldenPosts(t *testing.T) {
	_, p := botRace(t, 5, 6, "luigi-raceway")
	turn := 0
	for i, tn := range p.Turns {
		for _, e := range tn.Events {
			if e.Kind == "collision" && turn == 0 {
				turn = i + 1
			}
		}
	}
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
		path := filepath.Join("testdata", "posts", tc.name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(post), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to write it)", err)
		}
		if string(want) != post {
			t.Errorf("%s changed:\n%s", tc.name, post)
		}
	}
}
