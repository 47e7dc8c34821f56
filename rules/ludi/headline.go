package ludi

import (
	"strings"

	"pitwall/race"
)

// Moments implements race.Headliner: the turn's naufragiae, the crashes
// that struck home, and the lashes that stunned, in the order they came.
func (Ruleset) Moments(before, after race.State, events []race.Event) []string {
	var out []string
	race.EachEvent[*State](after, events, func(e race.Event, name string, seats []race.Seat) {
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
	})
	return out
}
