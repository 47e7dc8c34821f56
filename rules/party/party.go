// Package party plays Mario Party Nomic: a board of spaces with successors
// and forks, movement rolls from each player's Movement Roll Dice List once
// per Boardplay Phase, and weekly phases on the race's clock. A race turn is
// one resolution by the host; the calendar moves with the times the host
// logged for the orders, never with the clock.
package party

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"pitwall/dice"
	"pitwall/internal/racers"
	"pitwall/internal/words"
	"pitwall/race"
)

func init() { race.Register(Ruleset{}) }

// Ruleset is the party ruleset.
type Ruleset struct{}

// DefaultBoard is the board of a race that names none; it is listed first.
const DefaultBoard = "toad-town"

// Game options and their limits.
const (
	maxPlayers   = 8
	defaultWeeks = 4
	maxWeeks     = 52
	startCoins   = 10 // as in the video games
	starPrice    = 20
)

var optionNames = []string{"board", "coins", "mrdl", "start", "tz", "weeks"}

// Setup implements race.Ruleset: every player on the starting space with
// the starting coins, no stars and the board's MRDL; the calendar waits for
// the first order unless the start option fixes the first Monday.
func (Ruleset) Setup(cfg race.Config, entrants []race.Entrant, d *dice.Roller) (race.State, error) {
	id := cfg.Track
	if id == "" {
		id = DefaultBoard
	}
	var b *Board
	var err error
	own := cfg.Options["board"]
	if own != "" {
		// A host's own board, given whole (pitwall race new --board FILE).
		if b, err = ParseBoard("the race's board", []byte(own)); err != nil {
			return nil, err
		}
		if cfg.Track != "" && cfg.Track != b.ID {
			return nil, fmt.Errorf("the race's own board is %q; --track names %q", b.ID, cfg.Track)
		}
	} else if b, err = LoadBoard(id); err != nil {
		return nil, err
	}
	if cfg.Laps != 0 {
		return nil, fmt.Errorf("party has no laps; the game lasts a number of weeks (option weeks, default %d)", defaultWeeks)
	}
	opt := func(k string) string { return strings.TrimSpace(cfg.Options[k]) }
	for _, k := range slices.Sorted(maps.Keys(cfg.Options)) { // the same error for the same input
		if !slices.Contains(optionNames, k) {
			return nil, fmt.Errorf("unknown race option %q; party's options: %s", k, strings.Join(optionNames, ", "))
		}
	}
	s := &State{BoardID: b.ID, BoardYAML: own, TZ: "UTC", Weeks: defaultWeeks, Phase: Before, board: b}
	if v := opt("tz"); v != "" {
		s.TZ = v
	}
	if s.loc, err = loadZone(s.TZ); err != nil {
		return nil, err
	}
	if v := opt("weeks"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > maxWeeks {
			return nil, fmt.Errorf("weeks is 1 to %d; got %q", maxWeeks, v)
		}
		s.Weeks = n
	}
	if v := opt("start"); v != "" {
		day, err := parseStart(v, s.loc)
		if err != nil {
			return nil, err
		}
		s.First = midnight(day, s.loc).Format("2006-01-02")
	}
	coins := startCoins
	if v := opt("coins"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1000 {
			return nil, fmt.Errorf("coins (each player's coins at the start) is 0 to 1000; got %q", v)
		}
		coins = n
	}
	mrdl := b.DefaultMRDL()
	if v := opt("mrdl"); v != "" {
		if mrdl, err = ParseMRDL(v); err != nil {
			return nil, fmt.Errorf("mrdl: %v", err)
		}
	}
	names := racers.Names{}
	for i, e := range entrants {
		if strings.TrimSpace(e.Player) == "" {
			return nil, fmt.Errorf("entrant %d has no player name", i+1)
		}
		name, err := names.One(e, "character", "a player plays one")
		if err != nil {
			return nil, err
		}
		if len(e.Options) > 0 {
			return nil, fmt.Errorf("%s: party players make no choices at entry", e.Player)
		}
		if strings.ContainsAny(name, ",=") {
			return nil, fmt.Errorf("%s: a character's name cannot hold ',' or '=' (the host's minigame results are NAME=COINS,...); got %q", e.Player, name)
		}
		s.Players = append(s.Players, Player{Seat: len(s.Players), Player: e.Player, Name: name, Space: b.Start,
			Coins: coins, MRDL: append(MRDL(nil), mrdl...)})
	}
	if len(s.Players) < 2 {
		return nil, fmt.Errorf("%w: a party needs at least 2 players; %d entered", race.ErrTooFew, len(s.Players))
	}
	if len(s.Players) > maxPlayers {
		return nil, fmt.Errorf("a party takes at most %d players; %d entered", maxPlayers, len(s.Players))
	}
	return s, nil
}

