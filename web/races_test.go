package web

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"pitwall/race"
)

// The seats SeatsOf writes for a game's entrants are read back, through the
// JSON of POST /api/races, as those entrants: every game's demo, whose
// players may hold two racers (ludi's aurigae) and make choices.
func TestSeatsOfReadBack(t *testing.T) {
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		g := rs.Game()
		es := g.Demo.Entrants
		b, err := json.Marshal(NewRace{Ruleset: id, Seats: SeatsOf(es)})
		if err != nil {
			t.Fatal(err)
		}
		var req NewRace
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatal(err)
		}
		got, err := entrants(g, req.Seats, false)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		want := slices.Clone(es)
		for i := range want {
			if len(want[i].Options) == 0 {
				want[i].Options = nil // as entrants reads no choices
			}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: read back as %+v; want %+v", id, got, want)
		}
	}
}
