package ludi

import (
	"strings"

	"pitwall/internal/words"
	"pitwall/race"
	"pitwall/rules/ludi/tables"
)

// Kind is one of the orders a racer can give.
type Kind int

// The 15 standard orders, the race start's Hold, the flipped chariot's two,
// and Cruise, which no racer orders: it is what a missed turn or a stun does.
const (
	Cruise Kind = iota
	Left1
	Left2
	Left3
	Right1
	Right2
	Right3
	Accelerate
	Whip
	Brake
	CrashLeft
	CrashRight
	LacerateLeft
	LacerateRight
	Control
	Watch
	Hold
	HangOn
	RollAway
)

var kindNames = [...]string{
	Cruise: "Cruise", Left1: "Left 1", Left2: "Left 2", Left3: "Left 3",
	Right1: "Right 1", Right2: "Right 2", Right3: "Right 3",
	Accelerate: "Accelerate", Whip: "Whip", Brake: "Brake",
	CrashLeft: "Crash Left", CrashRight: "Crash Right",
	LacerateLeft: "Lacerate Left", LacerateRight: "Lacerate Right",
	Control: "Control", Watch: "Watch", Hold: "Hold", HangOn: "Hang On", RollAway: "Roll Away",
}

func (k Kind) String() string { return kindNames[k] }

// Shift is the lanes a displacement moves: negative to the left (inside).
func (k Kind) Shift() int {
	switch k {
	case Left1, Left2, Left3:
		return -int(k - Left1 + 1)
	case Right1, Right2, Right3:
		return int(k - Right1 + 1)
	}
	return 0
}

// Side is -1 for an attack to the left, +1 to the right, 0 for other orders.
func (k Kind) Side() int {
	switch k {
	case CrashLeft, LacerateLeft:
		return -1
	case CrashRight, LacerateRight:
		return 1
	}
	return 0
}

// IsAttack says whether k is a Crash or a Lacerate.
func (k Kind) IsAttack() bool { return k >= CrashLeft && k <= LacerateRight }

// IsCrash says whether k is a Crash.
func (k Kind) IsCrash() bool { return k == CrashLeft || k == CrashRight }

var standard = []Kind{Left1, Left2, Left3, Right1, Right2, Right3, Accelerate, Whip, Brake,
	CrashLeft, CrashRight, LacerateLeft, LacerateRight, Control, Watch}

var startOrders = []Kind{Accelerate, Whip, Hold}

var flippedOrders = []Kind{HangOn, RollAway}

// contingencies are the only orders allowed as contingency orders.
var contingencies = []Kind{Left1, Right1, Brake, Control, Watch}

// The words a racer may write for each order; matching ignores case and extra spaces.
var aliases = map[string]Kind{
	"left 1": Left1, "left minor": Left1, "l1": Left1, "left": Left1,
	"left 2": Left2, "left medium": Left2, "l2": Left2,
	"left 3": Left3, "left major": Left3, "l3": Left3,
	"right 1": Right1, "right minor": Right1, "r1": Right1, "right": Right1,
	"right 2": Right2, "right medium": Right2, "r2": Right2,
	"right 3": Right3, "right major": Right3, "r3": Right3,
	"accelerate": Accelerate, "shake reins": Accelerate, "a": Accelerate,
	"whip": Whip, "whip the horses": Whip, "w": Whip,
	"brake": Brake, "pull reins": Brake, "b": Brake,
	"crash left": CrashLeft, "cl": CrashLeft, "crash right": CrashRight, "cr": CrashRight,
	"lacerate left": LacerateLeft, "ll": LacerateLeft, "lacerate right": LacerateRight, "lr": LacerateRight,
	"control": Control, "ensure stability": Control, "c": Control,
	"watch": Watch, "avoid aggressions": Watch,
	"hold": Hold, "hang on": HangOn, "roll away": RollAway,
}

// Step is one order of a turn and, from the second on, its contingency.
type Step struct {
	Kind        Kind  `json:"kind"`
	Contingency *Kind `json:"contingency,omitempty"`
}

// Orders is one racer's orders for a turn.
type Orders struct {
	Steps []Step `json:"steps"`
	Bonus string `json:"bonus,omitempty"` // "move" or "initiative", earned in the bonus window
}

// String is the canonical text: 'Accelerate, Left 1 else Brake, bonus move'.
func (o Orders) String() string {
	if len(o.Steps) == 1 && o.Steps[0].Contingency == nil && o.Bonus == "" {
		return o.Steps[0].Kind.String() // a turn's usual orders: no words to join
	}
	var parts []string
	for _, s := range o.Steps {
		p := s.Kind.String()
		if s.Contingency != nil {
			p += " else " + s.Contingency.String()
		}
		parts = append(parts, p)
	}
	if o.Bonus != "" {
		parts = append(parts, "bonus "+o.Bonus)
	}
	return strings.Join(parts, ", ")
}

