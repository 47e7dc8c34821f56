package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"pitwall/host"
	"pitwall/internal/words"
	"pitwall/race"
	"pitwall/store"
	"pitwall/web"
)

// The host's controls and the races by invite, over a running service's
// API (docs/api.md): these are kept beside a race by the service (its
// links, webhooks, pause, bots, repeat), so a database here has nothing of
// them, and each command works only with --server.

// onlyServed marks c as served and as one that refuses to run without
// --server (who: whose token it takes); its help says so.
func (a *app) onlyServed(c *cobra.Command, who string) *cobra.Command {
	run := c.RunE
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if a.cl == nil {
			return usagef("%s needs a running service: give --server URL (or $PITWALL_SERVER) and %s token with --token (or $PITWALL_TOKEN); a database here keeps nothing of it", strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" "), who)
		}
		return run(cmd, args)
	}
	c.Long = strings.TrimRight(c.Long, "\n") + "\n\nIt works only with --server (a running 'pitwall serve'), with " + who + " token (--token or $PITWALL_TOKEN)."
	return viaServer(c)
}

// keyFlag adds --key to a keyed write.
func keyFlag(c *cobra.Command, key *string) {
	c.Flags().StringVar(key, "key", "", "a key of your own for this request: a repeat with the same key stores nothing more (default: one made for this run)")
}

// answer is the service's answer as it came, decoded for the text
// form: --json prints it as one document, with what is added to it.
type answer map[string]any

// post sends a write to race id's path and reads its answer.
func (a *app) post(ctx context.Context, id string, path []string, body any) (answer, error) {
	var doc answer
	b, _, err := a.cl.do(ctx, http.MethodPost, apiPath(append([]string{"races", id}, path...)...), nil, body)
	if err != nil {
		return nil, err
	}
	return doc, a.cl.decode(b, apiPath(append([]string{"races", id}, path...)...), &doc)
}

// fetch reads race id's path into v.
func (a *app) fetch(ctx context.Context, id, path string, v any) (json.RawMessage, error) {
	p := apiPath("races", id, path)
	b, _, err := a.cl.do(ctx, http.MethodGet, p, nil, nil)
	if err != nil {
		return nil, err
	}
	return b, a.cl.decode(b, p, v)
}

// str and num read an answer's field for the text form.
func (d answer) str(k string) string { s, _ := d[k].(string); return s }

func (d answer) num(k string) int {
	n, _ := d[k].(json.Number)
	i, _ := strconv.Atoi(n.String())
	return i
}

// onOff reads a switch given as a word.
func onOff(arg string) (bool, error) {
	switch strings.ToLower(arg) {
	case "on":
		return true, nil
	case "off":
		return false, nil
	}
	return false, usagef("say on (the service's bot plays) or off (a person plays again); not %q", arg)
}

// seatOf is the seat (from 1) SEAT names in race id, a number or a
// racer's name, and that racer's name, as the service shows the race.
func (a *app) seatOf(ctx context.Context, id, arg string) (int, string, servedRace, error) {
	sr, _, err := a.fetchRace(ctx, id)
	if err != nil {
		return 0, "", sr, err
	}
	if sr.Started != nil && !*sr.Started {
		return 0, "", sr, usagef("race %s has not started: its seats are numbered at its start ('pitwall race start %s')", id, id)
	}
	seats := sr.seats()
	seat, err := seatAmong(id, seats, arg)
	if err != nil {
		return 0, "", sr, err
	}
	return seat + 1, race.NameOf(seats, seat), sr, nil
}

const shownOnce = "shown this once: the service keeps only its hash, so keep it now"

