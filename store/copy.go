package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"time"

	"pitwall/race"
)

// Moving races from one store to another (pitwall race move): a Copier
// reads a race whole, with what the service keeps beside it, and writes it
// whole into another store, in one transaction. Nothing is re-derived on
// the way: the log, the chain's hashes, the turn records and the JSON the
// store keeps go over as they are stored.

// RaceCopy is a race whole, as a store keeps it.
type RaceCopy struct {
	Race     *race.Race // the race with its whole log, every entry as stored
	Config   string     // its configuration as stored (JSON text), written as it is
	Entrants string     // its entrants as stored (JSON text), written as it is
	Turns    []SavedTurn
	Rolls    []string   // Turns[i]'s rolls as stored (JSON text), written as they are
	Access   *Access    // nil for a race made without (as the command line makes them)
	Tokens   []Token    // its links, revoked ones too
	Controls []Control  // in the order stored; Seq as the source numbered them
	Hooks    []Hook     // removed ones too, with their secrets
	Outbox   []Delivery // every delivery of its hooks, done or to be sent, oldest first
}

// Head is the race's chain head after its last entry ("" for an empty log).
func (c *RaceCopy) Head() string {
	if n := len(c.Race.Log); n > 0 {
		return c.Race.Log[n-1].Hash
	}
	return ""
}

// Renumbered says which ids a write gave anew, old to new: a hook's,
// delivery's or control's id is a counter of the whole database, so one
// the destination has given already to another race's row cannot be kept.
// Then every row of that kind of the race is numbered anew, in order, so
// that its order (the last control of a kind stands; a hook's deliveries go
// in order) stays. Nil maps: every id kept.
type Renumbered struct {
	Hooks      map[int64]int64 `json:"hooks,omitempty"`
	Controls   map[int64]int64 `json:"controls,omitempty"`
	Deliveries map[int64]int64 `json:"deliveries,omitempty"`
}

// Copier is a HookStore that reads and writes races whole.
type Copier interface {
	HookStore
	// ReadRace reads race id whole, on one snapshot; ErrNotFound when
	// there is no such race.
	ReadRace(ctx context.Context, id string) (*RaceCopy, error)
	// WriteRace stores c (CheckCopy) in one transaction: all of it, or
	// nothing. A race of that id stored already gives an error wrapping
	// ErrExists. before runs in the transaction, after everything is
	// written and before the commit: an error from it writes nothing.
	WriteRace(ctx context.Context, c *RaceCopy, before func(ctx context.Context) error) (Renumbered, error)
}

// The columns of a link, a webhook, a delivery and a log entry, in the
// order each store scans and writes them: a column added to one of these
// tables is added here, to the stores' scans and writes, and to the type
// (Token, Hook, Delivery, race.Entry), and a copy carries it.
const (
	TokenColumns    = `hash, race_id, role, seat, created, revoked, racer`
	HookColumns     = `id, race_id, url, format, events, warn_before, secret, key, created, removed`
	DeliveryColumns = `id, hook_id, race_id, kind, turn, seq, deadline, created, due, attempts, claim, outcome, done, error`
	EntryColumns    = `seq, kind, turn, seat, text, in_window, at, key, hash`
)

// CopyColumns are the columns a copy reads and writes, table by table
// (CopyLeaves names what it leaves out, and why). Each store's test compares
// them with its schema: a table or column a migration adds fails it until it
// is added here, and to the copy's reads and writes, or to CopyLeaves.
var CopyColumns = map[string]string{
	"races":    `id, ruleset, rules, config, entrants, seed, commitment, created`,
	"entries":  `race_id, ` + EntryColumns,
	"turns":    `race_id, turn, hash, rolls, dice_state, state, story, at, rules`,
	"access":   `race_id, public, resolve_when, created, invite`,
	"tokens":   TokenColumns,
	"controls": `id, race_id, kind, seat, value, key, at`,
	"hooks":    HookColumns,
	"outbox":   DeliveryColumns,
}

// CopyLeaves lists, for the documentation and the tests, what a copy
// leaves out of each store's schema and why; every other table and column
// is copied.
var CopyLeaves = map[string]string{
	"schema_migrations":  "the database's own: the destination has its schema, brought up to date when it is opened",
	"sqlite_sequence":    "SQLite's counters of its AUTOINCREMENT ids: moved on by the rows written",
	"races.deadline":     "empty since schema 2 (a schedule is a log entry since)",
	"races.window_open":  "empty since schema 2 (a schedule is a log entry since)",
	"races.window_close": "empty since schema 2 (a schedule is a log entry since)",
	"outbox.held":        "how long the stopped source's service holds a claim: the destination's service may send a pending delivery at once",
}

