package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"pitwall/dice"
	"pitwall/host"
	"pitwall/internal/yamlfile"
	"pitwall/race"
	"pitwall/rules/gaslands"
	"pitwall/rules/party"
	"pitwall/store/sqlite"
)

// open opens the race database and a host on it.
func (a *app) open() (*host.Host, func(), error) {
	st, err := sqlite.Open(a.db)
	if err != nil {
		return nil, nil, fmt.Errorf("opening the race database %s: %w", a.db, err)
	}
	return host.New(st), func() { st.Close() }, nil
}

// withHost runs fn on a host over the race database.
func (a *app) withHost(fn func(ctx context.Context, h *host.Host) error) error {
	h, done, err := a.open()
	if err != nil {
		return err
	}
	defer done()
	return fn(context.Background(), h)
}

// withRace loads a race replayed from its log and calls fn with it.
func (a *app) withRace(id string, fn func(ctx context.Context, h *host.Host, p *race.Played) error) error {
	return a.withHost(func(ctx context.Context, h *host.Host) error {
		p, err := h.Load(ctx, id)
		if err != nil {
			return err
		}
		return fn(ctx, h, p)
	})
}

// turnFlag is the --turn a command was given, or the last turn played.
func turnFlag(cmd *cobra.Command, turn int, p *race.Played) int {
	if cmd.Flags().Changed("turn") {
		return turn
	}
	return len(p.Turns)
}

func (a *app) raceCmd() *cobra.Command {
	c := &cobra.Command{Use: "race", Short: "Create, enter and show races"}
	c.AddCommand(a.raceNewCmd(), a.raceJoinCmd(), a.raceShowCmd(), a.raceListCmd())
	return c
}

// entrantsFile is the YAML a host lists the entrants in.
type entrantsFile struct {
	Entrants []map[string]any `yaml:"entrants"`
}

// readEntrants reads entrants: player, aurigae (or racers) and the game's
// choices, such as package and extras for ludi.
func readEntrants(path string) ([]race.Entrant, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("reading the entrants: %v", err)
	}
	var f entrantsFile
	if err := yamlfile.Decode(path, b, &f); err != nil {
		return nil, usagef("%v", err)
	}
	if len(f.Entrants) == 0 {
		return nil, usagef("%s lists no entrants: write them under 'entrants:'", path)
	}
	var out []race.Entrant
	for i, m := range f.Entrants {
		e := race.Entrant{Options: map[string]string{}}
		for k, v := range m {
			switch k {
			case "player":
				e.Player = fmt.Sprint(v)
			case "aurigae", "racers", "auriga", "racer":
				e.Racers = append(e.Racers, listOf(v)...)
			default:
				e.Options[k] = strings.Join(listOf(v), ",")
			}
		}
		if e.Player == "" {
			return nil, usagef("%s: entrant %d has no 'player'", path, i+1)
		}
		if len(e.Racers) == 0 {
			e.Racers = []string{e.Player}
		}
		out = append(out, e)
	}
	return out, nil
}

func listOf(v any) []string {
	switch x := v.(type) {
	case []any:
		var out []string
		for _, y := range x {
			out = append(out, fmt.Sprint(y))
		}
		return out
	case nil:
		return nil
	}
	return []string{fmt.Sprint(v)}
}

