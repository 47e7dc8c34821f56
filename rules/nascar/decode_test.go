package nascar

import (
	"testing"

	"pitwall/race/racetest"
)

// storedStates are the stored states of a 3-car bot race on the oval: the start,
// turn 5, and the turn before the end, when two cars have finished.
func storedStates(t testing.TB) [][]byte {
	_, p := botRace(t, 3, 3, "oval")
	return racetest.StoredStates(t, p)
}

// A stored state the game could not have made is refused when read, not
// left to panic in a prompt, a post or a turn (each of these did).
func TestDecodeStateRefusesDamage(t *testing.T) {
	good := storedStates(t)[2]
	racetest.Refused(t, Ruleset{}, good, [][3]string{
		{`"track":"oval"`, `"track":"daytona"`, `unknown track "daytona"`},
		{`"turn":45`, `"turn":900`, "turn 900"},
		{`"laps":3`, `"laps":21`, "21 laps"},
		{`"seat":0`, `"seat":7`, "car 1 sits in seat 7"},
		{`"pos":{"X":29,"Y":3}`, `"pos":{"X":29,"Y":-1}`, "Car 0 is at (29,-1), off the map"},
		{`"heading":2`, `"heading":8`, "the heading 8"},
		{`"upgrade":2`, `"upgrade":4`, "the upgrade 4"},
		{`"max_speed":11`, `"max_speed":1000000000`, "max speed 1000000000"},
		{`"speed":5,"max_speed":11`, `"speed":14,"max_speed":11`, "speed 14; 0 to its max speed 11"},
		{`"wildcards":1`, `"wildcards":-1`, "-1 wildcards"},
		{`"crossings":3`, `"crossings":5`, "crossed the line 5 times"},
		{`"out":"finished"`, `"out":"crashed"`, `unknown reason "crashed"`},
		{`{"X":25,"Y":4},{"X":26,"Y":4}`, `{"X":25,"Y":4},{"X":2000,"Y":4}`, "trail passes (2000,4), far off the map"},
		// No crash left oil in this race: a slick off the map is put in.
		{`"finish":[2,1]`, `"oil":[{"X":-1,"Y":1}],"finish":[2,1]`, "oil slick or sandbag at (-1,1)"},
		{`"sandbags":[{"X":18,"Y":17}`, `"sandbags":[{"X":18,"Y":170}`, "oil slick or sandbag at (18,170)"},
		{`"finish":[2,1]`, `"finish":[2,5]`, "no seat 5"},
		{`"finish":[2,1]`, `"finish":[2,2]`, "finished twice"},
		{`"finish":[2,1]`, `"finish":[2,0]`, "Car 0 is listed as finished but is not"},
		{`"finish":[2,1]`, `"finish":[2]`, "2 cars finished, 1 are listed"},
	})
}

// DecodeState on arbitrary changes to real states refuses them or gives a
// state that prompts, stands and plays a turn; it never panics.
func TestDecodeStateMutations(t *testing.T) {
	racetest.DecodeMutations(t, Ruleset{}, storedStates(t))
}

func FuzzDecodeState(f *testing.F) { racetest.FuzzDecode(f, Ruleset{}, storedStates(f)) }
