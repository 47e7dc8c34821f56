package party

import (
	"strings"
	"time"

	"pitwall/race"
)

// maxChoiceRoutes bounds the routes listed: on a board thick with forks and
// a long roll they would grow without end, and a page needs only so many.
const maxChoiceRoutes = 64

// Choices is what a player may order now, as data (race.Chooser).
//
// Whether a roll is open depends on when it is sent; Choices judges every
// order at the game's clock (AsOf: the time of the last order, resolve or
// host's clock setting), as ParseOrder judges an order sent then.
type Choices struct {
	Space string `json:"space"` // where the player stands
	Coins int    `json:"coins"`
	Stars int    `json:"stars"`
	MRDL  string `json:"mrdl"`            // the Movement Roll Dice List, "[d10]"
	Boost int    `json:"boost,omitempty"` // added to the next movement roll
	// Movement is the exact distribution of the next movement roll.
	Movement []Movement `json:"movement"`
	// Fork and Left are the fork the player waits at, when they do, and the
	// Movement they have left to walk from it.
	Fork  string `json:"fork,omitempty"`
	Left  int    `json:"movement_left,omitempty"`
	Week  int    `json:"week"`
	Phase Phase  `json:"phase"`
	AsOf  string `json:"as_of,omitempty"` // RFC3339; empty before the game's clock has started
	// RollUntil is when the open movement roll closes (the Minigame Phase
	// opens), when a roll is allowed and the calendar is fixed.
	RollUntil string `json:"roll_until,omitempty"`
	// Orders lists every order worth naming now: the roll, the roll with
	// each route through the forks it can meet, try roll, wait, and choose
	// (each way on from a fork waited at, with the routes beyond it).
	Orders []Choice `json:"orders"`
	// Forks are the forks the move can meet, each with its ways on.
	Forks []Fork `json:"forks"`
	// More says routes were left out (at most maxChoiceRoutes are listed);
	// any route the board allows may still be written.
	More bool   `json:"more_routes,omitempty"`
	Note string `json:"note,omitempty"`
}

// Choice is one order and whether it may be given now.
type Choice struct {
	race.OrderChoice
	Note string `json:"note,omitempty"` // what an allowed order does instead, such as a try roll that waits
	// Odds are the odds of where the order's move ends, when it moves.
	Odds *Odds `json:"odds,omitempty"`
}

// Fork is a fork and its ways on, the first taken when nobody chooses.
type Fork struct {
	Space string   `json:"space"`
	Ways  []string `json:"ways"`
}

// Choices implements race.Chooser.
func (Ruleset) Choices(st race.State, seat int) (any, error) {
	s, p, err := race.Seated("a party state", st, seat, (*State).orderer)
	if err != nil {
		return nil, err
	}
	out := Choices{Space: p.Space, Coins: p.Coins, Stars: p.Stars, MRDL: p.MRDL.orDefault().String(), Boost: p.Boost,
		Movement: p.MRDL.movementOdds(p.Boost), Week: s.Week, Phase: s.Phase, Orders: []Choice{}, Forks: []Fork{}}
	if !s.Clock.IsZero() {
		out.AsOf = s.Clock.Format(time.RFC3339)
	}
	if s.First == "" {
		out.Note = "the calendar starts with the first order: a roll sent Monday to Thursday opens week 1, one sent Friday to Sunday is refused (try roll waits)"
	}
	// judge is the rules' own check, at the game's clock.
	judge := func(o Order, words ...string) Choice {
		j, err := s.judge(p, o, s.Clock)
		c := Choice{OrderChoice: race.Judge(o.String(), words, err)}
		if c.Allowed && j.Kind == Wait && j.Try {
			c.Note = "waits: " + j.Note
		}
		return c
	}
	if p.Pause != nil {
		out.Fork, out.Left = p.Pause.Fork, p.Pause.Movement
		routes, forks, more := s.board.routes(p.Pause.Fork, p.Pause.Movement, maxChoiceRoutes)
		out.More = more
		left := []Movement{{Movement: p.Pause.Movement, Chance: 1}}
		for _, r := range routes {
			text := strings.Join(r, " ")
			c := judge(Order{Kind: Choose, Route: r}, "choose "+text, "go "+text)
			if c.Allowed {
				odds := s.board.moveOdds(p.Pause.Fork, left, r)
				c.Odds = &odds
			}
			out.Orders = append(out.Orders, c)
		}
		out.Forks = s.forks(forks)
		out.Orders = append(out.Orders, judge(Order{Kind: Roll}, "roll"), judge(Order{Kind: Roll, Try: true}, "try roll"), judge(Order{Kind: Wait}, "wait"))
		return out, nil
	}
	hi := 0
	for _, m := range out.Movement {
		hi = max(hi, m.Movement)
	}
	routes, forks, more := s.board.routes(p.Space, hi, maxChoiceRoutes)
	out.More = more
	roll := judge(Order{Kind: Roll}, "roll")
	if roll.Allowed {
		odds := s.board.moveOdds(p.Space, out.Movement, nil)
		roll.Odds = &odds
		if s.First != "" { // else the order's own time fixes the calendar
			c := s.calendar(s.Clock)
			week, _ := c.Where(s.Clock)
			out.RollUntil = c.MinigameStart(week).Format(time.RFC3339)
		}
	}
	out.Orders = append(out.Orders, roll)
	for _, r := range routes {
		c := judge(Order{Kind: Roll, Route: r}, "roll via "+strings.Join(r, " "))
		if c.Allowed {
			odds := s.board.moveOdds(p.Space, out.Movement, r)
			c.Odds = &odds
		}
		out.Orders = append(out.Orders, c)
	}
	try := judge(Order{Kind: Roll, Try: true}, "try roll")
	if try.Note == "" {
		try.Odds = roll.Odds
	}
	out.Orders = append(out.Orders, try, judge(Order{Kind: Wait}, "wait"))
	// choose answers only a fork waited at: listed, refused, so that a page
	// can say why, with a way on from the first fork ahead.
	ahead := s.board.Successors(p.Space)[0]
	if len(forks) > 0 {
		ahead = s.board.Successors(forks[0])[0]
	}
	out.Orders = append(out.Orders, judge(Order{Kind: Choose, Route: []string{ahead}}, "choose "+ahead, "go "+ahead))
	out.Forks = s.forks(forks)
	return out, nil
}

func (s *State) forks(ids []string) []Fork {
	out := []Fork{}
	for _, id := range ids {
		out = append(out, Fork{Space: id, Ways: append([]string(nil), s.board.Successors(id)...)})
	}
	return out
}