func (a *app) raceStartCmd() *cobra.Command {
	var key string
	c := &cobra.Command{
		Use:   "start RACE [--key K]",
		Short: "Start a race by invite: no more joins, the grid drawn (with --server)",
		Long: `Starts a race made with 'race new --invite': the racers who have joined are
set up (the game may draw the grid), the race takes no more joins, and each
racer's link opens the seat its racer holds from now on. Turn 1 opens. A
start sent again changes nothing.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			doc, err := a.post(cmd.Context(), id, []string{"start"}, map[string]any{"key": a.cl.writeKey(key)})
			if err != nil {
				return err
			}
			return a.out(doc, func(w io.Writer) {
				seats, _ := doc["seats"].([]any)
				if doc["now"] == true {
					fmt.Fprintf(w, "started %s with %s; turn 1 is open:\n", id, words.Count(len(seats), "racer"))
				} else {
					fmt.Fprintf(w, "%s had started already; nothing changed. Its seats:\n", id)
				}
				for _, s := range seats {
					m, _ := s.(map[string]any) // an answer of another shape prints empty, never a panic
					s := answer(m)
					fmt.Fprintf(w, "  seat %d %s (%s)\n", s.num("seat"), s.str("name"), s.str("player"))
				}
			})
		},
	}
	keyFlag(c, &key)
	return a.onlyServed(c, "the host's")
}

// remoteJoin enters one racer in a race by invite, with the invite's
// token, and prints the racer's own link.
func (a *app) remoteJoin(cmd *cobra.Command, id, name, player string, racers []string, choices map[string]string, key string) error {
	switch {
	case name != "" && len(racers) > 0:
		return usagef("give the racer's name once: --name or --racer, not both")
	case len(racers) > 1:
		return usagef("over --server a join enters one racer (%s): join again for another, with the same --player and the invite's token", strings.Join(racers, ", "))
	case name == "" && len(racers) == 1:
		name = racers[0]
	case name == "":
		name = player
	}
	if name == "" {
		return usagef("--name is required with --server: the racer's name (and --player, whose racer it is, if not the same)")
	}
	body := map[string]any{"name": name, "key": a.cl.writeKey(key)}
	if player != "" {
		body["player"] = player
	}
	for k, v := range choices {
		body[k] = v
	}
	doc, err := a.post(cmd.Context(), id, []string{"join"}, body)
	if err != nil {
		return err
	}
	link, _ := doc["link"].(map[string]any)
	token, _ := link["token"].(string)
	if token != "" {
		doc["note"] = "the link's token is " + shownOnce
	}
	return a.out(doc, func(w io.Writer) {
		who := doc.str("name")
		if p := doc.str("player"); p != who {
			who += " (" + p + ")"
		}
		if token == "" {
			fmt.Fprintf(w, "%s joined %s before, with key %q, and its link was given then; a lost link is replaced by the host ('pitwall race link %s --role seat --racer %s --replace')\n",
				who, id, a.cl.writeKey(key), id, quoteArg(doc.str("name")))
			return
		}
		fmt.Fprintf(w, "%s joins %s; %s now\n", who, id, words.Count(doc.num("entrants"), "entrant"))
		fmt.Fprintf(w, "%s's link, %s (give it to %s alone; it opens the seat once the host starts the race):\n", doc.str("name"), shownOnce, doc.str("name"))
		fmt.Fprintf(w, "  %s\n", token)
	})
}

// remoteWithdraw takes the entrant whose racer's token was given out of a
// race by invite before its start.
func (a *app) remoteWithdraw(cmd *cobra.Command, id, key string) error {
	doc, err := a.post(cmd.Context(), id, []string{"withdraw"}, map[string]any{"key": a.cl.writeKey(key)})
	if err != nil {
		return err
	}
	return a.out(doc, func(w io.Writer) {
		var racers []string
		for _, r := range asList(doc["racers"]) {
			racers = append(racers, fmt.Sprint(r))
		}
		if doc["withdrawn"] == true {
			fmt.Fprintf(w, "%s leaves %s with %s", doc.str("player"), id, strings.Join(racers, " and "))
		} else {
			fmt.Fprintf(w, "%s had left %s already", strings.Join(racers, " and "), id)
		}
		fmt.Fprintf(w, "; %s revoked\n", words.Count(len(asList(doc["revoked"])), "link"))
	})
}

func asList(v any) []any { l, _ := v.([]any); return l }

func (a *app) raceRemoveCmd() *cobra.Command {
	var key string
	c := &cobra.Command{
		Use:   "remove RACE SEAT [--key K]",
		Short: "Take a racer out of a race that has started (with --server)",
		Long: `Takes the racer in SEAT (its number from 1, or its racer's name) out of
the race: the game's default for missing orders plays the seat from now on,
the race waits for it no more (a race that resolves when every order is in
may resolve at once), and the seat's links are revoked. A new racer's link
('race link RACE --role seat --seat N --replace') or the bot ('race bot')
gives the seat back.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, id := cmd.Context(), args[0]
			seat, name, before, err := a.seatOf(ctx, id, args[1])
			if err != nil {
				return err
			}
			doc, err := a.post(ctx, id, []string{"remove"}, map[string]any{"seat": seat, "key": a.cl.writeKey(key)})
			if err != nil {
				return err
			}
			after, _, err := a.fetchRace(ctx, id)
			if err != nil {
				return err
			}
			doc["turn"] = after.Turn
			return a.out(doc, func(w io.Writer) {
				fmt.Fprintf(w, "removed %s (seat %d) from %s: the game's default plays the seat from now on; %s revoked\n",
					name, seat, id, words.Count(len(asList(doc["revoked"])), "link"))
				if after.TurnsResolved > before.TurnsResolved {
					fmt.Fprintf(w, "the race waited for no one else: turn %d is open now\n", after.Turn)
				}
			})
		},
	}
	keyFlag(c, &key)
	return a.onlyServed(c, "the host's")
}

