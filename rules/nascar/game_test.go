package nascar

import (
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

func TestGameDescriptor(t *testing.T) { racetest.CheckGame(t, Ruleset{}) }

// TestBadOptionsOneError: options are read in key order, so the same bad
// options always give the same error, the first key's.
func TestBadOptionsOneError(t *testing.T) {
	opts := map[string]string{"zzz": "1", "pit-finish": "never", "aaa": "2", "mmm": "3"}
	es := racetest.Entrants(2, "Car ", nil)
	for range 20 {
		_, err := Ruleset{}.Setup(race.Config{Track: "oval", Options: opts}, es, dice.New(dice.SeedFromInt(1)))
		if err == nil || !strings.Contains(err.Error(), `"aaa"`) {
			t.Fatalf("bad options: %v; want the error about aaa, the first in key order", err)
		}
	}
}
