package rtd

import (
	"fmt"
	"strconv"
	"strings"

	"pitwall/race"
)

// Choices is what an rtd racer may order this turn, as data (race.Chooser):
// every action with whether it is allowed now (and if not, the code and
// reason ParseOrder gives), the exact odds of what the dice decide for it,
// the segment's alternate paths and who an item may be aimed at.
type Choices struct {
	Start       bool   `json:"start"` // turn 0: a rocket start or a safe start, nothing else
	Place       int    `json:"place"` // 1 = first
	Momentum    int    `json:"momentum"`
	MaxMomentum int    `json:"max_momentum"`
	Segment     string `json:"segment"`
	Shape       string `json:"shape"`          // sets the Power Slide's modifier
	Hand        string `json:"hand,omitempty"` // the item in front, if any: what a bare 'item' deploys
	// Items are every item held, the item in front first (dragged items
	// lead: one must be used before any other is deployed).
	Items []string `json:"items,omitempty"`
	// Ahead is the racer just ahead in the segment: whom a draft, a power
	// slide or a mushroom tries to pass.
	Ahead string `json:"ahead,omitempty"`
	// Actions lists every order the racer can give, allowed now or not; an
	// item aimed at a racer is one choice per racer it can reach.
	Actions []Choice     `json:"actions"`
	Paths   []PathChoice `json:"paths,omitempty"`
	Targets []Target     `json:"targets,omitempty"`
	Note    string       `json:"note,omitempty"`
}

// Choice is one order and whether it may be given now.
type Choice struct {
	race.OrderChoice
	// Odds are the exact chances of what the dice decide for this order,
	// the others as they stand and doing nothing before it (docs/choices.md
	// names the keys); Defended is the same with every racer ahead in the
	// running order driving defensively, given when it differs.
	Odds     map[string]float64 `json:"odds,omitempty"`
	Defended map[string]float64 `json:"defended,omitempty"`
	// Hits are, for an item, the racers it may touch and how likely; with
	// HitsDefended as Defended is to Odds.
	Hits         []Hit `json:"hits,omitempty"`
	HitsDefended []Hit `json:"hits_defended,omitempty"`
}

// Hit is the chance that an item knocks a racer (Momentum lost, or shrunk)
// or takes its item without a knock (a shell on a dragged item, a boo).
type Hit struct {
	Name     string  `json:"name"`
	Seat     int     `json:"seat"`
	Hit      float64 `json:"hit"`
	ItemLost float64 `json:"item_lost,omitempty"`
}

// PathChoice is one of the segment's alternate paths.
type PathChoice struct {
	Order    string `json:"order"` // "path 1"
	Name     string `json:"name"`
	Item     string `json:"item,omitempty"`  // used up to enter it
	Check    *int   `json:"check,omitempty"` // the entry check's modifier, if it has one
	Skip     bool   `json:"skip,omitempty"`  // a shortcut past the next segment
	Momentum int    `json:"momentum,omitempty"`
}

// Target is another racer still racing, and how an item reaches it now.
type Target struct {
	Name        string `json:"name"`
	Seat        int    `json:"seat"`
	Place       int    `json:"place"`
	SameSegment bool   `json:"same_segment"`
	// Throw: a throw at this racer can land (ahead in the segment, not
	// just ahead); a throw at anyone else is laid behind instead.
	Throw bool `json:"throw"`
}

// Choices implements race.Chooser.
func (Ruleset) Choices(st race.State, seat int) (any, error) {
	s, x, err := race.Seated("an rtd state", st, seat, (*State).orderer)
	if err != nil {
		return nil, err
	}
	seg := s.course.Segments[x.Segment]
	out := Choices{Start: s.T == 0, Place: s.position(seat), Momentum: x.Momentum, MaxMomentum: MaxMomentum(x.Debuff),
		Segment: seg.Name, Shape: string(seg.Shape)}
	if x.Hand != 0 {
		out.Hand = x.Hand.String()
	}
	for _, it := range x.items() {
		out.Items = append(out.Items, it.String())
	}
	g, pos := s.segmentGroup(x)
	if pos > 0 {
		out.Ahead = g[pos-1].Name
	}
	for _, y := range s.running() {
		if y == x {
			continue
		}
		yp := indexOf(g, y)
		out.Targets = append(out.Targets, Target{Name: y.Name, Seat: y.Seat, Place: s.position(y.Seat),
			SameSegment: yp >= 0, Throw: yp >= 0 && yp < pos-1})
	}
	for i, p := range seg.Paths {
		out.Paths = append(out.Paths, PathChoice{Order: Action{Kind: TakePath, Path: i + 1}.String(), Name: p.Name,
			Item: p.Item, Check: p.Check, Skip: p.Skip, Momentum: p.Momentum})
	}
	// After the start, each allowed action once more with the pull clause
	// that changes something in this race (pull-ahead): the same odds, as
	// they are the Action Phase's.
	clause := s.Opts.clause()
	for _, a := range s.candidates(x, g, pos) {
		c := Choice{OrderChoice: race.Judge(a.String(), wordsFor(a), s.legal(x, a))}
		if c.Allowed {
			s.oddsOf(x, a, &c)
		}
		out.Actions = append(out.Actions, c)
		if c.Allowed && s.T > 0 {
			a.Pull = clause
			v := c
			v.OrderChoice = race.Judge(a.String(), wordsFor(a), s.legal(x, a))
			out.Actions = append(out.Actions, v)
		}
	}
	out.Note = s.note(x, seg)
	return out, nil
}

