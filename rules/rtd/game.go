package rtd

import (
	"fmt"
	"sync"

	"pitwall/race"
)

// Game implements race.Ruleset: rtd as the CLI, the service and the pages
// offer it.
func (Ruleset) Game() *race.Game { return game() }

var game = sync.OnceValue(func() *race.Game {
	return &race.Game{
		ID:   "rtd",
		Name: "Mario Kart RTD (roll-the-dice race)",
		// Raise Version with any change that could play a logged turn
		// differently (docs/architecture.md, "Versions").
		Version: 5, // 5: a target named with 'at' ends before a trailing comma or semicolon; 4: a racer holds any number of items, every racer checks at the boxes, an item is named to deploy it (inventory); driving defensively is +1 against a ram; Momentum never passes the kart's most (momentum-cap); a star's ram rolls its check (star-ram); pulling ahead is the racer's choice, 'then hold' or 'then pull ahead' (pull-ahead); 3: every Racing Check moves Momentum by the table; 2: a ram counts ink and shrink on both sides; the drag into a blue shell is a Pass roll; a red shell in hand is dragged; High Acceleration at the turn's start; a thrown fake box that misses among boxes; a ghost's and a star's shortcuts; a shortcut leaves its group whole
		Tracks:  trackInfos(),
		Options: optionFields,
		Entrant: []race.Field{
			{Name: "perk", Type: race.Choice, Values: perkList(perks), With: []string{"debuff"},
				Help: "a perk, with a debuff; neither for a standard kart"},
			{Name: "debuff", Type: race.Choice, Values: perkList(debuffs), With: []string{"perk"},
				Help: "a debuff, with a perk; neither for a standard kart"},
		},
		Racers: race.Range{Min: 1, Max: 1},
		Words:  race.Words{Racer: "racer", Racers: "racers", Turn: "turn", Start: "the grid", Default: "a safe start at the line, Drive Defensively after"},
		Demo:   race.Demo{Entrants: demoEntrants()},
	}
})

// perkList names the perks of set in the table's order.
func perkList(set map[Perk]bool) []string {
	var out []string
	for i, n := range perkNames {
		if set[Perk(i)] {
			out = append(out, n)
		}
	}
	return out
}

// demoEntrants are eight karts: two standard, six with a perk and a debuff.
func demoEntrants() []race.Entrant {
	list := [][4]string{
		{"Sam", "Mario", "", ""}, {"Robin", "Luigi", "high-acceleration", "featherweight"}, {"Ade", "Peach", "item-bonus", "slow"},
		{"Kit", "Yoshi", "ramming-speed", "low-loot"}, {"Noor", "Toad", "high-acceleration", "slow"}, {"Jo", "Bowser", "ramming-speed", "featherweight"},
		{"Lee", "Daisy", "item-bonus", "low-loot"}, {"Max", "Wario", "", ""},
	}
	var out []race.Entrant
	for _, x := range list {
		o := map[string]string{}
		if x[2] != "" {
			o["perk"], o["debuff"] = x[2], x[3]
		}
		out = append(out, race.Entrant{Player: x[0], Racers: []string{x[1]}, Options: o})
	}
	return out
}

func trackInfos() []race.TrackInfo {
	return race.TrackInfos(Courses, defaultCourse, func(c *Course) race.TrackInfo {
		return race.TrackInfo{ID: c.ID, Name: c.Name, Laps: c.Laps, Seats: 12,
			Description: fmt.Sprintf("%d segments", len(c.Segments))}
	})
}
