package ludi

import (
	"math/rand/v2"
	"testing"

	"pitwall/race"
	"pitwall/race/racetest"
	"pitwall/rules/ludi/tables"
)

var pkgs = []string{"military", "noble", "political", "priestly", "strength", "trader"}
var extras = []string{"skill,speed", "constitution,endurance", "quality,size", "skill,endurance", "speed,size", "skill,quality"}

// botRace plays a whole race with bots in every seat and returns its definition and replay.
func botRace(t testing.TB, seed uint64, n int) (*race.Race, *race.Played) {
	t.Helper()
	return botRaceWith(t, seed, n, race.Config{Track: "circus-maximus"})
}

// botRaceWith is botRace with the race's configuration (its options).
func botRaceWith(t testing.TB, seed uint64, n int, cfg race.Config) (*race.Race, *race.Played) {
	t.Helper()
	es := racetest.Entrants(n, "Auriga ", func(i int) map[string]string {
		return map[string]string{"package": pkgs[i%6], "extras": extras[(i/6+i)%6]}
	})
	return racetest.BotRace(t, Ruleset{}, seed, 1, cfg, es, racetest.Options{Miss: 10, MaxTurns: 300,
		// Now and then a racer writes in the bonus window and the bot takes the bonus.
		InWindow: func(s race.State, seat int) bool { return (s.Turn()+seat)%5 == 0 },
		Before: func(s race.State) []string {
			if s.Turn()%7 == 3 {
				return []string{"orders=2"}
			}
			return nil
		}})
}

func TestBotRaceEnds(t *testing.T) {
	_, p := botRace(t, 1, 12)
	st := p.State.(*State)
	standings := (Ruleset{}).Standings(st)
	if len(standings) != 12 {
		t.Fatalf("%d standings for 12 chariots", len(standings))
	}
	seen := map[int]bool{}
	for i, s := range standings {
		if s.Place != i+1 || seen[s.Seat] {
			t.Fatalf("standing %d: place %d, seat %d (seen before: %v)", i, s.Place, s.Seat, seen[s.Seat])
		}
		seen[s.Seat] = true
		c := st.chariot(s.Seat)
		if c.Active() {
			t.Fatalf("%s still races after the race is over", c.Name)
		}
		if (s.Status == "finished") != (c.Out == Finished) {
			t.Fatalf("%s: standing %q but out %q", c.Name, s.Status, c.Out)
		}
	}
	for i, seat := range st.Finish {
		if standings[i].Seat != seat {
			t.Fatalf("finisher %d is seat %d in the standings, seat %d over the line", i+1, standings[i].Seat, seat)
		}
	}
}

// TestReplayThousandRaces plays 1,000 whole races with bots and replays each
// from its setup, seed and log: every turn's state hash and every roll must
// come out the same.
func TestReplayThousandRaces(t *testing.T) {
	races, finished, turns := 0, 0, 0
	for _, live := range racetest.Replays(t, Ruleset{}, 50, func(seed uint64) (*race.Race, *race.Played) {
		return botRace(t, seed, 2+int(seed%11))
	}) {
		races++
		finished += len(live.State.(*State).Finish)
		turns += len(live.Turns)
	}
	if finished == 0 {
		t.Fatal("no chariot finished in any race")
	}
	t.Logf("%d races, %d turns, %d chariots finished", races, turns, finished)
}

// A chariot whose damage takes more spaces than its level's die gives could
// never move again at that level: the bot speeds up (a stalled bot race ran
// for ever), and does not brake back into the stall when something is ahead.
func TestBotNeverStalls(t *testing.T) {
	tr, err := LoadTrack("circus-maximus")
	if err != nil {
		t.Fatal(err)
	}
	stalled := Chariot{Name: "Marcus", Pos: Pos{Lane: 6, Seg: 2, Cell: 4}, Level: tables.Low, Lame: 2, DamageL: 2, DamageR: 2, Team: Team{1, 1, 1, 1, 1, 1}, Skill: 1, Endurance: 1}
	wreck := Chariot{Seat: 1, Name: "Titus", Pos: Pos{Lane: 6, Seg: 2, Cell: 5}, Flipped: true, Out: RolledAway, Team: Team{1, 1, 1, 1, 1, 1}}
	s := &State{TrackID: tr.ID, T: 9, Laps: 3, Orders: 1, track: tr, Chariots: []Chariot{stalled, wreck}}
	for i := range 20 {
		if got := Bot(s, 0, rand.New(rand.NewPCG(uint64(i), 1))); got != "Accelerate" {
			t.Fatalf("a chariot that moves 0 at LOW is ordered %q, not Accelerate", got)
		}
	}
	s.Chariots[0].Level = tables.Fast
	s.Chariots = append(s.Chariots, Chariot{Seat: 2, Name: "Livia", Pos: Pos{Lane: 5, Seg: 2, Cell: 6}, Flipped: true, Out: RolledAway, Team: Team{1, 1, 1, 1, 1, 1}})
	for i := range 20 {
		if got := Bot(s, 0, rand.New(rand.NewPCG(uint64(i), 1))); got == "Brake" {
			t.Fatalf("hemmed in at FAST with damage 4, the bot brakes to LOW, where it cannot move")
		}
	}
}
