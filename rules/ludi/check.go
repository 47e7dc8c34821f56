package ludi

import "pitwall/race"

// CheckFlags implements race.OrderChecker: ludi's orders need no state.
func (Ruleset) CheckFlags() []race.Flag { return nil }

// CheckOrder implements race.OrderChecker: it reads a turn's orders and
// lists each step with its contingency.
func (Ruleset) CheckOrder(_ map[string]string, text string) (map[string]any, error) {
	o, err := ParseOrders(text)
	if err != nil {
		return nil, err
	}
	steps := []map[string]string{}
	for _, s := range o.Steps {
		m := map[string]string{"order": s.Kind.String()}
		if s.Contingency != nil {
			m["contingency"] = s.Contingency.String()
		}
		steps = append(steps, m)
	}
	return map[string]any{"orders": o.String(), "steps": steps, "bonus": o.Bonus}, nil
}
