package rtd

import (
	"strings"

	"pitwall/internal/words"
	"pitwall/race"
)

// Moments implements race.Headliner: the blue shell's strike, the racers
// spun out, flipped or thrown by items, rams that struck, wipe-outs that
// fall back a segment, racers who pulled ahead, and the rocket starts
// nailed or fluffed, in the order they came.
func (Ruleset) Moments(before, after race.State, events []race.Event) []string {
	var out, nailed, fluffed, blasted []string
	blast := -1 // where the blast's victims are told, together
	// An item's hit that follows what brought it on the same racer (the
	// blue shell's strike, a dragged item run into) joins its moment.
	joinSeat, join := -1, ""
	race.EachEvent[*State](after, events, func(e race.Event, name string, seats []race.Seat) {
		t := e.Text
		if e.Kind == "hit" && e.Seat == joinSeat && len(out) > 0 {
			out[len(out)-1] += join + strings.TrimPrefix(hitMoment(name, t), name)
			joinSeat = -1
			return
		}
		joinSeat = -1
		switch {
		case e.Kind == "blue shell" && strings.Contains(t, "strikes the leader"):
			out = append(out, "the blue shell strikes "+name)
			joinSeat, join = e.Seat, ", who"
		case e.Kind == "hit":
			out = append(out, hitMoment(name, t))
			joinSeat, join = e.Seat, " and"
		case e.Kind == "blast" && strings.Contains(t, " is caught in the blast"):
			if blast < 0 {
				blast = len(out)
				out = append(out, "")
			}
			blasted = append(blasted, name)
			out[blast] = words.List(blasted) + words.Verb(len(blasted), " spins", " spin") + " out in the blast"
		case e.Kind == "ram" && !strings.Contains(t, "bounces off") && !strings.Contains(t, "cannot touch"):
			if o, ok := race.NamedIn(t, seats, e.Seat); ok {
				out = append(out, name+" rams "+o.Name)
			}
		case e.Kind == "fall back" && strings.Contains(t, "wipes out and falls back"):
			out = append(out, name+" wipes out and falls back")
		case e.Kind == "pull ahead" && strings.HasPrefix(t, name+" pulls ahead (") && !strings.Contains(t, "is caught"):
			out = append(out, name+" pulls ahead")
		case e.Kind == "start" && strings.Contains(t, "fluffs the rocket start"):
			fluffed = append(fluffed, name)
		case e.Kind == "start" && strings.Contains(t, "nails the rocket start"):
			nailed = append(nailed, name)
		}
	})
	// The start, said once for all who nailed or fluffed it.
	if len(nailed) > 0 {
		out = append(out, words.List(nailed)+words.Verb(len(nailed), " nails", " nail")+" the rocket start")
	}
	if len(fluffed) > 0 {
		out = append(out, words.List(fluffed)+words.Verb(len(fluffed), " fluffs", " fluff")+" the rocket start")
	}
	return out
}

// hitMoment is what an item did to name: the event's words up to the
// Momentum it cost ("Daisy flips", "Mario spins out on the banana").
func hitMoment(name, text string) string {
	rest := strings.TrimPrefix(text, name)
	if i := strings.Index(rest, ":"); i >= 0 {
		rest = rest[:i]
	}
	return name + rest
}
