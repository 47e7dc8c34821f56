package nascar

import (
	"strings"
	"testing"
)

// Every crash of a bot race is a moment that names both cars; every car
// that left the track and every repair at the PP mark is one too, and a
// turn without a crash has no crash moment.
func TestMoments(t *testing.T) {
	_, p := botRace(t, 1, 8, "oval")
	crashes, offs, repairs := 0, 0, 0
	for _, tn := range p.Turns {
		ms := strings.Join(Ruleset{}.Moments(tn.Before, tn.After, tn.Events), "\n")
		crashed := false
		for _, e := range tn.Events {
			name := tn.After.(*State).car(e.Seat)
			switch e.Kind {
			case "crash":
				crashes++
				crashed = true
				// "CRASH! A runs into B at (x,y): ..."
				other := e.Text[strings.Index(e.Text, " runs into ")+len(" runs into "):]
				other = other[:strings.Index(other, " at (")]
				if want := name.Name + " crashes into " + other; !strings.Contains(ms, want) {
					t.Errorf("turn %d: %q not among the moments:\n%s", tn.Turn, want, ms)
				}
			case "off":
				offs++
				if !strings.Contains(ms, name.Name) || !strings.Contains(ms, "off the track") {
					t.Errorf("turn %d: %s left the track, not among the moments:\n%s", tn.Turn, name.Name, ms)
				}
			}
		}
		if !crashed && strings.Contains(ms, "crashes into") {
			t.Errorf("turn %d: a crash moment with no crash:\n%s", tn.Turn, ms)
		}
		for _, c := range tn.After.(*State).Cars {
			if c.MaxSpeed > tn.Before.(*State).car(c.Seat).MaxSpeed {
				repairs++
				if !strings.Contains(ms, c.Name+" is repaired in the pits") {
					t.Errorf("turn %d: %s's repair not among the moments:\n%s", tn.Turn, c.Name, ms)
				}
			}
		}
	}
	lastLaps := 0
	for _, tn := range p.Turns {
		for _, m := range (Ruleset{}).Moments(tn.Before, tn.After, tn.Events) {
			if strings.HasSuffix(m, " starts the last lap") {
				lastLaps++
			}
		}
	}
	if lastLaps != 1 {
		t.Errorf("the last lap's start told %d times, want once", lastLaps)
	}
	if crashes == 0 || offs == 0 || repairs == 0 {
		t.Fatalf("the race has %d crashes, %d cars off the track, %d repairs: it tests nothing", crashes, offs, repairs)
	}
}