func (a *app) raceBotCmd() *cobra.Command {
	var key, botName string
	var hostSettings bool
	c := &cobra.Command{
		Use:   "bot RACE SEAT on|off | bot RACE --host on|off",
		Short: "Hand a seat, or the host's settings, to the service's bot, or take it back (with --server)",
		Long: `With on, a bot plays SEAT (its number from 1, or its racer's name) from now
on: the service sends its orders as each turn opens. --name picks the bot:
cruise (sends nothing: the game's default for missing orders plays, and no
turn waits for the seat), heuristic (the default: the game's sensible racer)
or search (tries its candidate orders forward over dice of its own). With
off, the seat waits for its link's holder again. --host hands the settings a
game asks the host for as it goes (party's minigame results) to the bot
instead.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if botName != "" && hostSettings {
				return usagef("--name picks the bot of a seat; the host's settings have one bot, so give --host or --name, not both")
			}
			if hostSettings {
				if len(args) != 2 {
					return usagef("race bot RACE --host takes on or off, and no seat; got %d arguments", len(args))
				}
				return nil
			}
			if len(args) != 3 {
				return usagef("race bot takes RACE, SEAT and on or off (or RACE --host on|off); got %d arguments", len(args))
			}
			if on, err := onOff(args[2]); err == nil && !on && botName != "" {
				return usagef("--name picks the bot that plays a seat; with off no bot does")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, id := cmd.Context(), args[0]
			on, err := onOff(args[len(args)-1])
			if err != nil {
				return err
			}
			body := map[string]any{"bot": on, "key": a.cl.writeKey(key)}
			name := ""
			if hostSettings {
				body["host"] = true
			} else {
				seat, n, _, err := a.seatOf(ctx, id, args[1])
				if err != nil {
					return err
				}
				body["seat"], name = seat, n
				if botName != "" {
					body["name"] = botName
				}
			}
			doc, err := a.post(ctx, id, []string{"bot"}, body)
			if err != nil {
				return err
			}
			return a.out(doc, func(w io.Writer) {
				switch {
				case hostSettings && on:
					fmt.Fprintf(w, "the service's bot makes the host's settings of %s from now on\n", id)
				case hostSettings:
					fmt.Fprintf(w, "the host makes the host's settings of %s again\n", id)
				case on:
					fmt.Fprintf(w, "the service's %s bot plays %s (seat %d) of %s from now on\n", doc.str("name"), name, doc.num("seat"), id)
				default:
					fmt.Fprintf(w, "%s (seat %d) of %s waits for its link's holder again\n", name, doc.num("seat"), id)
				}
			})
		},
	}
	c.Flags().BoolVar(&hostSettings, "host", false, "the host's settings, not a seat")
	c.Flags().StringVar(&botName, "name", "", "which bot plays the seat: cruise, heuristic or search (default heuristic)")
	keyFlag(c, &key)
	return a.onlyServed(c, "the host's")
}

func (a *app) racePauseCmd(pause bool) *cobra.Command {
	var key string
	use, short, long := "pause", "Stop a race's clock: no turn resolves by itself (with --server)",
		`Pauses the race: no turn resolves by itself, at its deadline or early, until
'pitwall race resume'. Orders and ready marks are still taken, and the host may
still resolve a turn.`
	if !pause {
		use, short, long = "resume", "Start a paused race's clock again (with --server)",
			`Resumes a paused race, and moves the open turn's deadline on by as long as
the race was paused (once, however often the resume is sent).`
	}
	c := &cobra.Command{
		Use:   use + " RACE [--key K]",
		Short: short,
		Long:  long,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			doc, err := a.post(cmd.Context(), id, []string{use}, map[string]any{"key": a.cl.writeKey(key)})
			if err != nil {
				return err
			}
			return a.out(doc, func(w io.Writer) {
				if pause {
					fmt.Fprintf(w, "%s is paused: no turn resolves by itself until 'pitwall race resume %s'\n", id, id)
					return
				}
				fmt.Fprintf(w, "%s runs again", id)
				var sch race.Schedule
				if b, err := json.Marshal(doc["schedule"]); err == nil && json.Unmarshal(b, &sch) == nil && sch.Deadline != nil {
					fmt.Fprintf(w, "; turn %d's deadline moved on to %s", doc.num("turn"), host.Stamp(*sch.Deadline))
				}
				fmt.Fprintln(w)
			})
		},
	}
	keyFlag(c, &key)
	return a.onlyServed(c, "the host's")
}

func (a *app) raceRepeatCmd() *cobra.Command {
	var key, every, at, zone string
	var stop bool
	c := &cobra.Command{
		Use:   "repeat RACE --every 48h [--at 20:00 [--zone Europe/Berlin]] | repeat RACE --stop",
		Short: "Give each new turn a deadline by itself (with --server)",
		Long: `Each new turn without a deadline gets one, --every after it opens (10s to
2160h); with --at, at that time of day in --zone (default UTC), --every whole
days after the day it opened. The turn open now gets one at once if it has
none. --stop ends the repeat; a deadline set stays.

  pitwall race repeat cup --every 48h --at 20:00 --zone Europe/Berlin`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, id := cmd.Context(), args[0]
			body := map[string]any{"key": a.cl.writeKey(key)}
			switch {
			case stop && (every != "" || at != "" || zone != ""):
				return usagef("--stop takes no --every, --at or --zone")
			case stop:
				body["stop"] = true
			case every == "":
				return usagef("give --every (such as 48h), or --stop to end the repeat")
			case zone != "" && at == "":
				return usagef("--zone goes with --at: the zone of that time of day")
			default:
				body["every"] = every
				if at != "" {
					body["at"] = at
				}
				if zone != "" {
					body["zone"] = zone
				}
			}
			doc, err := a.post(ctx, id, []string{"repeat"}, body)
			if err != nil {
				return err
			}
			sr, _, err := a.fetchRace(ctx, id)
			if err != nil {
				return err
			}
			return a.out(doc, func(w io.Writer) {
				if stop {
					fmt.Fprintf(w, "%s repeats no more; a deadline set stays\n", id)
					return
				}
				fmt.Fprintf(w, "each new turn of %s without a deadline gets one %s after it opens", id, every)
				if at != "" {
					z := zone
					if z == "" {
						z = "UTC"
					}
					fmt.Fprintf(w, ", at %s %s", at, z)
				}
				fmt.Fprintln(w)
				if d := sr.Schedule.Deadline; d != nil && !sr.Over {
					fmt.Fprintf(w, "turn %d's deadline: %s\n", sr.Turn, host.Stamp(*d))
				}
			})
		},
	}
	c.Flags().StringVar(&every, "every", "", "how long after a turn opens its deadline is, such as 48h (with --at: whole days)")
	c.Flags().StringVar(&at, "at", "", "the deadline's time of day, HH:MM")
	c.Flags().StringVar(&zone, "zone", "", "the zone of --at, such as Europe/Berlin (default UTC)")
	c.Flags().BoolVar(&stop, "stop", false, "end the repeat")
	keyFlag(c, &key)
	return a.onlyServed(c, "the host's")
}

func (a *app) turnExtendCmd() *cobra.Command {
	var turn int
	var key string
	c := &cobra.Command{
		Use:   "extend RACE DURATION [--turn N] [--key K]",
		Short: "Move the open turn's deadline later, such as by 24h (with --server)",
		Long: `Moves the deadline of the turn open now (or turn N) later by DURATION, such
as 24h or 90m. The turn must have a deadline: 'turn set --deadline' gives one.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := req(cmd, turn, key)
			if err != nil {
				return err
			}
			if d, err := time.ParseDuration(args[1]); err != nil || d <= 0 {
				return usagef("DURATION is a length of time such as 24h or 90m; not %q", args[1])
			}
			return a.remoteSchedule(cmd, args[0], q, race.Schedule{}, args[1])
		},
	}
	writeFlags(c, &turn, &key, "the extension is")
	return a.onlyServed(c, "the host's")
}

