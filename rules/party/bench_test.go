package party

import (
	"testing"
	"time"

	"pitwall/race"
	"pitwall/race/racetest"
)

// midGame is an 8-player game in week 2's Boardplay Phase, with everyone's
// roll for the next turn.
func midGame(b *testing.B) (*State, map[int]race.Order, time.Time) {
	b.Helper()
	_, p := botGame(b, 3, 8, map[string]string{"weeks": "4"}, 48*time.Hour)
	var s *State
	for n := 0; n <= len(p.Turns); n++ {
		if x := racetest.StateAt(b, p, n).(*State); x.Week == 2 && x.Phase == Boardplay {
			s = x
			break
		}
	}
	if s == nil {
		b.Fatal("no Boardplay Phase in week 2")
	}
	at := s.Clock.Add(time.Minute)
	orders := map[int]race.Order{}
	for _, x := range s.Players {
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: x.Seat, Text: "roll", At: at})
		if err != nil {
			continue // rolled already this week
		}
		orders[x.Seat] = o
	}
	if len(orders) < 4 {
		b.Fatalf("only %d players can roll", len(orders))
	}
	return s, orders, at
}

// BenchmarkResolve8 resolves one turn of 8 players' rolls.
func BenchmarkResolve8(b *testing.B) {
	s, orders, at := midGame(b)
	racetest.BenchResolve(b, Ruleset{}, racetest.Turn{State: s, Orders: orders, At: at})
}

func BenchmarkDrawPNG8(b *testing.B) { s, _, _ := midGame(b); racetest.BenchPNG(b, s) }
func BenchmarkDrawSVG8(b *testing.B) { s, _, _ := midGame(b); racetest.BenchSVG(b, s) }