// cruise is the default order for n steps.
func cruise(n int) Orders { return repeated(Cruise, n) }

// repeated is k for each of n steps, with no contingency. A single step's
// Steps are shared (single): orders are read, never changed.
func repeated(k Kind, n int) Orders {
	if n == 1 {
		return Orders{Steps: single[k][:]}
	}
	o := Orders{Steps: make([]Step, n)}
	for i := range o.Steps {
		o.Steps[i].Kind = k
	}
	return o
}

// single holds each kind's one-step orders, and boxed each as a race.Order:
// the orders of most turns, made once.
var (
	single      [RollAway + 1][1]Step
	singleOrder [RollAway + 1]race.Order
	// named are the kinds by the name String gives them, for the orders a
	// racer may write as that name alone (Cruise is no order to write).
	named = map[string]Kind{}
)

func init() {
	for k := Cruise; k <= RollAway; k++ {
		single[k][0] = Step{Kind: k}
		singleOrder[k] = Orders{Steps: single[k][:]}
		if k != Cruise {
			named[k.String()] = k
		}
	}
}

func parseKind(word string) (Kind, error) {
	w := strings.Join(strings.Fields(strings.ToLower(word)), " ")
	if k, ok := aliases[w]; ok {
		return k, nil
	}
	return 0, race.NotUnderstood("unknown_order", "%q is not an order; orders are: %s", strings.TrimSpace(word), kindList(standard))
}

func kindList(ks []Kind) string {
	var names []string
	for _, k := range ks {
		names = append(names, k.String())
	}
	return strings.Join(names, ", ")
}

// ParseOrders reads a racer's orders: orders separated by commas (or
// semicolons or new lines), each order after the first with 'else' and its
// contingency, and 'bonus move' or 'bonus initiative' when sent in the bonus
// window. It checks the grammar only; legality against a race comes after.
func ParseOrders(text string) (Orders, error) {
	var o Orders
	fields := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == '\n' })
	if strings.TrimSpace(strings.Join(fields, "")) == "" {
		return o, race.NotUnderstood("empty_order", "no orders given; write one to three orders, such as 'Accelerate' or 'Left 1, Whip else Brake'")
	}
	for _, f := range fields {
		f = strings.TrimSpace(f)
		if f == "" {
			continue // "A,,W" and "A, W" mean the same
		}
		lower := strings.ToLower(f)
		if strings.HasPrefix(lower, "bonus") {
			if o.Bonus != "" {
				return o, race.NotUnderstood("bonus_twice", "the bonus is chosen twice")
			}
			switch strings.Join(strings.Fields(lower), " ") {
			case "bonus move":
				o.Bonus = "move"
			case "bonus initiative":
				o.Bonus = "initiative"
			default:
				return o, race.NotUnderstood("unknown_bonus", "%q: the bonus is 'bonus move' (+1 space) or 'bonus initiative' (+1 Quality for the turn order)", f)
			}
			continue
		}
		if o.Bonus != "" {
			return o, race.NotUnderstood("bonus_not_last", "the bonus comes after the orders")
		}
		main, alt, hasElse := cutWord(f, "else")
		k, err := parseKind(main)
		if err != nil {
			return o, err
		}
		st := Step{Kind: k}
		if hasElse {
			c, err := parseKind(alt)
			if err != nil {
				return o, err
			}
			if !contains(contingencies, c) {
				return o, race.NotUnderstood("not_a_contingency", "%s cannot be a contingency order; a contingency is one of: %s", c, kindList(contingencies))
			}
			st.Contingency = &c
		}
		o.Steps = append(o.Steps, st)
	}
	if len(o.Steps) == 0 {
		return o, race.NotUnderstood("bonus_alone", "a bonus alone is no order; add one to three orders")
	}
	if len(o.Steps) > 3 {
		return o, race.NotUnderstood("too_many_orders", "%d orders given; a turn takes one to three", len(o.Steps))
	}
	if o.Steps[0].Contingency != nil {
		return o, race.NotUnderstood("first_order_contingency", "the first order takes no contingency: contingencies belong to the second and third orders")
	}
	return o, nil
}

// cutWord splits s around the whole word w, ignoring case.
func cutWord(s, w string) (before, after string, found bool) {
	words := strings.Fields(s)
	for i, x := range words {
		if strings.EqualFold(x, w) {
			return strings.Join(words[:i], " "), strings.Join(words[i+1:], " "), true
		}
	}
	return s, "", false
}