// link is a link as the service lists it.
type link struct {
	Link    string     `json:"link"`
	Role    string     `json:"role"`
	Seat    int        `json:"seat"`
	Racer   string     `json:"racer"`
	Created time.Time  `json:"created"`
	Revoked *time.Time `json:"revoked"`
	Token   string     `json:"token"`
}

// opens says what a link opens: its seat or racer, if any.
func (l link) opens() string {
	switch {
	case l.Seat > 0:
		return fmt.Sprintf("seat %d", l.Seat)
	case l.Racer != "":
		return "racer " + l.Racer
	}
	return "-"
}

// stampOrNone is a table's cell for a time that may not have come (a
// revocation, a removal): "-" for none.
func stampOrNone(t *time.Time) string {
	if t == nil {
		return "-"
	}
	return host.Stamp(*t)
}

func (a *app) raceLinksCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "links RACE",
		Short: "List a race's secret links, revoked ones too (with --server)",
		Long: `Lists the race's links: each named by the first 12 hex digits of its
token's hash (which tell nothing of the token), its role, the seat (or, before
a race by invite starts, the racer) it opens, and when it was made and
revoked. The tokens themselves are never shown again.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var doc struct {
				Links []link `json:"links"`
			}
			raw, err := a.fetch(cmd.Context(), args[0], "links", &doc)
			if err != nil {
				return err
			}
			return a.out(raw, func(w io.Writer) {
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "LINK\tROLE\tOPENS\tCREATED\tREVOKED")
				for _, l := range doc.Links {
					fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.Link, l.Role, l.opens(), host.Stamp(l.Created), stampOrNone(l.Revoked))
				}
				tw.Flush()
			})
		},
	}
	return a.onlyServed(c, "the host's")
}

func (a *app) raceLinkCmd() *cobra.Command {
	var role, seatArg, racer string
	var replace bool
	c := &cobra.Command{
		Use:   "link RACE --role seat|spectator|host|invite [--seat SEAT | --racer NAME] [--replace]",
		Short: "Make a new secret link of a race; its token is shown once (with --server)",
		Long: `Makes a new link and prints its token, this once. A seat's link (--seat, its
