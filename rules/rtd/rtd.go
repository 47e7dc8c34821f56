package rtd

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"pitwall/dice"
	"pitwall/internal/racers"
	"pitwall/internal/words"
	"pitwall/race"
)

func init() { race.Register(Ruleset{}) }

// Ruleset is the rtd ruleset.
type Ruleset struct{}

// defaultCourse is the course of a race that names none; it is listed first.
const defaultCourse = "luigi-circuit"

var perks = map[Perk]bool{RammingSpeed: true, ItemBonus: true, HighAcceleration: true}
var debuffs = map[Perk]bool{Featherweight: true, LowLoot: true, Slow: true}

// Setup implements race.Ruleset: a racer per entrant, with a standard kart or
// one perk and one debuff; everyone at the line with zero Momentum.
func (Ruleset) Setup(cfg race.Config, entrants []race.Entrant, d *dice.Roller) (race.State, error) {
	c, laps, err := race.TrackAndLaps(cfg, defaultCourse, LoadCourse, func(x *Course) int { return x.Laps })
	if err != nil {
		return nil, err
	}
	opts, err := readOptions(cfg.Options)
	if err != nil {
		return nil, err
	}
	s := &State{CourseID: c.ID, Laps: laps, Opts: opts, course: c}
	names := racers.Names{}
	for i, e := range entrants {
		if strings.TrimSpace(e.Player) == "" {
			return nil, fmt.Errorf("entrant %d has no player name", i+1)
		}
		name, err := names.One(e, "character", "a player drives one")
		if err != nil {
			return nil, err
		}
		x := Racer{Seat: len(s.Racers), Player: e.Player, Name: name}
		for k, v := range e.Options {
			p, err := ParsePerk(v)
			switch {
			case k != "perk" && k != "debuff":
				return nil, fmt.Errorf("%s: unknown choice %q; an rtd kart chooses a perk and a debuff, or neither", e.Player, k)
			case err != nil:
				return nil, fmt.Errorf("%s: %v", e.Player, err)
			case k == "perk" && !perks[p]:
				return nil, fmt.Errorf("%s: %s is not a perk; perks: ramming-speed, item-bonus, high-acceleration", e.Player, v)
			case k == "debuff" && !debuffs[p]:
				return nil, fmt.Errorf("%s: %s is not a debuff; debuffs: featherweight, low-loot, slow", e.Player, v)
			case k == "perk":
				x.Perk = p
			default:
				x.Debuff = p
			}
		}
		if (x.Perk == Standard) != (x.Debuff == Standard) {
			return nil, fmt.Errorf("%s: a kart takes one perk with one debuff, or neither (a standard kart)", e.Player)
		}
		s.Racers = append(s.Racers, x)
		s.Order = append(s.Order, x.Seat)
	}
	if len(s.Racers) < 2 {
		return nil, fmt.Errorf("%w: a race needs at least 2 racers; %d entered", race.ErrTooFew, len(s.Racers))
	}
	if len(s.Racers) > 12 {
		return nil, fmt.Errorf("a race takes at most 12 racers; %d entered", len(s.Racers))
	}
	return s, nil
}

// Set implements race.Ruleset: rtd has no settings for a turn.
func (Ruleset) Set(race.State, string, string) (race.State, error) {
	return nil, fmt.Errorf("rtd has no settings for a turn")
}

var turnActions = []string{"aggressive", "defensive", "draft", "ram", "power slide", "path N", "item [ITEM] [lay|throw|forward|backward] [at NAME]"}

// actions are the orders of a turn after the start, as the orders menu
// lists them: the actions, and the pull clause that changes something in
// this race (the option pull-ahead).
func (s *State) actions() []string {
	return append(slices.Clone(turnActions), "ACTION then "+s.Opts.clause())
}

// Prompts implements race.Ruleset: every racer still racing.
func (Ruleset) Prompts(st race.State) []race.Prompt {
	s := st.(*State)
	var out []race.Prompt
	for _, x := range s.running() {
		p := race.Prompt{Seat: x.Seat, Name: x.Name, Turn: s.Turn(), Orders: 1, Legal: s.actions(),
			Note: fmt.Sprintf("place %d, Momentum %d, %s", s.position(x.Seat), x.Momentum, s.course.Segments[x.Segment].Name)}
		if s.T == 0 {
			p.Legal, p.Note = []string{"rocket start", "safe start"}, "the start: only a Rocket Start, or a safe start"
		}
		out = append(out, p)
	}
	return out
}

