package party

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// Resolve implements race.Ruleset: the orders play in the order the host
// logged them (defaults, which carry no time, at the deadline, last), each
// moving the calendar on to its time first. After the orders, the calendar
// moves on to the time of the resolve (none when at is zero), so a week in which nobody
// wrote still passes, and the game ends when its last week is over.
func (Ruleset) Resolve(st race.State, orders map[int]race.Order, d *dice.Roller, at time.Time) (race.State, []race.Event, error) {
	old := st.(*State)
	s := old.clone()
	type seatOrder struct {
		seat int
		o    Order
	}
	os, err := race.OrdersAs[Order]("party", orders)
	if err != nil {
		return nil, nil, err
	}
	var list []seatOrder
	for seat, o := range os {
		if s.player(seat) == nil {
			return nil, nil, fmt.Errorf("seat %d: no such player", seat)
		}
		list = append(list, seatOrder{seat, o})
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if a.o.At.IsZero() != b.o.At.IsZero() {
			return b.o.At.IsZero()
		}
		if !a.o.At.Equal(b.o.At) {
			return a.o.At.Before(b.o.At)
		}
		return a.seat < b.seat
	})
	r := &resolver{s: s, d: d}
	for _, n := range s.News {
		r.say(-1, "news", n)
	}
	s.News = nil
	for _, x := range list {
		if !x.o.At.IsZero() {
			for _, n := range s.advance(x.o.At) {
				r.say(-1, "calendar", n)
			}
		}
		p := s.player(x.seat)
		switch x.o.Kind {
		case Roll:
			if p.Pause != nil || p.Week == x.o.Week {
				r.say(p.Seat, "refused", p.Name+"'s roll no longer stands: the move before it is not finished or this week's roll is made")
				continue
			}
			r.roll(p, x.o.Route, x.o.Week)
		case Choose:
			if p.Pause == nil || !slices.Contains(s.board.Successors(p.Pause.Fork), x.o.Route[0]) {
				continue // answered already; nothing waits for it
			}
			r.carryOn(p, x.o.Route, false)
		}
	}
	if !at.IsZero() {
		for _, n := range s.advance(at) {
			r.say(-1, "calendar", n)
		}
	}
	if s.Over() {
		// The game is over: a move still waiting at a fork ends on the first ways.
		for i := range s.Players {
			if p := &s.Players[i]; p.Pause != nil {
				r.carryOn(p, nil, true)
			}
		}
	}
	s.T++
	if r.err != nil {
		return nil, nil, r.err
	}
	return s, r.ev, nil
}

type resolver struct {
	s   *State
	d   *dice.Roller
	ev  []race.Event
	err error
}

func (r *resolver) say(seat int, kind, text string) {
	r.ev = append(r.ev, race.Event{Seat: seat, Kind: kind, Text: text})
}

// sayRolls tells an event with the rolls made since mark.
func (r *resolver) sayRolls(seat int, kind, text string, mark int) {
	r.ev = append(r.ev, race.Event{Seat: seat, Kind: kind, Text: text, Rolls: r.d.Since(mark)})
}

// roll is the movement roll: every die of the MRDL plus every integer is the
// Movement; then the movement itself, from the player's space.
func (r *resolver) roll(p *Player, route []string, week int) {
	mark := r.d.Mark()
	m := p.MRDL.orDefault()
	p.MRDL = m
	movement, faces := m.Roll(r.d, p.Seat, "movement roll")
	text := fmt.Sprintf("%s rolls %s", p.Name, m)
	if len(faces) > 0 {
		text += fmt.Sprintf(" (%s)", joinInts(faces))
	}
	if p.Boost != 0 {
		movement += p.Boost
		text += fmt.Sprintf(" %+d from a happening", p.Boost)
		p.Boost = 0
	}
	text += fmt.Sprintf(": Movement %d", movement)
	if len(route) > 0 {
		text += ", route " + strings.Join(route, " ")
	}
	p.Week = week
	r.sayRolls(p.Seat, "roll", text, mark)
	p.Path = append(p.Path, []string{p.Space})
	p.Pause = &Pause{Fork: p.Space, Movement: movement}
	r.carryOn(p, route, false)
}