number from 1 or its racer's name) with --replace gives the seat to a new
racer: the seat's other links are revoked, and a removed seat is a person's
again. Before a race by invite starts, a racer's link names its racer
(--racer). A spectator's link opens a private race to watch; a host's link is
a second key to the race; an invite takes more joins.

A link's request takes no key: if the connection fails, look at 'pitwall race
links' before you make another.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx, id := cmd.Context(), args[0]
			body := map[string]any{"role": role}
			switch role {
			case store.RoleSeat:
				if (seatArg == "") == (racer == "") {
					return usagef("a seat's link names its seat (--seat N or the racer's name) or, before a race by invite starts, its racer (--racer NAME): one of them")
				}
				if racer != "" {
					body["racer"] = racer
					break
				}
				seat, _, _, err := a.seatOf(ctx, id, seatArg)
				if err != nil {
					return err
				}
				body["seat"] = seat
			case store.RoleSpectator, store.RoleHost, store.RoleInvite:
				if seatArg != "" || racer != "" || replace {
					return usagef("a %s's link names no seat or racer and replaces nothing (revoke a link with 'pitwall race revoke')", role)
				}
			case "":
				return usagef("--role is required: seat, spectator, host or invite")
			default:
				return usagef("--role is seat, spectator, host or invite; not %q", role)
			}
			if replace {
				body["replace"] = true
			}
			doc, err := a.post(ctx, id, []string{"links"}, body)
			if err != nil {
				return err
			}
			var l link
			if b, err := json.Marshal(doc["link"]); err == nil {
				_ = json.Unmarshal(b, &l)
			}
			doc["note"] = "the link's token is " + shownOnce
			return a.out(doc, func(w io.Writer) {
				what := "the " + l.Role
				if o := l.opens(); o != "-" {
					what = o
				}
				fmt.Fprintf(w, "new link %s of %s for %s; its token, %s:\n  %s\n", l.Link, id, what, shownOnce, l.Token)
				if rv := asList(doc["revoked"]); len(rv) > 0 {
					var ids []string
					for _, x := range rv {
						ids = append(ids, fmt.Sprint(x))
					}
					fmt.Fprintf(w, "revoked the seat's other links: %s\n", strings.Join(ids, ", "))
				}
				if doc["removed"] == false {
					fmt.Fprintf(w, "%s was removed: it is a person's again\n", l.opens())
				}
			})
		},
	}
	c.Flags().StringVar(&role, "role", "", "seat, spectator, host or invite")
	c.Flags().StringVar(&seatArg, "seat", "", "a seat's link: the seat, its number from 1 or its racer's name")
	c.Flags().StringVar(&racer, "racer", "", "a seat's link before a race by invite starts: the racer's name")
	c.Flags().BoolVar(&replace, "replace", false, "a seat's link: revoke the seat's other links (a new racer takes the seat)")
	return a.onlyServed(c, "the host's")
}

