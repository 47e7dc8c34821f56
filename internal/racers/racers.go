// Package racers reads the racers of games in which every entrant enters
// one racer, named as no other racer in the race is.
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
	name := strings.TrimSpace(e.Racers[0])
	if name == "" || n[strings.ToLower(name)] {
		return "", fmt.Errorf("%s: every %s needs a name of its own; %q is empty or taken", e.Player, racer, name)
	}
	n[strings.ToLower(name)] = true
	return name, nil
}
