package party

import (
	"pitwall/race"
	"strconv"
	"strings"
	"testing"
	"time"
)

const effectsBoard = `
start: o
spaces:
  - {id: o, next: [bl]}
  - {id: bl, type: blue, next: [rd]}
  - {id: rd, type: red, next: [st]}
  - {id: st, type: star, next: [hp]}
  - {id: hp, type: happening, next: [ch]}
  - {id: ch, type: chance}
`

// place puts seat 0 on a space with coins, and resolves its roll of d10=n.
func landWith(t *testing.T, space string, coins, n int, rolls ...string) (*State, string) {
	t.Helper()
	s := testGame(t, effectsBoard, 2)
	s.Players[0].Space, s.Players[0].Coins = space, coins
	next, events := resolveWith(t, s, map[int]string{0: "roll"}, monday.Add(time.Hour), append([]string{"d10=" + itoa(n)}, rolls...)...)
	var all []string
	for _, e := range events {
		all = append(all, e.Text)
	}
	return next, strings.Join(all, " | ")
}

func itoa(n int) string { return strconv.Itoa(n) }

// Blue gives 3 coins; red takes 3, never below 0; landing again counts.
func TestCoinSpaces(t *testing.T) {
	if s, _ := landWith(t, "o", 10, 1); s.player(0).Coins != 13 {
		t.Errorf("blue: %d coins", s.player(0).Coins)
	}
	if s, _ := landWith(t, "bl", 10, 1); s.player(0).Coins != 7 {
		t.Errorf("red: %d coins", s.player(0).Coins)
	}
	if s, _ := landWith(t, "bl", 2, 1); s.player(0).Coins != 0 {
		t.Errorf("red on 2 coins: %d", s.player(0).Coins)
	}
	// Movement 0 (an MRDL of d1 and -1) lands on the space the player is on, and it pays again.
	s := testGame(t, effectsBoard, 2)
	s.Players[0].Space, s.Players[0].MRDL = "bl", MRDL{{Sides: 1}, {Add: -1}}
	next, events := resolveWith(t, s, map[int]string{0: "roll"}, monday.Add(time.Hour), "d1=1")
	if p := next.player(0); p.Space != "bl" || p.Coins != 13 || !strings.Contains(events[len(events)-1].Text, "does not move") {
		t.Errorf("movement 0 on blue: %+v %v", p, events)
	}
	s.Players[0].MRDL = MRDL{{Add: -4}}
	next, _ = resolveWith(t, s, map[int]string{0: "roll"}, monday.Add(time.Hour))
	if p := next.player(0); p.Space != "bl" || p.Coins != 13 {
		t.Errorf("movement -4 on blue: %+v", p)
	}
}

// A star space is passed without counting and sells a star to a player who
// has 20 coins; the player lands beyond it.
func TestStarSpace(t *testing.T) {
	s, story := landWith(t, "rd", 25, 1, "d6=3")
	p := s.player(0)
	if p.Stars != 1 || p.Space != "hp" || p.Coins != 25-20+5 {
		t.Errorf("star with 25 coins: %+v (%s)", p, story)
	}
	s, story = landWith(t, "rd", 19, 1, "d6=3")
	if p := s.player(0); p.Stars != 0 || p.Coins != 19+5 || !strings.Contains(story, "a star costs 20 coins") {
		t.Errorf("star with 19 coins: %+v (%s)", p, story)
	}
}

// A happening: a d6 of 1-2 loses 5 coins, 3-4 gains 5, 5-6 adds 3 to the next roll.
func TestHappening(t *testing.T) {
	for _, c := range []struct {
		d6, coins, boost int
	}{{1, 5, 0}, {2, 5, 0}, {3, 15, 0}, {4, 15, 0}, {5, 10, 3}, {6, 10, 3}} {
		s, story := landWith(t, "st", 10, 1, "d6="+itoa(c.d6))
		if p := s.player(0); p.Coins != c.coins || p.Boost != c.boost {
			t.Errorf("d6 %d: %d coins, boost %d (%s)", c.d6, p.Coins, p.Boost, story)
		}
	}
	// The boost is spent on the next roll.
	s, _ := landWith(t, "st", 10, 1, "d6=6")
	next, events := resolveWith(t, s, map[int]string{0: "roll"}, monday.AddDate(0, 0, 7), "d10=1")
	if p := next.player(0); p.Boost != 0 || p.Space != "rd" || !strings.Contains(events[len(events)-3].Text, "Movement 4") {
		t.Errorf("after the boost: %+v %v", p, events)
	}
}

