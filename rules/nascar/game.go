package nascar

import (
	"fmt"
	"sync"

	"pitwall/race"
)

// Game implements race.Ruleset: nascar as the CLI, the service and the
// pages offer it.
func (Ruleset) Game() *race.Game { return game() }

var game = sync.OnceValue(func() *race.Game {
	return &race.Game{
		ID:   "nascar",
		Name: "NASCAR 9 (grid race with order strings)",
		// Raise Version with any change that could play a logged turn
		// differently (docs/architecture.md, "Versions").
		Version: 3, // 2: every square entered off the track counts and the car is put back where it left, wherever its move ends; 3: the car put behind in a crash may slipstream its next turn; option pit-finish
		Tracks:  trackInfos(),
		Options: []race.Field{{Name: "sandbags", Type: race.Text,
			Help: "the host's hidden sandbags, x,y;x,y... (or none): secret until a car hits one"},
			{Name: "pit-finish", Type: race.Choice, Values: []string{"lap", "no-win"}, Default: "lap",
				Help: "a car crossing the line in the pit lane on the last lap goes round again (lap), or finishes but never ahead of the first car to finish on the track (no-win)"}},
		Entrant: []race.Field{{Name: "upgrade", Type: race.Choice, Values: upgradeNames[:], Default: "none",
			Help: "the car's upgrade, chosen in secret before the race"}},
		Racers: race.Range{Min: 1, Max: 1},
		Words:  race.Words{Racer: "car", Racers: "cars", Turn: "turn", Start: "the grid", Default: "they cruise"},
		Demo:   race.Demo{Laps: 2, Entrants: demoEntrants()},
	}
})

// demoEntrants are eight cars, each upgrade twice.
func demoEntrants() []race.Entrant {
	return race.OneChoiceEach("upgrade", [][3]string{
		{"Dale", "Intimidator", "none"}, {"Jeff", "Rainbow Warrior", "swaybars"}, {"Richard", "King's Coupe", "turbo"},
		{"Danica", "Green Machine", "performance"}, {"Cale", "Silver Fox", "none"}, {"Darrell", "Jaws", "turbo"},
		{"Bobby", "Alabama Gang", "swaybars"}, {"Rusty", "Blue Deuce", "performance"},
	})
}

func trackInfos() []race.TrackInfo {
	return race.TrackInfos(Tracks, defaultTrack, func(t *Track) race.TrackInfo {
		pit := "no pit lane"
		for _, q := range t.squares {
			if q == PPMark {
				pit = "a pit lane"
				break
			}
		}
		return race.TrackInfo{ID: t.ID, Name: t.Name, Laps: t.Laps, Seats: len(t.Grid),
			Description: fmt.Sprintf("%dx%d squares, %d a lap, %s", t.W, t.H, t.LapLength()/side, pit)}
	})
}
