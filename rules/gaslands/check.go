package gaslands

import (
	"fmt"
	"strings"

	"pitwall/race"
)

// CheckFlags implements race.OrderChecker: the default templates are used.
func (Ruleset) CheckFlags() []race.Flag { return nil }

// CheckOrder implements race.OrderChecker: it reads an activation's orders
// with the default templates and gives the template's class in each gear.
func (Ruleset) CheckOrder(_ map[string]string, text string) (map[string]any, error) {
	m := DefaultManeuvers()
	o, err := Parse(text, m)
	if err != nil {
		return nil, err
	}
	t, _ := m.Template(o.Template)
	var classes []string
	for g := 1; g <= MaxGear; g++ {
		classes = append(classes, fmt.Sprintf("%d: %s", g, m.Class(t.Name, g)))
	}
	return map[string]any{"order": o.String(), "template": o.Template, "skid_dice": o.Skid, "push": o.Push, "shift": o.Shift,
		"gears": strings.Join(classes, ", ")}, nil
}