// Chance Time: a die picks the partner among the others, a d6 what passes.
func TestChance(t *testing.T) {
	for _, c := range []struct {
		d6                 int
		mine, theirs, star int
	}{{1, 2, 22, 0}, {2, 2, 22, 0}, {3, 22, 2, 0}, {4, 22, 2, 0}, {5, 12, 12, 0}, {6, 12, 12, 1}} {
		s := testGame(t, effectsBoard, 3)
		s.Players[0].Space, s.Players[0].Coins = "hp", 12
		s.Players[2].Coins, s.Players[2].Stars = 12, 1
		next, events := resolveWith(t, s, map[int]string{0: "roll"}, monday.Add(time.Hour), "d10=1", "d2=2", "d6="+itoa(c.d6))
		me, them := next.player(0), next.player(2)
		if c.d6 == 5 {
			c.mine, c.theirs = 12, 12 // equal coins swap to equal coins
		}
		if me.Coins != c.mine || them.Coins != c.theirs || me.Stars != c.star || me.Stars+them.Stars != 1 {
			t.Errorf("d6 %d: me %d coins %d stars, Peach %d coins (%v)", c.d6, me.Coins, me.Stars, them.Coins, events[len(events)-1].Text)
		}
	}
}

// The host enters minigame results in the Minigame Phase, once a week; the
// coins are added and told with the next turn.
func TestMinigameResults(t *testing.T) {
	s := testGame(t, effectsBoard, 2)
	rs := Ruleset{}
	if _, err := rs.Set(s, "minigame", "Mario=5"); err == nil || !strings.Contains(err.Error(), "Minigame Phase") {
		t.Errorf("before the game: %v", err)
	}
	s, _ = resolveWith(t, s, map[int]string{0: "wait"}, monday.Add(time.Hour))
	if _, err := rs.Set(s, "minigame", "Mario=5"); err == nil || !strings.Contains(err.Error(), "Boardplay Phase") || !strings.Contains(err.Error(), "Fri 27 Nov 2026 00:00 UTC") {
		t.Errorf("in Boardplay: %v", err)
	}
	st, err := rs.Set(s, "clock", "2026-11-28T10:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	before := string(mustJSON(t, st))
	for value, want := range map[string]string{
		"Bowser=5":        "no player called",
		"Mario=101":       "0 to 100",
		"Mario=5,mario=3": "twice",
		"Mario":           "NAME=COINS",
		"Mario=-1":        "0 to 100",
	} {
		if _, err := rs.Set(st, "minigame", value); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", value, err, want)
		}
	}
	if string(mustJSON(t, st)) != before {
		t.Fatal("a refused setting changed the state")
	}
	st2, err := rs.Set(st, "minigame", " mario = 10 , Luigi=4")
	if err != nil {
		t.Fatal(err)
	}
	s2 := st2.(*State)
	if s2.player(0).Coins != 20 || s2.player(1).Coins != 14 {
		t.Errorf("coins %d %d", s2.player(0).Coins, s2.player(1).Coins)
	}
	// Every player is named: one left out is refused, with the names.
	if _, err := rs.Set(s2, "minigame", "Mario=1"); err == nil || !strings.Contains(err.Error(), "missing: Luigi") {
		t.Errorf("Luigi left out: %v", err)
	}
	_, events := resolveWith(t, s2, map[int]string{}, time.Time{})
	if len(events) == 0 || !strings.Contains(events[len(events)-1].Text, "Mario +10 (20), Luigi +4 (14)") {
		t.Errorf("news: %v", events)
	}
	// Entered again in the same Minigame Phase, the results replace the
	// last: their prizes are taken back, the new ones given; once, in the news.
	st3, err := rs.Set(s2, "minigame", "Mario=3,Luigi=0")
	if err != nil {
		t.Fatal(err)
	}
	s3 := st3.(*State)
	if s3.player(0).Coins != 13 || s3.player(1).Coins != 10 || len(s3.Results) != len(s2.Results) {
		t.Errorf("corrected: coins %d %d, results %v", s3.player(0).Coins, s3.player(1).Coins, s3.Results)
	}
	_, events = resolveWith(t, s3, map[int]string{}, time.Time{})
	if len(events) == 0 || !strings.Contains(events[len(events)-1].Text, "corrected: Mario +3 (13), Luigi +0 (10)") {
		t.Errorf("news of the correction: %v", events)
	}
	// Once the week has moved on, the next results are the next week's.
	st4, err := rs.Set(s3, "clock", "2026-12-04T10:00:00Z")
	if err != nil {
		t.Fatal(err)
	}
	st4, err = rs.Set(st4, "minigame", "Mario=2,Luigi=2")
	if err != nil {
		t.Fatal(err)
	}
	if c := st4.(*State).player(0).Coins; c != 15 {
		t.Errorf("a new week's results add to the coins: %d, want 15", c)
	}
	if _, err := rs.Set(s2, "clock", "2026-11-27T10:00:00Z"); err == nil {
		t.Error("the clock went back")
	}
	if _, err := rs.Set(s2, "orders", "2"); err == nil || !strings.Contains(err.Error(), "minigame=") {
		t.Errorf("unknown setting: %v", err)
	}
}

