package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"pitwall/host"
	"pitwall/internal/words"
	"pitwall/race"
	"pitwall/store"
	"pitwall/web"
)

// The commands the service serves, over its API (--server): each asks the
// service what the command would read from --db, and prints it with the
// local command's own printing, so that both print the same.

// serverKind is the annotation that says what a command does with --server.
const serverKind = "pitwall/server"

const (
	// kindServed: with --server the command goes through the service.
	kindServed = "served"
	// kindIgnores: a fact of the rules or a tool of its own (rules, odds,
	// tracks, order check, bench): --server changes nothing.
	kindIgnores = "ignores"
	// kindHere: it runs here by nature (serve, demo): --server given is a
	// mistake, $PITWALL_SERVER is no reason to refuse.
	kindHere = "here"
)

// A command takes the mark of its nearest marked parent. Every command not
// marked refuses --server, from the flag or the environment: it would read
// or write --db while the user meant the service's races.

func viaServer(c *cobra.Command) *cobra.Command { return mark(c, kindServed) }

func mark(c *cobra.Command, kind string) *cobra.Command {
	if c.Annotations == nil {
		c.Annotations = map[string]string{}
	}
	c.Annotations[serverKind] = kind
	return c
}

// servedCommands are the paths of the commands marked served under root,
// such as "race show".
func servedCommands(root *cobra.Command) []string {
	var out []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Annotations[serverKind] == kindServed {
			out = append(out, strings.TrimPrefix(c.CommandPath(), root.Name()+" "))
		}
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	return out
}

// checkServer runs before every command: it decides whether the command
// goes through the service (a.cl) or works here, and refuses --server,
// --token and --db where they cannot mean what they say.
func (a *app) checkServer(cmd *cobra.Command, _ []string) error {
	given := func(name string) bool {
		f := cmd.Flags().Lookup(name)
		return f != nil && f.Changed
	}
	if v := os.Getenv("PITWALL_DB"); v != "" && !given("db") {
		a.db = v
	}
	kind := ""
	for c := cmd; c != nil && kind == ""; c = c.Parent() { // a command's mark is its subcommands'
		kind = c.Annotations[serverKind]
		if c.Name() == "help" || c.Name() == "completion" { // cobra's own
			kind = kindIgnores
		}
	}
	path := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	explicit := given("server")
	if !explicit {
		a.server = os.Getenv("PITWALL_SERVER")
	}
	if !given("token") {
		a.token = os.Getenv("PITWALL_TOKEN")
	}
	switch kind {
	case kindIgnores:
		a.server = ""
		return nil
	case kindHere:
		if explicit && a.server != "" {
			return usagef("%s runs here, on --db; it does not take --server", path)
		}
		a.server = ""
		return nil
	}
	if a.server == "" {
		if given("token") {
			return usagef("--token goes with --server: it is a secret link's token of a running service")
		}
		return nil
	}
	if kind != kindServed {
		from := ""
		if !explicit {
			from = " (it is set by $PITWALL_SERVER: unset it, or give --server '' to work on --db)"
		}
		return usagef("%s does not take --server%s; the commands that talk to a running service are %s, and the others work on a database here (--db)",
			path, from, strings.Join(servedCommands(cmd.Root()), ", "))
	}
	if given("db") {
		return usagef("give --server or --db, not both: --server talks to a running service, which keeps its own database")
	}
	cl, err := newClient(a.server, a.token)
	if err != nil {
		return err
	}
	a.cl = cl
	return nil
}

// servedRace is the service's answer to GET /api/races/{id}: the race as
// the token's viewer may see it (host.Shown) and what the host handed the
// service.
type servedRace struct {
	host.Shown
	// Started is false for a race by invite before its start: it has
	// entrants, and no seats or turns yet.
	Started  *bool           `json:"started"`
	Entrants []race.Entrant  `json:"entrants"`
	Paused   bool            `json:"paused"`
	HostBot  bool            `json:"host_bot"`
	Repeat   json.RawMessage `json:"repeat"`
}

// fetchRace reads race id from the service: as decoded, and the answer's
// JSON as it came.
func (a *app) fetchRace(ctx context.Context, id string) (servedRace, json.RawMessage, error) {
	var sr servedRace
	b, _, err := a.cl.do(ctx, http.MethodGet, apiPath("races", id), nil, nil)
	if err == nil {
		err = a.cl.decode(b, apiPath("races", id), &sr)
	}
	return sr, b, err
}

