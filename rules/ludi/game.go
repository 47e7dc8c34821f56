package ludi

import (
	"fmt"
	"maps"
	"slices"
	"sync"

	"pitwall/race"
)

// Game implements race.Ruleset: ludi as the CLI, the service and the pages
// offer it.
func (Ruleset) Game() *race.Game { return game() }

var game = sync.OnceValue(func() *race.Game {
	return &race.Game{
		ID:   "ludi",
		Name: "Ludi Circenses Supremi Novae Romae (chariot race)",
		// Raise Version with any change that could play a logged turn
		// differently (docs/architecture.md, "Versions").
		Version: 3, // 2: a slip counts the lap it crosses and is one of its move's spaces; a stunned auriga gets no bonus (Speed, a bonus move) and no contingency; a Watch in name only guards nothing; a Brake contingency at an obstacle brakes before the move; 3: the rule options (watch-crash, endurance-pace, lacerate-skill, slip-lane, wreck-finish, control-wheels) whose defaults take 2 off a crash roll against a Watch, cap the speed die for lost Endurance, leave a wreck dragged over the line without a place and take Control's modifier off a slip's damage to the chariot; a chariot flipped this turn lies still until the next; Political is Skill, Constitution, Speed
		Tracks:  trackInfos(),
		Options: append([]race.Field{{Name: "package.NAME", Type: race.Text,
			Help: "a package's three characteristics, such as package.noble=skill,quality,speed; a new NAME adds a package"}},
			ruleFields()...),
		Entrant: []race.Field{
			{Name: "package", Type: race.Choice, Values: slices.Sorted(maps.Keys(Packages)), Open: true,
				Help: "the racing package: three characteristics, one point each"},
			{Name: "extras", Type: race.Choices, Values: characteristics, Count: 2,
				Help: "two more characteristics, such as skill,speed (none above 2 with the package)"},
		},
		Racers:   race.Range{Min: 1, Max: 2},
		Settings: []race.Field{{Name: "orders", Type: race.Int, Min: 1, Max: 3, Default: "1", Help: "how many orders the coming turn takes"}},
		Words: race.Words{Racer: "auriga", Racers: "aurigae", Turn: "turn", Start: "the grid", Default: "they cruise",
			Bonus: "Orders sent in it may add 'bonus move' (+1 space) or 'bonus initiative' (+1 Quality for turn order)."},
		Demo: race.Demo{Entrants: demoEntrants()},
	}
})

func trackInfos() []race.TrackInfo {
	return race.TrackInfos(Tracks, defaultTrack, func(t *Track) race.TrackInfo {
		return race.TrackInfo{ID: t.ID, Name: t.Name, Laps: t.Laps, Seats: len(t.Grid),
			Description: fmt.Sprintf("%d lanes, %d spaces a lap in lane 1, %d corner zones", t.Lanes, t.LapLength(1), corners(t))}
	})
}

// demoEntrants is a full grid of twelve chariots: eleven participants, one
// with two aurigae, every package twice or so.
func demoEntrants() []race.Entrant {
	list := []struct {
		player, pkg, extras string
		aurigae             []string
	}{
		{"Marcus", "military", "skill,speed", []string{"Marcus Aurelius"}},
		{"Livia", "noble", "endurance,size", []string{"Livia Drusilla"}},
		{"Gaius", "political", "endurance,constitution", []string{"Gaius Iulius", "Gaius Minor"}},
		{"Cornelia", "priestly", "skill,endurance", []string{"Cornelia Vesta"}},
		{"Titus", "strength", "skill,speed", []string{"Titus Fortis"}},
		{"Flavia", "trader", "skill,constitution", []string{"Flavia Mercatrix"}},
		{"Scorpus", "military", "quality,speed", []string{"Scorpus"}},
		{"Diocles", "noble", "skill,constitution", []string{"Diocles Lusitanus"}},
		{"Aelia", "political", "speed,endurance", []string{"Aelia Celer"}},
		{"Quintus", "strength", "quality,speed", []string{"Quintus Ferox"}},
		{"Valeria", "trader", "skill,size", []string{"Valeria Rapida"}},
	}
	var out []race.Entrant
	for _, x := range list {
		out = append(out, race.Entrant{Player: x.player, Racers: x.aurigae, Options: map[string]string{"package": x.pkg, "extras": x.extras}})
	}
	return out
}
