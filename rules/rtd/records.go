package rtd

import (
	"fmt"

	"pitwall/race"
)

// Records implements race.Recorder: the race's fastest lap and fastest
// completion so far, in turns of racing (the start, turn 1 in posts, is not
// counted). A lap tie goes to whoever set it first, then to the earlier seat;
// the completion is the winner's.
// The completion's kind names the laps, since a race may set its own.
func (Ruleset) Records(st race.State) []race.Record {
	s := st.(*State)
	var lap, done *race.Record
	for i := range s.Racers {
		x := &s.Racers[i]
		prev := 0
		for n, end := range x.LapTurns {
			r := race.Record{Kind: "fastest lap", Seat: x.Seat, Name: x.Name, Player: x.Player, Turns: end - prev, Turn: end + 1, Lap: n + 1}
			if lap == nil || r.Better(*lap) || !lap.Better(r) && r.Seat < lap.Seat {
				lap = &r
			}
			prev = end
		}
	}
	if len(s.Finish) > 0 { // the winner: no one finishes in fewer turns
		x := s.racer(s.Finish[0])
		done = &race.Record{Kind: fmt.Sprintf("fastest completion, %d laps", s.Laps), Seat: x.Seat, Name: x.Name, Player: x.Player,
			Turns: x.FinishTurn, Turn: x.FinishTurn + 1}
	}
	var out []race.Record
	for _, r := range []*race.Record{lap, done} {
		if r != nil {
			out = append(out, *r)
		}
	}
	return out
}