// seats are a race's seats as the service numbers them (from 1), as the
// rules number them (from 0).
func (sr servedRace) seats() []race.Seat {
	var out []race.Seat
	for _, s := range sr.Seats {
		out = append(out, race.Seat{Seat: s.Seat - 1, Name: s.Name, Player: s.Player})
	}
	return out
}

// seat is the seat (from 0) the token speaks for, if it is a seat's.
func (sr servedRace) seat() (int, bool) {
	n, err := strconv.Atoi(strings.TrimPrefix(sr.Viewer, "seat "))
	if !strings.HasPrefix(sr.Viewer, "seat ") || err != nil {
		return 0, false
	}
	return n - 1, true
}

// who says whose token was sent, for a message.
func (sr servedRace) who(tokenGiven bool) string {
	if seat, ok := sr.seat(); ok {
		name := ""
		for _, s := range sr.Seats {
			if s.Seat == seat+1 {
				name = " (" + s.Name + ")"
			}
		}
		return fmt.Sprintf("the token is seat %d's%s", seat+1, name)
	}
	if !tokenGiven {
		return "no token was given (--token or $PITWALL_TOKEN), so you are a spectator"
	}
	return "the token is the " + sr.Viewer + "'s"
}

// checkAs refuses an --as that is not the viewer the token makes: with
// --server the token decides who is asking.
func (a *app) checkAs(cmd *cobra.Command, as string, sr servedRace) error {
	if !cmd.Flags().Changed("as") {
		return nil
	}
	want := strings.ToLower(strings.TrimSpace(as))
	if want != "host" && want != "spectator" {
		seat, err := seatAmong(sr.ID, sr.seats(), as)
		if err != nil {
			return usagef("--as is host, spectator or a seat (a racer's name or number); %v", err)
		}
		want = fmt.Sprintf("seat %d", seat+1)
	}
	if want != sr.Viewer {
		return usagef("--as %s is not who the token speaks for: with --server the token decides the viewer, and %s; leave --as out, or give that viewer's token", as, sr.who(a.cl.token != ""))
	}
	return nil
}

func (a *app) remoteShow(cmd *cobra.Command, id, as string) error {
	sr, raw, err := a.fetchRace(cmd.Context(), id)
	if err != nil {
		return err
	}
	if err := a.checkAs(cmd, as, sr); err != nil {
		return err
	}
	if sr.Started != nil && !*sr.Started {
		return a.out(raw, func(w io.Writer) { a.printServedForming(w, sr) })
	}
	return a.out(raw, func(w io.Writer) {
		printShown(w, sr.Shown)
		printSeats(w, "played by the service's bot", sr.Seats, func(s host.ShownSeat) bool { return s.Bot })
		printSeats(w, "removed by the host, played by the game's default for missing orders", sr.Seats, func(s host.ShownSeat) bool { return s.Removed })
		if sr.Paused {
			fmt.Fprintln(w, "paused by the host: no turn resolves by itself until the race is resumed")
		}
	})
}

// printSeats prints what: the seats that are so ("2 Blue, 3 Gold"), if any.
func printSeats(w io.Writer, what string, seats []host.ShownSeat, are func(host.ShownSeat) bool) {
	var named []string
	for _, s := range seats {
		if are(s) {
			named = append(named, fmt.Sprintf("%d %s", s.Seat, s.Name))
			if s.BotName != "" {
				named[len(named)-1] += " (" + s.BotName + ")"
			}
		}
	}
	if len(named) > 0 {
		fmt.Fprintf(w, "%s: %s\n", what, strings.Join(named, ", "))
	}
}

// listPage is how many races race list asks the service for at a time.
var listPage = 200

func (a *app) remoteList(ctx context.Context) error {
	// Every page: the service gives the public races a page at a time.
	all := []store.Summary{}
	query := url.Values{"limit": {strconv.Itoa(listPage)}}
	for {
		b, _, err := a.cl.do(ctx, http.MethodGet, "/api/races", query, nil)
		if err != nil {
			return err
		}
		var doc struct {
			Races []store.Summary `json:"races"`
			Next  string          `json:"next"`
		}
		if err := a.cl.decode(b, "/api/races", &doc); err != nil {
			return err
		}
		all = append(all, doc.Races...)
		if doc.Next == "" {
			break
		}
		query.Set("after", doc.Next)
	}
	return a.showList(map[string]any{"races": all}, all, "no public race is served at "+a.cl.shown)
}

