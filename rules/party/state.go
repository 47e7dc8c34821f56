package party

import (
	"fmt"
	"slices"
	"time"

	"pitwall/race"
)

// Player is one racer on the board.
type Player struct {
	Seat   int    `json:"seat"`
	Player string `json:"player"`
	Name   string `json:"name"`
	// Space is the player's space: it changes only when they land, so a
	// player waiting at a fork is still on the space they rolled from.
	Space string `json:"space"`
	Coins int    `json:"coins"`
	// Prize is what the latest minigame results gave: a correction in the
	// same Minigame Phase takes it back before it gives the new prize.
	Prize int    `json:"prize,omitempty"`
	Stars int    `json:"stars"`
	MRDL  MRDL   `json:"mrdl"`
	Boost int    `json:"boost,omitempty"`  // added to the next movement roll (a happening)
	Week  int    `json:"rolled,omitempty"` // the week of the player's last movement roll
	Pause *Pause `json:"pause,omitempty"`
	// Path is this week's walk, for the picture: each roll's space, then every space passed.
	Path [][]string `json:"path,omitempty"`
	Last string     `json:"last,omitempty"` // what the player last did, for the status board
}

// Pause is a movement waiting at a fork for the player's choice.
type Pause struct {
	Fork     string `json:"fork"`     // the Most Recently Passed Space: a fork
	Movement int    `json:"movement"` // Movement left
}

// State is a party game between resolutions.
type State struct {
	BoardID string `json:"board"`
	// BoardYAML is a host's own board (the race option board), kept whole so
	// that the race replays anywhere; empty for a shipped board.
	BoardYAML string `json:"board_yaml,omitempty"`
	T         int    `json:"turn"` // resolutions so far
	TZ        string `json:"tz"`
	Weeks     int    `json:"weeks"`
	// First is the first Monday (2026-11-23); empty until an order or the
	// host's clock fixes it, when no start was given.
	First string    `json:"first,omitempty"`
	Clock time.Time `json:"clock"` // the latest instant the game has seen
	Week  int       `json:"week"`  // of Clock; 0 before the first week
	Phase Phase     `json:"phase"`
	// Results lists the weeks whose minigame results are in.
	Results []int    `json:"results,omitempty"`
	Players []Player `json:"players"`
	News    []string `json:"news,omitempty"` // what the host's settings did, told with the next turn
	board   *Board   // loaded from BoardID, or read from BoardYAML
	loc     *time.Location
}

// Turn implements race.State.
func (s *State) Turn() int { return s.T + 1 }

// Over implements race.State: the last week has ended.
func (s *State) Over() bool { return s.Phase == Ended }

// Seats implements race.State.
func (s *State) Seats() []race.Seat {
	return race.SeatsOf(s.Players, func(r *Player) race.Seat { return race.Seat{Seat: r.Seat, Player: r.Player, Name: r.Name} })
}

func (s *State) clone() *State {
	n := *s
	n.Results = append([]int(nil), s.Results...)
	n.News = append([]string(nil), s.News...)
	n.Players = append([]Player(nil), s.Players...)
	for i := range n.Players {
		p := &n.Players[i]
		p.MRDL = append(MRDL(nil), p.MRDL...)
		if p.Pause != nil {
			x := *p.Pause
			p.Pause = &x
		}
		p.Path = nil
		for _, seg := range s.Players[i].Path {
			p.Path = append(p.Path, append([]string(nil), seg...))
		}
	}
	return &n
}

func (s *State) player(seat int) *Player {
	return race.BySeat(s.Players, seat, func(p *Player) int { return p.Seat })
}

// calendar is the game's calendar; when the first Monday is not fixed yet,
// t (the instant being judged) fixes it as the first order would.
func (s *State) calendar(t time.Time) Calendar {
	c := Calendar{Loc: s.loc, Weeks: s.Weeks}
	if s.First != "" {
		d, _ := time.Parse("2006-01-02", s.First) // written by firstMonday
		c.First = int(d.Unix() / 86400)
	} else {
		c.First = firstMonday(t, s.loc)
	}
	return c
}

// firstMonday is week 1's Monday when the game's first instant is t: t's
// own week if t falls in a Boardplay Phase, else the next week, so that the
// first week has its movement rolls.
func firstMonday(t time.Time, loc *time.Location) int {
	m := mondayOf(t, loc)
	if civilDay(t, loc)-m >= 4 {
		m += 7
	}
	return m
}

// now is the instant an order is judged at: when it came in, but never
// before what the game has already seen (the host may have moved the clock on).
func (s *State) now(at time.Time) time.Time {
	if at.Before(s.Clock) {
		return s.Clock
	}
	return at
}

// advance moves the game's clock on to t, fixing the first Monday if
// needed; a new week starts every walk's picture afresh. It tells what changed.
func (s *State) advance(t time.Time) []string {
	if !t.After(s.Clock) && s.First != "" {
		return nil
	}
	var news []string
	c := s.calendar(t)
	if s.First == "" {
		s.First = midnight(c.First, s.loc).Format("2006-01-02")
		news = append(news, fmt.Sprintf("The game's calendar is set: week 1 begins %s; %d weeks, in %s.", c.When(c.WeekStart(1)), s.Weeks, s.TZ))
	}
	if t.After(s.Clock) {
		s.Clock = t
	}
	week, ph := c.Where(s.Clock)
	if week == s.Week && ph == s.Phase {
		return news
	}
	if week != s.Week {
		for i := range s.Players {
			if s.Players[i].Pause == nil {
				s.Players[i].Path = nil
			}
		}
	}
	s.Week, s.Phase = week, ph
	switch ph {
	case Boardplay:
		news = append(news, fmt.Sprintf("Week %d: the Boardplay Phase is open until %s.", week, c.When(c.MinigameStart(week))))
	case Minigame:
		news = append(news, fmt.Sprintf("Week %d: the Minigame Phase is open until %s.", week, c.When(c.WeekStart(week+1))))
	case Ended:
		news = append(news, fmt.Sprintf("The last week ended %s: the game is over.", c.When(c.End())))
	}
	return news
}

func (s *State) hasResults(week int) bool { return slices.Contains(s.Results, week) }