// carryOn runs the movement from the Most Recently Passed Space kept in
// p.Pause, answering forks with route; at a fork with no answer it waits
// (or, when auto, takes the first way). It lands the player when Movement
// is spent.
func (r *resolver) carryOn(p *Player, route []string, auto bool) {
	s := r.s
	for p.Pause != nil {
		mark := r.d.Mark()
		var notes []string
		w := s.board.walk(p.Pause.Fork, p.Pause.Movement, route, func(id string) {
			if n := r.pass(p, id); n != "" {
				notes = append(notes, n)
			}
		})
		if w.err != nil {
			r.err = w.err // a validated board cannot get here
			p.Pause = nil
			return
		}
		if len(p.Path) == 0 {
			p.Path = [][]string{{p.Pause.Fork}}
		}
		last := &p.Path[len(p.Path)-1]
		*last = append(*last, w.passed...)
		if len(w.passed) > 0 {
			text := fmt.Sprintf("%s passes %s", p.Name, strings.Join(w.passed, ", "))
			if len(notes) > 0 {
				text += " (" + strings.Join(notes, "; ") + ")"
			}
			r.sayRolls(p.Seat, "move", text, mark)
		}
		// Whatever is left of the route is dropped at a pause: the route did
		// not fit this fork, so the player is asked afresh.
		if w.fork == "" {
			p.Pause = nil
			r.land(p, w.at, w.movement)
			return
		}
		p.Pause = &Pause{Fork: w.fork, Movement: w.movement}
		succ := s.board.Successors(w.fork)
		if auto {
			route = []string{succ[0]}
			r.say(p.Seat, "fork", fmt.Sprintf("%s takes %s at the fork %s: the game is over and nobody chose", p.Name, succ[0], w.fork))
			continue
		}
		text := fmt.Sprintf("%s reaches the fork %s with %d Movement left and must choose: %s (by the deadline, or %s)",
			p.Name, w.fork, w.movement, strings.Join(succ, " or "), succ[0])
		if w.refused != "" {
			text = fmt.Sprintf("%s reaches the fork %s, where the route's %s is not a way on, with %d Movement left; choose %s (by the deadline, or %s)",
				p.Name, w.fork, w.refused, w.movement, strings.Join(succ, " or "), succ[0])
		}
		p.Last = fmt.Sprintf("waits at %s", w.fork)
		r.say(p.Seat, "fork", text)
		return
	}
}

func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, "+")
}

// pass is the rules' hook for passing a space: a star space sells a star to
// a player with the coins for it.
func (r *resolver) pass(p *Player, id string) string {
	if r.s.board.Space(id).Type != Star {
		return ""
	}
	if p.Coins < starPrice {
		return fmt.Sprintf("%s: a star costs %d coins, %s has %d", id, starPrice, p.Name, p.Coins)
	}
	p.Coins -= starPrice
	p.Stars++
	return fmt.Sprintf("%s: buys a star for %d coins, now %s and %s", id, starPrice, plural(p.Stars, "star"), plural(p.Coins, "coin"))
}

// land sets the player's space (even to the one they were on) and plays
// the space's landing effect.
func (r *resolver) land(p *Player, id string, movement int) {
	p.Space = id
	sp := r.s.board.Space(id)
	mark := r.d.Mark()
	text := fmt.Sprintf("%s lands on %s", p.Name, id)
	if len(p.Path) > 0 && len(p.Path[len(p.Path)-1]) == 1 { // nothing passed: a Movement of 0 or less
		text = fmt.Sprintf("%s, with Movement %d, does not move and lands on %s again", p.Name, movement, id)
	}
	if sp.Type != Blank {
		text += " (" + string(sp.Type) + ")"
	}
	effect := r.effect(p, sp)
	if effect != "" {
		text += ": " + effect
	}
	p.Last = fmt.Sprintf("landed on %s", id)
	if effect != "" {
		p.Last += ": " + effect
	}
	r.sayRolls(p.Seat, "land", text, mark)
}