func (a *app) raceRevokeCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "revoke RACE LINK",
		Short: "Revoke a race's link: it opens nothing from now on (with --server)",
		Long: `Revokes the link LINK names (its id as 'pitwall race links' lists it): its
token opens nothing from now on. Revoking it again changes nothing. The
race's last host link is not revoked: make another first.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			doc, err := a.post(cmd.Context(), id, []string{"links", args[1], "revoke"}, nil)
			if err != nil {
				return err
			}
			var l link
			if b, err := json.Marshal(doc["link"]); err == nil {
				_ = json.Unmarshal(b, &l)
			}
			return a.out(doc, func(w io.Writer) {
				what := l.Role
				if o := l.opens(); o != "-" {
					what += ", " + o
				}
				fmt.Fprintf(w, "revoked link %s (%s) of %s: it opens nothing from now on\n", l.Link, what, id)
			})
		},
	}
	return a.onlyServed(c, "the host's")
}

func (a *app) raceHooksCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "hooks RACE",
		Short: "List a race's webhooks and their latest deliveries (with --server)",
		Long: `Lists the race's webhooks (never their secrets) and its 50 latest
deliveries: the hook, what it told of (a turn, or a deadline's warning), when
it is or was due, its attempts, its outcome (pending, delivered, failed,
skipped or removed) and why the last attempt failed.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var doc struct {
				Hooks      []web.HookShown  `json:"hooks"`
				Deliveries []store.Delivery `json:"deliveries"`
			}
			raw, err := a.fetch(cmd.Context(), args[0], "hooks", &doc)
			if err != nil {
				return err
			}
			return a.out(raw, func(w io.Writer) {
				if len(doc.Hooks) == 0 {
					fmt.Fprintf(w, "%s has no webhooks: add one with 'pitwall race hook %s --url URL'\n", args[0], args[0])
					return
				}
				tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "HOOK\tFORMAT\tEVENTS\tWARNS\tURL\tCREATED\tREMOVED")
				for _, h := range doc.Hooks {
					fmt.Fprintf(tw, "%d\t%s\t%s\t%s before\t%s\t%s\t%s\n", h.ID, h.Format, strings.Join(h.Events, ","), h.WarnBefore, h.URL, host.Stamp(h.Created), stampOrNone(h.Removed))
				}
				tw.Flush()
				if len(doc.Deliveries) == 0 {
					fmt.Fprintln(w, "no deliveries yet")
					return
				}
				fmt.Fprintln(w, "latest deliveries:")
				tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
				fmt.Fprintln(tw, "HOOK\tKIND\tTURN\tDUE\tATTEMPTS\tOUTCOME\tERROR")
				for _, d := range doc.Deliveries {
					outcome := d.Outcome
					if outcome == "" {
						outcome = "pending"
					}
					fmt.Fprintf(tw, "%d\t%s\t%d\t%s\t%d\t%s\t%s\n", d.Hook, d.Kind, d.Turn, host.Stamp(d.Due), d.Attempts, outcome, d.Error)
				}
				tw.Flush()
			})
		},
	}
	return a.onlyServed(c, "the host's")
}