// Set implements race.Ruleset. Settings:
//
//	minigame=NAME=COINS,NAME=COINS   this week's minigame results, every player named (Minigame Phase; entered again, they replace the last)
//	clock=RFC3339                    move the game's calendar on when no order has
func (Ruleset) Set(st race.State, key, value string) (race.State, error) {
	old := st.(*State)
	s := old.clone()
	switch key {
	case "clock":
		t, err := time.Parse(time.RFC3339, strings.TrimSpace(value))
		if err != nil {
			return nil, fmt.Errorf("clock is an RFC3339 time, such as 2026-11-27T18:00:00Z; got %q", value)
		}
		if t.Before(s.Clock) {
			return nil, fmt.Errorf("the game's clock is at %s already; it only moves on", s.calendar(s.Clock).When(s.Clock))
		}
		s.News = append(s.News, s.advance(t)...)
		return s, nil
	case "minigame":
		return s.minigame(value)
	}
	return nil, fmt.Errorf("unknown setting %q; party's settings: minigame=NAME=COINS,... (this week's results), clock=RFC3339 (move the calendar on)", key)
}

const maxPrize = 100

func (s *State) minigame(value string) (race.State, error) {
	c := s.calendar(s.Clock)
	if s.Phase != Minigame {
		when := "the game has not begun"
		if s.Phase == Boardplay {
			when = fmt.Sprintf("it is week %d's Boardplay Phase; its Minigame Phase opens %s", s.Week, c.When(c.MinigameStart(s.Week)))
		}
		if s.First == "" || s.Clock.IsZero() {
			when = "the game's calendar has not started"
		}
		return nil, fmt.Errorf("minigame results are entered in a Minigame Phase (Friday to Sunday), and %s (by the game's clock: the time of the last order or resolve; turn set --setting clock=RFC3339 moves it on)", when)
	}
	prize := map[int]int{}
	for _, part := range strings.Split(value, ",") {
		name, v, ok := strings.Cut(part, "=")
		name = strings.TrimSpace(name)
		if !ok || name == "" {
			return nil, fmt.Errorf("minigame results are NAME=COINS, separated by commas (Mario=10,Luigi=5); got %q", part)
		}
		var p *Player
		for i := range s.Players {
			if strings.EqualFold(s.Players[i].Name, name) {
				p = &s.Players[i]
			}
		}
		if p == nil {
			var names []string
			for _, x := range s.Players {
				names = append(names, x.Name)
			}
			return nil, fmt.Errorf("no player called %q; players: %s", name, strings.Join(names, ", "))
		}
		if _, dup := prize[p.Seat]; dup {
			return nil, fmt.Errorf("%s is named twice in the results", p.Name)
		}
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > maxPrize {
			return nil, fmt.Errorf("%s: a minigame prize is 0 to %d coins; got %q", p.Name, maxPrize, strings.TrimSpace(v))
		}
		prize[p.Seat] = n
	}
	// Every player is named, so that nobody is left out by a slip of the
	// host's: one who won nothing is named with 0.
	var missing []string
	for _, p := range s.Players {
		if _, ok := prize[p.Seat]; !ok {
			missing = append(missing, p.Name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the results name every player, 0 for one who won nothing; missing: %s", strings.Join(missing, ", "))
	}
	// Until the week closes, results entered again correct the last ones:
	// their prizes are taken back and the new ones given.
	again := s.hasResults(s.Week)
	var told []string
	for i := range s.Players {
		p := &s.Players[i]
		if again {
			p.Coins -= p.Prize
		}
		p.Prize = prize[p.Seat]
		p.Coins += p.Prize
		told = append(told, fmt.Sprintf("%s +%d (%d)", p.Name, p.Prize, p.Coins))
	}
	head := fmt.Sprintf("Week %d's minigame results", s.Week)
	if again {
		head = fmt.Sprintf("Week %d's minigame results, corrected", s.Week)
	} else {
		s.Results = append(s.Results, s.Week)
	}
	s.News = append(s.News, fmt.Sprintf("%s: %s.", head, strings.Join(told, ", ")))
	return s, nil
}

// Prompts implements race.Ruleset. Every player is prompted while the game
// runs: a player with nothing to do may still send 'wait' or 'try roll',
// whose logged time is what moves the game's calendar on.
func (Ruleset) Prompts(st race.State) []race.Prompt {
	s := st.(*State)
	if s.Over() {
		return nil
	}
	c := s.calendar(s.Clock)
	var out []race.Prompt
	for _, p := range s.Players {
		pr := race.Prompt{Seat: p.Seat, Name: p.Name, Turn: s.Turn(), Orders: 1}
		switch {
		case p.Pause != nil:
			for _, n := range s.board.Successors(p.Pause.Fork) {
				pr.Legal = append(pr.Legal, "choose "+n)
			}
			pr.Note = fmt.Sprintf("at the fork %s with %d Movement left; no choice by the deadline takes %s",
				p.Pause.Fork, p.Pause.Movement, s.board.Successors(p.Pause.Fork)[0])
		case s.Phase == Boardplay && p.Week != s.Week:
			pr.Legal = []string{"roll", "roll via SPACE...", "try roll", "wait"}
			pr.Note = fmt.Sprintf("week %d's movement roll is open until %s", s.Week, c.When(c.MinigameStart(s.Week)))
		default:
			pr.Legal = []string{"try roll", "wait"}
			switch {
			case s.First == "":
				pr.Note = "the calendar starts with the first order: a roll sent Monday to Thursday opens week 1"
			case s.Phase == Before:
				pr.Note = "week 1 opens " + c.When(c.WeekStart(1))
			case s.Phase == Boardplay:
				pr.Note = fmt.Sprintf("rolled this week; %s", c.NextBoardplay(s.Clock))
			default:
				pr.Note = fmt.Sprintf("week %d's Minigame Phase; %s", s.Week, c.NextBoardplay(s.Clock))
			}
		}
		out = append(out, pr)
	}
	return out
}

// orderer is the player of seat, if they may order at all: ParseOrder and
// Choices refuse a seat alike.
func (s *State) orderer(seat int) (*Player, error) {
	p := s.player(seat)
	if p == nil {
		return nil, race.NotAllowed(codeNoSeat, "there is no seat %d in this game", seat)
	}
	if s.Over() {
		return nil, race.NotAllowed(codeGameOver, "the game is over")
	}
	return p, nil
}

// ParseOrder implements race.Ruleset: the order is judged at the time the
// host logged for it.
func (Ruleset) ParseOrder(st race.State, sub race.Submission) (race.Order, error) {
	s := st.(*State)
	parse := func(text string) (Order, error) { return parseText(s.board, text) }
	return race.ReadOrder(sub, s.orderer, parse, func(p *Player, o Order) (Order, error) {
		return s.judge(p, o, sub.At)
	})
}

// DefaultOrder implements race.Ruleset: a player waiting at a fork takes its
// first successor; anyone else waits (they may still roll later in the phase).
func (Ruleset) DefaultOrder(st race.State, seat int) race.Order {
	s := st.(*State)
	if p := s.player(seat); p != nil && p.Pause != nil {
		return Order{Kind: Choose, Route: []string{s.board.Successors(p.Pause.Fork)[0]}}
	}
	return Order{Kind: Wait}
}

// Standings implements race.Ruleset: stars, then coins; players level on
// both share the place.
func (Ruleset) Standings(st race.State) race.Standings {
	s := st.(*State)
	ps := append([]Player(nil), s.Players...)
	sort.SliceStable(ps, func(i, j int) bool {
		if ps[i].Stars != ps[j].Stars {
			return ps[i].Stars > ps[j].Stars
		}
		return ps[i].Coins > ps[j].Coins
	})
	status := "racing"
	if s.Over() {
		status = "finished"
	}
	var out race.Standings
	for i, p := range ps {
		place := i + 1
		if i > 0 && p.Stars == ps[i-1].Stars && p.Coins == ps[i-1].Coins {
			place = out[i-1].Place
		}
		out = append(out, race.Standing{Place: place, Seat: p.Seat, Name: p.Name, Player: p.Player, Status: status,
			Detail: fmt.Sprintf("%s, %s, on %s", plural(p.Stars, "star"), plural(p.Coins, "coin"), p.Space)})
	}
	return out
}

var plural = words.Count

// DecodeState implements race.Ruleset.
func (Ruleset) DecodeState(b []byte) (race.State, error) {
	return race.DecodeJSON[State]("a party state", b, func(s *State) (err error) {
		if s.BoardYAML != "" {
			s.board, err = ParseBoard("the race's board", []byte(s.BoardYAML))
		} else {
			s.board, err = LoadBoard(s.BoardID)
		}
		if err != nil {
			return err
		}
		s.loc, err = loadZone(s.TZ)
		return err
	}, (*State).check)
}

// check is what race.DecodeJSON holds a stored state to; it refuses players
// out of range, off the board, or waiting at a space that is no fork.
func (s *State) check() error {
	if len(s.Players) < 2 || len(s.Players) > maxPlayers {
		return fmt.Errorf("%d players; a game has 2 to %d", len(s.Players), maxPlayers)
	}
	for i, p := range s.Players {
		switch {
		case p.Seat != i:
			return fmt.Errorf("player %d sits in seat %d", i+1, p.Seat)
		case s.board.Space(p.Space) == nil:
			return fmt.Errorf("%s is on %q, which is not on the board", p.Name, p.Space)
		case p.Pause != nil && !s.board.IsFork(p.Pause.Fork):
			return fmt.Errorf("%s waits at %q, which is no fork", p.Name, p.Pause.Fork)
		case p.Prize < 0 || p.Prize > maxPrize:
			return fmt.Errorf("%s won %d coins in the last minigame; a prize is 0 to %d", p.Name, p.Prize, maxPrize)
		}
		if err := p.MRDL.check(); err != nil {
			return fmt.Errorf("%s's MRDL: %w", p.Name, err)
		}
	}
	return nil
}
