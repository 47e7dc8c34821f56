package sim

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Pct is a rate as a percentage with one decimal: "12.3%".
func Pct(x float64) string { return fmt.Sprintf("%.1f%%", 100*x) }

// Interval is a 95% interval as percentages: "10.6–13.8%".
func Interval(ci [2]float64) string { return fmt.Sprintf("%.1f–%.1f%%", 100*ci[0], 100*ci[1]) }

// Findings are what the numbers of st say, in sentences made from them:
// for each group, the best and the worst value and whether their intervals
// part, the values whose interval lies wholly above or below the even
// share, differences in finishing; how long races ran, why racers did not
// finish, and how many races did not end.
func Findings(st Stats) []string {
	var out []string
	if st.RacesOver == 0 {
		return []string{fmt.Sprintf("No race ended within %d turns, so there are no rates to read: the bots may never finish (cruise, say), or --max-turns is too low.", st.Setup.MaxTurns)}
	}
	for _, g := range st.Groups {
		rates := st.By[g]
		if len(rates) < 2 {
			continue
		}
		out = append(out, rateFindings(st, g, rates)...)
	}
	t := st.Turns
	out = append(out, fmt.Sprintf("Races that ended took %.1f turns on average; half took %d to %d, and they ranged from %d to %d.", t.Mean, t.P25, t.P75, t.Min, t.Max))
	racers := st.RacesOver * st.Setup.Seats
	dnf := 0
	for _, c := range st.DNF {
		dnf += c.Racers
	}
	if dnf == 0 {
		out = append(out, fmt.Sprintf("Every one of the %d racers finished.", racers))
	} else {
		c := st.DNF[0]
		out = append(out, fmt.Sprintf("%s of racers did not finish (%d of %d); the commonest cause, %q, took %s (%s).", Pct(float64(dnf)/float64(racers)), dnf, racers, c.Cause, Pct(c.Rate), Interval(c.CI)))
	}
	if n := st.RacesNotOver; n > 0 {
		out = append(out, fmt.Sprintf("%d of %d races (%s) had not ended after %d turns; they are left out of every rate.", n, n+st.RacesOver, Pct(float64(n)/float64(n+st.RacesOver)), st.Setup.MaxTurns))
	}
	return out
}

func rateFindings(st Stats, g string, rates []Rate) []string {
	var out []string
	title := GroupTitle(g)
	best, worst := extremes(rates, func(r Rate) float64 { return r.WinRate })
	name := func(r Rate) string {
		if g == "start" { // "place 1", not a bare "1"
			return "place " + r.Value
		}
		return r.Value
	}
	// win is a value's win rate as a finding says it: "place 1 27.0% (22.3–32.3%)".
	win := func(r Rate) string { return fmt.Sprintf("%s %s (%s)", name(r), Pct(r.WinRate), Interval(r.WinCI)) }
	if best.WinCI[0] > worst.WinCI[1] {
		out = append(out, fmt.Sprintf("By %s, %s wins %s (%s) vs %s: the intervals do not overlap, so the difference is more than chance.",
			title, name(best), Pct(best.WinRate), Interval(best.WinCI), win(worst)))
	} else {
		out = append(out, fmt.Sprintf("By %s, no value's win rate stands apart: the best, %s at %s (%s), and the worst, %s at %s (%s), have overlapping intervals at %d races; more races would narrow them.",
			title, name(best), Pct(best.WinRate), Interval(best.WinCI), name(worst), Pct(worst.WinRate), Interval(worst.WinCI), st.RacesOver))
	}
	var above, below []string
	for _, r := range rates {
		switch {
		case r.WinCI[0] > st.EvenShare:
			above = append(above, win(r))
		case r.WinCI[1] < st.EvenShare:
			below = append(below, win(r))
		}
	}
	even := Pct(st.EvenShare)
	if len(above) > 0 {
		out = append(out, fmt.Sprintf("By %s, above the even share of %s, interval and all: %s.", title, even, strings.Join(above, ", ")))
	}
	if len(below) > 0 {
		out = append(out, fmt.Sprintf("By %s, below the even share of %s, interval and all: %s.", title, even, strings.Join(below, ", ")))
	}
	fBest, fWorst := extremes(rates, func(r Rate) float64 { return r.FinishRate })
	if fBest.FinishCI[0] > fWorst.FinishCI[1] {
		out = append(out, fmt.Sprintf("By %s, %s finishes %s (%s) of its races and %s only %s (%s): the intervals do not overlap.", title, name(fBest), Pct(fBest.FinishRate), Interval(fBest.FinishCI), name(fWorst), Pct(fWorst.FinishRate), Interval(fWorst.FinishCI)))
	}
	return out
}

// extremes are the rates of the highest and the lowest of by, the first
// of each on a tie.
func extremes(rates []Rate, by func(Rate) float64) (best, worst Rate) {
	best, worst = rates[0], rates[0]
	for _, r := range rates[1:] {
		if by(r) > by(best) {
			best = r
		}
		if by(r) < by(worst) {
			worst = r
		}
	}
	return best, worst
}

