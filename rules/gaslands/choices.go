package gaslands

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"pitwall/race"
)

// Choices is what a kart may order in its activation, as data (race.Chooser):
// the templates with their class in the kart's gear, then the parts an order
// may add after the template (skid dice, Push It and shifts, a spin, the move
// off a boost, an item, smash or evade). Each says whether it is allowed now
// and, when not, the code and reason of the error the order would get. The
// odds beside the templates and the skid choices are exact, worked out over
// the skid die's faces.
type Choices struct {
	// Orders is 1 in the kart's activation, 0 when it has nothing to order
	// (another kart's activation, the race over, the kart finished); the
	// lists are then empty and Note says why.
	Orders int    `json:"orders"`
	Note   string `json:"note,omitempty"`
	Kart   string `json:"kart"`
	Round  int    `json:"round"`
	Phase  int    `json:"phase"`
	// The kart now: what its choices depend on.
	Gear     int    `json:"gear"`
	MaxGear  int    `json:"max_gear"`
	Handling int    `json:"handling"` // the most skid dice it may roll
	Hazards  int    `json:"hazards"`
	Item     string `json:"item,omitempty"`
	Collide  string `json:"collide"` // smash or evade, kept until changed
	// Templates is every template of the race with each side, permitted in
	// the kart's gear or not: an order starts with one of them.
	Templates []TemplateChoice `json:"templates,omitempty"`
	// The rest are written after the template, in any order; each is judged
	// with the first allowed template. Skid lists every number of skid dice
	// up to the most any kart may roll, with Push It and each shift.
	Skid  []SkidChoice   `json:"skid,omitempty"`
	Spin  []Choice       `json:"spin,omitempty"`
	Boost []Choice       `json:"boost,omitempty"`
	Items []TargetChoice `json:"items,omitempty"`
	// Collision is smash or evade: what the kart does in collisions from now on.
	Collision []Choice `json:"collision,omitempty"`
}

// Choice is one order, or one part of an order, and whether it may be given now.
type Choice = race.OrderChoice

// TemplateChoice is a template and side, its class in the kart's gear, and
// the odds of taking it with no skid dice (only the class acts then).
type TemplateChoice struct {
	Choice
	Template string    `json:"template"`
	Side     string    `json:"side,omitempty"` // left or right; none for a straight
	Class    string    `json:"class"`          // trivial, permitted, hazardous or not permitted
	Odds     *StepOdds `json:"odds,omitempty"`
}

// SkidChoice is a number of skid dice, pushed or not, with the gears to
// shift, and its odds for each class of template allowed now.
type SkidChoice struct {
	Choice
	Dice  int                 `json:"dice"`
	Push  bool                `json:"push,omitempty"`
	Shift int                 `json:"shift,omitempty"` // +up, -down
	Odds  map[string]StepOdds `json:"odds,omitempty"`  // by class: "permitted", ...
}

// StepOdds are the exact odds of what the chart's class and the skid dice
// leave, before the move. Later hazards (off the road, Push It off the road,
// a boost, collisions) come on top and depend on the table, so they are not
// counted here.
type StepOdds struct {
	Hazards map[string]float64 `json:"hazards"` // tokens gained, net: "-1" (one shed), "0", "1", ...
	Gear    map[string]float64 `json:"gear"`    // the kart's gear after its shifts
	Slide   float64            `json:"slide"`   // a SLIDE stands: the kart slides on after the move
	Spin    float64            `json:"spin"`    // a SPIN stands: the kart spins after the move
	// Wipeout: 6 or more tokens after the step, so the kart wipes out at the
	// end of the activation (unless it finishes on the way).
	Wipeout float64 `json:"wipeout"`
}

// TargetChoice is an item order: a shell at a target, or a Bullet Bill.
// Reach, cover and odds are from where the kart stands now (measuring before
// an attack is allowed); the shell is thrown after the move.
type TargetChoice struct {
	Choice
	Target  string             `json:"target,omitempty"` // a kart's name, or nearest
	InReach bool               `json:"in_reach,omitempty"`
	Range   float64            `json:"range_mm,omitempty"`
	Cover   bool               `json:"cover,omitempty"`
	Blocked string             `json:"blocked,omitempty"` // why it could not be thrown from here
	Odds    map[string]float64 `json:"odds,omitempty"`    // hazard tokens the target takes, thrown from here
}

