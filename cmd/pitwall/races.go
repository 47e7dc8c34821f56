package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"pitwall/dice"
	"pitwall/host"
	"pitwall/internal/safefile"
	"pitwall/internal/words"
	"pitwall/internal/yamlfile"
	"pitwall/race"
	"pitwall/store"
	"pitwall/store/postgres"
	"pitwall/store/sqlite"
)

// open opens the race database and a host on it.
func (a *app) open() (*host.Host, func(), error) {
	st, err := openStore(a.db)
	if err != nil {
		return nil, nil, err
	}
	return host.New(st), func() { st.Close() }, nil
}

// openStore opens the race database db names: a SQLite file, or a
// PostgreSQL database by its URL.
func openStore(db string) (store.Store, error) {
	if isPostgresURL(db) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		return postgres.Open(ctx, db) // its error names the URL without its password
	}
	st, err := sqlite.Open(db)
	if err != nil {
		return nil, fmt.Errorf("opening the race database %s: %w", db, err)
	}
	return st, nil
}

// dbName is --db as a message may show it: a URL without its password.
func (a *app) dbName() string { return dbLabel(a.db) }

// dbLabel is db as a message may show it: a URL without its password.
func dbLabel(db string) string {
	if isPostgresURL(db) {
		return postgres.Redact(db)
	}
	return db
}

// isPostgresURL says whether --db names a PostgreSQL database rather than
// a SQLite file.
func isPostgresURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
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

// withTurn loads a race after the turn --turn names (default: the last
// played) and calls fn with it and the turn.
func (a *app) withTurn(cmd *cobra.Command, id string, turn int, fn func(ctx context.Context, h *host.Host, p *race.Played, turn int) error) error {
	return a.withHost(func(ctx context.Context, h *host.Host) error {
		p, err := h.Load(ctx, id)
		if err != nil {
			return err
		}
		if !cmd.Flags().Changed("turn") {
			return fn(ctx, h, p, p.Resolved())
		}
		if turn < 0 || turn > p.Resolved() {
			return usagef("turn %d has not been played; race %s has played 0 to %d", turn, id, p.Resolved())
		}
		if turn != p.Resolved() {
			if p, err = h.LoadAt(ctx, id, turn); err != nil {
				return err
			}
		}
		return fn(ctx, h, p, turn)
	})
}

// withView is withTurn with the race as the viewer --as names may see it.
func (a *app) withView(cmd *cobra.Command, id string, turn int, as string, fn func(ctx context.Context, h *host.Host, w *race.View, turn int) error) error {
	return a.withTurn(cmd, id, turn, func(ctx context.Context, h *host.Host, p *race.Played, turn int) error {
		v, err := viewerOf(p, as)
		if err != nil {
			return err
		}
		return fn(ctx, h, p.View(v), turn)
	})
}

// viewerOf reads --as: host, spectator, or a seat as people name it.
func viewerOf(p *race.Played, as string) (race.Viewer, error) {
	switch strings.ToLower(strings.TrimSpace(as)) {
	case "host":
		return race.Host, nil
	case "spectator":
		return race.Spectator, nil
	}
	seat, err := seatOf(p, as)
	if err != nil {
		return race.Viewer{}, usagef("--as is host, spectator or a seat (a racer's name or number); %v", err)
	}
	return race.SeatViewer(seat), nil
}

// asFlag adds --as to a command that shows a race.
func asFlag(c *cobra.Command, as *string) {
	c.Flags().StringVar(as, "as", "host", "show the race as this viewer may see it: host, spectator, or a seat (racer's name or number from 1)")
}

// req is a write's turn and key from --turn and --key.
func req(cmd *cobra.Command, turn int, key string) (host.Req, error) {
	if cmd.Flags().Changed("turn") && turn < 1 {
		return host.Req{}, usagef("--turn is a turn number from 1; got %d", turn)
	}
	return host.Req{Turn: turn, Key: key}, nil
}

// writeFlags adds --turn and --key to a command that writes to a race.
func writeFlags(c *cobra.Command, turn *int, key *string, what string) {
	c.Flags().IntVar(turn, "turn", 0, "the turn "+what+" is for; refused once that turn has closed (default: the turn open now)")
	c.Flags().StringVar(key, "key", "", "a key of your own for this request: a repeat with the same key stores nothing more and prints what the first stored")
}

func (a *app) raceCmd() *cobra.Command {
	c := &cobra.Command{Use: "race", Short: "Create, enter and show races"}
	c.AddCommand(a.raceNewCmd(), a.raceJoinCmd(false), a.raceJoinCmd(true), a.raceWithdrawCmd(), a.raceShowCmd(), a.raceListCmd(), a.raceExportCmd())
	c.AddCommand(a.raceMoveCmd()) // move.go
	// The service's own (hostcmds.go): with --server only.
	c.AddCommand(a.raceStartCmd(), a.raceRemoveCmd(), a.raceBotCmd(), a.racePauseCmd(true), a.racePauseCmd(false), a.raceRepeatCmd(),
		a.raceLinksCmd(), a.raceLinkCmd(), a.raceRevokeCmd(), a.raceHooksCmd(), a.raceHookCmd(), a.raceUnhookCmd())
	return c
}

// entrantsFile is the YAML a host lists the entrants in.
type entrantsFile struct {
	Entrants []map[string]any `yaml:"entrants"`
}

