package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"pitwall/race"
)

func (a *app) rulesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rules [RULESET]",
		Short: "List the games pitwall plays, or describe one",
		Long: `Lists the games, or with a game's id describes it as the service and
the CLI offer it: its tracks, what a race, an entrant and a turn's settings
may choose, its words and what it can do beyond playing a race.`,
		Example: `  pitwall rules
  pitwall rules ludi --json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				rs, err := race.Lookup(args[0])
				if err != nil {
					return usagef("%v", err)
				}
				return a.describeGame(rs)
			}
			type entry struct {
				ID      string   `json:"id"`
				Name    string   `json:"name"`
				Version int      `json:"version"`
				Tracks  []string `json:"tracks"`
			}
			var list []entry
			for _, id := range race.IDs() {
				rs, _ := race.Lookup(id)
				g := rs.Game()
				e := entry{ID: id, Name: g.Name, Version: g.Version}
				for _, t := range g.Tracks {
					e.Tracks = append(e.Tracks, t.ID)
				}
				list = append(list, e)
			}
			return a.out(map[string]any{"rulesets": list}, func(w io.Writer) {
				for _, e := range list {
					fmt.Fprintf(w, "%-10s %s (tracks: %s)\n", e.ID, e.Name, strings.Join(e.Tracks, ", "))
				}
				fmt.Fprintln(w, "'pitwall rules RULESET' describes one")
			})
		},
	}
}

// describeGame prints a game's descriptor and what it can do.
func (a *app) describeGame(rs race.Ruleset) error {
	g := rs.Game()
	caps := race.CapabilitiesOf(rs)
	return a.out(map[string]any{"ok": true, "game": g, "capabilities": caps}, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %s (rules version %d)\n", g.ID, g.Name, g.Version)
		var ts []string
		for _, t := range g.Tracks {
			ts = append(ts, t.ID)
		}
		fmt.Fprintf(w, "tracks: %s (the first is the default; 'pitwall tracks %s')\n", strings.Join(ts, ", "), g.ID)
		racers := fmt.Sprintf("one %s", g.Words.Racer)
		if g.Racers.Max > g.Racers.Min {
			racers = fmt.Sprintf("%d to %d (%s)", g.Racers.Min, g.Racers.Max, g.Words.Racer)
		}
		fmt.Fprintf(w, "an entrant fields %s, each named by --racer NAME, and chooses:\n", racers)
		printFields(w, g.Entrant, "--", " ")
		fmt.Fprintln(w, "a race's options ('race new'):")
		printFields(w, g.Options, "--option ", "=")
		fmt.Fprintln(w, "the host's settings for a turn ('turn set'):")
		printFields(w, g.Settings, "", "=")
		fmt.Fprintf(w, "a turn is called %q; turn 0 is %s; a racer who sends nothing: %s\n", g.Words.Turn, g.Words.Start, g.Words.Default)
		if g.Words.Bonus != "" {
			fmt.Fprintf(w, "the bonus window: %s\n", g.Words.Bonus)
		}
		var can []string
		for _, c := range []struct {
			on   bool
			what string
		}{{caps.Odds, "odds ('pitwall odds')"}, {caps.Choices, "choices as data ('orders options')"}, {caps.Bots, "bots"},
			{caps.HostBot, "a host's bot"}, {caps.Records, "records"}, {caps.Secrets, "hidden things"},
			{caps.OrderCheck, "orders checked without a race ('order check')"}, {caps.Calendar, "a calendar"}} {
			if c.on {
				can = append(can, c.what)
			}
		}
		fmt.Fprintf(w, "it has: %s\n", strings.Join(can, ", "))
	})
}

func printFields(w io.Writer, fs []race.Field, prefix, sep string) {
	if len(fs) == 0 {
		fmt.Fprintln(w, "  nothing")
		return
	}
	for _, f := range fs {
		line := fmt.Sprintf("  %s%s%s%s", prefix, f.Name, sep, f.Usage())
		if f.Type == race.File {
			line = fmt.Sprintf("  --%s %s", f.Name, f.Usage()) // a file is read by its own flag
		}
		help := f.Help
		if f.Default != "" {
			help += " (default " + f.Default + ")"
		}
		if len(line) > 40 {
			fmt.Fprintf(w, "%s\n%-40s %s\n", line, "", help)
			continue
		}
		fmt.Fprintf(w, "%-40s %s\n", line, help)
	}
}

func (a *app) tracksCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "tracks RULESET",
		Short: "List the tracks of a game",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rs, err := race.Lookup(args[0])
			if err != nil {
				return usagef("%v", err)
			}
			ts := rs.Game().Tracks
			return a.out(map[string]any{"ruleset": rs.Game().ID, "tracks": ts}, func(w io.Writer) {
				for _, t := range ts {
					laps := fmt.Sprintf("%d laps by default, ", t.Laps)
					if t.Laps == 0 { // a board game
						laps = ""
					}
					fmt.Fprintf(w, "%-16s %s: %s; %sup to %d racers\n", t.ID, t.Name, t.Description, laps, t.Seats)
				}
			})
		},
	}
}

func (a *app) oddsCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "odds RULESET CHECK [--FLAG VALUE]...",
		Short: "Exact odds of a roll, computed from the game's tables",
		Long: `Prints the exact probability of every outcome of one kind of roll, worked out
