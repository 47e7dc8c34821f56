package party

import (
	"fmt"
	"strings"

	"pitwall/internal/words"
	"pitwall/race"
)

// Moments implements race.Headliner: the stars bought (or lost), then who
// won most in the week's minigame results when they are told.
func (Ruleset) Moments(before, after race.State, events []race.Event) []string {
	was, ok1 := before.(*State)
	s, ok2 := after.(*State)
	if !ok1 || !ok2 {
		return nil
	}
	var out []string
	for _, p := range s.Players {
		w := was.player(p.Seat)
		if w == nil {
			continue
		}
		switch {
		case p.Stars > w.Stars:
			out = append(out, fmt.Sprintf("%s gets %s", p.Name, starCount(p.Stars-w.Stars)))
		case p.Stars < w.Stars:
			out = append(out, fmt.Sprintf("%s loses %s", p.Name, starCount(w.Stars-p.Stars)))
		}
	}
	for _, e := range events {
		if e.Kind != "news" || !strings.Contains(e.Text, "minigame results") {
			continue
		}
		best, names := 0, []string(nil)
		for _, p := range s.Players {
			switch {
			case p.Prize > best:
				best, names = p.Prize, []string{p.Name}
			case p.Prize == best && best > 0:
				names = append(names, p.Name)
			}
		}
		if best > 0 {
			out = append(out, fmt.Sprintf("%s %s the week's minigames (+%s)", words.List(names), words.Verb(len(names), "tops", "top"), words.Count(best, "coin")))
		}
	}
	return out
}

func starCount(n int) string {
	if n == 1 {
		return "a star"
	}
	return words.Count(n, "star")
}
