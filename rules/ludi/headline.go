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
	for i, e := range events {
		name := race.NameOf(seats, e.Seat)
		switch e.Kind {
		case "naufragia":
			out = append(out, "naufragia: "+name+" overturns")
		case "crash":
			// A crash that strikes home rolls its damage, and what it did
			// is told next, of the chariot it struck.
			if struck(e) && i+1 < len(events) && events[i+1].Seat != e.Seat {
				if d := race.NameOf(seats, events[i+1].Seat); d != "" {
					out = append(out, name+" crashes into "+d)
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

// struck says whether a crash event struck home: it rolled for damage.
func struck(e race.Event) bool {
	for _, r := range e.Rolls {
		if strings.HasSuffix(r.Reason, ": crash damage") {
			return true
		}
	}
	return false
}
