package rtd

import (
	"errors"
	"strings"
	"testing"

	"pitwall/race"
)

func TestParseAction(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Action
	}{
		{"rocket start", Action{Kind: RocketStart}},
		{"Rocket", Action{Kind: RocketStart}},
		{"safe start", Action{Kind: RocketStart, Safe: true}},
		{"aggressive", Action{Kind: DriveAggressively}},
		{"Drive  Aggressively", Action{Kind: DriveAggressively}},
		{"defensive", Action{Kind: DriveDefensively}},
		{"draft", Action{Kind: Draft}},
		{"ram", Action{Kind: RamDriver}},
		{"power slide", Action{Kind: PowerSlide}},
		{"Powerslide", Action{Kind: PowerSlide}},
		{"path 2", Action{Kind: TakePath, Path: 2}},
		{"take alternate path 1", Action{Kind: TakePath, Path: 1}},
		{"item", Action{Kind: DeployItem}},
		{"item lay", Action{Kind: DeployItem, How: "lay"}},
		{"item throw at Donkey Kong", Action{Kind: DeployItem, How: "throw", Target: "Donkey Kong"}},
		{"Deploy Item forward AT Peach", Action{Kind: DeployItem, How: "forward", Target: "Peach"}},
		{"item at Toad", Action{Kind: DeployItem, Target: "Toad"}},
		{"aggressive then hold", Action{Kind: DriveAggressively, Pull: PullHold}},
		{"Defensive; then HOLD", Action{Kind: DriveDefensively, Pull: PullHold}},
		{"path 2 then pull  ahead", Action{Kind: TakePath, Path: 2, Pull: PullAhead}},
		{"item throw at Donkey Kong, pull ahead", Action{Kind: DeployItem, How: "throw", Target: "Donkey Kong", Pull: PullAhead}},
		{"item at Then Holdsworth", Action{Kind: DeployItem, Target: "Then Holdsworth"}},
		{"item star", Action{Kind: DeployItem, Item: Star}},
		{"Deploy Item Green-Shell forward at Peach then hold", Action{Kind: DeployItem, Item: GreenShell, How: "forward", Target: "Peach", Pull: PullHold}},
		{"item banana lay", Action{Kind: DeployItem, Item: Banana, How: "lay"}},
		{"item at Banana", Action{Kind: DeployItem, Target: "Banana"}},
		{"item at Toad,, then hold", Action{Kind: DeployItem, Target: "Toad", Pull: PullHold}}, // the name ends before the commas
		{"item at Bowser Jr.;", Action{Kind: DeployItem, Target: "Bowser Jr."}},
	} {
		got, err := ParseAction(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseAction(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if back, err := ParseAction(got.String()); err != nil || back != got {
			t.Errorf("%q: the canonical %q reads back as %+v, %v", tc.in, got.String(), back, err)
		}
	}
	for _, bad := range []string{"", "fly", "path", "path x", "path 0", "item spin", "item sideways at X", "item star banana", "item lay star", "rocket launch",
		"hold", "then hold", ", pull ahead", "fly then hold", "aggressive then fly", "item At ,,pull AheAd", "item at ;", "item At ,pull AheAd,"} {
		_, err := ParseAction(bad)
		var oe *race.OrderError
		if !errors.As(err, &oe) || oe.Kind != race.Invalid || strings.Contains(err.Error(), "\n") {
			t.Errorf("ParseAction(%q): %v, want an Invalid one-line order error", bad, err)
		}
	}
}

func FuzzParseAction(f *testing.F) {
	for _, s := range []string{"item throw at Donkey Kong", "path 3", "rocket start", " at ", "item at", "ITEM  LAY", "draft then hold", "item at X, pull ahead", "item boo", "item bob-omb throw at Y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, err := ParseAction(s)
		if err != nil {
			var oe *race.OrderError
			if !errors.As(err, &oe) {
				t.Fatalf("%q: %v is not an order error", s, err)
			}
			return
		}
		if back, err := ParseAction(a.String()); err != nil || back.Kind != a.Kind || back.Path != a.Path || back.How != a.How || back.Pull != a.Pull || back.Item != a.Item {
			t.Fatalf("%q: the canonical %q reads back as %+v, %v", s, a.String(), back, err)
		}
	})
}
