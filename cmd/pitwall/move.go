package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"pitwall/host"
	"pitwall/internal/words"
	"pitwall/store"
)

func (a *app) raceMoveCmd() *cobra.Command {
	var to string
	var all bool
	c := &cobra.Command{
		Use:   "move RACE... --to DB | --all --to DB",
		Short: "Copy races whole from this database to another (SQLite to PostgreSQL, or back)",
		Long: `Copies each race whole from the database --db names to the one --to names
(a SQLite file, made if it is missing, or a postgres:// URL): its setup and
seed, every log entry as stored (so the hash chain is the same), every turn
record, and what the service keeps beside it: its access, its links (their
hashes, revoked ones too), the host's controls, its webhooks with their
secrets, and their outbox (deliveries done and to be sent).

Stop the service that serves --db first (systemctl stop pitwall): a race it
writes to while it is copied is not written, and the move says so. Each
race is written in one transaction: all of it or nothing. A race the
destination has already, the same (as many entries, the same chain head),
is reported as already there, so the move is safe to run again; a
different race of that ID is refused and nothing of it is written. Each
copy is then read back from the destination and checked: its chain head
and turn hashes must be the source's, and its chain and dice must verify
as the source's do. The source is only read: it is left as it was.

Webhook, delivery and control ids are kept, unless the destination has
given them to its own races already: then the race's are numbered anew, and
the move lists the webhooks' new ids.

  pitwall race move --all --db pitwall.db --to postgres://pitwall@db.internal/pitwall
  pitwall race move ludi-romani daytona --to postgres://pitwall@db.internal/pitwall
  pitwall race move --all --db postgres://pitwall@db.internal/pitwall --to back.db --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case to == "":
				return usagef("--to names the database to move the races to: a SQLite file or a postgres:// URL")
			case all && len(args) > 0:
				return usagef("name races, or give --all; not both")
			case !all && len(args) == 0:
				return usagef("name the races to move, or give --all")
			case sameDB(a.db, to):
				return usagef("--db and --to name the same database (%s); --to names another", a.dbName())
			}
			return a.move(args, all, to)
		},
	}
	c.Flags().StringVar(&to, "to", "", "the database to copy the races to: a SQLite file, or a postgres:// URL")
	c.Flags().BoolVar(&all, "all", false, "move every race of --db")
	return c
}

// sameDB says whether two --db values name one database.
func sameDB(a, b string) bool {
	if isPostgresURL(a) || isPostgresURL(b) {
		return a == b
	}
	pa, errA := filepath.Abs(a)
	pb, errB := filepath.Abs(b)
	return errA == nil && errB == nil && pa == pb
}

// openCopier opens the database db names as a store.Copier.
func openCopier(db string) (store.Copier, error) {
	st, err := openStore(db)
	if err != nil {
		return nil, err
	}
	c, ok := st.(store.Copier)
	if !ok {
		st.Close()
		return nil, fmt.Errorf("the database %s cannot copy races whole", dbLabel(db))
	}
	return c, nil
}

// moved is one race's line of the report.
type moved struct {
	store.Copied
	Warning string `json:"warning,omitempty"`
}

func (a *app) move(ids []string, all bool, to string) error {
	ctx := context.Background()
	src, err := openCopier(a.db)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := openCopier(to)
	if err != nil {
		return err
	}
	defer dst.Close()
	if all {
		sums, err := src.List(ctx, store.Page{})
		if err != nil {
			return err
		}
		for _, s := range slices.Backward(sums) { // oldest first
			ids = append(ids, s.ID)
		}
	}
	report := map[string]any{"ok": true, "from": a.dbName(), "to": dbLabel(to)}
	var races []moved
	var nMoved, nThere, entries, turns int
	// Without --json each race has its line as it is moved; with it, the
	// answer comes at the end, and a progress line shows meanwhile.
	line := a.progress()
	line.on = line.on && a.json
	for i, id := range ids {
		line.show(i+1 == len(ids), "moving races: %d of %d (%s)", i+1, len(ids), id)
		m, err := moveRace(ctx, src, dst, id)
		if err != nil {
			line.end()
			if errors.Is(err, store.ErrNotFound) {
				return usagef("%v; 'pitwall --db %s race list' lists the races there", err, a.dbName())
			}
			if i > 0 {
				return fmt.Errorf("%w (the %s before it are in the destination; a move again finds them there)", err, words.Count(i, "race"))
			}
			return err
		}
		races = append(races, m)
		if m.Moved {
			nMoved++
		} else {
			nThere++
		}
		entries += m.Entries
		turns += m.Turns
		if !a.json {
			a.moveLine(a.stdout, m)
		}
	}
	line.end()
	if races == nil {
		races = []moved{}
	}
	report["races"], report["moved"], report["already_there"], report["entries"], report["turns"] = races, nMoved, nThere, entries, turns
	return a.out(report, func(w io.Writer) {
		fmt.Fprintf(w, "%s moved, %s there already (%s, %s) from %s to %s; the source is as it was.\n",
			words.Count(nMoved, "race"), words.Count(nThere, "race"), entryCount(entries), words.Count(turns, "turn"), a.dbName(), dbLabel(to))
		fmt.Fprintf(w, "Serve them from there: pitwall --db %s serve\n", dbLabel(to))
	})
}

// moveLine prints one race's line for people.
func (a *app) moveLine(w io.Writer, m moved) {
	what := "moved"
	if !m.Moved {
		what = "there already"
	}
	fmt.Fprintf(w, "%s: %s (%s, %s, chain head %s)\n", m.Race, what, entryCount(m.Entries), words.Count(m.Turns, "turn"), short(m.Head))
	for _, old := range slices.Sorted(maps.Keys(m.Renumbered.Hooks)) {
		fmt.Fprintf(w, "  webhook %d is webhook %d there (the destination had given its id)\n", old, m.Renumbered.Hooks[old])
	}
	if m.Warning != "" {
		fmt.Fprintf(w, "  %s\n", m.Warning)
	}
}

// entryCount is "1 entry", "2 entries" (words.Plural knows no -y nouns).
func entryCount(n int) string {
	if n == 1 {
		return "1 entry"
	}
	return fmt.Sprintf("%d entries", n)
}

// short is a hash's first 12 digits.
func short(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// moveRace copies race id and checks the copy: read back from the
// destination through the store's own reads, its length, chain head and
// every turn's hash are the source's, its chain and dice verify as the
// source's do, and the host loads it as the service would.
func moveRace(ctx context.Context, src, dst store.Copier, id string) (moved, error) {
	m := moved{}
	var err error
	if m.Copied, err = store.CopyRace(ctx, src, dst, id); err != nil {
		return m, err
	}
	c := m.Copy
	fail := func(format string, args ...any) (moved, error) {
		return m, fmt.Errorf("race %q: the copy in the destination "+format, append([]any{id}, args...)...)
	}
	r, err := dst.Load(ctx, id)
	if err != nil {
		return fail("cannot be read back: %w", err)
	}
	saved, err := dst.Turns(ctx, id)
	if err != nil {
		return fail("cannot be read back: %w", err)
	}
	var head string
	if n := len(r.Log); n > 0 {
		head = r.Log[n-1].Hash
	}
	if len(r.Log) != len(c.Race.Log) || head != c.Head() {
		return fail("has %d entries and chain head %q; the source %d and %q", len(r.Log), head, len(c.Race.Log), c.Head())
	}
	if len(saved) != len(c.Turns) {
		return fail("has %d turn records; the source %d", len(saved), len(c.Turns))
	}
	for i, t := range saved {
		if t.Turn != c.Turns[i].Turn || t.Hash != c.Turns[i].Hash {
			return fail("has turn %d with hash %s; the source turn %d with %s", t.Turn, t.Hash, c.Turns[i].Turn, c.Turns[i].Hash)
		}
	}
	var got, want host.Report
	host.VerifyLog(r, saved, &got)
	if !got.OK {
		// A race that fails in the source fails the same way in its copy:
		// copied as it is, and said.
		host.VerifyLog(c.Race, c.Turns, &want)
		if want.OK || !slices.Equal(got.Problems, want.Problems) {
			return fail("fails verification: %v", got.Problems)
		}
		m.Warning = fmt.Sprintf("warning: the race fails verification in the source, and its copy the same way: %v", want.Problems)
	}
	if _, err := host.New(dst).Load(ctx, id); err != nil && !errors.Is(err, host.ErrForming) {
		return fail("cannot be loaded to play on: %w", err)
	}
	return m, nil
}
