package party

import (
	"errors"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

func setup(t testing.TB, opts map[string]string, n int) *State {
	t.Helper()
	var es []race.Entrant
	for i := 0; i < n; i++ {
		es = append(es, race.Entrant{Player: string(rune('A' + i)), Racers: []string{[]string{"Mario", "Luigi", "Peach", "Yoshi", "Wario", "Daisy"}[i]}})
	}
	s, err := Ruleset{}.Setup(race.Config{Options: opts}, es, dice.New(dice.SeedFromInt(1)))
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}

func zone(t testing.TB, name string) *time.Location {
	t.Helper()
	loc, err := loadZone(name)
	if err != nil {
		t.Fatal(err)
	}
	return loc
}

// rollAt submits a roll for seat 0 at the instant given; the error, if any.
func rollAt(s *State, at time.Time) error {
	_, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: 0, Text: "roll", At: at})
	return err
}

// The phases change at local midnight in the race's zone: Thursday's last
// second is Boardplay, Friday's first is not, wherever UTC is.
func TestPhaseEdgesInAFarZone(t *testing.T) {
	s := setup(t, map[string]string{"tz": "Pacific/Auckland", "start": "2026-11-23"}, 2)
	nz := zone(t, "Pacific/Auckland")
	thu := time.Date(2026, 11, 26, 23, 59, 59, 0, nz) // Thursday 10:59:59 UTC
	fri := time.Date(2026, 11, 27, 0, 0, 0, 0, nz)
	if err := rollAt(s, thu); err != nil {
		t.Fatalf("Thursday 23:59:59 NZDT: %v", err)
	}
	err := rollAt(s, fri)
	var oe *race.OrderError
	if !errors.As(err, &oe) || oe.Kind != race.Illegal {
		t.Fatalf("Friday 00:00 NZDT: got %v, want an illegal order", err)
	}
	for _, w := range []string{"Minigame Phase of week 1", "Mon 30 Nov 2026 00:00 NZDT (+13:00)"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("%q lacks %q", err, w)
		}
	}
	// Monday's first second opens week 2; Sunday's last is still week 1's Minigame Phase.
	sun := time.Date(2026, 11, 29, 23, 59, 59, 0, nz)
	mon := time.Date(2026, 11, 30, 0, 0, 0, 0, nz)
	c := s.calendar(sun)
	if w, ph := c.Where(sun); w != 1 || ph != Minigame {
		t.Errorf("Sunday 23:59:59: week %d %s", w, ph)
	}
	if w, ph := c.Where(mon); w != 2 || ph != Boardplay {
		t.Errorf("Monday 00:00: week %d %s", w, ph)
	}
	// Before the first Monday, nothing rolls.
	if err := rollAt(s, time.Date(2026, 11, 22, 23, 59, 59, 0, nz)); err == nil || !strings.Contains(err.Error(), "Mon 23 Nov 2026 00:00 NZDT") {
		t.Errorf("before the start: %v", err)
	}
}

// Weeks are counted on the calendar: the week after a DST change still
// starts at local midnight, an hour away from seven times 24 hours.
func TestPhaseAcrossDST(t *testing.T) {
	ny := zone(t, "America/New_York")
	c := Calendar{Loc: ny, Weeks: 4}
	day, err := parseStart("2026-10-26", ny) // EDT; the clocks go back on Sunday 1 November
	if err != nil {
		t.Fatal(err)
	}
	c.First = day
	start := c.WeekStart(1)
	naive := start.Add(7 * 24 * time.Hour) // Monday 2 November 04:00 UTC, still Sunday 23:00 EST
	if w, ph := c.Where(naive); w != 1 || ph != Minigame {
		t.Errorf("Sunday 23:00 EST: week %d %s, want week 1 minigame", w, ph)
	}
	mon := time.Date(2026, 11, 2, 0, 0, 0, 0, ny)
	if w, ph := c.Where(mon); w != 2 || ph != Boardplay {
		t.Errorf("Monday 00:00 EST: week %d %s", w, ph)
	}
	if !c.WeekStart(2).Equal(mon) || c.WeekStart(2).Sub(start) != 7*24*time.Hour+time.Hour {
		t.Errorf("week 2 starts %v", c.WeekStart(2))
	}
	// Spring forward in Europe: Sunday 29 March 2026 is 23 hours long.
	paris := zone(t, "Europe/Paris")
	c = Calendar{Loc: paris, Weeks: 2}
	c.First, _ = parseStart("2026-03-23", paris)
	thu := time.Date(2026, 3, 26, 23, 59, 59, 0, paris)
	if _, ph := c.Where(thu); ph != Boardplay {
		t.Errorf("Thursday 23:59:59 CET: %s", ph)
	}
	if _, ph := c.Where(thu.Add(time.Second)); ph != Minigame {
		t.Errorf("Friday 00:00 CET: %s", ph)
	}
	sun := time.Date(2026, 3, 29, 23, 59, 59, 0, paris)
	if w, ph := c.Where(sun); w != 1 || ph != Minigame {
		t.Errorf("Sunday 23:59:59 CEST: week %d %s", w, ph)
	}
	if w, ph := c.Where(sun.Add(time.Second)); w != 2 || ph != Boardplay {
		t.Errorf("Monday 00:00 CEST: week %d %s", w, ph)
	}
	if !c.End().Equal(time.Date(2026, 4, 6, 0, 0, 0, 0, paris)) {
		t.Errorf("the game ends %v", c.End())
	}
}