// ParseOrder implements race.Ruleset: the text is read (ParseAction: an
// Invalid error when it is not an action), then held against the race
// (legal: an Illegal error when it is not allowed now).
func (Ruleset) ParseOrder(st race.State, sub race.Submission) (race.Order, error) {
	s := st.(*State)
	return race.ReadOrder(sub, s.orderer, ParseAction, func(x *Racer, a Action) (Action, error) {
		if err := s.legal(x, a); err != nil {
			return a, err
		}
		if a.Target != "" {
			a.Target = s.racerNamed(a.Target).Name // the items match names exactly: the racer's own spelling
		}
		return a, nil
	})
}

// The codes of the orders rtd refuses (race.OrderError.Code): stable names
// for a page or a bot; docs/choices.md lists them.
const (
	CodeNoSuchSeat       = "no_such_seat"
	CodeFinished         = "racer_finished"
	CodeRocketStartOnly  = "rocket_start_only"  // at the start: rocket start or safe start
	CodeStartIsOver      = "start_is_over"      // a rocket (or safe) start after the start
	CodeNoItemInHand     = "no_item_in_hand"    // item with an empty hand
	CodeNotHeld          = "item_not_held"      // item NAME, and the racer holds no NAME
	CodeDraggedFirst     = "dragged_first"      // another item (or a path's) while dragging one
	CodeNotLaidOrThrown  = "not_laid_or_thrown" // item lay/throw with an item that is neither
	CodeThrowNeedsTarget = "throw_needs_target"
	CodeNotAGreenShell   = "not_a_green_shell" // item forward/backward without a green shell
	CodeUnknownTarget    = "unknown_target"
	CodeNoAlternatePath  = "no_alternate_path"
	CodeNoSuchPath       = "no_such_path"
	CodePathNeedsItem    = "path_needs_item"
	// Texts that are not actions (race.Invalid).
	CodeNoAction      = "no_action"
	CodeUnknownAction = "unknown_action"
	CodeBadPath       = "bad_path_number"
	CodeBadItemUse    = "bad_item_use"
)

// orderer is the racer of seat, if that racer may order at all.
func (s *State) orderer(seat int) (*Racer, error) {
	x := s.racer(seat)
	if x == nil {
		return nil, race.NotAllowed(CodeNoSuchSeat, "there is no seat %d in this race of %d racers", seat, len(s.Racers))
	}
	if x.Finished {
		return nil, race.NotAllowed(CodeFinished, "%s has finished and orders nothing more", x.Name)
	}
	return x, nil
}

// legal holds an action against the race as it stands: nil, or the Illegal
// error (with its code) the order gets. Choices asks it of every choice, so
// what is listed and what is accepted cannot differ.
func (s *State) legal(x *Racer, a Action) error {
	seg := s.course.Segments[x.Segment]
	switch {
	case s.T == 0 && a.Kind != RocketStart:
		return race.NotAllowed(CodeRocketStartOnly, "at the start the only action is a Rocket Start ('rocket start', or 'safe start' not to risk it)")
	case s.T == 0 && a.Pull != "":
		return race.NotAllowed(CodeRocketStartOnly, "at the start the only action is a Rocket Start ('rocket start', or 'safe start' not to risk it), with nothing after it: nobody pulls ahead at the start")
	case s.T > 0 && a.Kind == RocketStart:
		return race.NotAllowed(CodeStartIsOver, "a Rocket Start is for the start only; actions now: %s", strings.Join(s.actions(), ", "))
	case a.Kind == DeployItem && x.Hand == 0:
		return race.NotAllowed(CodeNoItemInHand, "%s has no item to deploy; drive on with another action", x.Name)
	case a.Kind == DeployItem && a.Item != 0 && !x.holding(a.Item):
		return race.NotAllowed(CodeNotHeld, "%s; there is no %s to deploy", x.holds(), a.Item)
	case a.Kind == DeployItem && a.Item != 0 && !a.Item.Dragged() && x.Hand.Dragged():
		return race.NotAllowed(CodeDraggedFirst, "%s drags a %s, which must be used before another item is deployed: 'item %s' first", x.Name, x.Hand, x.Hand)
	case a.Kind == DeployItem && (a.How == "throw" || a.How == "lay") && !a.used(x).Laid():
		return race.NotAllowed(CodeNotLaidOrThrown, "a %s is not laid or thrown; 'item %s' is for a banana, a fake item box or a bob-omb; use 'item'", a.used(x), a.How)
	case a.Kind == DeployItem && a.How == "throw" && a.Target == "":
		return race.NotAllowed(CodeThrowNeedsTarget, "a throw needs a target: 'item throw at NAME'")
	case a.Kind == DeployItem && (a.How == "forward" || a.How == "backward") && a.used(x) != GreenShell:
		return race.NotAllowed(CodeNotAGreenShell, "only a green shell is fired %s; %s would deploy a %s: use 'item'", a.How, x.Name, a.used(x))
	case a.Kind == DeployItem && a.Target != "" && s.racerNamed(a.Target) == nil:
		return race.NotAllowed(CodeUnknownTarget, "no racer called %q in this race; racers: %s", a.Target, strings.Join(s.names(), ", "))
	case a.Kind == TakePath && len(seg.Paths) == 0:
		return race.NotAllowed(CodeNoAlternatePath, "%s has no alternate path; drive on with another action", seg.Name)
	case a.Kind == TakePath && a.Path > len(seg.Paths):
		return race.NotAllowed(CodeNoSuchPath, "%s has %s, path 1 to %d; path %d is not one", seg.Name, words.Count(len(seg.Paths), "alternate path"), len(seg.Paths), a.Path)
	case a.Kind == TakePath && !x.opens(seg.Paths[a.Path-1]):
		return race.NotAllowed(CodePathNeedsItem, "%s needs a %s in hand; %s", seg.Paths[a.Path-1].Name, seg.Paths[a.Path-1].Item, x.holds())
	case a.Kind == TakePath && x.usesItem(seg.Paths[a.Path-1]) && x.Hand.Dragged():
		return race.NotAllowed(CodeDraggedFirst, "%s drags a %s, which must be used before another item: 'item %s' first, then %s", x.Name, x.Hand, x.Hand, seg.Paths[a.Path-1].Name)
	}
	return nil
}