// Report writes r as a Markdown balance report: command is the command
// line that made it, and charts (with chartDir, the folder of their files
// as seen from the report; empty when none were drawn) are linked beside
// their tables.
func Report(w io.Writer, r Result, command, chartDir string, charts []Chart) error {
	st := r.Results
	var b strings.Builder
	fmt.Fprintf(&b, "# Balance report: %s\n\n", r.Ruleset)
	fmt.Fprintf(&b, "Made by `%s`.\n\n", command)
	bots := fmt.Sprintf("the %s bot in every seat", st.Setup.Bot)
	if st.Setup.Versus != "" {
		bots = fmt.Sprintf("the %s bot in half the seats and the %s bot in the other half, the two changing seats from race to race", st.Setup.Bot, st.Setup.Versus)
	}
	laps := "each track's own laps"
	if st.Setup.Laps > 0 {
		laps = fmt.Sprintf("%d laps", st.Setup.Laps)
	}
	track := st.Setup.Tracks[0]
	if len(st.Setup.Tracks) > 1 {
		track = "a track drawn for each race from " + strings.Join(st.Setup.Tracks, ", ")
	}
	fmt.Fprintf(&b, "%d races of %s (seed %d), %d racers each with random choices, %s, on %s, %s. ",
		r.Races, r.Ruleset, st.Setup.Seed, st.Setup.Seats, bots, track, laps)
	if len(st.Setup.Options) > 0 {
		var opts []string
		for _, k := range slices.Sorted(maps.Keys(st.Setup.Options)) {
			opts = append(opts, k+"="+st.Setup.Options[k])
		}
		fmt.Fprintf(&b, "Race options: %s. ", strings.Join(opts, ", "))
	}
	fmt.Fprintf(&b, "%d races ended; %d were stopped at %d turns. %d dice rolled (%.1f a race), in %.1f s on %d workers (%.0f races a second).\n\n",
		st.RacesOver, st.RacesNotOver, st.Setup.MaxTurns, r.DiceRolled, st.DicePerRace, r.Seconds, r.Workers, r.RacesPerSecond)
	fmt.Fprintf(&b, "A win is first place in a race that ended (shared, where the game ties). Were every racer alike, each would win %s of its races (1 in %d, the even share). ", Pct(st.EvenShare), st.Setup.Seats)
	b.WriteString("Each rate comes with its 95% Wilson interval; two rates whose intervals do not overlap differ by more than chance. ")
	b.WriteString("One interval in twenty misses its true rate by chance alone, so among many values a lone rate just outside the even share is worth a second run with another --seed before acting on it.\n\n")

	if st.Setup.Versus != "" {
		b.WriteString("With two bots, every other group mixes both bots' racers: read the choices and the grid places with that in mind.\n\n")
	}
	b.WriteString("## Findings\n\n")
	for _, f := range Findings(st) {
		fmt.Fprintf(&b, "- %s\n", f)
	}
	chart := func(name string) {
		i := slices.IndexFunc(charts, func(c Chart) bool { return c.Name == name })
		if i < 0 {
			return
		}
		fmt.Fprintf(&b, "\n![%s](%s) ([SVG](%s))\n", charts[i].Title, chartPath(chartDir, name+".png"), chartPath(chartDir, name+".svg"))
	}
	for _, g := range st.Groups {
		rates := st.By[g]
		if len(rates) == 0 {
			continue
		}
		title := GroupTitle(g)
		fmt.Fprintf(&b, "\n## By %s\n\n", title)
		fmt.Fprintf(&b, "| %s | racers | wins | win rate | 95%% interval | finishes | finish rate | 95%% interval |\n", title)
		b.WriteString("|---|--:|--:|--:|--:|--:|--:|--:|\n")
		for _, x := range rates {
			fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %d | %s | %s |\n", x.Value, x.Racers, x.Wins, Pct(x.WinRate), Interval(x.WinCI), x.Finishes, Pct(x.FinishRate), Interval(x.FinishCI))
		}
		chart("win-" + g)
		chart("finish-" + g)
	}
	t := st.Turns
	b.WriteString("\n## Turns per race\n\n")
	if st.RacesOver == 0 {
		b.WriteString("No race ended.\n")
	} else {
		b.WriteString("| mean | min | 10% | 25% | median | 75% | 90% | max |\n|--:|--:|--:|--:|--:|--:|--:|--:|\n")
		fmt.Fprintf(&b, "| %.1f | %d | %d | %d | %d | %d | %d | %d |\n", t.Mean, t.Min, t.P10, t.P25, t.P50, t.P75, t.P90, t.Max)
		chart("turns")
	}
	b.WriteString("\n## Why racers did not finish\n\n")
	if len(st.DNF) == 0 {
		b.WriteString("Every racer of every race that ended finished.\n")
	} else {
		b.WriteString("| cause | racers | share of all racers | 95% interval |\n|---|--:|--:|--:|\n")
		for _, c := range st.DNF {
			fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", c.Cause, c.Racers, Pct(c.Rate), Interval(c.CI))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func chartPath(dir, file string) string {
	if dir == "" || dir == "." {
		return file
	}
	return strings.TrimSuffix(dir, "/") + "/" + file
}
