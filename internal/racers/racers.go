// Package racers reads the racers' names of a race's entrants: each one
// named as no other racer in the race is, and, in the games in which every
// entrant enters one racer, that one.
package racers

import (
	"fmt"
	"strings"

	"pitwall/internal/words"
	"pitwall/race"
)

// Names are the racers' names taken so far in a race, in lower case: two
// names that differ only in case would read as one racer in the orders.
type Names map[string]bool

// One is the name of e's one racer, trimmed, and takes it; refused when e
// enters more or fewer, or the name is empty or taken. racer is what the
// game calls one ("car"), rule how many an entrant enters ("a driver
// enters one").
func (n Names) One(e race.Entrant, racer, rule string) (string, error) {
	if len(e.Racers) != 1 {
		return "", fmt.Errorf("%s enters %d %s; %s", e.Player, len(e.Racers), words.Plural(racer), rule)
	}
	return n.Take(e.Player, racer, e.Racers[0])
}

// Take is name, trimmed, for one of player's racers, and takes it; refused
// when it is empty or taken.
func (n Names) Take(player, racer, name string) (string, error) {
	name = strings.TrimSpace(name)
	if name == "" || n[strings.ToLower(name)] {
		return "", fmt.Errorf("%s: every %s needs a name of its own; %q is empty or taken", player, racer, name)
	}
	n[strings.ToLower(name)] = true
	return name, nil
}
