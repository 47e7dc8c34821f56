package nascar

import (
	"fmt"
	"strings"

	"pitwall/internal/words"
	"pitwall/race"
)

// CheckFlags implements race.OrderChecker: the car's state.
func (Ruleset) CheckFlags() []race.Flag {
	return []race.Flag{
		{Name: "speed", Values: fmt.Sprintf("0..%d", maxMaxSpeed), Need: true},
		{Name: "heading", Values: "N|NE|E|SE|S|SW|W|NW", Need: true},
		{Name: "max-speed", Values: fmt.Sprintf("%d..%d (default %d)", MinMaxSpeed, maxMaxSpeed, StartMaxSpeed)},
		{Name: "wildcards", Values: fmt.Sprintf("0..99 (default %d)", StartWildcards)},
		{Name: "upgrade", Values: "none|turbo|swaybars|performance"},
		{Name: "slipstream", Bool: true, Values: "the car starts right behind one going its way, or was put behind in a crash last turn"},
		{Name: "draft", Bool: true, Values: "check the order as a draft: is it whole, and which letters may come next"},
	}
}

// CheckOrder implements race.OrderChecker: it traces the order from square
// [0, 0], as the contract says, step by step.
func (Ruleset) CheckOrder(flags map[string]string, text string) (race.CheckedOrder, error) {
	c := Car{}
	var err error
	if c.Speed, err = race.IntFlag(flags, "speed", 0, 0, maxMaxSpeed); err != nil {
		return race.CheckedOrder{}, err
	}
	if c.MaxSpeed, err = race.IntFlag(flags, "max-speed", StartMaxSpeed, MinMaxSpeed, maxMaxSpeed); err != nil {
		return race.CheckedOrder{}, err
	}
	if c.Wildcards, err = race.IntFlag(flags, "wildcards", StartWildcards, 0, 99); err != nil { // the contract: 6, whatever the upgrade
		return race.CheckedOrder{}, err
	}
	if c.Heading, err = ParseHeading(flags["heading"]); err != nil {
		return race.CheckedOrder{}, fmt.Errorf("--heading: %v", err)
	}
	if u, set := flags["upgrade"]; set {
		if c.Upgrade, err = ParseUpgrade(u); err != nil {
			return race.CheckedOrder{}, fmt.Errorf("--upgrade: %v", err)
		}
	}
	if c.Speed > c.MaxSpeed {
		return race.CheckedOrder{}, fmt.Errorf("--speed %d is above the max speed %d", c.Speed, c.MaxSpeed)
	}
	c.CanSlipstream = flags["slipstream"] == "true"
	if flags["draft"] == "true" {
		d := Draft(c, text)
		out := map[string]any{"draft": d.Draft, "complete": d.Complete, "next": d.Next}
		if d.Code != "" {
			out["code"], out["reason"] = d.Code, d.Reason
		}
		says := []string{fmt.Sprintf("%q is not yet a whole order; next may come: %s.", d.Draft, strings.Join(d.Next, " "))}
		switch {
		case d.Complete && len(d.Next) > 0:
			says[0] = fmt.Sprintf("%q is a whole order as it stands; more may follow: %s.", d.Draft, strings.Join(d.Next, " "))
		case d.Complete:
			says[0] = fmt.Sprintf("%q is a whole order, and nothing more may follow.", d.Draft)
		case len(d.Next) == 0:
			says[0] = fmt.Sprintf("%q cannot be finished legally.", d.Draft)
		}
		if d.Reason != "" {
			says = append(says, d.Reason)
		}
		if d.Plan != nil {
			out["speed_this_turn"], out["speed"], out["wildcards_used"] = d.Plan.TurnSpeed, d.Plan.EndSpeed, d.Plan.Wildcards
			says = append(says, planSays(*d.Plan)...)
		}
		return race.CheckedOrder{Fields: out, Says: says}, nil
	}
	o, err := Parse(text)
	if err != nil {
		return race.CheckedOrder{}, err
	}
	p, err := Check(o, c)
	if err != nil {
		return race.CheckedOrder{}, err
	}
	path := p.Path
	if path == nil {
		path = [][2]int{}
	}
	return race.CheckedOrder{Says: append([]string{o.String() + ":"}, planSays(p)...), Fields: map[string]any{"speed": p.EndSpeed, "speed_this_turn": p.TurnSpeed, "heading": p.Heading.String(),
		"path": path, "wildcards_used": p.Wildcards, "order": o.String()}}, nil
}

// planSays is what an order does, in sentences: the squares from (0,0) and
// the speeds.
func planSays(p Plan) []string {
	var sq []string
	for _, q := range p.Path {
		sq = append(sq, fmt.Sprintf("(%d,%d)", q[0], q[1]))
	}
	path := "stays on (0,0)"
	if len(sq) > 0 {
		path = "from (0,0) to " + strings.Join(sq, ", ")
	}
	return []string{
		fmt.Sprintf("Moves %s at speed %d, %s, ending heading %s.", words.Count(p.TurnSpeed, "square"), p.TurnSpeed, path, p.Heading),
		fmt.Sprintf("Speed %d after the turn; %s used.", p.EndSpeed, words.Count(p.Wildcards, "wildcard")),
	}
}
