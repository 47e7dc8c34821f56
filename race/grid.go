package race

import (
	"fmt"

	"pitwall/dice"
)

// DrawGrid draws the grid by lot: each racer in seat order draws one of the
// first len(seats) slots still free, on a die as big as the slots left (no
// roll for the last). It returns each racer's slot; seats gives each
// racer's seat and name, for the roll log. A field needs two racers (noun
// names them) and no more than the track's slots.
func DrawGrid(d *dice.Roller, seats []Seat, slots int, track, noun string) ([]int, error) {
	if len(seats) < 2 {
		return nil, fmt.Errorf("%w: a race needs at least 2 %s; %d entered", ErrTooFew, noun, len(seats))
	}
	if len(seats) > slots {
		return nil, fmt.Errorf("%s has %d grid slots; %d %s entered", track, slots, len(seats), noun)
	}
	free := make([]int, len(seats))
	for i := range free {
		free[i] = i
	}
	out := make([]int, len(seats))
	for i, s := range seats {
		k := 0
		if len(free) > 1 {
			k = d.Roll(s.Seat, s.Name+": grid draw", dice.D(len(free))) - 1
		}
		out[i] = free[k]
		free = append(free[:k], free[k+1:]...)
	}
	return out, nil
}