// Coins a space gives or takes.
const (
	blueCoins     = 3
	redCoins      = 3
	happeningLoss = 5
	happeningGain = 5
	happeningMove = 3
	chanceCoins   = 10
)

// What a Happening space's d6 brings, and what Chance Time's d6 passes
// between two players, face by face: pitwall's own tables (the text names
// the spaces; rules-notes.md). The odds read the same tables.
const (
	thwomp     = "thwomp"      // 1-2: coins shaken loose
	coinShower = "coin-shower" // 3-4: coins gained
	tailwind   = "tailwind"    // 5-6: added to the next movement roll

	givesCoins = "gives-coins" // 1-2: the lander gives the other coins
	takesCoins = "takes-coins" // 3-4: the other gives the lander coins
	swapCoins  = "swap-coins"  // 5
	swapStars  = "swap-stars"  // 6
)

var (
	happeningOn = [7]string{1: thwomp, 2: thwomp, 3: coinShower, 4: coinShower, 5: tailwind, 6: tailwind}
	chanceOn    = [7]string{1: givesCoins, 2: givesCoins, 3: takesCoins, 4: takesCoins, 5: swapCoins, 6: swapStars}
)

// effect plays a space's landing effect and tells it.
func (r *resolver) effect(p *Player, sp *Space) string {
	switch sp.Type {
	case Blue:
		p.Coins += blueCoins
		return fmt.Sprintf("+%d coins, %d", blueCoins, p.Coins)
	case Red:
		lost := min(redCoins, p.Coins)
		p.Coins -= lost
		return fmt.Sprintf("-%d coins, %d", lost, p.Coins)
	case Happening:
		v := r.d.Roll(p.Seat, "happening", dice.D6)
		switch happeningOn[v] {
		case thwomp:
			lost := min(happeningLoss, p.Coins)
			p.Coins -= lost
			return fmt.Sprintf("d6 %d, a Thwomp shakes %d coins loose, %d", v, lost, p.Coins)
		case coinShower:
			p.Coins += happeningGain
			return fmt.Sprintf("d6 %d, a coin shower, +%d coins, %d", v, happeningGain, p.Coins)
		default:
			p.Boost += happeningMove
			return fmt.Sprintf("d6 %d, a tailwind: +%d on the next movement roll", v, happeningMove)
		}
	case Chance:
		return r.chance(p)
	}
	return ""
}

// chance is Chance Time: a die picks another player (in seat order), a d6
// what passes between them.
func (r *resolver) chance(p *Player) string {
	var others []*Player
	for i := range r.s.Players {
		if r.s.Players[i].Seat != p.Seat {
			others = append(others, &r.s.Players[i])
		}
	}
	if len(others) == 0 {
		return "nobody to share Chance Time with"
	}
	q := others[0]
	if len(others) > 1 {
		q = others[r.d.Roll(p.Seat, "chance: who", dice.D(len(others)))-1]
	}
	v := r.d.Roll(p.Seat, "chance: what", dice.D6)
	switch chanceOn[v] {
	case givesCoins:
		n := min(chanceCoins, p.Coins)
		p.Coins -= n
		q.Coins += n
		return fmt.Sprintf("Chance Time with %s, d6 %d: %s gives %s %d coins", q.Name, v, p.Name, q.Name, n)
	case takesCoins:
		n := min(chanceCoins, q.Coins)
		q.Coins -= n
		p.Coins += n
		return fmt.Sprintf("Chance Time with %s, d6 %d: %s gives %s %d coins", q.Name, v, q.Name, p.Name, n)
	case swapCoins:
		p.Coins, q.Coins = q.Coins, p.Coins
		return fmt.Sprintf("Chance Time with %s, d6 %d: they swap coins, %s now %d, %s %d", q.Name, v, p.Name, p.Coins, q.Name, q.Coins)
	default:
		p.Stars, q.Stars = q.Stars, p.Stars
		return fmt.Sprintf("Chance Time with %s, d6 %d: they swap stars, %s now %d, %s %d", q.Name, v, p.Name, p.Stars, q.Name, q.Stars)
	}
}