// printServedForming prints a race by invite that its host has not
// started: who has joined, and how the others join.
func (a *app) printServedForming(w io.Writer, sr servedRace) {
	fmt.Fprintf(w, "%s: %s on %s, by invite, not started: %s so far\n", sr.ID, sr.Ruleset, sr.Track, words.Count(len(sr.Entrants), "entrant"))
	fmt.Fprintf(w, "dice commitment: sha256 %s\n", sr.Commitment)
	g := &race.Game{} // a game this build does not know: the entrants without their choices
	if rs, err := race.Lookup(sr.Ruleset); err == nil {
		g = rs.Game()
	}
	printEntrants(w, sr.Entrants, g)
	if sr.Schedule.Deadline != nil {
		fmt.Fprintf(w, "turn 1's deadline: %s (nothing resolves before the start)\n", host.Stamp(*sr.Schedule.Deadline))
	}
	fmt.Fprintf(w, "racers join with the invite's token: 'pitwall race join %s --name NAME --token INVITE'; the host starts it with 'pitwall race start %s'\n", sr.ID, sr.ID)
}

// remoteNew creates a race on the service with every entrant of es, and
// prints its links' tokens, which the service shows this once. A race by
// invite (invite) may have none yet: it takes joins until its host starts it.
func (a *app) remoteNew(cmd *cobra.Command, ruleset string, cfg race.Config, es []race.Entrant, private, invite bool, resolveWhen string) error {
	switch {
	case cmd.Flags().Changed("id"):
		return usagef("the service picks the race's id: leave --id out with --server")
	case cmd.Flags().Changed("seed"):
		return usagef("the service draws every race's seed: --seed is for a database here (tests and demos), not with --server")
	case len(es) == 0 && !invite:
		return usagef("with --server, give the race's entrants with --entrants FILE (the service starts the race at once and takes no joins), or --invite to take its racers by invite")
	}
	public := !private
	body := web.NewRace{Ruleset: ruleset, Track: cfg.Track, Laps: cfg.Laps, Options: cfg.Options, Seats: web.SeatsOf(es),
		ResolveWhen: resolveWhen, Public: &public, Invite: invite}
	var c web.CreatedRace
	if err := a.cl.postJSON(cmd.Context(), "/api/races", body, &c); err != nil {
		return err
	}
	track := c.Track
	const once = "these tokens are shown this once: the service keeps only their hashes, so keep them now, and give each racer only its own seat's"
	v := map[string]any{"ok": true, "id": c.ID, "ruleset": c.Ruleset, "track": track, "entrants": len(es), "commitment": c.Commitment,
		"host_token": c.HostToken, "seats": c.Seats, "public": c.Public, "resolve_when": c.ResolveWhen, "server": a.cl.shown, "note": once}
	if c.SpectatorToken != "" {
		v["spectator_token"] = c.SpectatorToken
	}
	if invite {
		v["invite"], v["invite_token"] = true, c.InviteToken
	}
	return a.out(v, func(w io.Writer) {
		printCreated(w, c.ID, c.Ruleset, track, len(es), c.Commitment)
		if c.Public {
			fmt.Fprintf(w, "served at %s: public, anyone may watch it; turns resolve at their deadline", a.cl.shown)
		} else {
			fmt.Fprintf(w, "served at %s: private, watched only with the spectator's token; turns resolve at their deadline", a.cl.shown)
		}
		switch c.ResolveWhen {
		case store.ResolveWhenReady:
			fmt.Fprint(w, ", or once every seat is ready")
		case store.ResolveWhenAllIn:
			fmt.Fprint(w, ", or once every seat's orders are in")
		}
		fmt.Fprintln(w)
		if invite {
			fmt.Fprintf(w, "by invite: whoever holds the invite's token joins ('pitwall race join %s --name NAME'), until the host starts it ('pitwall race start %s')\n", c.ID, c.ID)
		}
		fmt.Fprintln(w, once+":")
		fmt.Fprintf(w, "  %-30s %s\n", "host", c.HostToken)
		for _, s := range c.Seats {
			who := fmt.Sprintf("seat %d %s", s.Seat, s.Name)
			if s.Seat == 0 { // a race by invite's seats are numbered at its start
				who = "racer " + s.Name
			}
			fmt.Fprintf(w, "  %-30s %s\n", who, s.Token)
		}
		if c.SpectatorToken != "" {
			fmt.Fprintf(w, "  %-30s %s\n", "spectator", c.SpectatorToken)
		}
		if c.InviteToken != "" {
			fmt.Fprintf(w, "  %-30s %s\n", "invite", c.InviteToken)
		}
	})
}

