package racers

import (
	"testing"

	"pitwall/race"
)

func TestOne(t *testing.T) {
	n := Names{}
	for _, tc := range []struct {
		e    race.Entrant
		name string
		err  string
	}{
		{race.Entrant{Player: "Ann", Racers: []string{" Zed "}}, "Zed", ""},
		{race.Entrant{Player: "Bo", Racers: []string{"X", "Y"}}, "", "Bo enters 2 cars; a driver enters one"},
		{race.Entrant{Player: "Bo"}, "", "Bo enters 0 cars; a driver enters one"},
		{race.Entrant{Player: "Bo", Racers: []string{" "}}, "", `Bo: every car needs a name of its own; "" is empty or taken`},
		{race.Entrant{Player: "Bo", Racers: []string{"zED"}}, "", `Bo: every car needs a name of its own; "zED" is empty or taken`}, // taken, whatever the case
		{race.Entrant{Player: "Bo", Racers: []string{"Yan"}}, "Yan", ""},
	} {
		name, err := n.One(tc.e, "car", "a driver enters one")
		if got := func() string {
			if err != nil {
				return err.Error()
			}
			return ""
		}(); name != tc.name || got != tc.err {
			t.Errorf("%+v: %q, %q; want %q, %q", tc.e, name, got, tc.name, tc.err)
		}
	}
}

// Take is One's check of a name, for a game whose entrants enter more
// than one racer (ludi): each name trimmed, and none taken twice in a race.
func TestTake(t *testing.T) {
	n := Names{}
	if name, err := n.Take("Ann", "auriga", " Gaius "); name != "Gaius" || err != nil {
		t.Errorf("Gaius: %q, %v", name, err)
	}
	for bad, want := range map[string]string{
		"GAIUS": `Bo: every auriga needs a name of its own; "GAIUS" is empty or taken`, // taken, whatever the case
		"  ":    `Bo: every auriga needs a name of its own; "" is empty or taken`,
	} {
		if _, err := n.Take("Bo", "auriga", bad); err == nil || err.Error() != want {
			t.Errorf("%q: %v; want %s", bad, err, want)
		}
	}
}
