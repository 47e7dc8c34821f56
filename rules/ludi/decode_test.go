package ludi

import (
	"testing"

	"pitwall/race/racetest"
)

// storedStates are the stored states of a 3-chariot bot race: the start,
// turn 5, and the turn before the end, when two chariots have finished.
func storedStates(t testing.TB) [][]byte {
	_, p := botRace(t, 3, 3)
	return racetest.StoredStates(t, p)
}

// A stored state the game could not have made is refused when read, not
// left to panic in a prompt, a post or a turn (each of these did).
func TestDecodeStateRefusesDamage(t *testing.T) {
	good := storedStates(t)[2]
	racetest.Refused(t, Ruleset{}, good, [][3]string{
		{`"track":"circus-maximus"`, `"track":"circus-minimus"`, `unknown track "circus-minimus"`},
		{`"turn":30`, `"turn":0`, "turn 0"},
		{`"orders_per_turn":1`, `"orders_per_turn":4`, "4 orders a turn"},
		{`"seat":0`, `"seat":7`, "chariot 1 sits in seat 7"},
		{`"pos":{"lane":6,"seg":3`, `"pos":{"lane":6,"seg":4`, "Auriga 2 is at lane 6, 4:6, which is not on Circus Maximus"},
		{`"pos":{"lane":6`, `"pos":{"lane":7`, "which is not on Circus Maximus"},
		{`{"lane":6,"seg":3,"cell":5}`, `{"lane":6,"seg":3,"cell":-1}`, "Auriga 2's trail passes lane 6, 3:-1"},
		{`"watch_crash":"minus-2"`, `"watch_crash":"minus-3"`, `race option watch-crash is "minus-3"; it is one of minus-2, none`},
		{`"level":2`, `"level":4`, "speed level 4"},
		{`"out":"finished"`, `"out":"retired"`, `unknown reason "retired"`},
		{`"finish":[0,1]`, `"finish":[0,5]`, "no seat 5"},
		{`"finish":[0,1]`, `"finish":[0,0]`, "finished twice"},
		{`"finish":[0,1]`, `"finish":[0,2]`, "Auriga 2 is listed as finished but is not"},
		{`"finish":[0,1]`, `"finish":[0]`, "2 chariots finished, 1 are listed"},
	})
}

// DecodeState on arbitrary changes to real states refuses them or gives a
// state that prompts, stands and plays a turn; it never panics.
func TestDecodeStateMutations(t *testing.T) {
	racetest.DecodeMutations(t, Ruleset{}, storedStates(t))
}

func FuzzDecodeState(f *testing.F) { racetest.FuzzDecode(f, Ruleset{}, storedStates(f)) }
