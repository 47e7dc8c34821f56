package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"pitwall/internal/safefile"
	"pitwall/sim"
)

func (a *app) simCmd() *cobra.Command {
	var spec sim.Spec
	var options []string
	var plotDir, report string
	c := &cobra.Command{
		Use:   "sim RULESET --races N --seed S [--bot NAME] [--versus NAME] [--workers W] [--plot DIR] [--report FILE]",
		Short: "Play many races with bots and measure the game's balance",
		Long: `Plays --races complete races of a game with bots, on --workers workers
(default: every core), and prints how often racers won and finished by each
choice an entrant makes (package, kart, upgrade, vehicle...), by place on
the grid and by bot, each with its 95% confidence interval; the turns a race
took; and why racers did not finish.

Each race draws its track (unless --track names one), its entrants' choices
(each value of each choice equally likely) and its dice from --seed and its
own number alone: the same seed gives the same results on any number of
workers. A race option that adds a choice (ludi's package.NAME=a,b,c, a
package of the host's own) puts it in the draw beside the game's own.
--versus plays half the seats with another bot, the two bots changing
seats from race to race, to compare them. A race not over after
--max-turns turns is counted apart and left out of the rates.

--plot DIR draws charts (PNG and SVG) of the rates and of the turns;
--report FILE writes a Markdown balance report with the tables, the charts
(with --plot) and findings read from the numbers. A progress bar goes to
standard error when it is a terminal.`,
		Example: `  pitwall sim ludi --races 2000 --seed 1
  pitwall sim nascar --races 500 --seed 7 --track oval --json
  pitwall sim rtd --races 1000 --seed 1 --bot heuristic --versus cruise
  pitwall sim ludi --races 5000 --seed 1 --plot charts --report balance.md`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			spec.Ruleset = args[0]
			if len(options) > 0 {
				spec.Options = map[string]string{}
			}
			for _, kv := range options {
				k, v, ok := strings.Cut(kv, "=")
				if !ok || k == "" {
					return usagef("--option is KEY=VALUE ('pitwall rules %s' lists them); got %q", spec.Ruleset, kv)
				}
				spec.Options[k] = v
			}
			// Where the charts and the report go is checked before the
			// races, not after a long run that would then be lost; and the
			// spec before that, so that a refused one makes no folder.
			var bs *sim.BadSpec
			if err := sim.Check(spec); errors.As(err, &bs) {
				return usagef("%v", err)
			} else if err != nil {
				return err
			}
			if plotDir != "" {
				if err := os.MkdirAll(plotDir, 0o755); err != nil {
					return usagef("--plot %s: %v", plotDir, err)
				}
			}
			if report != "" {
				if err := safefile.CanWrite(report); err != nil {
					return usagef("--report %v", err)
				}
			}
			// Ctrl-C stops the run between races, with the progress line ended.
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			bar := progressBar{line: a.progress(), total: spec.Races, start: time.Now()}
			res, err := sim.Run(ctx, spec, bar.set)
			bar.line.end()
			if errors.As(err, &bs) {
				return usagef("%v", err)
			}
			if err != nil {
				return err
			}
			var charts []sim.Chart
			if plotDir != "" {
				if charts, err = writeCharts(plotDir, res); err != nil {
					return err
				}
			}
			if report != "" {
				if err := writeReport(report, plotDir, commandLine(cmd, args), res, charts); err != nil {
					return err
				}
			}
			return a.out(res, func(w io.Writer) {
				printSim(w, res)
				for _, c := range charts {
					fmt.Fprintf(w, "chart: %s (.png, .svg)\n", filepath.Join(plotDir, c.Name))
				}
				if report != "" {
					fmt.Fprintf(w, "report: %s\n", report)
				}
			})
		},
	}
	f := c.Flags()
	f.IntVar(&spec.Races, "races", 1000, "how many races to play")
	f.Uint64Var(&spec.Seed, "seed", 1, "the seed every race's dice, choices and bots are drawn from")
	f.StringVar(&spec.Bot, "bot", "", "the bot in every seat: cruise, heuristic or search, as the game offers (default: heuristic, or cruise in a game without it)")
	f.StringVar(&spec.Versus, "versus", "", "another bot for half the seats, to compare two bots")
	f.IntVar(&spec.Workers, "workers", 0, "races played at once (default: every core)")
	f.IntVar(&spec.Seats, "seats", 0, "racers in a race (default: as many as the game's demo)")
	f.IntVar(&spec.Racers, "racers", 0, "racers each entrant enters (ludi: 1 or 2; default: the fewest the game allows)")
	f.StringVar(&spec.Track, "track", "", "the track of every race (default: each race draws one of the game's tracks)")
	f.IntVar(&spec.Laps, "laps", 0, "laps (default: the track's)")
	f.StringArrayVar(&options, "option", nil, "a race option KEY=VALUE for every race ('pitwall rules RULESET' lists them)")
	f.IntVar(&spec.MaxTurns, "max-turns", sim.DefaultMaxTurns, "stop a race not over after this many turns, and count it apart")
	f.StringVar(&plotDir, "plot", "", "draw PNG and SVG charts into this folder")
	f.StringVar(&report, "report", "", "write a Markdown balance report to this file")
	return c
}

