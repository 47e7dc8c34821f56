// Command pitwall hosts turn-based racing games played by post: it keeps the
// race, takes orders, resolves turns with dice anyone can audit, draws the
// track and writes the turn summary post.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"pitwall/host"
	"pitwall/race"
	_ "pitwall/rules/gaslands" // the rulesets register themselves
	_ "pitwall/rules/ludi"
	_ "pitwall/rules/nascar"
	_ "pitwall/rules/party"
	_ "pitwall/rules/rtd"
)

// usageError is bad input caught by the command line itself.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return &usageError{fmt.Sprintf(format, a...)} }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit status: 0 done, 2 bad
// input, 1 anything else. It never lets a panic out as a stack trace.
func run(args []string, stdout, stderr io.Writer) (status int) {
	jsonOut := false
	for _, a := range args {
		if a == "--json" {
			jsonOut = true
		}
	}
	defer func() {
		if r := recover(); r != nil {
			fail(stdout, stderr, jsonOut, fmt.Errorf("internal error: %v (please report it)", r))
			status = 1
		}
	}()
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return 0
	}
	var fv *failedVerification
	if errors.As(err, &fv) { // the report went out already, as the one JSON document
		fail(stdout, stderr, false, err)
		return 1
	}
	fail(stdout, stderr, jsonOut, err)
	if isBad(err) {
		return 2
	}
	return 1
}

func isBad(err error) bool {
	var u *usageError
	var se *serviceError
	if errors.As(err, &u) || host.IsBadInput(err) || errors.As(err, &se) && se.bad() {
		return true
	}
	if errors.As(err, &se) {
		return false // the service's own failure, or try again later
	}
	// cobra's own complaints: unknown command or flag, wrong number of arguments.
	msg := err.Error()
	for _, p := range []string{"unknown command", "unknown flag", "unknown shorthand", "accepts ", "requires at least", "invalid argument", "flag needs an argument", "required flag"} {
		if strings.Contains(msg, p) {
			return true
		}
	}
	return false
}

func fail(stdout, stderr io.Writer, jsonOut bool, err error) {
	msg := strings.Join(strings.Fields(err.Error()), " ")
	fmt.Fprintln(stderr, "pitwall: "+msg)
	if jsonOut {
		doc := map[string]any{"ok": false, "error": msg}
		var se *serviceError
		if errors.As(err, &se) && se.Code != "" { // the service's code, kept
			doc["code"] = se.Code
			if se.Field != "" {
				doc["field"] = se.Field
			}
		} else if code := host.Code(err); code != "" {
			doc["code"] = code
		} else if isBad(err) {
			doc["code"] = "bad_input"
		}
		var oe *race.OrderError
		if errors.As(err, &oe) {
			doc["kind"] = oe.KindCode() // not understood, or not allowed now
		}
		writeJSON(stdout, doc)
	}
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

type app struct {
	stdout, stderr io.Writer
	db             string
	json           bool
	// server and token are --server and --token: with server, the commands
	// the service serves go through its API (remote.go) instead of --db.
	server, token string
	cl            *client // the service's client, once checkServer has chosen it
	tty           bool    // standard error is a terminal: show progress
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	a := &app{stdout: stdout, stderr: stderr}
	if f, ok := stderr.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			a.tty = true
		}
	}
	root := &cobra.Command{
		Use:   "pitwall",
		Short: "Host turn-based racing games played by post",
		Long: `pitwall hosts racing games played by post on forums and in chat: it keeps
each race, takes the racers' orders, resolves turns exactly by the game's
rules with dice anyone can audit, draws the track and writes the turn post.

Start with 'pitwall demo --out demo' to watch a whole race, or
'pitwall race new --help' to host one.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return usagef("%v (see '%s --help')", err, c.CommandPath()) })
	// $PITWALL_DB is read in checkServer: --help would print a database
	// password given as a flag's default.
	root.PersistentFlags().StringVar(&a.db, "db", "pitwall.db", "the race database: a SQLite file, or a postgres:// URL; default $PITWALL_DB or ./pitwall.db")
	root.PersistentFlags().BoolVar(&a.json, "json", false, "print one JSON document on standard output")
	root.AddCommand(mark(a.rulesCmd(), kindIgnores), mark(a.tracksCmd(), kindIgnores), mark(a.oddsCmd(), kindIgnores), mark(a.orderCmd(), kindIgnores), a.raceCmd(), a.ordersCmd(),
		a.turnCmd(), a.replayCmd(), a.verifyCmd(), a.renderCmd(), a.postCmd(), a.recordsCmd(), mark(a.demoCmd(), kindHere), mark(a.serveCmd(), kindHere), mark(a.benchCmd(), kindIgnores), mark(a.simCmd(), kindIgnores))
	// Their defaults come from the environment in checkServer, not here:
	// --help would print a token given as a flag's default.
	root.PersistentFlags().StringVar(&a.server, "server", "", "talk to a running 'pitwall serve' at this URL instead of --db (a command that takes it says so; one that does not refuses it); default $PITWALL_SERVER")
	root.PersistentFlags().StringVar(&a.token, "token", "", "with --server: a secret link's token (a racer's, the host's, a spectator's or an invite's), which decides who you are; default $PITWALL_TOKEN (which 'ps' does not show)")
	root.PersistentPreRunE = a.checkServer
	return root
}

// out prints v as JSON with --json, or calls text to print it for people.
func (a *app) out(v any, text func(w io.Writer)) error {
	if a.json {
		return writeJSON(a.stdout, v)
	}
	text(a.stdout)
	return nil
}