func contains(ks []Kind, k Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// legal checks parsed orders against the race: the turn's number of orders,
// the orders allowed in this phase of the race, attacks' positions, the bonus.
func (s *State) legal(c *Chariot, o Orders, inWindow bool) error {
	if len(o.Steps) != s.Orders {
		return race.NotAllowed("wrong_order_count", "this turn takes %s and %s; %s given", words.Count(s.Orders, "order"), words.Count(s.Orders-1, "contingency order"), words.Count(len(o.Steps), "order"))
	}
	for i, st := range o.Steps {
		if i > 0 && st.Contingency == nil {
			return race.NotAllowed("contingency_needed", "order %d (%s) needs a contingency, written '%s else Brake' (one of: %s)", i+1, st.Kind, st.Kind, kindList(contingencies))
		}
	}
	if o.Bonus != "" && !inWindow {
		return race.NotAllowed("bonus_outside_window", "a bonus is earned only by orders sent in the bonus window, and the window was not open")
	}
	if err := s.firstOrder(c, o.Steps[0].Kind); err != nil {
		return err
	}
	allowed, why := s.allowed(c)
	for _, st := range o.Steps[1:] {
		if !contains(allowed, st.Kind) {
			return race.NotAllowed("not_allowed_now", "%s is not allowed %s; allowed: %s", st.Kind, why, kindList(allowed))
		}
	}
	return nil
}

// firstOrder checks k as c's first order this turn: allowed in this phase
// of the race and, for an attack, with a chariot it could meet. Only the
// first order's attack can be judged now: later ones depend on where the
// chariot will be.
func (s *State) firstOrder(c *Chariot, k Kind) error {
	allowed, why := s.allowed(c)
	if !contains(allowed, k) {
		return race.NotAllowed("not_allowed_now", "%s is not allowed %s; allowed: %s", k, why, kindList(allowed))
	}
	if k.IsAttack() {
		return s.canAttack(c, k)
	}
	return nil
}

// allowed lists the orders c may give this turn, and says why the list is short.
func (s *State) allowed(c *Chariot) ([]Kind, string) {
	switch {
	case c.Flipped:
		return flippedOrders, whyFlipped
	case s.T == 1:
		return startOrders, whyStart
	}
	return standard, "now"
}

// allowedNames are the names of the orders allowed (allowed) and, when they
// are few, the note that says why, as a prompt gives them.
func (s *State) allowedNames(c *Chariot) ([]string, string) {
	switch {
	case c.Flipped:
		return flippedNames, "orders " + whyFlipped
	case s.T == 1:
		return startNames, "orders " + whyStart
	}
	return standardNames, ""
}

// Why the orders allowed are few.
const (
	whyFlipped = "to a flipped chariot"
	whyStart   = "at the race start (turn 1)"
)

// The names of the orders allowed in each phase of the race, as every
// prompt lists them: shared, and clipped so that an append copies.
var (
	standardNames = names(standard)
	startNames    = names(startOrders)
	flippedNames  = names(flippedOrders)
)

func names(ks []Kind) []string {
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = k.String()
	}
	return out[:len(out):len(out)]
}

// canAttack checks that an attack to one side could meet one of the text's
// four positions: there must be a lane on that side, and a chariot in it from
// two spaces behind to as far ahead as this chariot could reach.
func (s *State) canAttack(c *Chariot, k Kind) error {
	side := "left"
	if k.Side() > 0 {
		side = "right"
	}
	switch s.attackable(c, k) {
	case attackWall:
		return race.NotAllowed("against_the_wall", "%s needs a lane on your %s; you are in lane %d, against the wall", k, side, c.Pos.Lane)
	case attackNone:
		return race.NotAllowed("no_chariot_beside", "%s needs a chariot in the lane on your %s, from 2 spaces behind to %d ahead; none is", k, side, maxSpaces(c)+2)
	}
	return nil
}

// What attackable finds.
const (
	attackOK   = iota // a chariot the attack could meet
	attackWall        // no lane on that side
	attackNone        // no chariot within reach in that lane
)

// attackable is canAttack's answer without its words: the bot asks it of
// every attack it weighs.
func (s *State) attackable(c *Chariot, k Kind) int {
	if _, ok := s.track.Beside(c.Pos, k.Side()); !ok {
		return attackWall
	}
	if s.inLane(c, c.Pos.Lane+k.Side(), -2, maxSpaces(c)+2) != nil {
		return attackOK
	}
	return attackNone
}

// inLane is the first chariot or wreck found in lane from..to spaces ahead
// of c (behind when negative), as gap counts them with c brought into lane.
func (s *State) inLane(c *Chariot, lane, from, to int) *Chariot {
	var level Pos // c brought into lane: once, for the first one there
	leveled := false
	for i := range s.Chariots {
		o := &s.Chariots[i]
		if o.Pos.Lane != lane || o == c || !o.OnTrack() {
			continue
		}
		if !leveled {
			level, leveled = s.levelIn(c.Pos, lane), true
		}
		if d := s.gapPos(o.Pos, level); d >= from && d <= to {
			return o
		}
	}
	return nil
}

// maxSpaces is the most a chariot could move in its next order: one level up,
// the die's top face, its Speed and the best whip.
func maxSpaces(c *Chariot) int {
	lv := min(c.Level+1, tables.Max)
	return speedFaces[lv].top + c.Team.Speed + 3
}