// readEntrants reads entrants: player, aurigae (or racers) and the game's
// choices, such as package and extras for ludi.
func readEntrants(path string) ([]race.Entrant, error) {
	b, err := yamlfile.ReadFile(path)
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
			case "racer", "racers":
				e.Racers = append(e.Racers, listOf(v)...)
			default:
				if slices.Contains(racerWords(true), k) {
					e.Racers = append(e.Racers, listOf(v)...)
					continue
				}
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
	var rules, track, id, entrants, resolveWhen string
	var private, invite bool
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
in the race as options, so it replays the same wherever it goes.

With --server the service creates the race, with every entrant of
--entrants (it takes no joins), picks its id and seed, and answers with the
race's secret link tokens: the host's, one per seat and, for a --private
race, a spectator's. They are printed this once; the service keeps only
their hashes. --resolve-when says when a turn resolves without the host:
deadline (the default), ready (also once every seat is ready) or all_in
(also once every seat's orders are in). With --invite the race takes its
racers by invite: the answer has an invite's token too, --entrants may list
few or none, whoever holds the invite joins ('race join RACE --name NAME'
with it), and the host starts the race ('race start RACE').`,
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
			for _, name := range fileFields() {
				path, _ := cmd.Flags().GetString(name)
				if path == "" {
					continue
				}
				if err := readFileOption(rules, name, path, &cfg); err != nil {
					return err
				}
			}
			var es []race.Entrant
			if entrants != "" {
				var err error
				if es, err = readEntrants(entrants); err != nil {
					return err
				}
			}
			if a.cl != nil {
				return a.remoteNew(cmd, rules, cfg, es, private, invite, resolveWhen)
			}
			if private || resolveWhen != "" {
				return usagef("--private and --resolve-when are the service's: give them with --server")
			}
			if invite {
				return usagef("--invite is the service's: give it with --server (here, a race made without --entrants takes joins until its first turn: 'pitwall race join')")
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
					printCreated(w, r.ID, r.Ruleset, r.Config.Track, len(r.Entrants), r.Commitment())
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
	for _, name := range fileFields() {
		f.String(name, "", fieldHelp(name, func(g *race.Game) []race.Field { return g.Options }))
	}
	f.StringArrayVar(&options, "option", nil, "a race option KEY=VALUE ('pitwall rules RULESET' lists them)")
	f.BoolVar(&private, "private", false, "with --server: watched only through a spectator link (default: public)")
	f.StringVar(&resolveWhen, "resolve-when", "", "with --server: deadline, ready or all_in (default deadline)")
	f.BoolVar(&invite, "invite", false, "with --server: take the racers by invite until the host starts the race")
	return viaServer(c)
}

// printCreated is the first lines about a race just created.
func printCreated(w io.Writer, id, ruleset, track string, entrants int, commitment string) {
	fmt.Fprintf(w, "created race %s (%s on %s) with %s\n", id, ruleset, track, words.Count(entrants, "entrant"))
	fmt.Fprintf(w, "dice commitment (publish it): sha256 %s\n", commitment)
}

func (a *app) raceJoinCmd(fix bool) *cobra.Command {
	var player, key, name string
	var racers, opts []string
	use, short, long := "join", "Enter a race that has not started", `Enters a participant in a race that has not started. Joins are each one
append to the race's log: many at once all land.
`
	if fix {
		use, short, long = "fix", "Change an entrant's racers and choices before the start", `Replaces the racers and choices of the entrant --player names, before the
race starts; give everything, as for a join.
`
	}
	c := &cobra.Command{
		Use:   use + " RACE --player NAME [--racer NAME]... [game choices]",
		Short: short,
		Long: long + `
The choices are each game's ('pitwall rules RULESET' lists them):

` + joinExamples(),
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.cl != nil {
				choices := map[string]string{}
				for _, f := range entrantFields() {
					if cmd.Flags().Changed(f) {
						choices[f], _ = cmd.Flags().GetString(f)
					}
				}
				for _, o := range opts {
					k, v, ok := strings.Cut(o, "=")
					if !ok {
						return usagef("--option is KEY=VALUE; got %q", o)
					}
					choices[k] = v
				}
				rs := append([]string(nil), racers...)
				for _, w := range racerWords(false) {
					v, _ := cmd.Flags().GetStringArray(w)
					rs = append(rs, v...)
				}
				return a.remoteJoin(cmd, args[0], name, player, rs, choices, key)
			}
			if name != "" {
				return usagef("--name is the racer's name in a join over --server; here, name the racers with --racer")
			}
			if player == "" {
				return usagef("--player is required")
			}
			e := race.Entrant{Player: player, Racers: append([]string(nil), racers...), Options: map[string]string{}}
			for _, w := range racerWords(false) {
				v, _ := cmd.Flags().GetStringArray(w)
				e.Racers = append(e.Racers, v...)
			}
			if len(e.Racers) == 0 {
				e.Racers = []string{player}
			}
			for _, f := range entrantFields() {
				if cmd.Flags().Changed(f) {
					e.Options[f], _ = cmd.Flags().GetString(f)
				}
			}
			for _, o := range opts {
				k, v, ok := strings.Cut(o, "=")
				if !ok {
					return usagef("--option is KEY=VALUE; got %q", o)
				}
				e.Options[k] = v
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				do, verb := h.Join, "joins"
				if fix {
					do, verb = h.Fix, "now races"
				}
				es, err := do(ctx, args[0], e, host.Req{Key: key})
				if err != nil {
					return err
				}
				return a.out(map[string]any{"ok": true, "id": args[0], "entrants": len(es), "player": player, "racers": e.Racers}, func(w io.Writer) {
					fmt.Fprintf(w, "%s %s %s with %s; %s now\n", player, verb, args[0], strings.Join(e.Racers, " and "), words.Count(len(es), "entrant"))
				})
			})
		},
	}
	f := c.Flags()
	f.StringVar(&player, "player", "", "the participant's name")
	f.StringArrayVar(&racers, "racer", nil, "a racer's name (default: the player's name)")
	for _, w := range racerWords(false) {
		f.StringArray(w, nil, "the same as --racer")
	}
	for _, name := range entrantFields() {
		f.String(name, "", entrantHelp(name))
	}
	f.StringArrayVar(&opts, "option", nil, "another choice KEY=VALUE")
	f.StringVar(&key, "key", "", "a key of your own for this request: a repeat with the same key stores nothing more")
	if fix {
		return c
	}
	f.StringVar(&name, "name", "", "with --server: the racer's name (one racer a join; default the one --racer, or --player)")
	c.Use = "join RACE --player NAME [--racer NAME]... [game choices] | join RACE --name NAME [--player NAME] [game choices] --server URL --token INVITE"
	c.Long += `

With --server, a racer joins a race the service serves by invite, with the
invite's token (--token): one racer a join, named by --name (--player, whose
racer it is, defaults to the name), with the game's choices as above. The
service answers with the racer's own link; its token is printed this once,
and opens the racer's seat once the host starts the race ('race start').`
	return viaServer(c)
}

// games are the registered games' descriptors, in id order.
func games() []*race.Game {
	var out []*race.Game
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		out = append(out, rs.Game())
	}
	return out
}