// writeCharts draws res's charts into dir, made before the run.
func writeCharts(dir string, res sim.Result) ([]sim.Chart, error) {
	charts, err := sim.Charts(res)
	if err != nil {
		return nil, err
	}
	for _, c := range charts {
		for _, f := range []struct {
			ext string
			b   []byte
		}{{".png", c.PNG}, {".svg", c.SVG}} {
			path := filepath.Join(dir, c.Name+f.ext)
			if err := writeOut("--plot "+path, path, f.b); err != nil {
				return nil, err
			}
		}
	}
	return charts, nil
}

// writeReport writes the Markdown report to path, linking the charts in
// plotDir as seen from the report's folder.
func writeReport(path, plotDir, command string, res sim.Result, charts []sim.Chart) error {
	rel := ""
	if plotDir != "" {
		abs, err1 := filepath.Abs(plotDir)
		base, err2 := filepath.Abs(filepath.Dir(path))
		r, err3 := filepath.Rel(base, abs)
		rel = filepath.ToSlash(r)
		if err := errors.Join(err1, err2, err3); err != nil {
			rel = filepath.ToSlash(plotDir)
		}
	}
	var b strings.Builder
	if err := sim.Report(&b, res, command, rel, charts); err != nil {
		return err
	}
	return writeOut("--report "+path, path, []byte(b.String()))
}

// commandLine is cmd as given (its arguments and the flags set, in the
// flags' order), for the report to say what made it.
func commandLine(cmd *cobra.Command, args []string) string {
	parts := append([]string{cmd.CommandPath()}, args...)
	quote := func(a string) string {
		if a == "" || strings.ContainsAny(a, " \t'\"$`\\*?;&|<>()") {
			return "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
		return a
	}
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				parts = append(parts, "--"+f.Name, quote(v))
			}
			return
		}
		if f.Value.Type() == "bool" {
			parts = append(parts, "--"+f.Name)
			return
		}
		parts = append(parts, "--"+f.Name, quote(f.Value.String()))
	})
	return strings.Join(parts, " ")
}

// printSim is a simulation's results for people.
func printSim(w io.Writer, res sim.Result) {
	st := res.Results
	entrants := ""
	if st.Setup.Racers > 1 {
		entrants = fmt.Sprintf(" (entrants of %d)", st.Setup.Racers)
	}
	fmt.Fprintf(w, "%s: %d races (%d ended, %d stopped at %d turns), %d racers each%s, seed %d, bot %s", res.Ruleset, res.Races, st.RacesOver, st.RacesNotOver, st.Setup.MaxTurns, st.Setup.Seats, entrants, st.Setup.Seed, st.Setup.Bot)
	if st.Setup.Versus != "" {
		fmt.Fprintf(w, " against %s", st.Setup.Versus)
	}
	fmt.Fprintf(w, "\n%.2f s on %d workers: %.1f races a second; %d dice rolled\n", res.Seconds, res.Workers, res.RacesPerSecond, res.DiceRolled)
	fmt.Fprintf(w, "rates with their 95%% intervals; a racer's even share of wins is %s\n", sim.Pct(st.EvenShare))
	for _, g := range st.Groups {
		fmt.Fprintf(w, "\nby %s:\n", sim.GroupTitle(g))
		width := len(sim.GroupTitle(g))
		for _, x := range st.By[g] {
			width = max(width, len(x.Value))
		}
		fmt.Fprintf(w, "  %-*s %7s  %s  %7s  %s\n", width, "", "wins", pad("(95%)", 13), "finish", "(95%)")
		for _, x := range st.By[g] {
			fmt.Fprintf(w, "  %-*s %7s  %s  %7s  %s\n", width, x.Value, sim.Pct(x.WinRate), pad(sim.Interval(x.WinCI), 13), sim.Pct(x.FinishRate), sim.Interval(x.FinishCI))
		}
	}
	t := st.Turns
	if st.RacesOver > 0 {
		fmt.Fprintf(w, "\nturns per race: mean %.1f, min %d, median %d, 90%% %d, max %d\n", t.Mean, t.Min, t.P50, t.P90, t.Max)
	}
	if len(st.DNF) > 0 {
		fmt.Fprintln(w, "\ndid not finish:")
		for _, c := range st.DNF {
			fmt.Fprintf(w, "  %s %6d  %s (%s)\n", pad(c.Cause, 32), c.Racers, sim.Pct(c.Rate), sim.Interval(c.CI))
		}
	}
	fmt.Fprintln(w, "\nfindings:")
	for _, f := range sim.Findings(st) {
		fmt.Fprintf(w, "- %s\n", f)
	}
}

// pad is s with spaces after it to n characters (an interval's dash is one
// character of three bytes, which %-13s would count as three).
func pad(s string, n int) string {
	return s + strings.Repeat(" ", max(0, n-utf8.RuneCountInString(s)))
}

// progressBar draws races done, the time taken and the time left.
type progressBar struct {
	line  *progressLine
	total int
	start time.Time
}

func (p *progressBar) set(done int) {
	const width = 30
	full := width * done / max(p.total, 1)
	el := time.Since(p.start)
	eta := "?"
	if done > 0 {
		eta = (time.Duration(float64(el) * float64(p.total-done) / float64(done))).Round(time.Second).String()
	}
	p.line.show(done == p.total, "[%s%s] %d/%d races, %s, %s left", strings.Repeat("=", full), strings.Repeat(" ", width-full), done, p.total, el.Round(time.Second), eta)
}
