package nascar

import (
	"math/big"
	"strings"

	"pitwall/dice"
	"pitwall/race"
)

// The outcomes of a turn's move, as SpeedChoice.Odds names them: the worst
// that happens to the car, in this order.
const (
	OutOff   = "off"   // the car leaves the track (an oil slick's doing or not)
	OutCrash = "crash" // it runs into another car
	OutOil   = "oil"   // an oil slick slews it, and it stays on the track
	OutNone  = "none"  // none of these
)

// Outcomes lists every outcome name.
var Outcomes = []string{OutNone, OutOil, OutCrash, OutOff}

// orderOdds works out, exactly, the odds of each outcome of the car in seat
// driving order o this turn: the car's move is played by the resolver on
// both faces of every oil slick's coin it meets, so the odds follow the
// rules wherever the slicks send it. The other cars are taken as they
// stand: those moving first may clear the way or close it.
func (s *State) orderOdds(seat int, o Order) map[string]float64 {
	total := map[string]*big.Rat{}
	for _, x := range Outcomes {
		total[x] = new(big.Rat)
	}
	var walk func(faces []int, w *big.Rat)
	walk = func(faces []int, w *big.Rat) {
		src := &dice.Prefix{Faces: faces}
		d := dice.WithSource(src)
		ev := s.soloTurn(seat, o, d)
		for j, r := range d.Log() {
			if j < len(faces) || r.Seat != seat || !strings.Contains(r.Reason, "oil slick") {
				continue // the coin of a crash changes no outcome: both stop
			}
			var head []int // the faces the run showed before roll j
			for _, r := range d.Log()[:j] {
				head = append(head, r.Face)
			}
			for f := range src.Asked[j].Faces {
				walk(append(head, f), new(big.Rat).Mul(w, big.NewRat(1, int64(src.Asked[j].Sides()))))
			}
			return
		}
		x := outcome(seat, ev)
		total[x].Add(total[x], w)
	}
	walk(nil, big.NewRat(1, 1))
	out := make(map[string]float64, len(total))
	for x, p := range total {
		out[x], _ = p.Float64()
	}
	return out
}

// soloTurn plays the turn for the car in seat alone, on a copy of the
// state: the other cars stand still.
func (s *State) soloTurn(seat int, o Order, d *dice.Roller) []race.Event {
	s = s.clone()
	r := &resolver{s: s, d: d, movers: map[int]*mover{}}
	c := s.car(seat)
	p, err := Check(o, s.carFor(c))
	if err != nil {
		return nil // not reached: the choices are checked orders
	}
	m := r.start(c, o, p)
	for !m.done && len(m.moves) > 0 && c.racing() {
		r.step(m)
	}
	r.endTurn(m)
	return r.ev
}

// outcome is the worst outcome the events show for the car in seat.
func outcome(seat int, ev []race.Event) string {
	for _, worst := range []string{OutOff, OutCrash, OutOil} {
		for _, e := range ev {
			if e.Seat == seat && e.Kind == worst {
				return worst
			}
		}
	}
	return OutNone
}