// candidates are the orders listed: every plain action, a path for each the
// segment has (path 1 when it has none, to say so), each way to use an
// item, and an aimed item for each racer it can reach now.
func (s *State) candidates(x *Racer, g []*Racer, pos int) []Action {
	out := []Action{{Kind: RocketStart}, {Kind: RocketStart, Safe: true}, {Kind: DriveAggressively}, {Kind: DriveDefensively},
		{Kind: Draft}, {Kind: RamDriver}, {Kind: PowerSlide}}
	for i := 0; i < max(1, len(s.course.Segments[x.Segment].Paths)); i++ {
		out = append(out, Action{Kind: TakePath, Path: i + 1})
	}
	for _, how := range []string{"", "lay", "throw", "forward", "backward"} {
		out = append(out, Action{Kind: DeployItem, How: how})
	}
	out = append(out, aimed(0, x.Hand, g, pos)...)
	// Each other kind of item held, by name: its uses, aimed or not.
	seen := map[Item]bool{x.Hand: true}
	for _, it := range x.items() {
		if seen[it] {
			continue
		}
		seen[it] = true
		out = append(out, Action{Kind: DeployItem, Item: it})
		switch {
		case it.Laid():
			out = append(out, Action{Kind: DeployItem, Item: it, How: "lay"})
		case it == GreenShell:
			out = append(out, Action{Kind: DeployItem, Item: it, How: "forward"}, Action{Kind: DeployItem, Item: it, How: "backward"})
		}
		out = append(out, aimed(it, it, g, pos)...)
	}
	return out
}

// aimed are the orders that aim it (named as name: 0 for the item in
// front) at each racer of x's segment group g it can reach from pos: a
// throw at one ahead but not just ahead, a green shell either way.
func aimed(name, it Item, g []*Racer, pos int) []Action {
	var out []Action
	switch { // at the start, with nothing in hand, there is nothing to aim
	case it.Laid():
		for _, y := range g[:max(0, pos-1)] {
			out = append(out, Action{Kind: DeployItem, Item: name, How: "throw", Target: y.Name})
		}
	case it == GreenShell:
		for i, y := range g {
			switch {
			case i < pos:
				out = append(out, Action{Kind: DeployItem, Item: name, How: "forward", Target: y.Name})
			case i > pos:
				out = append(out, Action{Kind: DeployItem, Item: name, How: "backward", Target: y.Name})
			}
		}
	}
	return out
}

// wordsFor lists what may be written for a, shortest first: its aliases, or
// the long forms of a path or an item, with its pull clause.
func wordsFor(a Action) []string {
	if a.Pull != "" {
		b := a
		b.Pull = ""
		var out []string
		for _, w := range wordsFor(b) {
			out = append(out, w+" then "+a.Pull)
		}
		return race.ShortestFirst(out)
	}
	var out []string
	switch a.Kind {
	case TakePath:
		out = []string{a.String(), "take alternate path " + strconv.Itoa(a.Path)}
	case DeployItem:
		out = []string{a.String(), "deploy " + a.String()}
	case RocketStart:
		if a.Safe {
			return []string{"safe", "safe start"}
		}
		fallthrough
	default:
		for w, k := range actionWords {
			if k == a.Kind {
				out = append(out, w)
			}
		}
	}
	return race.ShortestFirst(out)
}

// segmentGroup is x's segment group in race order, and x's place in it.
func (s *State) segmentGroup(x *Racer) ([]*Racer, int) {
	var g []*Racer
	for _, y := range s.running() {
		if s.distance(y) == s.distance(x) {
			g = append(g, y)
		}
	}
	return g, indexOf(g, x)
}

func indexOf(g []*Racer, x *Racer) int {
	for i, y := range g {
		if y == x {
			return i
		}
	}
	return -1
}

// note says where the racer stands and what the odds assume.
func (s *State) note(x *Racer, seg Segment) string {
	if s.T == 0 {
		return "the start: a rocket start risks a natural 1 for +2 Momentum; a safe start is +1"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "place %d, Momentum %d of %d, %s (%s)", s.position(x.Seat), x.Momentum, MaxMomentum(x.Debuff), seg.Name, seg.Shape.Words())
	if x.Hand != 0 {
		fmt.Fprintf(&b, ", holding %s", x.itemsSaid())
	}
	if s.BlueShell != nil {
		b.WriteString("; a blue shell is on its way to the leader")
	}
	b.WriteString("; the odds take the others as they stand, doing nothing before you act (defended: those ahead drive defensively)")
	return b.String()
}