// CheckCopy says what is wrong with a race to write whole: what a store
// would refuse of each part written on its own (CheckTime, CheckText, the
// checks of an append, a link, a control, a hook, a delivery), a log with
// a gap, turn records that do not go with the log's resolves, and parts
// that name another race.
func CheckCopy(c *RaceCopy) error {
	if c == nil || c.Race == nil {
		return errors.New("copying a race: no race given")
	}
	r := c.Race
	fail := func(format string, args ...any) error {
		return fmt.Errorf("race %q: copying: "+format, append([]any{r.ID}, args...)...)
	}
	switch {
	case r.ID == "" || len(r.ID) > MaxID:
		return fail("its ID is empty or over %d bytes", MaxID)
	case !json.Valid([]byte(c.Config)) || !json.Valid([]byte(c.Entrants)):
		return fail("its configuration or entrants are not JSON")
	case len(c.Rolls) != len(c.Turns):
		return fail("%d turns with %d sets of rolls", len(c.Turns), len(c.Rolls))
	}
	if err := errors.Join(CheckText("its ID", r.ID), CheckText("its ruleset", r.Ruleset), CheckText("its configuration", c.Config),
		CheckText("its entrants", c.Entrants), CheckTime("its creation time", r.Created)); err != nil {
		return fail("%w", err)
	}
	if err := CheckGapless(r.Log, 1); err != nil {
		return fail("%w", err)
	}
	turns := map[int]*SavedTurn{}
	for i := range c.Turns {
		t := &c.Turns[i]
		if turns[t.Turn] != nil {
			return fail("turn %d has two records", t.Turn)
		}
		if !json.Valid([]byte(c.Rolls[i])) {
			return fail("turn %d: its rolls are not JSON", t.Turn)
		}
		turns[t.Turn] = t
	}
	for _, e := range r.Log {
		var t *SavedTurn
		if e.Kind == race.EntryResolve {
			t = turns[e.Turn]
			delete(turns, e.Turn)
		}
		if _, err := EncodeAppend(r.ID, e, t); err != nil {
			return err
		}
	}
	for n := range turns {
		return fail("turn %d has a record but no resolve entry", n)
	}
	if c.Access != nil {
		if err := CheckAccess(r.ID, c.Access, nil); err != nil {
			return err
		}
	}
	for _, t := range c.Tokens {
		unrevoked := t
		unrevoked.Revoked = nil
		if err := CheckAccess(r.ID, nil, []Token{unrevoked}); err != nil {
			return err
		}
		if t.Revoked != nil {
			if err := CheckTime("a link's revocation", *t.Revoked); err != nil {
				return fail("%w", err)
			}
		}
	}
	for _, ct := range c.Controls {
		if ct.Race != r.ID {
			return fail("a control names race %q", ct.Race)
		}
		if err := CheckControl(ct); err != nil {
			return err
		}
	}
	hooks := map[int64]bool{}
	for _, h := range c.Hooks {
		if h.Race != r.ID {
			return fail("a webhook names race %q", h.Race)
		}
		if err := CheckHook(h); err != nil {
			return err
		}
		if h.Removed != nil {
			if err := CheckTime("a webhook's removal", *h.Removed); err != nil {
				return fail("%w", err)
			}
		}
		hooks[h.ID] = true
	}
	for _, d := range c.Outbox {
		switch {
		case d.Race != r.ID:
			return fail("a delivery names race %q", d.Race)
		case !hooks[d.Hook]:
			return fail("delivery %d is for webhook %d, which the race does not have", d.ID, d.Hook)
		}
		if err := errors.Join(CheckDelivery(d), CheckText("its claim", d.Claim)); err != nil {
			return fail("delivery %d: %w", d.ID, err)
		}
	}
	return nil
}

// CountedRow is a row of a table whose first column is an id the database
// counts (controls, hooks, outbox): its id in the source, and the values of
// the table's other columns, in CopyColumns' order.
type CountedRow struct {
	ID     int64
	Values []any
}

// WriteCopy is a store's WriteRace (Copier), in the one transaction inTx
// runs: c is checked (CheckCopy); own writes what each store writes its own
// way (the race, its log, turns, access and links); rows writes the counted
// rows (WriteCounted, with times as at makes them); before runs last. An
// error names the race (CopyFailed).
func WriteCopy[Tx any](ctx context.Context, c *RaceCopy, before func(ctx context.Context) error, inTx func(func(tx Tx) error) error,
	own func(ctx context.Context, tx Tx, c *RaceCopy) error, at func(time.Time) any,
	rows func(ctx context.Context, tx Tx, table string, rows []CountedRow) (map[int64]int64, error)) (Renumbered, error) {
	if err := CheckCopy(c); err != nil {
		return Renumbered{}, err
	}
	var ren Renumbered
	err := inTx(func(tx Tx) error {
		if err := own(ctx, tx, c); err != nil {
			return err
		}
		var err error
		if ren, err = WriteCounted(c, at, func(table string, rs []CountedRow) (map[int64]int64, error) {
			return rows(ctx, tx, table, rs)
		}); err != nil || before == nil {
			return err
		}
		return before(ctx)
	})
	if err != nil {
		return Renumbered{}, CopyFailed(c.Race.ID, "copying it in", err)
	}
	return ren, nil
}

