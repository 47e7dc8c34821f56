package party

import (
	"strings"
	"testing"
	"time"

	"pitwall/race/racetest"
)

// storedStates are the stored states of a 4-player bot game: the start,
// turn 5, and the turn before the end.
func storedStates(t testing.TB) [][]byte {
	_, p := botGame(t, 3, 4, map[string]string{"tz": "Pacific/Auckland"}, 30*time.Hour)
	return racetest.StoredStates(t, p)
}

// DecodeState on arbitrary changes to real states refuses them or gives a
// state that prompts, stands and plays a turn; it never panics.
func TestDecodeStateMutations(t *testing.T) {
	racetest.DecodeMutations(t, Ruleset{}, storedStates(t))
}

func FuzzDecodeState(f *testing.F) { racetest.FuzzDecode(f, Ruleset{}, storedStates(f)) }

// A stored MRDL is held to what ParseMRDL reads: a die of more sides than
// any, counted face by face for a choice's odds, panicked.
func TestDecodeStateRefusesDamage(t *testing.T) {
	good := storedStates(t)[1]
	racetest.Refused(t, Ruleset{}, good, [][3]string{
		{`"mrdl":[{"sides":10}]`, `"mrdl":[{"sides":9007199254740993}]`, "Racer 0's MRDL: a die of 9007199254740993 sides; a die has 1 to 100"},
		{`"mrdl":[{"sides":10}]`, `"mrdl":[{"sides":-3}]`, "a die of -3 sides"},
		{`"mrdl":[{"sides":10}]`, `"mrdl":[{"sides":10,"add":2}]`, "each is a die or an integer"},
		{`"mrdl":[{"sides":10}]`, `"mrdl":[{"add":1000}]`, "an integer 1000; from -100 to 100"},
		{`"mrdl":[{"sides":10}]`, `"mrdl":[` + strings.Repeat(`{"sides":6},`, 12) + `{"sides":6}]`, "13 entries; at most 12"},
	})
}
