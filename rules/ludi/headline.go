package ludi

import (
	"strings"

	"pitwall/race"
)

// Moments implements race.Headliner: the turn's naufragiae, the crashes
// that struck home, and the lashes that stunned, in the order they came.
func (Ruleset) Moments(before, after race.State, events []race.Event) []string {
	s, ok := after.(*State)
	if !ok {
		return nil
	}
	seats := s.Seats()
	var out []string
	for _, e := range events {
		name := race.NameOf(seats, e.Seat)
		switch e.Kind {
		case "naufragia":
			out = append(out, "naufragia: "+name+" overturns")
		case "crash":
			// A crash that strikes home says so ("crashes into the horses
			// of D"); one that misses swerves with no contact.
			if strings.Contains(e.Text, " crashes into ") {
				if d, ok := race.NamedIn(e.Text, seats, e.Seat); ok {
					out = append(out, name+" crashes into "+d.Name)
				}
			}
		case "lacerate":
			if strings.Contains(e.Text, " is stunned for ") {
				if d, ok := race.NamedIn(e.Text, seats, e.Seat); ok {
					out = append(out, name+"'s whip stuns "+d.Name)
				}
			}
		}
	}
	return out
}