// remoteSubmit sends a seat's orders with its token. The token decides the
// seat: SEAT must name the same one.
func (a *app) remoteSubmit(cmd *cobra.Command, id, seatArg, orders string, q host.Req) error {
	ctx := cmd.Context()
	sr, _, err := a.fetchRace(ctx, id)
	if err != nil {
		return err
	}
	mine, ok := sr.seat()
	if !ok {
		return usagef("orders go with the seat's own token (--token or $PITWALL_TOKEN), and %s", sr.who(a.cl.token != ""))
	}
	seats := sr.seats()
	named, err := seatAmong(id, seats, seatArg)
	if err != nil {
		return err
	}
	if named != mine {
		return usagef("SEAT %s is seat %d (%s), but the token is seat %d's (%s): with --server the token decides the seat; send %s's orders with its token, or name seat %d",
			seatArg, named+1, race.NameOf(seats, named), mine+1, race.NameOf(seats, mine), race.NameOf(seats, named), mine+1)
	}
	turn := q.Turn
	if turn == 0 {
		turn = sr.Turn
	}
	var ack struct {
		Race   string `json:"race"`
		Turn   int    `json:"turn"`
		Seat   int    `json:"seat"`
		Racer  string `json:"racer"`
		Orders string `json:"orders"`
		Repeat bool   `json:"repeat"`
	}
	body := map[string]any{"turn": turn, "orders": orders, "key": a.cl.writeKey(q.Key)}
	if err := a.cl.postJSON(ctx, apiPath("races", id, "orders"), body, &ack); err != nil {
		return err
	}
	return a.showAck(host.Ack{Race: ack.Race, Turn: ack.Turn, Seat: ack.Seat - 1, Racer: ack.Racer, Orders: ack.Orders, Repeat: ack.Repeat}, q.Key)
}

// remoteResolve resolves a turn with the host's token, and tells of it
// from the turn's replay.
func (a *app) remoteResolve(cmd *cobra.Command, id string, q host.Req) error {
	ctx := cmd.Context()
	turn := q.Turn
	if turn == 0 {
		sr, _, err := a.fetchRace(ctx, id)
		if err != nil {
			return err
		}
		turn = sr.Turn
	}
	var res struct {
		Resolved bool `json:"resolved"`
		Turn     int  `json:"turn"`
	}
	if err := a.cl.postJSON(ctx, apiPath("races", id, "resolve"), map[string]any{"turn": turn, "key": a.cl.writeKey(q.Key)}, &res); err != nil {
		return err
	}
	sr, _, err := a.fetchRace(ctx, id)
	if err != nil {
		return err
	}
	if !res.Resolved {
		return a.showNotResolved(id, res.Turn, sr.Turn, sr.Over)
	}
	b, _, err := a.cl.do(ctx, http.MethodGet, apiPath("races", id, "replay"), url.Values{"turn": {strconv.Itoa(res.Turn)}}, nil)
	if err != nil {
		return err
	}
	var doc map[string]json.RawMessage
	var r replayed
	var rolls []json.RawMessage
	if err := a.cl.decode(b, "the replay", &doc); err != nil {
		return err
	}
	if err := a.cl.decode(b, "the replay", &r); err != nil {
		return err
	}
	if x, ok := doc["rolls"]; ok {
		if err := a.cl.decode(x, "the replay's rolls", &rolls); err != nil {
			return err
		}
	}
	// The local command's document, but "defaulted", which the service does not tell.
	v := map[string]any{"ok": true, "resolved": true, "race": id, "turn": res.Turn, "over": sr.Over, "chain_head": sr.ChainHead}
	for _, k := range []string{"hash", "orders", "events", "rolls", "standings"} {
		if x, ok := doc[k]; ok {
			v[k] = x
		}
	}
	seed := ""
	if sr.Over {
		seed = sr.Seed
	}
	return a.showResolved(v, res.Turn, len(rolls), r.Hash, r.Events, seed)
}