// WriteCounted writes c's controls, webhooks and deliveries, in that order,
// a table at a time through write, which says which ids it gave anew (old to
// new; nil when it kept them all); a delivery goes with its webhook's new id.
// at is a time as the store writes it (a nil time is NULL).
func WriteCounted(c *RaceCopy, at func(time.Time) any, write func(table string, rows []CountedRow) (map[int64]int64, error)) (Renumbered, error) {
	maybe := func(t *time.Time) any {
		if t == nil {
			return nil
		}
		return at(*t)
	}
	var ren Renumbered
	var err error
	if ren.Controls, err = write("controls", counted(c.Controls, func(ct Control) CountedRow {
		return CountedRow{ct.Seq, []any{ct.Race, ct.Kind, ct.Seat, ct.Value, ct.Key, at(ct.At)}}
	})); err != nil {
		return ren, err
	}
	if ren.Hooks, err = write("hooks", counted(c.Hooks, func(h Hook) CountedRow {
		return CountedRow{h.ID, []any{h.Race, h.URL, h.Format, strings.Join(h.Events, ","), int64(h.WarnBefore), h.Secret, h.Key, at(h.Created), maybe(h.Removed)}}
	})); err != nil {
		return ren, err
	}
	ren.Deliveries, err = write("outbox", counted(c.Outbox, func(d Delivery) CountedRow {
		hook := d.Hook
		if n, ok := ren.Hooks[hook]; ok {
			hook = n
		}
		return CountedRow{d.ID, []any{hook, d.Race, d.Kind, d.Turn, d.Seq, maybe(d.Deadline), at(d.Created), at(d.Due),
			d.Attempts, d.Claim, d.Outcome, maybe(d.Done), d.Error}}
	}))
	return ren, err
}

func counted[T any](xs []T, row func(T) CountedRow) []CountedRow {
	rows := make([]CountedRow, len(xs))
	for i, x := range xs {
		rows[i] = row(x)
	}
	return rows
}

// CopyFailed is err, from reading race id to copy or writing it in (doing
// says which), naming the race; an error that names it already (no such
// race, or one of its ID there already) is only marked as the copy's.
func CopyFailed(id, doing string, err error) error {
	if errors.Is(err, ErrNotFound) || errors.Is(err, ErrExists) {
		return fmt.Errorf("copying %w", err)
	}
	return fmt.Errorf("race %q: %s: %w", id, doing, err)
}

// ErrSourceMoved is returned when the race changed in the source while it
// was copied: a service was writing to it.
var ErrSourceMoved = errors.New("the race changed in the source while it was copied; stop the service that serves the source (pitwall serve) and move it again")

// Copied is what CopyRace did with a race.
type Copied struct {
	Race       string     `json:"race"`
	Moved      bool       `json:"moved"` // false: it was in the destination already, the same
	Entries    int        `json:"entries"`
	Turns      int        `json:"turns"`
	Head       string     `json:"head"`
	Renumbered Renumbered `json:"renumbered"`
	Copy       *RaceCopy  `json:"-"` // the race as read from the source
}

// CopyRace copies race id whole from one store to another, in one
// transaction of the destination. A race the destination has already is
// left as it is: the same race (as many entries, the same chain head) is
// reported as not moved; any other is an error wrapping ErrExists, and
// nothing is written. The race is read from the source again before the
// destination commits: if it changed, nothing is written and the error
// wraps ErrSourceMoved. The source is only read.
func CopyRace(ctx context.Context, from, to Copier, id string) (Copied, error) {
	c, err := from.ReadRace(ctx, id)
	if err != nil {
		return Copied{Race: id}, err
	}
	out := Copied{Race: id, Entries: len(c.Race.Log), Turns: len(c.Turns), Head: c.Head(), Copy: c}
	there, err := alreadyThere(ctx, to, c)
	if err != nil || there {
		return out, err
	}
	out.Renumbered, err = to.WriteRace(ctx, c, func(ctx context.Context) error {
		again, err := from.ReadRace(ctx, id)
		if err != nil {
			return fmt.Errorf("reading race %q from the source again: %w", id, err)
		}
		if !reflect.DeepEqual(again, c) {
			return fmt.Errorf("race %q: %w (it had %d entries, head %s; now %d, head %s)", id, ErrSourceMoved,
				len(c.Race.Log), c.Head(), len(again.Race.Log), again.Head())
		}
		return nil
	})
	if errors.Is(err, ErrExists) { // stored by someone else meanwhile
		there, err2 := alreadyThere(ctx, to, c)
		if err2 != nil || there {
			return out, err2
		}
	}
	out.Moved = err == nil
	return out, err
}

// alreadyThere says whether the destination has race c already, the same
// (true), or nothing of that id (false); a race of that id that is not the
// same is an error wrapping ErrExists.
func alreadyThere(ctx context.Context, to Store, c *RaceCopy) (bool, error) {
	id := c.Race.ID
	r, err := to.Load(ctx, id)
	if errors.Is(err, ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var head string
	if n := len(r.Log); n > 0 {
		head = r.Log[n-1].Hash
	}
	if len(r.Log) != len(c.Race.Log) || head != c.Head() {
		return false, fmt.Errorf("race %q is in the destination already and is not the same: there it has %d entries, chain head %q; "+
			"in the source %d entries, chain head %q. Nothing of it was written: %w",
			id, len(r.Log), head, len(c.Race.Log), c.Head(), ErrExists)
	}
	return true, nil
}
