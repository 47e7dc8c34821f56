package race

import "strings"

// Headliner is a ruleset that names the moments of a turn a post's headline
// tells: a crash, a spin, a wreck, a pit stop, each short and with its
// racers' names ("Jaws crashes into Blue Deuce"), in the order the game
// gives them: the host tells the first three.
// before and after are the states around the turn, events its story. The
// host says itself who won, finished, went out or took the lead, from the
// standings, so the moments leave those out; a game that is not a Headliner
// gets that much.
type Headliner interface {
	Moments(before, after State, events []Event) []string
}

// NamedIn is the seat, other than not, whose racer's name comes first in
// text, read from the left with the longest name that fits at each place
// ("Gaius Minor", not "Gaius"); the racer not's own name is passed over. A
// game's moments find the other racer of an event with it: the one its text
// names after the racer the event belongs to.
func NamedIn(text string, seats []Seat, not int) (Seat, bool) {
	for i := 0; i < len(text); {
		var best Seat
		for _, s := range seats {
			if s.Name != "" && len(s.Name) > len(best.Name) && strings.HasPrefix(text[i:], s.Name) {
				best = s
			}
		}
		switch {
		case best.Name == "":
			i++
		case best.Seat == not:
			i += len(best.Name)
		default:
			return best, true
		}
	}
	return Seat{}, false
}

// NameOf is the name of seat among seats, or "" when no racer sits there.
func NameOf(seats []Seat, seat int) string {
	for _, s := range seats {
		if s.Seat == seat {
			return s.Name
		}
	}
	return ""
}
