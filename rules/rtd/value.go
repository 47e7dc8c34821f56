package rtd

import (
	"pitwall/internal/logit"
	"pitwall/race"
)

// The search bot values a state by how likely each kart is to finish ahead
// of each other one, from a model learnt from simulated races: a kart's
// strength is valueWeights·valueFeatures, and of two karts racing, the
// first finishes ahead of the second with chance 1/(1+e^-(difference)).
// Hand-weighted scores of segments, place and Momentum, played four turns
// on, made a search no better than the heuristic bot it plays from (47.9%
// of 1,000 head-to-head races): the model tells what a segment or a point
// of Momentum is worth as the finish nears, and one turn played out is
// enough.

// The features of a kart, in valueWeights' order.
const (
	featSegments       = iota // segments driven, laps counted
	featSegmentsByLeft        // the same over the segments the leader has left, plus one: worth more near the end
	featMomentum
	featMomentumByLeft
	featFirst // first place
	featFirstByLeft
	featHand // an item in hand
	nFeatures
)

// valueWeights are fitted by TestValueWeights (value_test.go, which says
// how, and prints them anew should the fit move), from two-kart races of
// the heuristic bot on every course between karts of the demo.
var valueWeights = [nFeatures]float64{
	featSegments:       0.313028051937673,
	featSegmentsByLeft: 5.19827006450829,
	featMomentum:       0.07387376712024654,
	featMomentumByLeft: 1.286496409975602,
	featFirst:          0.0418525318935232,
	featFirstByLeft:    1.435033847372222,
	featHand:           0.13002126397417937,
}

// valueFeatures are x's features in s.
func (s *State) valueFeatures(x *Racer) [nFeatures]float64 {
	lead := 0
	for i := range s.Racers {
		lead = max(lead, s.distance(&s.Racers[i]))
	}
	left := float64(s.Laps*len(s.course.Segments) - lead + 1)
	var f [nFeatures]float64
	f[featSegments] = float64(s.distance(x))
	f[featSegmentsByLeft] = f[featSegments] / left
	f[featMomentum] = float64(x.Momentum)
	f[featMomentumByLeft] = f[featMomentum] / left
	if s.position(x.Seat) == 1 {
		f[featFirst], f[featFirstByLeft] = 1, 1/left
	}
	if x.Hand != 0 {
		f[featHand] = 1
	}
	return f
}

// strength is x's valueWeights·valueFeatures, in log-odds.
func (s *State) strength(x *Racer) float64 {
	f := s.valueFeatures(x)
	return logit.LogOdds(valueWeights[:], f[:])
}

// ahead is the chance that x finishes ahead of y from s: settled once
// either has finished, the model's otherwise.
func (s *State) ahead(x, y *Racer) float64 {
	switch {
	case x.Finished && y.Finished: // the order holds the finishers as they finished
		if s.position(x.Seat) < s.position(y.Seat) {
			return 1
		}
		return 0
	case x.Finished:
		return 1
	case y.Finished:
		return 0
	}
	return logit.Sigmoid(s.strength(x) - s.strength(y))
}

// Value implements race.Valuer: the share of the other karts seat is
// likely to finish ahead of (of two, its chance to win).
func (Ruleset) Value(st race.State, seat int) float64 {
	s := st.(*State)
	x := s.racer(seat)
	if x == nil || len(s.Racers) < 2 {
		return 0
	}
	sum := 0.0
	for i := range s.Racers {
		if y := &s.Racers[i]; y.Seat != seat {
			sum += s.ahead(x, y)
		}
	}
	return sum / float64(len(s.Racers)-1)
}

var _ race.Valuer = Ruleset{}
