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
func (Ruleset) CheckOrder(_ map[string]string, text string) (race.CheckedOrder, error) {
	m := DefaultManeuvers()
	o, err := Parse(text, m)
	if err != nil {
		return race.CheckedOrder{}, err
	}
	t, _ := m.Template(o.Template)
	var classes []string
	for g := 1; g <= MaxGear; g++ {
		classes = append(classes, fmt.Sprintf("%d: %s", g, m.Class(t.Name, g)))
	}
	says := []string{fmt.Sprintf("%s: the %s template, %s.", o, o.Template, plural(o.Skid, "skid die"))}
	if o.Push {
		says = append(says, "Push It: every die not showing SHIFT is rolled again, once.")
	}
	switch {
	case o.Shift > 0:
		says = append(says, fmt.Sprintf("SHIFT results shift up to %s.", plural(o.Shift, "gear")))
	case o.Shift < 0:
		says = append(says, fmt.Sprintf("SHIFT results shift down up to %s.", plural(-o.Shift, "gear")))
	}
	says = append(says, "By gear: "+strings.Join(classes, ", ")+".")
	return race.CheckedOrder{Says: says, Fields: map[string]any{"order": o.String(), "template": o.Template, "skid_dice": o.Skid, "push": o.Push, "shift": o.Shift,
		"gears": strings.Join(classes, ", ")}}, nil
}