from the game's tables. Run 'pitwall odds RULESET' to list its checks and their flags.

  pitwall odds ludi speed --level fast
  pitwall odds ludi corner --lane 1 --level fast --skill 2 --control`,
		DisableFlagParsing: true, // each check has flags of its own
		RunE: func(cmd *cobra.Command, args []string) error {
			pos, flags, twice, help := a.dashArgs(args)
			if help {
				return cmd.Help()
			}
			if len(twice) > 0 {
				return usagef("--%s is given twice", twice[0])
			}
			if len(pos) == 0 {
				return usagef("odds needs a ruleset and a check, such as 'pitwall odds ludi speed --level fast'")
			}
			od, id, err := oddserFor(pos[0])
			if err != nil {
				return err
			}
			if len(pos) == 1 {
				return a.listChecks(od)
			}
			if len(pos) > 2 {
				return usagef("odds takes one check; got %s", strings.Join(pos[1:], " "))
			}
			// A switch given before a value-less end, such as '--control', arrives as "true".
			for _, ch := range od.Checks() {
				if ch.Name != pos[1] {
					continue
				}
				for _, f := range ch.Flags {
					if v, set := flags[f.Name]; set && f.Bool && v != "true" && v != "false" {
						return usagef("--%s is a switch and takes no value; got %q", f.Name, v)
					}
				}
			}
			out, err := od.Odds(pos[1], flags)
			if err != nil {
				return usagef("%v", err)
			}
			return a.out(map[string]any{"ruleset": id, "check": pos[1], "outcomes": out}, func(w io.Writer) {
				// In the order the check lists its outcomes (the table's order), numbers by value.
				rank := map[string]int{}
				for _, c := range od.Checks() {
					if c.Name == pos[1] {
						for i, o := range c.Outcomes {
							rank[o] = i + 1
						}
					}
				}
				keys := make([]string, 0, len(out))
				for k := range out {
					keys = append(keys, k)
				}
				sort.Slice(keys, func(i, j int) bool {
					ri, rj := rank[keys[i]], rank[keys[j]]
					if ri == 0 { // outcomes the check does not list come after those it does
						ri = len(rank) + 1
					}
					if rj == 0 {
						rj = len(rank) + 1
					}
					if ri != rj {
						return ri < rj
					}
					return lessOutcome(keys[i], keys[j])
				})
				for _, k := range keys {
					fmt.Fprintf(w, "%-16s %8.4f%%  %s\n", k, 100*out[k], bar(out[k]))
				}
			})
		},
	}
	return c
}

// oddserFor finds the odds of a game.
func oddserFor(id string) (race.Oddser, string, error) {
	rs, err := race.Lookup(id)
	if err != nil {
		return nil, "", usagef("unknown game %q; games: %s", id, strings.Join(race.IDs(), ", "))
	}
	od, ok := rs.(race.Oddser)
	if !ok {
		return nil, "", usagef("the %s ruleset has no odds yet", rs.Game().ID)
	}
	return od, rs.Game().ID, nil
}

// dashArgs reads the arguments of a command whose flags depend on the game:
// positional words, --name value or --name=value (a flag with no value is
// "true"), --json and --help.
// A flag given more than once holds its values joined by newlines, and its
// name is in twice; the caller refuses it unless the flag repeats.
func (a *app) dashArgs(args []string) (pos []string, flags map[string]string, twice []string, help bool) {
	flags = map[string]string{}
	for i := 0; i < len(args); i++ {
		x := args[i]
		switch {
		case x == "--help" || x == "-h":
			help = true
		case x == "--json":
			a.json = true
		case strings.HasPrefix(x, "--"):
			name, val, has := strings.Cut(x[2:], "=")
			if !has && i+1 < len(args) && !strings.HasPrefix(args[i+1], "--") {
				i++
				val, has = args[i], true
			}
			if !has {
				val = "true"
			}
			if name == "db" { // the global flag, given before the command: no game's
				a.db = val
				continue
			}
			if old, dup := flags[name]; dup {
				flags[name] = old + "\n" + val
				twice = append(twice, name)
				continue
			}
			flags[name] = val
		default:
			pos = append(pos, x)
		}
	}
	return pos, flags, twice, help
}

func (a *app) listChecks(od race.Oddser) error {
	cs := od.Checks()
	return a.out(map[string]any{"checks": cs}, func(w io.Writer) {
		for _, c := range cs {
			var fl []string
			for _, f := range c.Flags {
				s := "--" + f.Name
				if !f.Bool {
					s += " " + f.Values
				}
				if !f.Need {
					s = "[" + s + "]"
				}
				fl = append(fl, s)
			}
			if len(fl) == 0 {
				fl = []string{"(no flags)"}
			}
			fmt.Fprintf(w, "%-10s %s\n           %s\n", c.Name, strings.Join(fl, " "), c.Help)
		}
	})
}

// lessOutcome sorts numbers as numbers, words as words.
func lessOutcome(a, b string) bool {
	var x, y int
	_, ea := fmt.Sscanf(a, "%d", &x)
	_, eb := fmt.Sscanf(b, "%d", &y)
	if ea == nil && eb == nil {
		return x < y
	}
	return a < b
}

func bar(p float64) string { return strings.Repeat("#", int(math.Round(p*40))) }

func (a *app) orderCmd() *cobra.Command {
	c := &cobra.Command{Use: "order", Short: "Check orders without a race"}
	check := &cobra.Command{
		Use:   "check RULESET [--FLAG VALUE]... ORDERS",
		Short: "Parse and check one racer's orders, and say what they do",
		Long: `Parses orders as a racer would write them and prints what they do, or says