// names are the racers' names, in seat order.
func (s *State) names() []string {
	out := make([]string, len(s.Racers))
	for i, x := range s.Racers {
		out[i] = x.Name
	}
	return out
}

// racerNamed finds a racer by name, ignoring case.
func (s *State) racerNamed(name string) *Racer {
	for i := range s.Racers {
		if strings.EqualFold(s.Racers[i].Name, name) {
			return &s.Racers[i]
		}
	}
	return nil
}

// DefaultOrder implements race.Ruleset: a missed start is a safe start; a
// missed turn is Drive Defensively, the action that risks nothing.
func (Ruleset) DefaultOrder(st race.State, seat int) race.Order {
	if st.(*State).T == 0 {
		return Action{Kind: RocketStart, Safe: true}
	}
	return Action{Kind: DriveDefensively}
}

// Resolve implements race.Ruleset.
func (Ruleset) Resolve(st race.State, orders map[int]race.Order, d *dice.Roller, _ time.Time) (race.State, []race.Event, error) {
	old := st.(*State)
	s := old.clone()
	actions, err := race.OrdersAs[Action]("rtd", orders)
	if err != nil {
		return nil, nil, err
	}
	for _, x := range s.running() {
		if _, ok := actions[x.Seat]; !ok {
			actions[x.Seat] = Ruleset{}.DefaultOrder(s, x.Seat).(Action)
		}
	}
	r := &resolver{s: s, d: d}
	if s.T == 0 {
		r.start(actions)
	} else {
		r.turn(actions)
	}
	s.T++
	return s, r.ev, nil
}

// Standings implements race.Ruleset.
func (Ruleset) Standings(st race.State) race.Standings {
	s := st.(*State)
	var out race.Standings
	for _, seat := range s.Finish {
		x := s.racer(seat)
		out = append(out, race.Standing{Place: len(out) + 1, Seat: seat, Name: x.Name, Player: x.Player, Status: "finished", Detail: fmt.Sprintf("turn %d", x.FinishTurn+1)}) // turns as posts number them: the start is turn 1
	}
	for _, x := range s.running() {
		out = append(out, race.Standing{Place: len(out) + 1, Seat: x.Seat, Name: x.Name, Player: x.Player, Status: "racing",
			Detail: fmt.Sprintf("lap %d of %d, %s", x.Laps+1, s.Laps, s.course.Segments[x.Segment].Name)})
	}
	return out
}

// DecodeState implements race.Ruleset.
func (Ruleset) DecodeState(b []byte) (race.State, error) {
	return race.DecodeJSON[State]("an rtd state", b, func(s *State) (err error) {
		s.course, err = LoadCourse(s.CourseID)
		return err
	}, (*State).check)
}

