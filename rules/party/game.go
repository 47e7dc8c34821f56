package party

import (
	"fmt"
	"strconv"
	"sync"

	"pitwall/race"
)

// Game implements race.Ruleset: party as the CLI, the service and the pages
// offer it.
func (Ruleset) Game() *race.Game { return game() }

var game = sync.OnceValue(func() *race.Game {
	return &race.Game{
		ID:   "party",
		Name: "Mario Party Nomic (board game by post)",
		// Raise Version with any change that could play a logged turn
		// differently (docs/architecture.md, "Versions").
		Version: 2, // 2: minigame results name every player, and entered again in the same Minigame Phase they correct the last
		Tracks:  trackInfos(),
		Options: []race.Field{
			{Name: "board", Type: race.File, Read: readBoard,
				Help: "a board file of your own (YAML, the format of rules/party/boards/), kept in the race"},
			{Name: "coins", Type: race.Int, Min: 0, Max: 1000, Default: strconv.Itoa(startCoins), Help: "each player's coins at the start"},
			{Name: "mrdl", Type: race.Text, Help: "the board's most rolls a day left, as MRDL gives it (default: the board's)"},
			{Name: "start", Type: race.Text, Help: "the first day of week 1, YYYY-MM-DD (default: the week of the first order)"},
			{Name: "tz", Type: race.Text, Default: "UTC", Help: "the time zone of the calendar, such as Europe/Paris"},
			{Name: "weeks", Type: race.Int, Min: 1, Max: maxWeeks, Default: strconv.Itoa(defaultWeeks), Help: "how many weeks the game lasts"},
		},
		Racers: race.Range{Min: 1, Max: 1},
		Settings: []race.Field{
			{Name: "minigame", Type: race.Text, Help: "this week's minigame results, NAME=COINS,..."},
			{Name: "clock", Type: race.Text, Help: "move the calendar on to an RFC3339 time"},
		},
		Words:    race.Words{Racer: "player", Racers: "players", Turn: "turn", Start: "the start", Default: "wait; a player at a fork takes its first way"},
		Calendar: true,
		Demo:     race.Demo{Entrants: demoEntrants()},
	}
})

// readBoard reads a host's own board into the race's options: the whole
// file, so the race replays the same anywhere; the board is the race's track.
func readBoard(name string, src []byte) (map[string]string, string, error) {
	b, err := ParseBoard(name, src)
	if err != nil {
		return nil, "", err
	}
	return map[string]string{"board": string(src)}, b.ID, nil
}

// demoEntrants are four players.
func demoEntrants() []race.Entrant {
	var out []race.Entrant
	for _, x := range [][2]string{{"Sam", "Mario"}, {"Robin", "Luigi"}, {"Ade", "Peach"}, {"Kit", "Yoshi"}} {
		out = append(out, race.Entrant{Player: x[0], Racers: []string{x[1]}})
	}
	return out
}

// forksAndStars counts the board's forks and star spaces.
func (b *Board) forksAndStars() (forks, stars int) {
	for _, sp := range b.Spaces {
		if b.IsFork(sp.ID) {
			forks++
		}
		if sp.Type == Star {
			stars++
		}
	}
	return forks, stars
}

func trackInfos() []race.TrackInfo {
	return race.TrackInfos(Boards, DefaultBoard, func(b *Board) race.TrackInfo {
		forks, stars := b.forksAndStars()
		return race.TrackInfo{ID: b.ID, Name: b.Name, Seats: maxPlayers,
			Description: fmt.Sprintf("%s, %s, %s; MRDL %s", plural(len(b.Spaces), "space"), plural(forks, "fork"), plural(stars, "star space"), b.mrdl)}
	})
}
