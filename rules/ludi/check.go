package ludi

import (
	"fmt"

	"pitwall/internal/words"
	"pitwall/race"
)

// CheckFlags implements race.OrderChecker: ludi's orders need no state.
func (Ruleset) CheckFlags() []race.Flag { return nil }

// CheckOrder implements race.OrderChecker: it reads a turn's orders and
// lists each step with its contingency.
func (Ruleset) CheckOrder(_ map[string]string, text string) (race.CheckedOrder, error) {
	o, err := ParseOrders(text)
	if err != nil {
		return race.CheckedOrder{}, err
	}
	steps := []map[string]string{}
	says := []string{fmt.Sprintf("%s: a turn of %s:", o, words.Count(len(o.Steps), "order"))}
	for i, s := range o.Steps {
		m := map[string]string{"order": s.Kind.String()}
		line := fmt.Sprintf("  %d. %s", i+1, s.Kind)
		if s.Contingency != nil {
			m["contingency"] = s.Contingency.String()
			line += fmt.Sprintf(", or %s if a chariot is in the way", s.Contingency)
		}
		steps = append(steps, m)
		says = append(says, line)
	}
	switch o.Bonus {
	case "move":
		says = append(says, "Sent in the bonus window: +1 space on the next move.")
	case "initiative":
		says = append(says, "Sent in the bonus window: +1 Quality for the turn order.")
	}
	return race.CheckedOrder{Fields: map[string]any{"orders": o.String(), "steps": steps, "bonus": o.Bonus}, Says: says}, nil
}