// check is what race.DecodeJSON holds a stored state to; it refuses racers
// out of their seats, off the course, with perks, items or Momentum the game
// has not got, a running order that is not every seat once, finishers that
// did not finish.
func (s *State) check() error {
	n := len(s.course.Segments)
	if err := race.CheckLaps(s.Laps); err != nil {
		return err
	}
	switch {
	case s.T < 0:
		return fmt.Errorf("turn %d; the start is turn 0", s.T)
	case len(s.Racers) < 2 || len(s.Racers) > 12:
		return fmt.Errorf("%d racers; a race has 2 to 12", len(s.Racers))
	}
	finished := 0
	for i := range s.Racers {
		x := &s.Racers[i]
		switch {
		case x.Seat != i:
			return fmt.Errorf("racer %d sits in seat %d", i+1, x.Seat)
		case x.Perk != Standard && !perks[x.Perk], x.Debuff != Standard && !debuffs[x.Debuff],
			(x.Perk == Standard) != (x.Debuff == Standard):
			return fmt.Errorf("%s's kart has the perk %d and the debuff %d; a kart has one of each, or neither", x.Name, x.Perk, x.Debuff)
		case x.Segment < 0 || x.Segment >= n:
			return fmt.Errorf("%s is on segment %d; %s has segments 0 to %d", x.Name, x.Segment, s.course.Name, n-1)
		case x.Momentum < 0 || x.Momentum > MaxMomentum(x.Debuff):
			return fmt.Errorf("%s has Momentum %d; 0 to %d", x.Name, x.Momentum, MaxMomentum(x.Debuff))
		case x.Laps < 0 || x.Laps > s.Laps || len(x.LapTurns) > s.Laps:
			return fmt.Errorf("%s has %d laps done (%d timed) of %d", x.Name, x.Laps, len(x.LapTurns), s.Laps)
		case x.Hand < 0 || x.Hand > Thunderbolt:
			return fmt.Errorf("%s holds the item %d; items are 1 to %d, or 0 for none", x.Name, x.Hand, Thunderbolt)
		case len(x.Bag) > 0 && x.Hand == 0:
			return fmt.Errorf("%s holds %s behind the item in front, and the item in front is empty", x.Name, words.Count(len(x.Bag), "item"))
		case len(x.Bag) > 0 && s.Opts.OneItem:
			return fmt.Errorf("%s holds %s; this race's racers hold one at a time", x.Name, words.Count(1+len(x.Bag), "item"))
		case x.Shells < 0 || x.Shells > 3*max(1, x.count(TripleRedShell)):
			return fmt.Errorf("%s has %s orbiting with %s; 0 to 3 each", x.Name, words.Count(x.Shells, "red shell"), words.Count(x.count(TripleRedShell), "triple red shell"))
		case !itemsInOrder(x.items()):
			return fmt.Errorf("%s holds %v: an item out of the chart, or a dragged item behind one that is not", x.Name, x.items())
		case x.Ink < 0 || x.Shrunk < 0 || x.Star < 0 || x.Ghost < 0:
			return fmt.Errorf("%s has a negative number of turns of an item's effect", x.Name)
		}
		if x.Finished {
			finished++
		}
	}
	seen := map[int]bool{}
	for _, seat := range s.Order {
		if seat < 0 || seat >= len(s.Racers) || seen[seat] {
			return fmt.Errorf("the running order %v is not every seat once", s.Order)
		}
		seen[seat] = true
	}
	if len(s.Order) != len(s.Racers) {
		return fmt.Errorf("the running order %v is not every seat once", s.Order)
	}
	racer := func(seat int) (string, bool, bool) {
		if seat < 0 || seat >= len(s.Racers) {
			return "", false, false
		}
		return s.Racers[seat].Name, s.Racers[seat].Finished, true
	}
	if err := race.CheckFinishOrder(s.Finish, racer, finished, "racers"); err != nil {
		return err
	}
	if b := s.BlueShell; b != nil && (b.By < 0 || b.By >= len(s.Racers)) {
		return fmt.Errorf("a blue shell in flight fired by seat %d, and there is no seat %d", b.By, b.By)
	}
	for _, seg := range s.Fakes {
		if seg < 0 || seg >= n {
			return fmt.Errorf("a fake item box on segment %d; %s has segments 0 to %d", seg, s.course.Name, n-1)
		}
	}
	return nil
}
