package party

import (
	"fmt"
	"time"
)

// Phase is a part of the week.
type Phase string

// The two phases of a week, and the times outside the game.
const (
	Before    Phase = "before"    // the first week has not begun
	Boardplay Phase = "boardplay" // Monday to Thursday: movement rolls
	Minigame  Phase = "minigame"  // Friday to Sunday: minigame results
	Ended     Phase = "ended"     // the last week is over
)

// Title is the phase's name for posts.
func (p Phase) Title() string {
	switch p {
	case Boardplay:
		return "Boardplay Phase"
	case Minigame:
		return "Minigame Phase"
	case Before:
		return "before the first week"
	}
	return "the game is over"
}

// Calendar turns instants into weeks and phases on the race's local calendar.
// Weeks start on Monday at midnight, local time; days are counted on the
// calendar, not as 24 hours, so a DST change moves nothing.
type Calendar struct {
	Loc   *time.Location
	First int // the civil day number of the first Monday
	Weeks int
}

// civilDay is the number of days from 1970-01-01 to t's local date.
func civilDay(t time.Time, loc *time.Location) int {
	y, m, d := t.In(loc).Date()
	return int(time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400)
}

// midnight is local midnight (the day's first instant) of a civil day.
func midnight(day int, loc *time.Location) time.Time {
	u := time.Unix(int64(day)*86400, 0).UTC()
	return time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, loc)
}

// mondayOf is the civil day of the Monday that starts t's local week.
func mondayOf(t time.Time, loc *time.Location) int {
	day := civilDay(t, loc)
	wd := (int(t.In(loc).Weekday()) + 6) % 7 // Monday 0 ... Sunday 6
	return day - wd
}

// Where is the week (1 for the first) and the phase of t.
func (c Calendar) Where(t time.Time) (week int, ph Phase) {
	day := civilDay(t, c.Loc)
	off := day - c.First
	if off < 0 {
		return 0, Before
	}
	week = off/7 + 1
	if week > c.Weeks {
		return week, Ended
	}
	if off%7 < 4 {
		return week, Boardplay
	}
	return week, Minigame
}

// WeekStart is the instant week n begins (its Monday's midnight).
func (c Calendar) WeekStart(n int) time.Time { return midnight(c.First+7*(n-1), c.Loc) }

// MinigameStart is the instant week n's Minigame Phase begins (its Friday's midnight).
func (c Calendar) MinigameStart(n int) time.Time { return midnight(c.First+7*(n-1)+4, c.Loc) }

// End is the instant the game ends: the Monday after the last week.
func (c Calendar) End() time.Time { return c.WeekStart(c.Weeks + 1) }

// When formats an instant in the race's zone, absolute: a player anywhere can
// convert it.
func (c Calendar) When(t time.Time) string {
	return t.In(c.Loc).Format("Mon 2 Jan 2006 15:04 MST (-07:00)")
}

// NextBoardplay says when the next Boardplay Phase after t opens, or that none will.
func (c Calendar) NextBoardplay(t time.Time) string {
	week, _ := c.Where(t)
	n := week + 1
	if n > c.Weeks {
		return fmt.Sprintf("there is no Boardplay Phase after this one: the game ends %s", c.When(c.End()))
	}
	return fmt.Sprintf("the next Boardplay Phase (week %d) opens %s", n, c.When(c.WeekStart(n)))
}

// parseStart reads the start option: a date (2026-11-23) or an RFC3339
// instant, whose local date in loc must be a Monday.
func parseStart(text string, loc *time.Location) (int, error) {
	var t time.Time
	var err error
	if len(text) == len("2006-01-02") {
		t, err = time.ParseInLocation("2006-01-02", text, loc)
	} else {
		t, err = time.Parse(time.RFC3339, text)
	}
	if err != nil {
		return 0, fmt.Errorf("start %q: give the first Monday as a date, 2026-11-23, or an RFC3339 time", text)
	}
	t = t.In(loc)
	if t.Weekday() != time.Monday {
		m := mondayOf(t, loc)
		return 0, fmt.Errorf("start %q is a %s in %s; the game starts on a Monday: %s or %s",
			text, t.Weekday(), loc, midnight(m, loc).Format("2006-01-02"), midnight(m+7, loc).Format("2006-01-02"))
	}
	return civilDay(t, loc), nil
}