// remoteSchedule sets a turn's deadline and bonus window with the host's
// token, or moves its deadline later by extend.
func (a *app) remoteSchedule(cmd *cobra.Command, id string, q host.Req, change race.Schedule, extend string) error {
	ctx := cmd.Context()
	sr, _, err := a.fetchRace(ctx, id)
	if err != nil {
		return err
	}
	turn := q.Turn
	if turn == 0 {
		turn = sr.Turn
	}
	body := map[string]any{"turn": turn, "key": a.cl.writeKey(q.Key)}
	if extend != "" {
		body["extend"] = extend
	}
	if change.Deadline != nil {
		body["deadline"] = change.Deadline
	}
	if change.WindowOpen != nil {
		body["window_open"] = change.WindowOpen
	}
	if change.WindowClose != nil {
		body["window_close"] = change.WindowClose
	}
	var res struct {
		Turn     int           `json:"turn"`
		Schedule race.Schedule `json:"schedule"`
	}
	if err := a.cl.postJSON(ctx, apiPath("races", id, "schedule"), body, &res); err != nil {
		return err
	}
	v := map[string]any{"ok": true, "race": id, "turn": res.Turn}
	if res.Turn == sr.Turn && len(sr.Prompts) > 0 {
		v["orders"] = sr.Prompts[0].Orders
	}
	return a.showTurnSet(v, id, res.Turn, res.Schedule)
}

// remoteTurn is the turn a read of race id is for: --turn, or the last
// resolved as the service says; and it checks --as against the token.
func (a *app) remoteTurn(cmd *cobra.Command, id string, turn int, as string) (int, error) {
	given := cmd.Flags().Changed("turn")
	if given && !cmd.Flags().Changed("as") {
		return turn, nil
	}
	sr, _, err := a.fetchRace(cmd.Context(), id)
	if err != nil {
		return 0, err
	}
	if err := a.checkAs(cmd, as, sr); err != nil {
		return 0, err
	}
	if given {
		return turn, nil
	}
	return sr.TurnsResolved, nil
}

func (a *app) remoteReplay(cmd *cobra.Command, id string, turn int, as string) error {
	n, err := a.remoteTurn(cmd, id, turn, as)
	if err != nil {
		return err
	}
	b, _, err := a.cl.do(cmd.Context(), http.MethodGet, apiPath("races", id, "replay"), url.Values{"turn": {strconv.Itoa(n)}}, nil)
	if err != nil {
		return err
	}
	var r replayed
	if err := a.cl.decode(b, "the replay", &r); err != nil {
		return err
	}
	r.Race = id
	return a.showReplay(json.RawMessage(b), r)
}

// remotePost prints the service's post: the bytes of GET .../post.
func (a *app) remotePost(cmd *cobra.Command, id string, turn int, as, format, picture, out string) error {
	n, err := a.remoteTurn(cmd, id, turn, as)
	if err != nil {
		return err
	}
	q := url.Values{"turn": {strconv.Itoa(n)}, "format": {format}}
	if picture != "" {
		q.Set("picture", picture)
	}
	b, _, err := a.cl.do(cmd.Context(), http.MethodGet, apiPath("races", id, "post"), q, nil)
	if err != nil {
		return err
	}
	return a.showPost(n, format, out, string(b))
}

// remoteRender saves the service's picture: the bytes of GET .../picture.
func (a *app) remoteRender(cmd *cobra.Command, id string, turn int, as, format, out string) error {
	n, err := a.remoteTurn(cmd, id, turn, as)
	if err != nil {
		return err
	}
	q := url.Values{"turn": {strconv.Itoa(n)}, "format": {format}}
	b, _, err := a.cl.do(cmd.Context(), http.MethodGet, apiPath("races", id, "picture"), q, nil)
	if err != nil {
		return err
	}
	return a.savePicture(id, n, format, out, b)
}

// fetchExport reads race id's export from the service.
func (a *app) fetchExport(ctx context.Context, id string) (host.Export, error) {
	b, _, err := a.cl.do(ctx, http.MethodGet, apiPath("races", id, "export"), nil, nil)
	if err != nil {
		return host.Export{}, err
	}
	x, err := host.ReadExport(bytes.NewReader(b))
	if err != nil {
		return host.Export{}, fmt.Errorf("the service at %s answered an export of race %s that cannot be read: %v", a.cl.shown, id, err)
	}
	return x, nil
}

func (a *app) remoteExport(ctx context.Context, id, out string) error {
	x, err := a.fetchExport(ctx, id)
	if err != nil {
		return err
	}
	return a.saveExport(id, out, x)
}

// remoteVerify checks the service's export of race id here.
func (a *app) remoteVerify(ctx context.Context, id, head string) error {
	x, err := a.fetchExport(ctx, id)
	if err != nil {
		return err
	}
	return a.report(host.VerifyExport(x, head))
}
