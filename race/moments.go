package race

// EachEvent walks a turn's events for a Headliner's Moments: tell gets each
// event with the name of its racer ("" where no racer sits at its seat) and
// the seats of after, with which NamedIn finds the other racer its text
// names. after must be the game's own state, S: another game's walks
// nothing, so it has no moments.
func EachEvent[S State](after State, events []Event, tell func(e Event, name string, seats []Seat)) {
	if _, ok := after.(S); !ok {
		return
	}
	seats := after.Seats()
	for _, e := range events {
		tell(e, NameOf(seats, e.Seat), seats)
	}
}