// Choices implements race.Chooser.
func (Ruleset) Choices(st race.State, seat int) (any, error) {
	s, ok := st.(*State)
	if !ok {
		return nil, errors.New("not a gaslands state")
	}
	if err := s.seated(seat); err != nil {
		return nil, err
	}
	k := s.Karts[seat]
	out := Choices{Kart: k.Name, Round: s.Round, Phase: s.Phase, Gear: k.Gear, MaxGear: k.MaxGear, Handling: k.Handling,
		Hazards: k.Hazards, Item: k.Item, Collide: k.Collide}
	switch {
	case s.Done || s.Active < 0:
		out.Note = "the race is over"
		return out, nil
	case k.Finished:
		out.Note = fmt.Sprintf("%s has finished", k.Name)
		return out, nil
	case seat != s.Active:
		out.Note = fmt.Sprintf("it is %s's activation (round %d, gear phase %d)", s.Karts[s.Active].Name, s.Round, s.Phase)
		return out, nil
	}
	out.Orders = 1
	out.Templates = s.templateChoices(seat)
	base := s.baseOrder(seat)
	var classes []Class
	for _, c := range []Class{Trivial, Permitted, Hazardous} {
		for _, name := range s.M.Allowed(k.Gear) {
			if s.M.Class(name, k.Gear) == c {
				classes = append(classes, c)
				break
			}
		}
	}
	// A shift takes a SHIFT a gear, of the dice or a trivial template's free
	// one, and a kart has MaxGear-1 gears to shift through. No dice and no
	// shift is the template's own odds.
	free := 0
	if slices.ContainsFunc(classes, func(c Class) bool { return s.skidRule(c, base).freeShift }) {
		free = 1
	}
	for n := 0; n <= MaxSkidDice; n++ {
		for _, push := range []bool{false, true} {
			if push && n == 0 {
				continue
			}
			most := min(n+free, MaxGear-1)
			for shift := -most; shift <= most; shift++ {
				if n == 0 && shift == 0 {
					continue
				}
				o := base
				o.Skid, o.Push, o.Shift = n, push, shift
				sc := SkidChoice{Choice: s.part(seat, base, o), Dice: n, Push: push, Shift: shift}
				if sc.Allowed {
					sc.Odds = map[string]StepOdds{}
					for _, c := range classes {
						r := s.skidRule(c, o)
						if abs(shift) <= n || r.freeShift { // the orders this class takes
							sc.Odds[c.String()] = stepOdds(r, k.Hazards, k.Gear, k.MaxGear, n, push, shift)
						}
					}
				}
				out.Skid = append(out.Skid, sc)
			}
		}
	}
	for _, left := range []bool{true, false} {
		o := base
		o.SpinSet, o.SpinLeft, o.SpinDeg = true, left, 90
		c := s.part(seat, base, o)
		side := sideName(left)
		// 90 degrees is the most and the default; a number, 1 to 89, turns less
		c.Words = []string{"spin " + side, "spin " + side + " 90"}
		out.Spin = append(out.Spin, c)
	}
	for _, b := range BoostTemplates {
		t, err := s.M.Template(b)
		if err != nil {
			continue // this race has no such template: no boost to it
		}
		for _, left := range []bool{false, true} {
			o := base
			o.Boost, o.BoostLeft = b, left
			out.Boost = append(out.Boost, s.part(seat, base, o))
			if t.Straight() {
				break
			}
		}
	}
	out.Items = s.itemChoices(seat, base)
	for _, w := range []string{"smash", "evade"} {
		o := base
		o.Collide = w
		out.Collision = append(out.Collision, s.part(seat, base, o))
	}
	return out, nil
}

// templateChoices lists every template and side with its class and odds.
func (s *State) templateChoices(i int) []TemplateChoice {
	k := s.Karts[i]
	var out []TemplateChoice
	for _, t := range s.M.Templates {
		sides := []bool{false}
		if !t.Straight() {
			sides = []bool{true, false}
		}
		for _, left := range sides {
			o := Order{Template: t.Name, Side: !t.Straight(), Left: left}
			c := s.choice(i, o)
			c.Words = []string{o.String()}
			tc := TemplateChoice{Choice: c, Template: t.Name, Class: s.M.Class(t.Name, k.Gear).String()}
			if o.Side {
				tc.Side = sideName(left)
			}
			if c.Allowed {
				odds := stepOdds(s.skidRule(s.M.Class(t.Name, k.Gear), o), k.Hazards, k.Gear, k.MaxGear, 0, false, 0)
				tc.Odds = &odds
			}
			out = append(out, tc)
		}
	}
	return out
}

