package gaslands

import (
	"fmt"
	"sync"

	"pitwall/race"
)

// Game implements race.Ruleset: gaslands as the CLI, the service and the
// pages offer it.
func (Ruleset) Game() *race.Game { return game() }

var game = sync.OnceValue(func() *race.Game {
	var vehicles []string
	for _, v := range Vehicles {
		vehicles = append(vehicles, v.Name)
	}
	return &race.Game{
		ID:   "gaslands",
		Name: "Gaslands, Mario Kart edition",
		// Raise Version with any change that could play a logged turn
		// differently (docs/architecture.md, "Versions").
		Version: 5, // 2: a shell's target by seat counts seats from 1; 3: a bill that hits does not ground the owner's next; 4: a lap or gate is taken back from a kart put back behind it; standings count the way only up to the gate due; a kart with no room on a boost drives on past it; 5: a trivial template gives a free SHIFT (trivial=token sheds a token, as before); a spin ordered keeps its SPIN; a Bullet Bill flies in gear phases 1 and 2 only (bill=every-activation, as before); kart-hit=stop
		Tracks:  trackInfos(),
		Options: []race.Field{
			{Name: "maneuvers", Type: race.File, Read: readManeuvers,
				Help: "a file of templates and gear chart (the format of rules/gaslands/data/maneuvers.yaml), kept in the race"},
			{Name: "six-is-one", Type: race.Choice, Values: []string{"true", "false"}, Default: "false", Help: "a 6 on an attack or smash die is one hit, not two"},
			{Name: "trivial", Type: race.Choice, Values: []string{"shift", "token"}, Default: "shift",
				Help: "a trivial template gives a free SHIFT result (shift) or sheds one hazard token (token, before rules version 5)"},
			{Name: "bill", Type: race.Choice, Values: []string{"gear-2", "every-activation"}, Default: "gear-2",
				Help: "a Bullet Bill flies at the end of its owner's activations in gear phases 1 and 2 (gear-2), or of every one (every-activation, before rules version 5)"},
			{Name: "kart-hit", Type: race.Choice, Values: []string{"drive-on", "stop"}, Default: "drive-on",
				Help: "a kart that hits a kart collides and drives on through it (drive-on), or stops there as at an immovable obstruction (stop)"},
			{Name: "slide", Type: race.Text, Help: "the slide's length in mm"},
			{Name: "templates", Type: race.Text, Help: "the race's templates, NAME,NAME,..."},
			{Name: "template.NAME", Type: race.Text, Help: `a template: "straight L", "arc R DEG" or "swerve L SHIFT"`},
			{Name: "chart.NAME", Type: race.Text, Help: `a gear chart row: "T P H X X X"`},
		},
		Entrant: []race.Field{{Name: "vehicle", Type: race.Choice, Values: vehicles, Default: "car", Help: "the kart's vehicle"}},
		Racers:  race.Range{Min: 1, Max: 1},
		Words:   race.Words{Racer: "kart", Racers: "karts", Turn: "activation", Start: "the grid", Default: "the template that gains the most road without a hazard, no skid dice"},
		// every post is one activation: one lap of the demo's three karts makes 30-45
		Demo: race.Demo{Laps: 1, Entrants: demoEntrants()},
	}
})

// readManeuvers reads a maneuvers file into the race's options.
func readManeuvers(name string, src []byte) (map[string]string, string, error) {
	m, err := ParseManeuvers(name, src)
	if err != nil {
		return nil, "", err
	}
	return m.Options(), "", nil
}

// demoEntrants are three karts, one of each weight class: a race by post
// takes a post an activation, and three karts make a one-lap race of about
// 30 posts (five made about 55).
func demoEntrants() []race.Entrant {
	return race.OneChoiceEach("vehicle", [][3]string{
		{"Sam", "Mario", "car"}, {"Ade", "Peach", "bike"}, {"Kit", "Bowser", "heavy-truck"},
	})
}

func trackInfos() []race.TrackInfo {
	return race.TrackInfos(ShippedTracks, defaultTrack, func(t *Track) race.TrackInfo {
		return race.TrackInfo{ID: t.ID, Name: t.Name, Laps: t.Laps, Seats: t.Seats,
			Description: fmt.Sprintf("a %.0f mm lap on a %.0f×%.0f mm table, %d gates, %d obstructions", t.Length, t.W, t.H, len(t.Gates), len(t.Obstructions))}
	})
}