func (a *app) raceNewCmd() *cobra.Command {
	var rules, track, id, entrants, maneuvers, board string
	var laps int
	var seed int64 = -1
	var options []string
	c := &cobra.Command{
		Use:   "new --rules RULESET --track TRACK",
		Short: "Create a race",
		Long: `Creates a race and prints its id and the commitment to its dice: the SHA-256
of the seed, to publish now; the seed itself is revealed when the race ends.

Entrants come from a YAML file (--entrants) or join later with 'pitwall race join':

  entrants:
    - player: Marcus
      package: military          # ludi: military, noble, political, priestly, strength, trader
      extras: [skill, speed]     # ludi: two more characteristics
      aurigae: [Marcus Aurelius] # one or two
    - player: Dale
      racer: Intimidator         # nascar and rtd: one racer
      upgrade: turbo             # nascar: none, turbo, swaybars, performance
    - player: Kit
      racer: Yoshi
      perk: item-bonus           # rtd: with a debuff, or neither for a standard kart
      debuff: slow
    - player: Noor
      racer: Bowser
      vehicle: heavy-truck       # gaslands: buggy, car, performance-car, truck, heavy-truck, bike

A gaslands race can take its own templates and gear chart from a file in the
format of rules/gaslands/data/maneuvers.yaml (--maneuvers FILE); they are kept
in the race as options, so it replays the same wherever it goes.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if rules == "" {
				return usagef("--rules is required; rulesets: %s", strings.Join(race.IDs(), ", "))
			}
			if cmd.Flags().Changed("laps") && laps < 1 {
				return usagef("--laps is a number of laps from 1; got %d", laps)
			}
			cfg := race.Config{Track: track, Laps: laps}
			if len(options) > 0 {
				cfg.Options = map[string]string{}
				for _, o := range options {
					k, v, ok := strings.Cut(o, "=")
					if !ok {
						return usagef("--option is KEY=VALUE; got %q", o)
					}
					cfg.Options[k] = v
				}
			}
			if maneuvers != "" {
				if rules != "gaslands" {
					return usagef("--maneuvers is for gaslands races; this one is %s", rules)
				}
				src, err := os.ReadFile(maneuvers)
				if err != nil {
					return usagef("reading the maneuvers: %v", err)
				}
				m, err := gaslands.ParseManeuvers(maneuvers, src)
				if err != nil {
					return usagef("%v", err)
				}
				if cfg.Options == nil {
					cfg.Options = map[string]string{}
				}
				for k, v := range m.Options() {
					if _, set := cfg.Options[k]; !set { // an --option given as well wins
						cfg.Options[k] = v
					}
				}
			}
			if board != "" {
				if rules != "party" {
					return usagef("--board is for party games; this one is %s", rules)
				}
				src, err := os.ReadFile(board)
				if err != nil {
					return usagef("reading the board: %v", err)
				}
				b, err := party.ParseBoard(board, src)
				if err != nil {
					return usagef("%v", err)
				}
				if cfg.Track == "" {
					cfg.Track = b.ID
				}
				if cfg.Options == nil {
					cfg.Options = map[string]string{}
				}
				cfg.Options["board"] = string(src)
			}
			var es []race.Entrant
			if entrants != "" {
				var err error
				if es, err = readEntrants(entrants); err != nil {
					return err
				}
			}
			var sd *dice.Seed
			if cmd.Flags().Changed("seed") {
				if seed < 0 {
					return usagef("--seed is a whole number from 0; got %d", seed)
				}
				s := dice.SeedFromInt(uint64(seed))
				sd = &s
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				r, err := h.NewRace(ctx, rules, id, cfg, es, sd)
				if err != nil {
					return err
				}
				return a.out(map[string]any{"ok": true, "id": r.ID, "ruleset": r.Ruleset, "track": r.Config.Track, "entrants": len(r.Entrants), "commitment": r.Commitment()}, func(w io.Writer) {
					fmt.Fprintf(w, "created race %s (%s on %s) with %d entrant(s)\n", r.ID, r.Ruleset, r.Config.Track, len(r.Entrants))
					fmt.Fprintf(w, "dice commitment (publish it): sha256 %s\n", r.Commitment())
					if sd != nil {
						fmt.Fprintln(w, "note: --seed makes the dice predictable; use it for tests and demos only")
					}
				})
			})
		},
	}
	f := c.Flags()
	f.StringVar(&rules, "rules", "", "the game: "+strings.Join(race.IDs(), ", "))
	f.StringVar(&track, "track", "", "the track (see 'pitwall tracks RULESET')")
	f.IntVar(&laps, "laps", 0, "laps (default: the track's)")
	f.Int64Var(&seed, "seed", -1, "a fixed seed, for tests and demos only (default: from crypto/rand)")
	f.StringVar(&id, "id", "", "the race's id (default: generated)")
	f.StringVar(&entrants, "entrants", "", "a YAML file of entrants")
	f.StringVar(&board, "board", "", "party: a board file of your own (YAML, the format of rules/party/boards/), kept in the race")
	f.StringVar(&maneuvers, "maneuvers", "", "gaslands: a file of templates and gear chart (the format of rules/gaslands/data/maneuvers.yaml)")
	f.StringArrayVar(&options, "option", nil, "a ruleset option KEY=VALUE (ludi: package.NAME=a,b,c)")
	return c
}

func (a *app) raceJoinCmd() *cobra.Command {
	var player, pkg, extras, upgrade, perk, debuff, vehicle string
	var aurigae, racers []string
	var opts []string
	c := &cobra.Command{
		Use:   "join RACE --player NAME [--racer NAME]... [game choices]",
		Short: "Enter a race that has not started",
		Long: `Enters a participant in a race that has not started.

  ludi:   pitwall race join RACE --player Marcus --auriga "Marcus Aurelius" --package military --extras skill,speed
  nascar: pitwall race join RACE --player Dale --racer Intimidator --upgrade turbo
  rtd:    pitwall race join RACE --player Sam --racer Yoshi --perk item-bonus --debuff slow
          (no --perk and --debuff: a standard kart)
  gaslands: pitwall race join RACE --player Kit --racer Bowser --vehicle heavy-truck
  party:  pitwall race join RACE --player Ade --racer Peach`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if player == "" {
				return usagef("--player is required")
			}
			e := race.Entrant{Player: player, Racers: append(append([]string(nil), racers...), aurigae...), Options: map[string]string{}}
			if len(e.Racers) == 0 {
				e.Racers = []string{player}
			}
			if pkg != "" {
				e.Options["package"] = pkg
			}
			if extras != "" {
				e.Options["extras"] = extras
			}
			if upgrade != "" {
				e.Options["upgrade"] = upgrade
			}
			if perk != "" {
				e.Options["perk"] = perk
			}
			if debuff != "" {
				e.Options["debuff"] = debuff
			}
			if vehicle != "" {
				e.Options["vehicle"] = vehicle
			}
			for _, o := range opts {
				k, v, ok := strings.Cut(o, "=")
				if !ok {
					return usagef("--option is KEY=VALUE; got %q", o)
				}
				e.Options[k] = v
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				r, err := h.Join(ctx, args[0], e)
				if err != nil {
					return err
				}
				return a.out(map[string]any{"ok": true, "id": r.ID, "entrants": len(r.Entrants)}, func(w io.Writer) {
					fmt.Fprintf(w, "%s joins %s with %s; %d entrant(s) now\n", player, r.ID, strings.Join(e.Racers, " and "), len(r.Entrants))
				})
			})
		},
	}
	f := c.Flags()
	f.StringVar(&player, "player", "", "the participant's name")
	f.StringArrayVar(&racers, "racer", nil, "a racer's name: an auriga, a car (default: the player's name)")
	f.StringArrayVar(&aurigae, "auriga", nil, "ludi: an auriga's name (once or twice), the same as --racer")
	f.StringVar(&upgrade, "upgrade", "", "nascar: none, turbo, swaybars or performance")
	f.StringVar(&perk, "perk", "", "rtd: ramming-speed, item-bonus or high-acceleration (with --debuff)")
	f.StringVar(&debuff, "debuff", "", "rtd: featherweight, low-loot or slow (with --perk)")
	f.StringVar(&vehicle, "vehicle", "", "gaslands: buggy, car, performance-car, truck, heavy-truck or bike (default car)")
	f.StringVar(&pkg, "package", "", "ludi: military, noble, political, priestly, strength or trader")
	f.StringVar(&extras, "extras", "", "ludi: two more characteristics, e.g. skill,speed")
	f.StringArrayVar(&opts, "option", nil, "another choice KEY=VALUE")
	return c
}

func (a *app) raceListCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "list",
		Short: "List the races in the database",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				l, err := h.Store.List(ctx)
				if err != nil {
					return err
				}
				return a.out(map[string]any{"races": l}, func(w io.Writer) {
					if len(l) == 0 {
						fmt.Fprintln(w, "no races yet: create one with 'pitwall race new'")
					}
					for _, s := range l {
						fmt.Fprintf(w, "%-20s %-6s %-16s %3d turn(s) resolved  created %s\n", s.ID, s.Ruleset, s.Track, s.Turns, host.Clock(s.Created))
					}
				})
			})
		},
	}
}

func (a *app) raceShowCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "show RACE",
		Short: "Show a race: turn, standings, who must still send orders",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			err := a.withRace(args[0], func(_ context.Context, _ *host.Host, p *race.Played) error { return a.showPlayed(p) })
			if errors.Is(err, host.ErrForming) {
				return a.withHost(func(ctx context.Context, h *host.Host) error {
					r, err := h.Store.Load(ctx, args[0])
					if err != nil {
						return err
					}
					return a.showForming(r)
				})
			}
			return err
		},
	}
}

// showForming prints a race that is still taking entrants.
func (a *app) showForming(r *race.Race) error {
	v := map[string]any{"id": r.ID, "ruleset": r.Ruleset, "track": r.Config.Track, "forming": true, "entrants": r.Entrants, "commitment": r.Commitment()}
	return a.out(v, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %s on %s, taking entrants (%d so far)\n", r.ID, r.Ruleset, r.Config.Track, len(r.Entrants))
		fmt.Fprintf(w, "dice commitment: sha256 %s\n", r.Commitment())
		for _, e := range r.Entrants {
			fmt.Fprintf(w, "  %-14s %s", e.Player, strings.Join(e.Racers, ", "))
			switch {
			case e.Options["package"] != "":
				fmt.Fprintf(w, " (%s; +%s)", e.Options["package"], e.Options["extras"])
			case e.Options["upgrade"] != "":
				fmt.Fprintf(w, " (%s)", e.Options["upgrade"])
			case e.Options["perk"] != "":
				fmt.Fprintf(w, " (%s, %s)", e.Options["perk"], e.Options["debuff"])
			}
			fmt.Fprintln(w)
		}
		join := map[string]string{
			"ludi":   "--player NAME --auriga NAME --package P --extras a,b",
			"nascar": "--player NAME --racer CAR --upgrade U",
			"rtd":    "--player NAME --racer NAME [--perk P --debuff D]",
		}[r.Ruleset]
		if join == "" {
			join = "--player NAME --racer NAME"
		}
		fmt.Fprintf(w, "add entrants with 'pitwall race join %s %s'\n", r.ID, join)
	})
}

// showPlayed prints a race's current state. Orders already in stay secret: it says who, not what.
func (a *app) showPlayed(p *race.Played) error {
	s := p.State
	prompts := p.Ruleset.Prompts(s)
	var waiting, in []string
	for _, pr := range prompts {
		if _, ok := p.Pending[pr.Seat]; ok {
			in = append(in, pr.Name)
		} else {
			waiting = append(waiting, pr.Name)
		}
	}
	v := map[string]any{
		"id": p.Race.ID, "ruleset": p.Race.Ruleset, "track": p.Race.Config.Track, "turn": s.Turn(), "over": s.Over(),
		"turns_resolved": len(p.Turns), "commitment": p.Race.Commitment(), "standings": p.Ruleset.Standings(s),
		"prompts": prompts, "orders_in": in, "waiting_for": waiting, "schedule": p.Race.Schedule,
	}
	if s.Over() {
		v["seed"] = p.Race.Seed.Hex()
	}
	return a.out(v, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %s on %s, ", p.Race.ID, p.Race.Ruleset, p.Race.Config.Track)
		if s.Over() {
			fmt.Fprintf(w, "over after %d turns; seed %s\n", len(p.Turns), p.Race.Seed.Hex())
		} else {
			fmt.Fprintf(w, "turn %d to play (%d resolved)\n", s.Turn(), len(p.Turns))
		}
		fmt.Fprintf(w, "dice commitment: sha256 %s\n\n", p.Race.Commitment())
		for _, st := range p.Ruleset.Standings(s) {
			fmt.Fprintf(w, "%3d  seat %-2d %-22s %-14s %-8s %s\n", st.Place, st.Seat, st.Name, st.Player, st.Status, st.Detail)
		}
		if !s.Over() {
			fmt.Fprintf(w, "\norders in: %d of %d", len(in), len(prompts))
			if len(waiting) > 0 {
				fmt.Fprintf(w, "; waiting for %s", strings.Join(waiting, ", "))
			}
			fmt.Fprintln(w)
			if d := p.Race.Schedule.Deadline; d != nil {
				fmt.Fprintf(w, "deadline: %s\n", host.Clock(*d))
			}
		}
	})
}

// seatOf reads a seat as a number or a racer's name.
func seatOf(p *race.Played, arg string) (int, error) {
	if n, err := strconv.Atoi(arg); err == nil {
		return n, nil
	}
	var names []string
	for _, s := range p.State.Seats() {
		if strings.EqualFold(s.Name, arg) {
			return s.Seat, nil
		}
		names = append(names, fmt.Sprintf("%d %s", s.Seat, s.Name))
	}
	return 0, usagef("no racer %q in race %s; seats: %s", arg, p.Race.ID, strings.Join(names, ", "))
}

func (a *app) ordersCmd() *cobra.Command {
	c := &cobra.Command{Use: "orders", Short: "Take racers' orders"}
	c.AddCommand(&cobra.Command{
		Use:   "submit RACE SEAT ORDERS",
		Short: "Submit a racer's orders for the coming turn (checked at once)",
		Long: `Checks a racer's orders against the race now and stores them; a later
submission for the same turn replaces an earlier one. SEAT is the seat number
or the racer's name. A refused order changes nothing and says why.

  pitwall orders submit ludi-1a2b3c 4 'Accelerate'
  pitwall orders submit ludi-1a2b3c 'Marcus Aurelius' 'Left 1, Whip else Brake, bonus move'
  pitwall orders submit kart-cup Mario 'gentle left skid 2 shift up shell nearest'
  pitwall orders submit party-night Luigi 'roll via c1'`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withRace(args[0], func(ctx context.Context, h *host.Host, p *race.Played) error {
				seat, err := seatOf(p, args[1])
				if err != nil {
					return err
				}
				o, err := h.Submit(ctx, args[0], seat, args[2])
				if err != nil {
					return err
				}
				return a.out(map[string]any{"ok": true, "race": args[0], "seat": seat, "turn": p.State.Turn(), "orders": o.String()}, func(w io.Writer) {
					fmt.Fprintf(w, "accepted for turn %d, seat %d: %s\n", p.State.Turn(), seat, o)
				})
			})
		},
	})
	return c
}

func parseTime(flag, v string) (*time.Time, error) {
	if v == "" {
		return nil, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02 15:04"} {
		if t, err := time.Parse(layout, v); err == nil {
			return &t, nil
		}
	}
	return nil, usagef("--%s is a time such as 2026-11-24T18:00:00Z or 2026-11-24 18:00 (UTC); got %q", flag, v)
}

func (a *app) turnCmd() *cobra.Command {
	c := &cobra.Command{Use: "turn", Short: "Set up and resolve turns"}
	c.AddCommand(&cobra.Command{
		Use:   "resolve RACE",
		Short: "Resolve the current turn; racers without orders take the default",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				p, t, err := h.Resolve(ctx, args[0])
				if err != nil {
					return err
				}
				return a.out(map[string]any{"ok": true, "race": args[0], "turn": t.Turn, "hash": t.Hash, "orders": t.Orders,
					"defaulted": t.Defaulted, "events": t.Events, "rolls": t.Rolls, "standings": p.Ruleset.Standings(p.State), "over": p.State.Over()}, func(w io.Writer) {
					fmt.Fprintf(w, "turn %d resolved (%d roll(s); state %.12s)\n", t.Turn, len(t.Rolls), t.Hash)
					for _, e := range t.Events {
						fmt.Fprintf(w, "  %s\n", e.Text)
					}
					if p.State.Over() {
						fmt.Fprintf(w, "the race is over; the seed is revealed: %s\n", p.Race.Seed.Hex())
					}
				})
			})
		},
	})
	var orders int
	var deadline, wopen, wclose string
	var settings []string
	set := &cobra.Command{
		Use:   "set RACE [--orders N] [--deadline T] [--window-open T --window-close T] [--setting KEY=VALUE]...",
		Short: "Set the coming turn: orders per racer, deadline, bonus window, a game's own settings",
		Long: `Sets the coming turn: how many orders each racer gives (ludi), the deadline,
the bonus window, and any setting of the game itself, such as party's
minigame results:

  pitwall turn set cup --deadline 2026-11-25T18:00:00Z
  pitwall turn set party-night --setting minigame=Mario=10,Luigi=5`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			d, err := parseTime("deadline", deadline)
			if err != nil {
				return err
			}
			wo, err := parseTime("window-open", wopen)
			if err != nil {
				return err
			}
			wc, err := parseTime("window-close", wclose)
			if err != nil {
				return err
			}
			if !cmd.Flags().Changed("orders") && d == nil && wo == nil && wc == nil && len(settings) == 0 {
				return usagef("turn set needs --orders, --deadline, a bonus window or --setting KEY=VALUE")
			}
			for _, kv := range settings {
				if k, _, ok := strings.Cut(kv, "="); !ok || strings.TrimSpace(k) == "" {
					return usagef("--setting is KEY=VALUE, such as minigame=Mario=10,Luigi=5; got %q", kv)
				}
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				for _, kv := range settings {
					k, v, _ := strings.Cut(kv, "=")
					if err := h.Set(ctx, args[0], strings.TrimSpace(k), v); err != nil {
						return err
					}
				}
				if cmd.Flags().Changed("orders") {
					if err := h.Set(ctx, args[0], "orders", strconv.Itoa(orders)); err != nil {
						return err
					}
				}
				if d != nil || wo != nil || wc != nil {
					r, err := h.Store.Load(ctx, args[0])
					if err != nil {
						return err
					}
					sch := r.Schedule
					if d != nil {
						sch.Deadline = d
					}
					if wo != nil || wc != nil {
						sch.WindowOpen, sch.WindowClose = wo, wc
					}
					if err := h.Schedule(ctx, args[0], sch); err != nil {
						return err
					}
				}
				r, err := h.Store.Load(ctx, args[0])
				if err != nil {
					return err
				}
				p, err := h.Load(ctx, args[0])
				if err != nil {
					return err
				}
				v := map[string]any{"ok": true, "race": args[0], "turn": p.State.Turn(), "schedule": r.Schedule}
				if pr := p.Ruleset.Prompts(p.State); len(pr) > 0 {
					v["orders"] = pr[0].Orders
				}
				return a.out(v, func(w io.Writer) {
					fmt.Fprintf(w, "turn %d of %s:", p.State.Turn(), args[0])
					if n, ok := v["orders"]; ok {
						fmt.Fprintf(w, " %d order(s) each;", n)
					}
					if d := r.Schedule.Deadline; d != nil {
						fmt.Fprintf(w, " deadline %s;", host.Clock(*d))
					}
					if r.Schedule.WindowOpen != nil && r.Schedule.WindowClose != nil {
						fmt.Fprintf(w, " bonus window %s to %s;", host.Clock(*r.Schedule.WindowOpen), host.Clock(*r.Schedule.WindowClose))
					}
					fmt.Fprintln(w)
				})
			})
		},
	}
	set.Flags().IntVar(&orders, "orders", 1, "orders each racer gives this turn (ludi: 1-3)")
	set.Flags().StringVar(&deadline, "deadline", "", "the turn's deadline (UTC)")
	set.Flags().StringVar(&wopen, "window-open", "", "the bonus window opens (UTC)")
	set.Flags().StringVar(&wclose, "window-close", "", "the bonus window closes (UTC)")
	set.Flags().StringArrayVar(&settings, "setting", nil, "a setting of the game, KEY=VALUE (party: minigame=NAME=COINS,...)")
	c.AddCommand(set)
	return c
}

func (a *app) replayCmd() *cobra.Command {
	var turn int
	c := &cobra.Command{
		Use:   "replay RACE --turn N",
		Short: "Replay a race from its seed and log, and show it after turn N",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withRace(args[0], func(_ context.Context, _ *host.Host, p *race.Played) error {
				turn = turnFlag(cmd, turn, p)
				s, err := p.StateAt(turn)
				if err != nil {
					return usagef("%v", err)
				}
				v := map[string]any{"race": args[0], "turn": turn, "standings": p.Ruleset.Standings(s), "state": s}
				var t *race.Turn
				if turn > 0 {
					t = &p.Turns[turn-1]
					v["hash"], v["events"], v["orders"], v["rolls"] = t.Hash, t.Events, t.Orders, t.Rolls
				}
				return a.out(v, func(w io.Writer) {
					fmt.Fprintf(w, "%s after turn %d of %d\n", args[0], turn, len(p.Turns))
					if t != nil {
						fmt.Fprintf(w, "state %s\n", t.Hash)
						for _, e := range t.Events {
							fmt.Fprintf(w, "  %s\n", e.Text)
						}
					}
					for _, st := range p.Ruleset.Standings(s) {
						fmt.Fprintf(w, "%3d  %-22s %-8s %s\n", st.Place, st.Name, st.Status, st.Detail)
					}
				})
			})
		},
	}
	c.Flags().IntVar(&turn, "turn", 0, "the turn to show the race after (0 = the grid; default: the last)")
	return c
}

func (a *app) verifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify RACE",
		Short: "Replay a race and check every roll and state against the record",
		Long: `Replays the race from its seed and log and checks every roll and every
state hash against those recorded when each turn was resolved, and the seed
against the commitment published at the start. Exits 1 if anything differs.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				rep, err := h.Verify(ctx, args[0])
				if err != nil {
					return err
				}
				err = a.out(rep, func(w io.Writer) {
					if rep.OK {
						fmt.Fprintf(w, "%s verified: %d turns and %d rolls replay exactly; the seed matches commitment %s\n", rep.Race, rep.Turns, rep.Rolls, rep.Commitment)
						if rep.Seed != "" {
							fmt.Fprintf(w, "seed: %s\n", rep.Seed)
						}
						return
					}
					fmt.Fprintf(w, "%s FAILED verification:\n", rep.Race)
					for _, p := range rep.Problems {
						fmt.Fprintf(w, "  %s\n", p)
					}
				})
				if err == nil && !rep.OK {
					return fmt.Errorf("race %s failed verification: %s", rep.Race, rep.Problems[0])
				}
				return err
			})
		},
	}
}