// baseOrder is the first template the kart's gear permits, the right side
// for a curve: the order the parts after a template are judged with.
func (s *State) baseOrder(i int) Order {
	name := s.M.Allowed(s.Karts[i].Gear)[0] // every gear permits one (Maneuvers.check)
	t, _ := s.M.Template(name)
	return Order{Template: t.Name, Side: !t.Straight()}
}

// choice is order o as a choice: allowed, or the code and reason it is refused with.
func (s *State) choice(i int, o Order) Choice {
	return race.Judge(o.String(), nil, s.legal(i, o))
}

// part is o, base with a part added, as a choice named by that part's text.
func (s *State) part(i int, base, o Order) Choice {
	c := s.choice(i, o)
	c.Order = strings.TrimPrefix(c.Order, base.String()+" ")
	c.Words = []string{c.Order}
	return c
}

// itemChoices: a shell at each kart (itself and the finished ones refused)
// or at the nearest, and a Bullet Bill.
func (s *State) itemChoices(i int, base Order) []TargetChoice {
	k := s.Karts[i]
	var out []TargetChoice
	for j, x := range s.Karts {
		o := base
		o.Shell = x.Name
		c := TargetChoice{Choice: s.part(i, base, o), Target: x.Name}
		// a seat number names the kart too
		c.Words = append(c.Words, "shell "+strconv.Itoa(x.Seat+1))
		if c.Allowed {
			a := Aim(s, i, j, k.Item)
			c.Range, c.Cover, c.Blocked = a.Range, a.Cover, a.Reason
			if a.Reason == "" {
				c.InReach = true
				n := ShellDice
				if a.Cover {
					n--
				}
				c.Odds = hazardOdds(n, x.Gear, s.SixIsOne)
			}
		}
		out = append(out, c)
	}
	o := base
	o.Shell = NearestTarget
	c := TargetChoice{Choice: s.part(i, base, o), Target: NearestTarget}
	if c.Allowed {
		if j := s.nearestTarget(i); j >= 0 {
			c.InReach = true
		} else {
			c.Blocked = "no kart is in reach from here"
		}
	}
	out = append(out, c)
	o = base
	o.Bill = true
	out = append(out, TargetChoice{Choice: s.part(i, base, o)})
	return out
}

// skidRule is what the skid step of order o with a template of class c
// goes by in this race: the class, the trivial reading, the SPIN kept.
type skidRule struct {
	class     Class
	freeShift bool // a trivial template's free SHIFT (trivial=shift)
	shedToken bool // a trivial template sheds a token (trivial=token)
	discard   []Skid
}

func (s *State) skidRule(c Class, o Order) skidRule {
	return skidRule{class: c, freeShift: c == Trivial && !s.TrivialToken, shedToken: c == Trivial && s.TrivialToken, discard: discardOrder(o)}
}

// stepOdds works out, count of faces by count of faces, what skidStep
// leaves: the same steps in the same order (the class, the shifts, SHIFTs
// cancelling SLIDE, SPIN and HAZARD, then tokens). TestStepOddsMatchTheDice
// holds the two together.
func stepOdds(r skidRule, tokens, gear, maxGear, dice int, push bool, shift int) StepOdds {
	out := StepOdds{Hazards: map[string]float64{}, Gear: map[string]float64{}}
	dir := 1
	if shift < 0 {
		dir = -1
	}
	counts := skidCounts(dice, push)
	for _, n := range sortedCounts(counts) {
		p := counts[n]
		h, g := tokens, gear
		switch {
		case r.class == Hazardous:
			h++
		case r.shedToken && h > 0:
			h--
		}
		shifts := n[Shift]
		if r.freeShift {
			shifts++
		}
		for m := abs(shift); m > 0 && shifts > 0 && g+dir >= 1 && g+dir <= maxGear; m-- {
			shifts--
			g += dir
			h++
		}
		for _, f := range r.discard {
			for shifts > 0 && n[f] > 0 {
				shifts--
				n[f]--
			}
		}
		for ; shifts > 0 && h > 0; shifts-- {
			h--
		}
		h += n[Hazard] + n[Slide] + n[Spin]
		out.Hazards[strconv.Itoa(h-tokens)] += p
		out.Gear[strconv.Itoa(g)] += p
		if n[Slide] > 0 {
			out.Slide += p
		}
		if n[Spin] > 0 {
			out.Spin += p
		}
		if h >= 6 {
			out.Wipeout += p
		}
	}
	return out
}
