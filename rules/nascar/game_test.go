package nascar

import (
	"testing"

	"pitwall/race/racetest"
)

func TestGameDescriptor(t *testing.T) { racetest.CheckGame(t, Ruleset{}) }
