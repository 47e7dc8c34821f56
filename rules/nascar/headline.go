package nascar

import (
	"fmt"
	"slices"

	"pitwall/internal/words"
	"pitwall/race"
)

// Moments implements race.Headliner: the turn's crashes, then the cars that
// left the track, the repairs at the PP mark, the first car onto the last
// lap, the sandbags hit and a race called.
func (Ruleset) Moments(before, after race.State, events []race.Event) []string {
	was, ok1 := before.(*State)
	s, ok2 := after.(*State)
	if !ok1 || !ok2 {
		return nil
	}
	seats := s.Seats()
	var crashes, out []string
	var off, bags []string
	called := false
	for _, e := range events {
		name := race.NameOf(seats, e.Seat)
		switch e.Kind {
		case "crash":
			if o, ok := race.NamedIn(e.Text, seats, e.Seat); ok {
				crashes = append(crashes, fmt.Sprintf("%s crashes into %s", name, o.Name))
			}
		case "off":
			off = appendOnce(off, name)
		case "sandbag":
			bags = appendOnce(bags, name)
		case "end":
			called = true
		}
	}
	out = append(out, crashes...)
	if len(off) > 0 {
		out = append(out, words.List(off)+words.Verb(len(off), " goes", " go")+" off the track")
	}
	for _, c := range s.order() {
		if w := was.car(c.Seat); w != nil && c.MaxSpeed > w.MaxSpeed {
			out = append(out, fmt.Sprintf("%s is repaired in the pits (max speed %d)", c.Name, c.MaxSpeed))
		}
	}
	// The first car onto the last lap is the news, once.
	first := true
	for _, w := range was.Cars {
		first = first && w.Crossings < s.Laps
	}
	for _, c := range s.order() {
		if w := was.car(c.Seat); first && w != nil && c.Crossings == s.Laps {
			out = append(out, c.Name+" starts the last lap")
			break
		}
	}
	if len(bags) > 0 {
		out = append(out, words.List(bags)+words.Verb(len(bags), " hits a hidden sandbag", " hit hidden sandbags"))
	}
	if called {
		out = append(out, fmt.Sprintf("the race is called after %s", words.Count(s.MaxTurns(), "turn")))
	}
	return out
}

// appendOnce adds x to xs unless it is there.
func appendOnce(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}
