package party

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"pitwall/race"
)

// Kind is what an order does.
type Kind int

// The orders.
const (
	Wait   Kind = iota // do nothing now
	Roll               // make this week's movement roll
	Choose             // answer the fork the player waits at
)

// Order is a parsed order.
type Order struct {
	Kind Kind
	// Route answers forks in order: met during this roll (Roll), or from
	// the fork waited at on (Choose, whose first entry answers that fork).
	Route []string
	// Try marks 'try roll': a roll when one is allowed, else a wait.
	Try bool
	// Note says, briefly, why a 'try roll' waited.
	Note string
	At   time.Time // when the host logged it; zero for a default
	// Week is the week a roll was judged in: it counts for that week even if
	// the host resolves after the phase has closed.
	Week int
}

// String implements race.Order: the canonical text.
func (o Order) String() string {
	via := ""
	if len(o.Route) > 0 {
		via = " via " + strings.Join(o.Route, " ")
	}
	switch o.Kind {
	case Roll:
		if o.Try {
			return "try roll" + via
		}
		return "roll" + via
	case Choose:
		return "choose " + strings.Join(o.Route, " ")
	}
	if o.Try {
		return "try roll" + via + " (waits: " + o.Note + ")"
	}
	return "wait"
}

const (
	maxOrderLen = 1000
	maxRoute    = 50
)

// orderHelp lists the orders, for errors.
const orderHelp = "orders: roll, roll via SPACE..., try roll [via SPACE...], choose SPACE [SPACE...], wait"

// parseText reads an order's words, without judging it against the game.
// Space names are matched without regard to case and given as the board writes them.
func parseText(b *Board, text string) (Order, error) {
	if len(text) > maxOrderLen {
		return Order{}, race.NotUnderstood("order_too_long", "an order is at most %d characters; %s", maxOrderLen, orderHelp)
	}
	w := strings.Fields(strings.ToLower(text))
	orig := strings.Fields(text)
	if len(w) == 0 {
		return Order{}, race.NotUnderstood("empty_order", "the order is empty; %s", orderHelp)
	}
	var o Order
	rest := 0
	switch {
	case w[0] == "wait" && len(w) == 1:
		return Order{Kind: Wait}, nil
	case w[0] == "wait":
		return Order{}, race.NotUnderstood("wait_takes_nothing", "'wait' takes nothing after it; got %q", text)
	case w[0] == "roll":
		o.Kind, rest = Roll, 1
	case w[0] == "try" && len(w) > 1 && w[1] == "roll":
		o.Kind, o.Try, rest = Roll, true, 2
	case w[0] == "choose" || w[0] == "go":
		if len(w) == 1 {
			return Order{}, race.NotUnderstood("choose_needs_space", "'choose' needs the space to go to: choose SPACE")
		}
		o.Kind, rest = Choose, 1
	default:
		return Order{}, race.NotUnderstood("unknown_order", "%q is not an order; %s", orig[0], orderHelp)
	}
	if o.Kind == Roll && len(w) > rest {
		if w[rest] != "via" {
			return Order{}, race.NotUnderstood("roll_needs_via", "after 'roll' comes nothing, or 'via' and the spaces to take at the forks; got %q", orig[rest])
		}
		rest++
		if len(w) == rest {
			return Order{}, race.NotUnderstood("via_needs_spaces", "'via' needs the spaces to take at the forks, in order: roll via SPACE SPACE")
		}
	}
	if len(w)-rest > maxRoute {
		return Order{}, race.NotUnderstood("route_too_long", "a route answers at most %d forks; got %d", maxRoute, len(w)-rest)
	}
	for _, name := range orig[rest:] {
		id := b.find(name)
		if id == "" {
			return Order{}, race.NotUnderstood("no_such_space", "there is no space %q on %s; spaces: %s", name, b.Name, listIDs(b.ids()))
		}
		o.Route = append(o.Route, id)
	}
	return o, nil
}

// find is the id of the space called name, ignoring case, or "".
func (b *Board) find(name string) string {
	if b.Space(name) != nil {
		return name
	}
	for _, sp := range b.Spaces {
		if strings.EqualFold(sp.ID, name) {
			return sp.ID
		}
	}
	return ""
}

// The codes of the orders the game refuses (race.OrderError.Code): stable
// names a page or a bot can act on, whatever the reason's wording.
const (
	codeNoSeat         = "no_such_seat"
	codeGameOver       = "game_over"
	codeChooseFirst    = "choose_first"     // waiting at a fork: only 'choose' answers it
	codeNotAWayOn      = "not_a_way_on"     // 'choose' names a space that is not one of the fork's ways
	codeNotAtAFork     = "not_at_a_fork"    // 'choose' with no fork waiting
	codeBeforeWeek1    = "before_week_1"    // a roll before the first Boardplay Phase
	codeMinigamePhase  = "minigame_phase"   // a roll Friday to Sunday
	codeRolledThisWeek = "rolled_this_week" // one roll per Boardplay Phase
)

// judge checks a parsed order against the game at its time.
func (s *State) judge(p *Player, o Order, at time.Time) (Order, error) {
	now := s.now(at)
	o.At = at
	c := s.calendar(now)
	week, ph := c.Where(now)
	if p.Pause != nil {
		succ := s.board.Successors(p.Pause.Fork)
		if o.Kind != Choose {
			return o, race.NotAllowed(codeChooseFirst, "%s is at the fork %s with %d Movement left and must choose first: choose %s",
				p.Name, p.Pause.Fork, p.Pause.Movement, strings.Join(succ, " | "))
		}
		if !slices.Contains(succ, o.Route[0]) {
			return o, race.NotAllowed(codeNotAWayOn, "%s is not a way on from the fork %s; choose %s", o.Route[0], p.Pause.Fork, strings.Join(succ, " | "))
		}
		return o, nil
	}
	if o.Kind == Choose {
		return o, race.NotAllowed(codeNotAtAFork, "%s is not at a fork: 'choose' answers a fork met during a roll; to answer forks in advance, roll via SPACE...", p.Name)
	}
	if o.Kind != Roll {
		return o, nil
	}
	var why, short, code string
	switch {
	case ph == Before:
		code, short = codeBeforeWeek1, "before week 1"
		why = fmt.Sprintf("the game has not begun: week 1's Boardplay Phase opens %s", c.When(c.WeekStart(1)))
	case ph == Ended:
		code, short = codeGameOver, "the game is over"
		why = fmt.Sprintf("the game ended %s", c.When(c.End()))
	case ph == Minigame:
		code, short = codeMinigamePhase, fmt.Sprintf("week %d's Minigame Phase", week)
		why = fmt.Sprintf("it is the Minigame Phase of week %d (%s): movement rolls are for the Boardplay Phase, Monday to Thursday; %s",
			week, c.When(now), c.NextBoardplay(now))
	case p.Week == week:
		code, short = codeRolledThisWeek, fmt.Sprintf("rolled in week %d already", week)
		why = fmt.Sprintf("%s has made week %d's movement roll already; one roll per Boardplay Phase: %s", p.Name, week, c.NextBoardplay(now))
	}
	if why == "" {
		o.Week = week
		return o, nil
	}
	if o.Try {
		o.Kind, o.Note = Wait, short
		return o, nil
	}
	return o, race.NotAllowed(code, "no roll now: %s", why)
}
