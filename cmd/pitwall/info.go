package main

import (
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"pitwall/race"
	"pitwall/rules/ludi"
)

func (a *app) rulesCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "rules",
		Short: "List the games pitwall plays",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			type entry struct {
				ID     string   `json:"id"`
				Name   string   `json:"name"`
				Tracks []string `json:"tracks"`
			}
			var list []entry
			for _, id := range race.IDs() {
				rs, _ := race.Lookup(id)
				e := entry{ID: id, Name: rs.Name()}
				for _, t := range rs.Tracks() {
					e.Tracks = append(e.Tracks, t.ID)
				}
				list = append(list, e)
			}
			return a.out(map[string]any{"rulesets": list}, func(w io.Writer) {
				for _, e := range list {
					fmt.Fprintf(w, "%-10s %s (tracks: %s)\n", e.ID, e.Name, strings.Join(e.Tracks, ", "))
				}
			})
		},
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
			ts := rs.Tracks()
			return a.out(map[string]any{"ruleset": rs.ID(), "tracks": ts}, func(w io.Writer) {
				for _, t := range ts {
					fmt.Fprintf(w, "%-16s %s: %s; %d laps by default, up to %d racers\n", t.ID, t.Name, t.Description, t.Laps, t.Seats)
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
			var pos []string
			flags := map[string]string{}
			for i := 0; i < len(args); i++ {
				x := args[i]
				switch {
				case x == "--help" || x == "-h":
					return cmd.Help()
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
					if _, dup := flags[name]; dup {
						return usagef("--%s is given twice", name)
					}
					flags[name] = val
				default:
					pos = append(pos, x)
				}
			}
			if len(pos) == 0 {
				return usagef("odds needs a ruleset and a check, such as 'pitwall odds ludi speed --level fast'")
			}
			rs, err := race.Lookup(pos[0])
			if err != nil {
				return usagef("%v", err)
			}
			od, ok := rs.(race.Oddser)
			if !ok {
				return usagef("the %s ruleset has no odds yet", rs.ID())
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
			return a.out(map[string]any{"ruleset": rs.ID(), "check": pos[1], "outcomes": out}, func(w io.Writer) {
				keys := make([]string, 0, len(out))
				for k := range out {
					keys = append(keys, k)
				}
				sort.Slice(keys, func(i, j int) bool { return lessOutcome(keys[i], keys[j]) })
				for _, k := range keys {
					fmt.Fprintf(w, "%-16s %8.4f%%  %s\n", k, 100*out[k], bar(out[k]))
				}
			})
		},
	}
	return c
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
		Use:   "check RULESET ORDERS",
		Short: "Parse and check one racer's orders, and say what they mean",
		Long: `Parses orders as a racer would write them and prints them in pitwall's
notation, or says what is wrong.

  pitwall order check ludi 'Accelerate, Left 1 else Brake'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rs, err := race.Lookup(args[0])
			if err != nil {
				return usagef("%v", err)
			}
			if len(args) != 2 {
				return usagef("order check %s takes the orders as one argument, in quotes", rs.ID())
			}
			switch rs.ID() {
			case "ludi":
				o, err := ludi.ParseOrders(args[1])
				if err != nil {
					return usagef("%v", err)
				}
				var steps []map[string]string
				for _, s := range o.Steps {
					m := map[string]string{"order": s.Kind.String()}
					if s.Contingency != nil {
						m["contingency"] = s.Contingency.String()
					}
					steps = append(steps, m)
				}
				return a.out(map[string]any{"ok": true, "orders": o.String(), "steps": steps, "bonus": o.Bonus}, func(w io.Writer) {
					fmt.Fprintf(w, "ok: %s\n", o)
				})
			}
			return errors.New("no order check for " + rs.ID() + " yet")
		},
	}
	c.AddCommand(check)
	return c
}
