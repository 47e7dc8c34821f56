package party

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitwall/race"
	"pitwall/race/racetest"
)

// party's own lines in a turn case (docs/turn-cases.md):
//
//	board small.yaml             (a board in testdata/boards, or a shipped board's id)
//	weeks 4                      (default 4; the first Monday is 2026-11-23, in UTC)
//	phase boardplay week 1       (where the calendar stands; default: before the first week)
//	player Mario on o coins 10 stars 0 rolled 1 boost 2 waits-at f 3
//
// 'rolled W' is the week of the player's last roll; 'waits-at FORK N' a
// move paused at a fork with N Movement left.
type caseReader struct {
	state *State
	racetest.Seats
}

func newCaseReader() racetest.CaseReader {
	return &caseReader{state: &State{TZ: "UTC", Weeks: 4, Phase: Before, First: "2026-11-23", loc: time.UTC}, Seats: racetest.Seats{}}
}

func (r *caseReader) Line(w []string) error {
	l := racetest.NewLine(w)
	s := r.state
	switch w[0] {
	case "board":
		name := l.Word()
		var err error
		if strings.HasSuffix(name, ".yaml") {
			s.board, err = LoadBoardFile(filepath.Join("testdata", "boards", name))
		} else {
			s.board, err = LoadBoard(name)
		}
		l.Check(err)
		if s.board != nil {
			s.BoardID = s.board.ID
		}
	case "weeks":
		s.Weeks = l.Int()
	case "phase":
		s.Phase = Phase(l.Word())
		if l.More() && l.Word() == "week" {
			s.Week = l.Int()
		}
	case "player":
		if s.board == nil {
			l.Failf("the board line comes before the players")
			break
		}
		p := Player{Seat: len(s.Players), Name: l.Word(), Space: s.board.Start, Coins: startCoins, MRDL: s.board.DefaultMRDL()}
		p.Player = p.Name
		ints := map[string]*int{"coins": &p.Coins, "stars": &p.Stars, "rolled": &p.Week, "boost": &p.Boost}
		l.Fields("player", ints, func(k string) bool {
			switch k {
			case "on":
				p.Space = l.Word()
			case "waits-at":
				p.Pause = &Pause{Fork: l.Word(), Movement: l.Int()}
			default:
				return false
			}
			return true
		})
		r.Seats[p.Name] = p.Seat
		s.Players = append(s.Players, p)
	default:
		l.Failf("unknown line %q", w[0])
	}
	return l.Err()
}

func (r *caseReader) State() (race.State, error) {
	if r.state.board == nil || len(r.state.Players) == 0 {
		return nil, fmt.Errorf("a case needs a board line and a player line")
	}
	return r.state, nil
}

// describePlayers is every player after a turn, as the golden files show it.
func describePlayers(st race.State) []string {
	s := st.(*State)
	out := []string{fmt.Sprintf("week %d, %s", s.Week, s.Phase)}
	for _, p := range s.Players {
		line := fmt.Sprintf("%-6s on %-3s coins %d stars %d", p.Name, p.Space, p.Coins, p.Stars)
		if p.Week > 0 {
			line += fmt.Sprintf(" rolled in week %d", p.Week)
		}
		if p.Boost != 0 {
			line += fmt.Sprintf(" boost %d", p.Boost)
		}
		if p.Pause != nil {
			line += fmt.Sprintf(" waits at %s with %d Movement", p.Pause.Fork, p.Pause.Movement)
		}
		out = append(out, line)
	}
	return out
}

func TestGoldenTurns(t *testing.T) {
	racetest.TurnCases{Ruleset: Ruleset{}, Dir: "testdata/turns", New: newCaseReader, Describe: describePlayers}.Run(t)
}
