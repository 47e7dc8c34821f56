package host

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"pitwall/internal/words"
	"pitwall/race"
)

// mostMoments is how many of a game's moments a headline tells: one line,
// not a second story.
const mostMoments = 3

// headline says in one line what mattered in the turn between before and
// after: who won or finished, the game's moments (race.Headliner), who went
// out, and who leads or took the lead. It is "" when there is nothing to
// say (the last activation of a race already won, with nothing in it).
func headline(rs race.Ruleset, before, after race.State, events []race.Event) string {
	was, now := rs.Standings(before), rs.Standings(after)
	status := map[int]string{}
	for _, x := range was {
		status[x.Seat] = x.Status
	}
	var parts []string

	// Who finished, by place: the winner first.
	var done []race.Standing
	for _, x := range now {
		if x.Status == "finished" && status[x.Seat] != "finished" {
			done = append(done, x)
		}
	}
	if len(done) > 0 {
		var winners, rest []string
		for _, x := range done {
			if x.Place == 1 {
				winners = append(winners, x.Name)
				continue
			}
			rest = append(rest, x.Name+" "+words.Ordinal(x.Place))
		}
		switch {
		case len(winners) == 1:
			parts = append(parts, winners[0]+" wins")
		case len(winners) > 1:
			parts = append(parts, words.List(winners)+" win, level")
		}
		if len(rest) > 0 {
			// "Toad finishes second, Mario third".
			first, more := rest[0], rest[1:]
			i := strings.LastIndex(first, " ")
			parts = append(parts, strings.Join(append([]string{first[:i] + " finishes" + first[i:]}, more...), ", "))
		}
	}

	if h, ok := rs.(race.Headliner); ok {
		ms := h.Moments(before, after, events)
		if len(ms) > mostMoments {
			ms = ms[:mostMoments]
		}
		parts = append(parts, ms...)
	}

	for _, x := range now {
		if x.Status == "out" && status[x.Seat] != "out" {
			out := x.Name + " is out"
			if x.Detail != "" {
				out += " (" + x.Detail + ")"
			}
			parts = append(parts, out)
		}
	}

	// Who leads: said while the race is on and nobody crossed the line
	// this turn (then the finish is the news).
	if !after.Over() && len(done) == 0 {
		if lead := leadLine(was, now, after.Turn() > 2); lead != "" {
			parts = append(parts, lead)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	line := strings.Join(parts, "; ") + "."
	r, n := utf8.DecodeRuneInString(line)
	return string(unicode.ToUpper(r)) + line[n:]
}

// leadLine says who leads among those still racing: "Luigi takes the lead
// from Peach", "Luigi still leads", "Peach and Luigi share the lead". Once
// someone has finished, the racing leader leads "the rest".
func leadLine(was, now race.Standings, still bool) string {
	leaders := func(st race.Standings) ([]race.Standing, bool) {
		var out []race.Standing
		finished := false
		for _, x := range st {
			switch {
			case x.Status == "finished":
				finished = true
			case x.Status != "racing":
			case len(out) == 0 || x.Place == out[0].Place:
				out = append(out, x)
			}
		}
		return out, finished
	}
	before, _ := leaders(was)
	after, finished := leaders(now)
	if len(after) == 0 {
		return ""
	}
	what := "the lead"
	if finished {
		what = "the lead of the rest"
	}
	if len(after) > 1 {
		var names []string
		for _, x := range after {
			names = append(names, x.Name)
		}
		return words.List(names) + " share " + what
	}
	lead := after[0]
	for _, x := range before {
		if x.Seat == lead.Seat {
			if len(before) > 1 {
				return lead.Name + " leads alone"
			}
			if finished {
				return lead.Name + " leads the rest"
			}
			if still {
				return lead.Name + " still leads"
			}
			return lead.Name + " leads"
		}
	}
	if finished {
		return lead.Name + " now leads the rest"
	}
	line := lead.Name + " takes the lead"
	if len(before) == 1 {
		for _, x := range now {
			if x.Seat == before[0].Seat && x.Status == "racing" {
				line += " from " + before[0].Name
			}
		}
	}
	return line
}