// The game ends when the last week does; a move still at a fork then ends
// on the first ways. Standings: stars, then coins; exact ties share a place.
func TestGameEnd(t *testing.T) {
	s := testGame(t, smallBoard, 3)
	s.Weeks = 1
	s, _ = resolveWith(t, s, map[int]string{0: "roll"}, monday.Add(time.Hour), "d10=6")
	if s.player(0).Pause == nil {
		t.Fatal("no pause")
	}
	s.Players[1].Stars, s.Players[2].Coins = 1, 30
	// Mario, at the fork, says nothing; Luigi's wait on the next Monday ends the game.
	o, _ := Ruleset{}.ParseOrder(s, race.Submission{Seat: 1, Text: "wait", At: monday.AddDate(0, 0, 7)})
	for _, orders := range []map[int]race.Order{{1: o, 0: Ruleset{}.DefaultOrder(s, 0)}, {1: o}} {
		next, events, err := Ruleset{}.Resolve(s, orders, scripted(t), time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		ns := next.(*State)
		if !ns.Over() || ns.player(0).Pause != nil || ns.player(0).Space != "e" {
			t.Errorf("over %v, Mario %+v (%v)", ns.Over(), ns.player(0), events)
		}
		if len(orders) == 1 && !strings.Contains(events[1].Text, "the game is over and nobody chose") {
			t.Errorf("no word of the forced way: %v", events)
		}
	}
	next, _, _ := Ruleset{}.Resolve(s, map[int]race.Order{1: o}, scripted(t), time.Time{})
	ns := next.(*State)
	st := Ruleset{}.Standings(ns)
	if st[0].Name != "Luigi" || st[1].Name != "Peach" || st[0].Status != "finished" {
		t.Errorf("standings %+v", st)
	}
	if len(Ruleset{}.Prompts(ns)) != 0 {
		t.Error("prompts after the end")
	}
	// Ties.
	ns.Players[1].Stars = 0
	ns.Players[0].Coins, ns.Players[1].Coins, ns.Players[2].Coins = 30, 30, 5
	st = Ruleset{}.Standings(ns)
	if st[0].Place != 1 || st[1].Place != 1 || st[2].Place != 3 {
		t.Errorf("tied standings %+v", st)
	}
}
