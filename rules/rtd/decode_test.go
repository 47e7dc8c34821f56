package rtd

import (
	"bytes"
	"os"
	"testing"

	"pitwall/race/racetest"
)

// storedStates are the stored states of a 3-kart bot race on Rainbow Road:
// the start, turn 5, and the turn before the end, when one racer has finished
// and another holds two items.
func storedStates(t testing.TB) [][]byte {
	_, p := botRace(t, 3, 3, "rainbow-road")
	return racetest.StoredStates(t, p)
}

// A stored state the game could not have made is refused when read, not
// left to panic in a prompt, a post or a turn (each of these did). The
// state damaged is a stored one (testdata/damage-state.json: a 3-kart race
// on Rainbow Road the turn before its end, one racer finished and another
// dragging an item behind the one in front), so that a change to the bot
// leaves the cases as they are.
func TestDecodeStateRefusesDamage(t *testing.T) {
	good, err := os.ReadFile("testdata/damage-state.json")
	if err != nil {
		t.Fatal(err)
	}
	good = bytes.TrimSpace(good)
	if _, err := (Ruleset{}).DecodeState(good); err != nil {
		t.Fatalf("the stored state: %v", err)
	}
	racetest.Refused(t, Ruleset{}, good, [][3]string{
		{`"course":"rainbow-road"`, `"course":"moo-moo-meadows"`, `unknown course "moo-moo-meadows"`},
		{`"laps":3,"racers"`, `"laps":0,"racers"`, "0 laps"},
		{`"seat":0`, `"seat":4`, "racer 1 sits in seat 4"},
		{`"segment":5`, `"segment":6`, "Racer 0 is on segment 6; Rainbow Road has segments 0 to 5"},
		{`"segment":5`, `"segment":-1`, "on segment -1"},
		{`"perk":0`, `"perk":9`, "the perk 9"},
		{`"perk":2,"debuff":6`, `"perk":2,"debuff":0`, "one of each, or neither"},
		{`"momentum":1`, `"momentum":9`, "Momentum 9"},
		{`"hand":6`, `"hand":13`, "the item 13"},
		{`"order":[1,2,0]`, `"order":[1,1,0]`, "not every seat once"},
		{`"order":[1,2,0]`, `"order":[1,2]`, "not every seat once"},
		{`"finish":[1]`, `"finish":[1,7]`, "no seat 7"},
		{`"finish":[1]`, `"finish":[1,0]`, "Racer 0 is listed as finished but is not"},
		{`"finish":[1]`, `"finish":[1,1]`, "finished twice"},
		{`"bag":[8]`, `"bag":[13]`, "an item out of the chart"},
		{`"bag":[8]`, `"bag":[1]`, "a dragged item behind one that is not"},
		{`"hand":6,"bag":[8]`, `"bag":[8]`, "the item in front is empty"},
		{`"course":`, `"options":{"one_item":true},"course":`, "this race's racers hold one at a time"},
		{`"hand":2,`, `"hand":10,"shells":4,`, "4 red shells orbiting with 1 triple red shell;"},
		{`"order":`, `"blue_shell":{"by":9,"turn":3},"order":`, "fired by seat 9"},
		{`"order":`, `"fakes":[6],"order":`, "fake item box on segment 6"},
	})
}

// DecodeState on arbitrary changes to real states refuses them or gives a
// state that prompts, stands and plays a turn; it never panics.
func TestDecodeStateMutations(t *testing.T) {
	racetest.DecodeMutations(t, Ruleset{}, storedStates(t))
}

func FuzzDecodeState(f *testing.F) { racetest.FuzzDecode(f, Ruleset{}, storedStates(f)) }
