package party

import (
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