func (a *app) raceHookCmd() *cobra.Command {
	var url, format, warn, key string
	var events []string
	c := &cobra.Command{
		Use:   "hook RACE --url URL [--format json|discord] [--events E,...] [--warn-before 12h] [--key K]",
		Short: "Have the service tell another program of a race: a forum's bot, a Discord channel (with --server)",
		Long: `Adds a webhook: the service POSTs to URL when a turn is resolved
(turn_resolved), before each deadline (deadline_warning, --warn-before it,
from 1m to 168h) and when the race ends (race_finished); --events picks
some. --format discord sends a Discord message (a Discord webhook's URL takes
it as it is). The hook's secret is printed this once: the receiver checks each
delivery's X-Pitwall-Signature with it (docs/api.md, "Webhooks").

  pitwall race hook cup --url https://discord.com/api/webhooks/... --format discord`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			if url == "" {
				return usagef("--url is required: where the service sends, an http:// or https:// URL")
			}
			body := map[string]any{"url": url, "key": a.cl.writeKey(key)}
			if format != "" {
				body["format"] = format
			}
			if cmd.Flags().Changed("events") {
				body["events"] = events
			}
			if warn != "" {
				body["warn_before"] = warn
			}
			doc, err := a.post(cmd.Context(), id, []string{"hooks"}, body)
			if err != nil {
				return err
			}
			var h web.HookShown
			if b, err := json.Marshal(doc["hook"]); err == nil {
				_ = json.Unmarshal(b, &h)
			}
			doc["note"] = "the secret is shown this once: the service keeps it to sign, and never shows it again"
			return a.out(doc, func(w io.Writer) {
				fmt.Fprintf(w, "webhook %d of %s: %s to %s, for %s; warns %s before each deadline\n", h.ID, id, h.Format, h.URL, strings.Join(h.Events, ", "), h.WarnBefore)
				fmt.Fprintf(w, "its secret, shown this once (the receiver checks each delivery's X-Pitwall-Signature with it):\n  %s\n", doc.str("secret"))
			})
		},
	}
	c.Flags().StringVar(&url, "url", "", "where the service sends: an http:// or https:// URL of a public address")
	c.Flags().StringVar(&format, "format", "", "json or discord (default json)")
	c.Flags().StringSliceVar(&events, "events", nil, "some of turn_resolved, deadline_warning, race_finished (default all three)")
	c.Flags().StringVar(&warn, "warn-before", "", "how long before each deadline the warning goes out, 1m to 168h (default 12h)")
	keyFlag(c, &key)
	return a.onlyServed(c, "the host's")
}

func (a *app) raceUnhookCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "unhook RACE HOOK",
		Short: "Remove a race's webhook: nothing more is sent to it (with --server)",
		Long: `Removes the webhook HOOK names (its number, as 'pitwall race hooks' lists
it): nothing more is sent to it, and what was waiting is dropped. Removing it
again changes nothing.`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := args[0]
			if n, err := strconv.ParseInt(args[1], 10, 64); err != nil || n < 1 {
				return usagef("HOOK is a webhook's number from 1, as 'pitwall race hooks %s' lists it; not %q", id, args[1])
			}
			doc, err := a.post(cmd.Context(), id, []string{"hooks", args[1], "remove"}, nil)
			if err != nil {
				return err
			}
			return a.out(doc, func(w io.Writer) {
				fmt.Fprintf(w, "webhook %s of %s removed: nothing more is sent to it\n", args[1], id)
			})
		},
	}
	return a.onlyServed(c, "the host's")
}