// entrantFields are the names of every game's entrant choices: each is a
// flag of join and fix.
func entrantFields() []string {
	var out []string
	for _, g := range games() {
		for _, f := range g.Entrant {
			if !slices.Contains(out, f.Name) {
				out = append(out, f.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// fileFields are the names of every game's race options read from a file:
// each is a flag of race new.
func fileFields() []string {
	var out []string
	for _, g := range games() {
		for _, f := range g.Options {
			if f.Type == race.File && !slices.Contains(out, f.Name) {
				out = append(out, f.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// readFileOption reads the file a race option names into cfg: the options it
// gives (an --option given as well wins) and the track it is, if it is one.
func readFileOption(ruleset, name, path string, cfg *race.Config) error {
	rs, err := race.Lookup(ruleset)
	if err != nil {
		return usagef("%v", err)
	}
	f, ok := race.FieldNamed(rs.Game().Options, name)
	if !ok || f.Type != race.File || f.Read == nil {
		var for_ []string
		for _, g := range games() {
			if x, ok := race.FieldNamed(g.Options, name); ok && x.Type == race.File {
				for_ = append(for_, g.ID)
			}
		}
		return usagef("--%s is for %s races; this one is %s", name, strings.Join(for_, " and "), ruleset)
	}
	src, err := yamlfile.ReadFile(path)
	if err != nil {
		return usagef("reading the %s: %v", name, err)
	}
	opts, track, err := f.Read(path, src)
	if err != nil {
		return usagef("%v", err)
	}
	if cfg.Options == nil {
		cfg.Options = map[string]string{}
	}
	for k, v := range opts {
		if _, set := cfg.Options[k]; !set {
			cfg.Options[k] = v
		}
	}
	if cfg.Track == "" {
		cfg.Track = track
	}
	return nil
}

// entrantHelp is a choice's help: each game's that has it.
func entrantHelp(name string) string {
	return fieldHelp(name, func(g *race.Game) []race.Field { return g.Entrant })
}

// fieldHelp is a field's help: each game's that has it.
func fieldHelp(name string, fields func(*race.Game) []race.Field) string {
	var parts []string
	for _, g := range games() {
		if f, ok := race.FieldNamed(fields(g), name); ok {
			parts = append(parts, fmt.Sprintf("%s: %s (%s)", g.ID, f.Help, f.Usage()))
		}
	}
	return strings.Join(parts, "; ")
}

// racerWords are the games' own words for a racer (--auriga, beside
// --racer), and with plural their words for racers (an entrants file's
// aurigae: [...]).
func racerWords(plural bool) []string {
	var out []string
	for _, g := range games() {
		words := []string{g.Words.Racer}
		if plural {
			words = append(words, g.Words.Racers)
		}
		for _, w := range words {
			if w != "" && w != "racer" && w != "racers" && w != "player" && w != "players" && !slices.Contains(out, w) {
				out = append(out, w)
			}
		}
	}
	sort.Strings(out)
	return out
}

// joinUsage is how an entrant of g joins: "--player NAME --racer NAME --upgrade none|turbo|...".
func joinUsage(g *race.Game) string {
	racer := "--racer NAME"
	if g.Racers.Max > 1 {
		racer = fmt.Sprintf("--racer NAME (%d to %d)", g.Racers.Min, g.Racers.Max)
	}
	parts := []string{"--player NAME", racer}
	var together []string
	for _, f := range g.Entrant {
		if len(f.With) > 0 {
			together = append(together, fmt.Sprintf("--%s %s", f.Name, strings.ToUpper(f.Name[:1])))
			continue
		}
		parts = append(parts, fmt.Sprintf("--%s %s", f.Name, f.Usage()))
	}
	if len(together) > 0 {
		parts = append(parts, "["+strings.Join(together, " ")+"]")
	}
	return strings.Join(parts, " ")
}

// joinExamples are a join line per game, from its demo's first entrant.
func joinExamples() string {
	var b strings.Builder
	for _, g := range games() {
		if len(g.Demo.Entrants) == 0 {
			continue
		}
		e := g.Demo.Entrants[0]
		for _, x := range g.Demo.Entrants { // the example that shows the most choices
			if len(x.Options) > len(e.Options) {
				e = x
			}
		}
		line := fmt.Sprintf("  %-9s pitwall race join RACE --player %s", g.ID+":", e.Player)
		for _, r := range e.Racers {
			line += " --racer " + quoteArg(r)
		}
		for _, f := range g.Entrant {
			if v, ok := e.Options[f.Name]; ok {
				line += fmt.Sprintf(" --%s %s", f.Name, quoteArg(v))
			}
		}
		b.WriteString(line + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

// quoteArg quotes a word for a shell when it needs it.
func quoteArg(s string) string {
	if strings.ContainsAny(s, " '\"") {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return s
}

func (a *app) raceExportCmd() *cobra.Command {
	var out string
	c := &cobra.Command{
		Use:   "export RACE --out FILE",
		Short: "Write a race as anyone can verify it without this database",
		Long: `Writes the race as one JSON document (docs/export.md): its definition, its
log with the hash chain, the record of every resolved turn, and its seed once
the race is over. The orders of the turn still open are secret: the log stops
before the first of them. Anyone can check the file with
'pitwall verify --file FILE'.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if out == "" {
				return usagef("--out FILE is required: the file to write the export to")
			}
			if a.cl != nil {
				return a.remoteExport(cmd.Context(), args[0], out)
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				x, err := h.Export(ctx, args[0])
				if err != nil {
					return err
				}
				return a.saveExport(args[0], out, x)
			})
		},
	}
	c.Flags().StringVarP(&out, "out", "o", "", "the file to write")
	return viaServer(c)
}

// saveExport writes export x of race id to the file out and says so.
func (a *app) saveExport(id, out string, x host.Export) error {
	b, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		return err
	}
	if err := writeOut("--out "+out, out, append(b, '\n')); err != nil {
		return err
	}
	return a.out(map[string]any{"ok": true, "race": id, "file": out, "entries": len(x.Log), "turns": len(x.Turns), "chain_head": x.ChainHead, "over": x.Over}, func(w io.Writer) {
		fmt.Fprintf(w, "wrote %s: %d entries (head %.12s) and %d turn records", out, len(x.Log), x.ChainHead, len(x.Turns))
		if x.Over {
			fmt.Fprint(w, ", and the seed")
		}
		fmt.Fprintln(w)
	})
}

func (a *app) raceWithdrawCmd() *cobra.Command {
	var key string
	c := &cobra.Command{
		Use:   "withdraw RACE PLAYER | withdraw RACE --server URL --token RACER",
		Short: "Remove an entrant before the start",
		Long: `Removes the entrant PLAYER from a race that has not started.

With --server, a racer leaves a race by invite before its start, with its own
link's token (--token): the token says who, so PLAYER is left out. The
entrant leaves with all its racers, and their links are revoked. After the
start, the host removes a racer ('race remove').`,
		Args: cobra.RangeArgs(1, 2),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.cl != nil {
				if len(args) != 1 {
					return usagef("with --server the racer's token (--token) says who withdraws: give only RACE, not %q", args[1])
				}
				return a.remoteWithdraw(cmd, args[0], key)
			}
			if len(args) != 2 {
				return usagef("race withdraw takes RACE and PLAYER, the entrant who leaves")
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				es, err := h.Withdraw(ctx, args[0], args[1], host.Req{Key: key})
				if err != nil {
					return err
				}
				return a.out(map[string]any{"ok": true, "id": args[0], "entrants": len(es)}, func(w io.Writer) {
					fmt.Fprintf(w, "%s leaves %s; %s now\n", args[1], args[0], words.Count(len(es), "entrant"))
				})
			})
		},
	}
	c.Flags().StringVar(&key, "key", "", "a key of your own for this request: a repeat with the same key stores nothing more")
	return viaServer(c)
}

func (a *app) raceListCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "list",
		Short: "List the races in the database",
		Long: `Lists the races in the database. With --server, the public races the
service serves (a private race is not listed).`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if a.cl != nil {
				return a.remoteList(cmd.Context())
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				l, err := h.Store.List(ctx, store.Page{})
				if err != nil {
					return err
				}
				return a.showList(map[string]any{"races": l}, l, "no races yet: create one with 'pitwall race new'")
			})
		},
	}
	return viaServer(c)
}

// showList prints a list of races: doc with --json, else a table of l, or
// empty when there is none.
func (a *app) showList(doc any, l []store.Summary, empty string) error {
	return a.out(doc, func(w io.Writer) {
		if len(l) == 0 {
			fmt.Fprintln(w, empty)
			return
		}
		// Columns as wide as their longest cell: ids and tracks are any length.
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "RACE\tGAME\tTRACK\tTURNS RESOLVED\tCREATED")
		for _, s := range l {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", s.ID, s.Ruleset, s.Track, s.Turns, host.Stamp(s.Created))
		}
		tw.Flush()
	})
}

func (a *app) raceShowCmd() *cobra.Command {
	var as string
	c := &cobra.Command{
		Use:   "show RACE [--as VIEWER]",
		Short: "Show a race: turn, standings, who must still send orders",
		Long: `Shows a race as it stands. --as shows it as one viewer may see it: the
host (the default) sees everything; a spectator sees what a forum reader may
(no hidden thing, no pending order, the seed only once the race is over); a
seat (a racer's name or number from 1) sees the spectator's view and its own
pending orders. With --server the token (--token) decides the viewer, and
the service adds what the host has handed it: paused, repeat, bots.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.cl != nil {
				return a.remoteShow(cmd, args[0], as)
			}
			err := a.withRace(args[0], func(_ context.Context, _ *host.Host, p *race.Played) error {
				v, err := viewerOf(p, as)
				if err != nil {
					return err
				}
				return a.showView(p.View(v))
			})
			if errors.Is(err, host.ErrForming) {
				return a.withHost(func(ctx context.Context, h *host.Host) error {
					p, err := h.Forming(ctx, args[0])
					if err != nil {
						return err
					}
					return a.showForming(p)
				})
			}
			return err
		},
	}
	asFlag(c, &as)
	return viaServer(c)
}

// showForming prints a race that is still taking entrants.
// printEntrants lists a forming race's entrants, one a line, with their
// choices in the game's order.
func printEntrants(w io.Writer, es []race.Entrant, g *race.Game) {
	for _, e := range es {
		fmt.Fprintf(w, "  %-14s %s", e.Player, strings.Join(e.Racers, ", "))
		var chose []string
		for _, f := range g.Entrant {
			if v := e.Options[f.Name]; v != "" {
				chose = append(chose, f.Name+" "+v)
			}
		}
		if len(chose) > 0 {
			fmt.Fprintf(w, " (%s)", strings.Join(chose, "; "))
		}
		fmt.Fprintln(w)
	}
}

func (a *app) showForming(p *race.Played) error {
	r, es, g := p.Race, p.Entrants, p.Ruleset.Game()
	if es == nil {
		es = []race.Entrant{}
	}
	v := map[string]any{"id": r.ID, "ruleset": r.Ruleset, "track": r.Config.Track, "forming": true, "entrants": es,
		"commitment": r.Commitment(), "chain_head": p.Head, "entries": p.Seq}
	return a.out(v, func(w io.Writer) {
		fmt.Fprintf(w, "%s: %s on %s, taking entrants (%d so far)\n", r.ID, r.Ruleset, r.Config.Track, len(es))
		fmt.Fprintf(w, "dice commitment: sha256 %s\n", r.Commitment())
		printEntrants(w, es, g)
		fmt.Fprintf(w, "add entrants with 'pitwall race join %s %s'\n", r.ID, joinUsage(g))
	})
}

// showView prints a race's current state as its viewer may see it
// (host.Show). Orders already in stay secret, even from the host: it says
// who, not what; a racer's own view adds its own.
func (a *app) showView(p *race.View) error {
	v := host.Show(p)
	return a.out(v, func(w io.Writer) { printShown(w, v) })
}

// printShown prints a race as host.Shown gives it, for people: from the
// race here or as the service answered (remote.go), the same lines.
func printShown(w io.Writer, v host.Shown) {
	fmt.Fprintf(w, "%s: %s on %s, ", v.ID, v.Ruleset, v.Track)
	if v.Over {
		fmt.Fprintf(w, "over after %d turns; seed %s\n", v.TurnsResolved, v.Seed)
	} else {
		fmt.Fprintf(w, "turn %d to play (%d resolved)\n", v.Turn, v.TurnsResolved)
	}
	fmt.Fprintf(w, "dice commitment: sha256 %s\n", v.Commitment)
	fmt.Fprintf(w, "log head after entry %d: %s\n\n", v.Entries, v.ChainHead)
	for _, st := range v.Standings { // seats from 1
		fmt.Fprintf(w, "%3d  seat %-2d %-22s %-14s %-8s %s\n", st.Place, st.Seat, st.Name, st.Player, st.Status, st.Detail)
	}
	if !v.Over {
		// Of the seats the turn waits for: the service waits for no removed
		// racer and no cruise bot, and leaves them out of WaitingFor.
		fmt.Fprintf(w, "\norders in: %d of %d", len(v.OrdersIn), len(v.OrdersIn)+len(v.WaitingFor))
		if len(v.WaitingFor) > 0 {
			fmt.Fprintf(w, "; waiting for %s", strings.Join(v.WaitingFor, ", "))
		}
		fmt.Fprintln(w)
		if v.MyOrders != nil { // a racer's own view
			if *v.MyOrders != "" {
				fmt.Fprintf(w, "your orders: %s\n", *v.MyOrders)
			} else {
				fmt.Fprintln(w, "your orders: none yet")
			}
		}
		if d := v.Schedule.Deadline; d != nil {
			fmt.Fprintf(w, "deadline: %s\n", host.Stamp(*d))
		}
	}
	for _, x := range v.Voided {
		fmt.Fprintf(w, "void: entry %d (%s %q) is refused by the rules as this pitwall plays them (version %d): %s\n", x.Seq, x.Kind, x.Text, v.Rules, x.Reason)
	}
}

// seatOf reads a seat as people name it: the racer's name, in any case, or
// the number pictures and posts show, counted from 1. It gives the seat
// from 0, as the rules number them.
func seatOf(p *race.Played, arg string) (int, error) {
	return seatAmong(p.Race.ID, p.State.Seats(), arg)
}

// seatAmong is seatOf among the seats of race id.
func seatAmong(id string, seats []race.Seat, arg string) (int, error) {
	var names []string
	for _, s := range seats {
		if strings.EqualFold(s.Name, arg) {
			return s.Seat, nil
		}
		names = append(names, fmt.Sprintf("%d %s", s.Seat+1, s.Name))
	}
	if n, err := strconv.Atoi(arg); err == nil {
		for _, s := range seats {
			if s.Seat+1 == n {
				return s.Seat, nil
			}
		}
		return 0, usagef("race %s has no seat %d; seats are numbered from 1, as in posts: %s", id, n, strings.Join(names, ", "))
	}
	return 0, usagef("no racer %q in race %s; seats: %s", arg, id, strings.Join(names, ", "))
}

func (a *app) ordersCmd() *cobra.Command {
	c := &cobra.Command{Use: "orders", Short: "Take racers' orders"}
	var turn int
	var key string
	submit := &cobra.Command{
		Use:   "submit RACE SEAT ORDERS [--turn N] [--key K]",
		Short: "Submit a racer's orders for the coming turn (checked at once)",
		Long: `Checks a racer's orders against the race now and stores them; a later
submission for the same turn replaces an earlier one. SEAT is the racer's
name (in any case) or the seat number that pictures and posts show, from 1.
A refused order changes nothing and says why. The reply names the racer and
the turn the orders were stored for.

With --server the orders go to the service with the seat's own token
(--token): the token decides the seat, and SEAT must name that seat.

With --turn N the orders are for turn N only: once turn N has been resolved
they are refused, never moved to the next turn. With --key K a repeat of the
same request (a retry after a lost reply) stores nothing more and prints what
the first stored.

  pitwall orders submit ludi-1a2b3c 4 'Accelerate'
  pitwall orders submit ludi-1a2b3c 'Marcus Aurelius' 'Left 1, Whip else Brake, bonus move' --turn 7
  pitwall orders submit kart-cup Mario 'gentle left skid 2 shift up shell nearest'
  pitwall orders submit party-night Luigi 'roll via c1'`,
		Args: cobra.ExactArgs(3),
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := req(cmd, turn, key)
			if err != nil {
				return err
			}
			if a.cl != nil {
				return a.remoteSubmit(cmd, args[0], args[1], args[2], q)
			}
			return a.withRace(args[0], func(ctx context.Context, h *host.Host, p *race.Played) error {
				seat, err := seatOf(p, args[1])
				if err != nil {
					return err
				}
				ack, err := h.Submit(ctx, args[0], seat, args[2], q)
				if err != nil {
					return err
				}
				return a.showAck(ack, key)
			})
		},
	}
	writeFlags(submit, &turn, &key, "the orders are")
	c.AddCommand(viaServer(submit), a.ordersOptionsCmd())
	return c
}

// showAck prints the answer to an order: key is --key, entry 0 when the
// service, which does not say, took it.
func (a *app) showAck(ack host.Ack, key string) error {
	v := map[string]any{"ok": true, "race": ack.Race, "turn": ack.Turn, "seat": ack.Seat + 1, "racer": ack.Racer, "orders": ack.Orders}
	if ack.Entry > 0 {
		v["entry"] = ack.Entry
	}
	if ack.Repeat {
		v["repeat"] = true
	}
	return a.out(v, func(w io.Writer) {
		switch {
		case ack.Repeat && ack.Entry > 0:
			fmt.Fprintf(w, "already stored with key %q (entry %d): ", key, ack.Entry)
		case ack.Repeat && key != "":
			fmt.Fprintf(w, "already stored with key %q: ", key)
		}
		fmt.Fprintf(w, "accepted for turn %d from %s (seat %d): %s\n", ack.Turn, ack.Racer, ack.Seat+1, ack.Orders)
	})
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
	var rturn int
	var rkey string
	resolve := &cobra.Command{
		Use:   "resolve RACE [--turn N] [--key K]",
		Short: "Resolve the current turn; racers without orders take the default",
		Long: `Resolves the turn open now (or turn N with --turn): racers without orders
take the game's default. A turn is resolved once: when turn N has been
resolved already, by this command or any other at the same moment, it
resolves nothing, says so and exits 0 ("resolved": false in --json).

With --server the service resolves it, for the host's token (--token); the
turn's story comes from its replay, and "defaulted" is not told.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := req(cmd, rturn, rkey)
			if err != nil {
				return err
			}
			if a.cl != nil {
				return a.remoteResolve(cmd, args[0], q)
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				res, err := h.Resolve(ctx, args[0], q)
				if err != nil {
					return err
				}
				p := res.Race
				if !res.Resolved {
					return a.showNotResolved(args[0], res.Turn, p.Turn(), p.State.Over())
				}
				t := res.Played
				orders := map[int]string{}
				for seat, o := range t.Orders {
					orders[seat+1] = o
				}
				var defaulted []int
				for _, seat := range t.Defaulted {
					defaulted = append(defaulted, seat+1)
				}
				v := map[string]any{"ok": true, "resolved": true, "race": args[0], "turn": t.Turn, "hash": t.Hash, "orders": orders,
					"defaulted": defaulted, "events": t.Events, "rolls": t.Rolls, "standings": host.Standings(p.Ruleset.Standings(p.State)), "over": p.State.Over(),
					"chain_head": p.Head}
				seed := ""
				if p.State.Over() {
					seed = p.Race.Seed.Hex()
				}
				return a.showResolved(v, t.Turn, len(t.Rolls), t.Hash, t.Events, seed)
			})
		},
	}
	writeFlags(resolve, &rturn, &rkey, "the resolve is")
	c.AddCommand(viaServer(resolve))
	var orders, turn int
	var deadline, wopen, wclose, key string
	var settings []string
	set := &cobra.Command{
		Use:   "set RACE [--orders N] [--deadline T] [--window-open T --window-close T] [--setting KEY=VALUE]... [--turn N] [--key K]",
		Short: "Set the coming turn: orders per racer, deadline, bonus window, a game's own settings",
		Long: `Sets the turn open now (or turn N with --turn): how many orders each racer
gives (ludi), the deadline, the bonus window, and any setting of the game
itself, such as party's minigame results. The deadline and window belong to
that turn only; a time already past is refused. Times are UTC unless they
carry a zone.

  pitwall turn set cup --deadline 2026-11-25T18:00:00Z
  pitwall turn set party-night --setting minigame=Mario=10,Luigi=5

With --server the service sets the deadline and bonus window, for the
host's token (--token); it does not serve --orders or --setting.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			q, err := req(cmd, turn, key)
			if err != nil {
				return err
			}
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
			if a.cl != nil {
				if cmd.Flags().Changed("orders") || len(settings) > 0 {
					return usagef("with --server, turn set takes only --deadline and the bonus window (POST /schedule): the service does not serve --orders or --setting; set them on its database with --db")
				}
				return a.remoteSchedule(cmd, args[0], q, race.Schedule{Deadline: d, WindowOpen: wo, WindowClose: wc}, "")
			}
			seen := map[string]bool{}
			longest := len("schedule")
			for _, kv := range settings {
				k, _, ok := strings.Cut(kv, "=")
				k = strings.TrimSpace(k)
				if !ok || k == "" {
					return usagef("--setting is KEY=VALUE, such as minigame=Mario=10,Luigi=5; got %q", kv)
				}
				if seen[k] {
					return usagef("--setting %s is given twice; give each setting once", k)
				}
				seen[k] = true
				longest = max(longest, len("setting/"+k))
			}
			if q.Key != "" && len(q.Key)+1+longest > 128 {
				return usagef("--key is at most %d characters here (each write of this command adds a part of its own to it); got %d", 128-1-longest, len(q.Key))
			}
			// One command may make several writes: each gets a key of its own from --key.
			part := func(name string) host.Req {
				r := q
				if r.Key != "" {
					r.Key += "/" + name
				}
				return r
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				// Every part is checked before the first is written: a
				// command refused halfway would leave half its changes.
				if err := checkTurnSet(ctx, h, args[0], settings, cmd.Flags().Changed("orders"), orders, race.Schedule{Deadline: d, WindowOpen: wo, WindowClose: wc}); err != nil {
					return err
				}
				for _, kv := range settings {
					k, v, _ := strings.Cut(kv, "=")
					n, err := h.Set(ctx, args[0], strings.TrimSpace(k), v, part("setting/"+strings.TrimSpace(k)))
					if err != nil {
						return err
					}
					q.Turn = n // the writes that follow are for the same turn
				}
				if cmd.Flags().Changed("orders") {
					n, err := h.Set(ctx, args[0], "orders", strconv.Itoa(orders), part("orders"))
					if err != nil {
						return err
					}
					q.Turn = n
				}
				var sch race.Schedule
				if d != nil || wo != nil || wc != nil {
					n, s, err := h.Schedule(ctx, args[0], race.Schedule{Deadline: d, WindowOpen: wo, WindowClose: wc}, part("schedule"))
					if err != nil {
						return err
					}
					q.Turn, sch = n, s
				}
				v := map[string]any{"ok": true, "race": args[0], "turn": q.Turn}
				p, err := h.Load(ctx, args[0])
				switch {
				case errors.Is(err, host.ErrForming): // a schedule for turn 1, set while racers join
				case err != nil:
					return err
				case q.Turn == p.Turn():
					sch = p.Schedule
					if pr := p.Ruleset.Prompts(p.State); len(pr) > 0 {
						v["orders"] = pr[0].Orders
					}
				}
				return a.showTurnSet(v, args[0], q.Turn, sch)
			})
		},
	}
	set.Flags().IntVar(&orders, "orders", 1, "orders each racer gives this turn (ludi: 1-3)")
	set.Flags().StringVar(&deadline, "deadline", "", "the turn's deadline (UTC unless the time names a zone)")
	set.Flags().StringVar(&wopen, "window-open", "", "the bonus window opens (UTC unless the time names a zone)")
	set.Flags().StringVar(&wclose, "window-close", "", "the bonus window closes (UTC unless the time names a zone)")
	set.Flags().StringArrayVar(&settings, "setting", nil, "a setting of the game, KEY=VALUE (party: minigame=NAME=COINS,...)")
	writeFlags(set, &turn, &key, "the settings are")
	c.AddCommand(viaServer(set), a.turnExtendCmd())
	return c
}

// showNotResolved says a resolve found its turn resolved already.
func (a *app) showNotResolved(id string, turn, open int, over bool) error {
	return a.out(map[string]any{"ok": true, "resolved": false, "race": id, "turn": turn, "open": open, "over": over}, func(w io.Writer) {
		fmt.Fprintf(w, "turn %d of %s was resolved already: nothing to do (turn %d is open)\n", turn, id, open)
	})
}

// showResolved prints a turn just resolved: v with --json; seed is the
// race's once it is over.
func (a *app) showResolved(v map[string]any, turn, rolls int, hash string, events []race.Event, seed string) error {
	return a.out(v, func(w io.Writer) {
		fmt.Fprintf(w, "turn %d resolved (%s; state %.12s)\n", turn, words.Count(rolls, "roll"), hash)
		for _, e := range events {
			fmt.Fprintf(w, "  %s\n", e.Text)
		}
		if seed != "" {
			fmt.Fprintf(w, "the race is over; the seed is revealed: %s\n", seed)
		}
	})
}

// showTurnSet prints a turn's setup: v with --json (its "orders", when
// set, is the orders each racer gives).
func (a *app) showTurnSet(v map[string]any, id string, turn int, sch race.Schedule) error {
	v["schedule"] = sch
	return a.out(v, func(w io.Writer) {
		fmt.Fprintf(w, "turn %d of %s:", turn, id)
		if n, ok := v["orders"].(int); ok {
			fmt.Fprintf(w, " %s each;", words.Count(n, "order"))
		}
		if d := sch.Deadline; d != nil {
			fmt.Fprintf(w, " deadline %s;", host.Stamp(*d))
		}
		if sch.WindowOpen != nil && sch.WindowClose != nil {
			fmt.Fprintf(w, " bonus window %s to %s;", host.Stamp(*sch.WindowOpen), host.Stamp(*sch.WindowClose))
		}
		fmt.Fprintln(w)
	})
}

func (a *app) replayCmd() *cobra.Command {
	var turn int
	var as string
	c := &cobra.Command{
		Use:   "replay RACE --turn N [--as VIEWER]",
		Short: "Show a race after turn N, as it was resolved",
		Long: `Shows a race after turn N: its state, events, orders and rolls. --as
shows it as one viewer may see it (host, spectator or a seat): before the
race is over, anyone but the host gets the state without its hidden things
and without its hash. With --server the token (--token) decides the viewer.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if a.cl != nil {
				return a.remoteReplay(cmd, args[0], turn, as)
			}
			return a.withView(cmd, args[0], turn, as, func(_ context.Context, _ *host.Host, p *race.View, turn int) error {
				v, err := host.Replay(p, turn)
				if err != nil {
					return usagef("%v", err)
				}
				r := replayed{Race: args[0], Turn: turn, Standings: v["standings"].([]host.Standing)}
				if _, played := p.TurnAt(turn); played {
					r.Events = v["events"].([]race.Event)
					r.Hash, _ = v["hash"].(string)
				}
				return a.showReplay(v, r)
			})
		},
	}
	c.Flags().IntVar(&turn, "turn", 0, "the turn to show the race after (0 = the grid; default: the last)")
	asFlag(c, &as)
	return viaServer(c)
}

// replayed is what replay prints for people, of the race after a turn
// (host.Replay, or the service's answer, which is the same document).
type replayed struct {
	Race      string          `json:"race"`
	Turn      int             `json:"turn"`
	Hash      string          `json:"hash"`
	Events    []race.Event    `json:"events"`
	Standings []host.Standing `json:"standings"`
}

// showReplay prints the race after a turn: v with --json, else r.
func (a *app) showReplay(v any, r replayed) error {
	return a.out(v, func(w io.Writer) {
		fmt.Fprintf(w, "%s after turn %d\n", r.Race, r.Turn)
		if r.Hash != "" {
			fmt.Fprintf(w, "state %s\n", r.Hash)
		}
		for _, e := range r.Events {
			fmt.Fprintf(w, "  %s\n", e.Text)
		}
		for _, st := range r.Standings {
			fmt.Fprintf(w, "%3d  %-22s %-8s %s\n", st.Place, st.Name, st.Status, st.Detail)
		}
	})
}

// failedVerification is a race that did not verify: exit status 1, not 2.
type failedVerification struct{ msg string }

func (e *failedVerification) Error() string { return e.msg }

func (a *app) verifyCmd() *cobra.Command {
	var head, file string
	c := &cobra.Command{
		Use:   "verify RACE [--head HASH] | verify --file EXPORT [--head HASH]",
		Short: "Replay a race and check every roll, state and link of its log",
		Long: `Checks a race from its first entry: the hash chain that seals its log,
the seed against the commitment published at the start, and a replay of
every turn against what was recorded when it was resolved (state, snapshot,
rolls, dice stream, story). --head HASH checks that a head once published
(every post prints one) is still on the chain: a race rewritten after that
post fails. --file checks an export ('pitwall race export') without any
database: its chain, and once the race is over (the export then holds the
seed) every turn. Exits 0 when the race verifies, 1 when it does not, 2 when
the file is not an export.

With --server, 'verify RACE' fetches the race's export from the service and
checks it here, as --file does (the service's database is not read); --file
always runs here.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if file != "" && len(args) > 0 || file == "" && len(args) != 1 {
				return usagef("verify takes a race, or --file EXPORT (see 'pitwall verify --help')")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("head") && !isHash(head) {
				return usagef("--head is a chain head as posts print it: 64 hex digits; got %q", head)
			}
			if file != "" {
				f, err := safefile.Open(file)
				if err != nil {
					return usagef("reading the export: %v", err)
				}
				defer f.Close()
				x, err := host.ReadExport(f)
				if err != nil {
					return err
				}
				return a.report(host.VerifyExport(x, strings.ToLower(head)))
			}
			if a.cl != nil {
				return a.remoteVerify(cmd.Context(), args[0], strings.ToLower(head))
			}
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				rep, err := h.Verify(ctx, args[0], strings.ToLower(head))
				if err != nil {
					return err
				}
				return a.report(rep)
			})
		},
	}
	c.Flags().StringVar(&head, "head", "", "a chain head once published (64 hex digits): check it is still on the race's chain")
	c.Flags().StringVar(&file, "file", "", "an export to verify instead of a race in the database")
	return viaServer(c)
}

// report prints what verify found; a race that fails is exit status 1.
func (a *app) report(rep host.Report) error {
	err := a.out(rep, func(w io.Writer) {
		if rep.OK {
			if !rep.Replayed {
				fmt.Fprintf(w, "%s: %d entries chain to head %s from the definition and commitment %s; the turns are replayed once the race is over and its seed revealed\n",
					rep.Race, rep.Entries, rep.ChainHead, rep.Commitment)
			} else {
				fmt.Fprintf(w, "%s verified: %d entries chain to head %s; %s and %s replay exactly; the seed matches commitment %s\n",
					rep.Race, rep.Entries, rep.ChainHead, words.Count(rep.Turns, "turn"), words.Count(rep.Rolls, "roll"), rep.Commitment)
			}
			if rep.Head != "" {
				fmt.Fprintf(w, "the published head %.12s is entry %d's\n", rep.Head, rep.HeadEntry)
			}
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
		return &failedVerification{fmt.Sprintf("race %s failed verification: %s", rep.Race, rep.Problems[0])}
	}
	return err
}

func isHash(s string) bool {
	if len(s) != 64 {
		return false
	}
	for _, r := range strings.ToLower(s) {
		if !(r >= '0' && r <= '9' || r >= 'a' && r <= 'f') {
			return false
		}
	}
	return true
}

func (a *app) ordersOptionsCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "options RACE SEAT",
		Short: "List what a racer may order this turn, as data",
		Long: `Lists the orders a racer may give in the turn now open: how many orders the
turn takes and the game's choices, in the game's own shape (docs/choices.md):
every order the racer could name, whether it is allowed now and, when not,
the code and reason it would be refused with, and beside each allowed one the
exact odds of what the dice decide for it. Worked out from what that racer
may see.

  pitwall --json orders options ludi-1a2b3c 'Marcus Aurelius'`,
		Args: cobra.ExactArgs(2),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withRace(args[0], func(_ context.Context, _ *host.Host, p *race.Played) error {
				seat, err := seatOf(p, args[1])
				if err != nil {
					return err
				}
				return a.showOptions(p.View(race.SeatViewer(seat)), seat)
			})
		},
	}
}

// showOptions prints what seat may order now, from its own view.
func (a *app) showOptions(w *race.View, seat int) error {
	s := w.State
	name := ""
	for _, x := range s.Seats() {
		if x.Seat == seat {
			name = x.Name
		}
	}
	v := map[string]any{"ok": true, "race": w.ID, "turn": s.Turn(), "seat": seat + 1, "racer": name, "orders": 0, "choices": nil}
	var prompt *race.Prompt
	for _, pr := range w.Ruleset.Prompts(s) {
		if pr.Seat == seat {
			prompt = &pr
		}
	}
	switch {
	case w.Over:
		v["note"] = "the race is over"
	case prompt == nil:
		v["note"] = name + " has no orders to give this turn"
	default:
		v["orders"] = prompt.Orders
		if prompt.Note != "" {
			v["note"] = prompt.Note
		}
		if ch, ok := w.Ruleset.(race.Chooser); ok {
			choices, err := ch.Choices(s, seat)
			if err != nil {
				return err
			}
			v["choices"] = choices
		} else {
			v["choices"] = map[string]any{"legal": prompt.Legal}
		}
	}
	return a.out(v, func(out io.Writer) {
		fmt.Fprintf(out, "%s, turn %d: %s (seat %d)", w.ID, s.Turn(), name, seat+1)
		if note, ok := v["note"].(string); ok {
			fmt.Fprintf(out, ": %s", note)
		}
		fmt.Fprintln(out)
		if v["choices"] == nil {
			return
		}
		fmt.Fprintf(out, "%s this turn\n", words.Count(v["orders"].(int), "order"))
		if !printChoices(out, v["choices"]) {
			b, _ := json.MarshalIndent(v["choices"], "", "  ")
			fmt.Fprintln(out, string(b))
			return
		}
		fmt.Fprintln(out, "(--json gives every field, docs/choices.md says what each holds)")
	})
}

// printChoices lists, for a person at a terminal, every list of orders in a
// game's choices: each order allowed or not (with its code and reason), and
// the likeliest outcomes of its odds. Each game's shape is its own, so the
// lists are found by their fields (order, allowed) wherever they stand; it
// says whether it found any.
func printChoices(out io.Writer, choices any) bool {
	b, err := json.Marshal(choices)
	if err != nil {
		return false
	}
	var doc any
	if json.Unmarshal(b, &doc) != nil {
		return false
	}
	found := false
	var walk func(path string, x any)
	walk = func(path string, x any) {
		switch x := x.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(x)) {
				walk(strings.TrimPrefix(path+"."+k, "."), x[k])
			}
		case []any:
			var lines []string
			for _, e := range x {
				m, ok := e.(map[string]any)
				order, named := m["order"].(string)
				allowed, judged := m["allowed"].(bool)
				if ok && !named && m["odds"] != nil {
					// a choice given by its numbers (nascar's speeds)
					var kv []string
					for _, k := range slices.Sorted(maps.Keys(m)) {
						if _, nested := m[k].(map[string]any); !nested {
							kv = append(kv, fmt.Sprintf("%s %v", k, m[k]))
						}
					}
					named, judged, allowed, order = true, true, true, strings.Join(kv, ", ")
				}
				if !ok || !named || !judged {
					return // not a list of orders
				}
				line := fmt.Sprintf("  %-28s ", order)
				if allowed {
					line += "yes " + oddsLine(m["odds"])
				} else {
					line += fmt.Sprintf("no: %v (%v)", m["code"], m["reason"])
				}
				lines = append(lines, strings.TrimRight(line, " "))
			}
			if len(lines) > 0 {
				found = true
				fmt.Fprintf(out, "%s:\n%s\n", path, strings.Join(lines, "\n"))
			}
		}
	}
	walk("", doc)
	return found
}

// oddsLine is the likeliest outcomes of a choice's odds, most likely first:
// "none 83%, slip 17%".
func oddsLine(odds any) string {
	type outcome struct {
		name string
		p    float64
	}
	var all []outcome
	var flat func(prefix string, x any)
	flat = func(prefix string, x any) {
		switch x := x.(type) {
		case float64:
			if x > 0 {
				all = append(all, outcome{prefix, x})
			}
		case map[string]any:
			for k, v := range x {
				flat(strings.TrimPrefix(prefix+" "+k, " "), v)
			}
		}
	}
	flat("", odds)
	sort.Slice(all, func(i, j int) bool { return all[i].p > all[j].p || (all[i].p == all[j].p && all[i].name < all[j].name) })
	var parts []string
	for i, o := range all {
		if i == 4 {
			parts = append(parts, "...")
			break
		}
		parts = append(parts, fmt.Sprintf("%s %.0f%%", o.name, 100*o.p))
	}
	return strings.Join(parts, ", ")
}

// checkTurnSet checks what 'turn set' will write against the race as it
// stands: each setting, the number of orders, and the schedule merged with
// the turn's (times to come, a window that closes after it opens).
func checkTurnSet(ctx context.Context, h *host.Host, id string, settings []string, setOrders bool, orders int, change race.Schedule) error {
	p, err := h.Load(ctx, id)
	if errors.Is(err, host.ErrForming) {
		return nil // a schedule for turn 1 while racers join: the host checks it
	}
	if err != nil {
		return err
	}
	for _, kv := range settings {
		k, v, _ := strings.Cut(kv, "=")
		if err := p.CheckSetting(strings.TrimSpace(k), v); err != nil {
			return usagef("--setting %s: %v", kv, err)
		}
	}
	if setOrders {
		if err := p.CheckSetting("orders", strconv.Itoa(orders)); err != nil {
			return usagef("--orders %d: %v", orders, err)
		}
	}
	now := h.Clock.Now()
	for name, t := range map[string]*time.Time{"--deadline": change.Deadline, "--window-close": change.WindowClose} {
		if t != nil && !t.After(now) {
			return usagef("%s %s has passed (it is %s now); give a time to come", name, t.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
		}
	}
	s := p.Schedule
	if change.WindowOpen != nil {
		s.WindowOpen = change.WindowOpen
	}
	if change.WindowClose != nil {
		s.WindowClose = change.WindowClose
	}
	if s.WindowOpen != nil && s.WindowClose != nil && !s.WindowClose.After(*s.WindowOpen) {
		return usagef("the bonus window closes (%s) before it opens (%s)", s.WindowClose.UTC().Format(time.RFC3339), s.WindowOpen.UTC().Format(time.RFC3339))
	}
	return nil
}