// Without a start option, the first order fixes week 1: its own week when
// it comes Monday to Thursday, else the next week.
func TestFirstOrderFixesTheCalendar(t *testing.T) {
	for _, c := range []struct {
		at    time.Time
		first string
	}{
		{time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC), "2026-11-23"},
		{time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC), "2026-11-30"},
		{time.Date(2026, 11, 29, 23, 0, 0, 0, time.UTC), "2026-11-30"},
	} {
		s := setup(t, nil, 2)
		if s.First != "" {
			t.Fatal("the calendar is fixed before any order")
		}
		next, events := resolveWith(t, s, map[int]string{0: "try roll", 1: "wait"}, c.at, rollsIf(c.first == "2026-11-23")...)
		if next.First != c.first {
			t.Errorf("first order at %v: first Monday %s, want %s", c.at, next.First, c.first)
		}
		if len(events) == 0 || !strings.Contains(events[0].Text, "week 1 begins") {
			t.Errorf("no calendar news: %v", events)
		}
	}
}

func rollsIf(roll bool) []string {
	if roll {
		return []string{"d10=1"}
	}
	return nil
}

// The options: zone, weeks and start, checked.
func TestOptions(t *testing.T) {
	s := setup(t, nil, 2)
	if s.TZ != "UTC" || s.Weeks != 4 || s.BoardID != DefaultBoard || s.Players[0].Coins != 10 || s.Players[0].MRDL.String() != "[d10]" {
		t.Errorf("defaults: %+v", s)
	}
	s = setup(t, map[string]string{"tz": "Asia/Kolkata", "weeks": "2", "start": "2026-11-30", "coins": "0", "mrdl": "d6 d6"}, 3)
	if s.Weeks != 2 || s.First != "2026-11-30" || s.Players[2].MRDL.String() != "[d6, d6]" || s.Players[1].Coins != 0 {
		t.Errorf("options: %+v", s)
	}
	es := []race.Entrant{{Player: "A", Racers: []string{"Mario"}}, {Player: "B", Racers: []string{"Luigi"}}}
	for opts, want := range map[string]map[string]string{
		"not a time zone":     {"tz": "Mars/Olympus"},
		"weeks is 1 to 52":    {"weeks": "0"},
		"is a Tuesday":        {"start": "2026-11-24"},
		"first Monday":        {"start": "soon"},
		"unknown race option": {"colour": "red"},
		"mrdl":                {"mrdl": "d0"},
	} {
		_, err := Ruleset{}.Setup(race.Config{Options: want}, es, nil)
		if err == nil || !strings.Contains(err.Error(), opts) {
			t.Errorf("%v: got %v, want %q", want, err, opts)
		}
	}
	if _, err := (Ruleset{}).Setup(race.Config{}, es[:1], nil); !errors.Is(err, race.ErrTooFew) {
		t.Errorf("one player: %v", err)
	}
	if _, err := (Ruleset{}).Setup(race.Config{Laps: 3}, es, nil); err == nil {
		t.Error("laps accepted")
	}
	if _, err := (Ruleset{}).Setup(race.Config{}, []race.Entrant{{Player: "A", Racers: []string{"Ma,rio"}}, es[1]}, nil); err == nil {
		t.Error("a name with a comma accepted")
	}
}
