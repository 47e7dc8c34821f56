package gaslands

import (
	"strings"

	"pitwall/race"
)

// Moments implements race.Headliner: the activation's wipe-outs, spins,
// collisions between karts, shells thrown and Bullet Bills fired, in the
// order they came.
func (Ruleset) Moments(before, after race.State, events []race.Event) []string {
	var out []string
	race.EachEvent[*State](after, events, func(e race.Event, name string, seats []race.Seat) {
		t := e.Text
		switch e.Kind {
		case "wipeout":
			out = append(out, name+" wipes out")
		case "spin":
			if !strings.Contains(t, "less than a degree") {
				out = append(out, name+" spins")
			}
		case "collision":
			o, ok := race.NamedIn(t, seats, e.Seat)
			switch {
			case !ok:
			case name != "":
				out = append(out, name+" and "+o.Name+" collide")
			case strings.Contains(t, "Bullet Bill"):
				out = append(out, "the Bullet Bill hits "+o.Name)
			}
		case "attack":
			// "Yoshi throws a red shell at Peach (90 mm): ..."
			if strings.HasPrefix(t, name+" throws ") {
				if i := strings.Index(t, " ("); i > 0 {
					out = append(out, t[:i])
				}
			}
		case "item":
			if strings.Contains(t, "fires a Bullet Bill") {
				out = append(out, name+" fires a Bullet Bill")
			}
		}
	})
	return out
}