what is wrong. Some games take the car's state as flags.

  pitwall order check ludi 'Accelerate, Left 1 else Brake'
  pitwall order check nascar --speed 4 --heading N 'A(2M)RM(R+1)'
  pitwall order check gaslands 'gentle left skid 2 shift up'
  pitwall order check party --board board.yaml --at s0 --movement 3 --choose s5`,
		DisableFlagParsing: true, // each game has flags of its own
		RunE: func(cmd *cobra.Command, args []string) error {
			pos, flags, twice, help := a.dashArgs(args)
			if help {
				return cmd.Help()
			}
			if len(pos) == 0 {
				return usagef("order check needs a game and the orders, such as 'pitwall order check ludi Accelerate'")
			}
			rs, err := race.Lookup(pos[0])
			if err != nil {
				return usagef("%v", err)
			}
			oc, ok := rs.(race.OrderChecker)
			if !ok {
				return usagef("%s's orders cannot be checked without a race; games that can: %s", pos[0], strings.Join(orderCheckIDs(), ", "))
			}
			cflags := oc.CheckFlags()
			for _, f := range cflags {
				// A switch takes no value: what follows it is the orders.
				if v, set := flags[f.Name]; set && f.Bool && v != "true" && v != "false" {
					flags[f.Name] = "true"
					pos = append(pos, v)
				}
			}
			if len(pos) > 2 {
				return usagef("order check %s takes the orders as one argument, in quotes", pos[0])
			}
			pos = append(pos, "")
			known := map[string]bool{}
			for _, f := range cflags {
				known[f.Name] = true
				if _, set := flags[f.Name]; f.Need && !set {
					return usagef("order check %s needs --%s (%s)", pos[0], f.Name, f.Values)
				}
			}
			for name := range flags {
				if !known[name] {
					return usagef("order check %s has no flag --%s", pos[0], name)
				}
			}
			for _, name := range twice {
				for _, f := range cflags {
					if f.Name == name && !f.Repeat {
						return usagef("--%s is given twice", name)
					}
				}
			}
			v, err := oc.CheckOrder(flags, pos[1])
			if err != nil {
				return usagef("%v", err)
			}
			v.Fields["ok"] = true
			return a.out(v.Fields, func(w io.Writer) {
				for _, line := range v.Says {
					fmt.Fprintln(w, line)
				}
			})
		},
	}
	c.AddCommand(check)
	return c
}

// orderCheckIDs lists the games whose orders 'order check' reads.
func orderCheckIDs() []string {
	var ids []string
	for _, id := range race.IDs() {
		if rs, _ := race.Lookup(id); race.CapabilitiesOf(rs).OrderCheck {
			ids = append(ids, id)
		}
	}
	return ids
}
