package storetest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
	"pitwall/store/migrate"
)

// Database is what the cases of RunDatabase need of a store kept in an SQL
// database: a way to change the database behind the store's back, as
// someone holding the file or the server could, and the statements of its
// dialect that would forge what it keeps.
type Database struct {
	// Exec runs stmt on the database of s, a store the Opener gave.
	Exec func(s store.Store, stmt string) error
	// Unguard lets the races table be updated (it drops or disables the
	// trigger that refuses it).
	Unguard string
	// Forgeries would change the log, a saved turn or a race: the
	// database must refuse each as append-only.
	Forgeries []string
	// Collisions would store a row again without the guard refusing it:
	// each must fail (true), or change nothing (false).
	Collisions map[string]bool
	// LinkForgeries would bring a revoked link back or change a race's
	// access: the database must refuse each.
	LinkForgeries []string
}

// RunDatabase runs, as subtests of t, the cases that hold a store's
// database itself to what Store promises: it keeps the log and the links
// whatever is sent to it, and a race edited behind the store's back fails
// to load. open must give stores that implement store.AccessStore.
func RunDatabase(t *testing.T, open Opener, db Database) {
	h := &harness{open: open}
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, h *harness, db Database)
	}{
		{"LogIsAppendOnly", testLogIsAppendOnly},
		{"TamperedSeed", testTamperedSeed},
		{"LinksAreKept", testLinksAreKept},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, h, db) })
	}
}

// refused reports a statement that the database did not refuse with one
// of the guards' messages.
func refused(t *testing.T, db Database, s store.Store, stmts []string, refusals ...string) {
	t.Helper()
	for _, stmt := range stmts {
		err := db.Exec(s, stmt)
		if err == nil || !slices.ContainsFunc(refusals, func(r string) bool { return strings.Contains(err.Error(), r) }) {
			t.Errorf("%s: error = %v, want a refusal (%s)", stmt, err, strings.Join(refusals, ", "))
		}
	}
}

// The log is append-only in the database itself, not only in the Go code:
// no statement but an INSERT of a new row changes it.
func testLogIsAppendOnly(t *testing.T, h *harness, db Database) {
	s, _ := h.fresh(t)
	mustCreate(t, s, sampleRace("r", 1))
	mustAppend(t, s, "r", resolveEntry(1, 1), savedTurn(1))
	refused(t, db, s, db.Forgeries, "append-only", "never changes", "are kept")
	for stmt, wantErr := range db.Collisions {
		if err := db.Exec(s, stmt); (err != nil) != wantErr {
			t.Errorf("%s: error = %v", stmt, err)
		}
	}
	checkStored(t, s, "r", []race.Entry{resolveEntry(1, 1)}, savedTurn(1))
}

// A seed edited behind the store's back no longer matches the commitment the
// players saw: Load says so rather than replaying with the wrong dice.
func testTamperedSeed(t *testing.T, h *harness, db Database) {
	s, _ := h.fresh(t)
	mustCreate(t, s, sampleRace("tampered", 1))
	for _, stmt := range []string{db.Unguard, `UPDATE races SET seed = '` + dice.SeedFromInt(2).Hex() + `'`} {
		if err := db.Exec(s, stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	_, err := s.Load(ctx(t), "tampered")
	if err == nil || !strings.Contains(err.Error(), "commitment") || !strings.Contains(err.Error(), "tampered") {
		t.Errorf("Load of a race with a changed seed: error = %v", err)
	}
	if errors.Is(err, store.ErrNotFound) {
		t.Error("a damaged race is reported as missing")
	}
}

// A revoked link cannot be brought back, by an update, an upsert or a
// replace, or a delete and a fresh insert; a race's access never changes.
func testLinksAreKept(t *testing.T, h *harness, db Database) {
	s, _ := freshAs[store.AccessStore](t, h)
	r := sampleRace("r", 1)
	hash := strings.Repeat("ab", 32)
	tok := store.Token{Hash: hash, Race: "r", Role: store.RoleSeat, Seat: 0, Created: accessAt}
	if err := s.CreateWithAccess(ctx(t), r, store.Access{Race: "r", ResolveWhen: store.ResolveAtDeadline, Created: accessAt}, []store.Token{tok}); err != nil {
		t.Fatal(err)
	}
	if err := s.RevokeToken(ctx(t), "r", hash, accessAt); err != nil {
		t.Fatal(err)
	}
	refused(t, db, s, db.LinkForgeries, "only ever changes by being revoked", "access never changes")
	got, err := s.Token(ctx(t), hash)
	if err != nil || got.Revoked == nil || got.Role != store.RoleSeat {
		t.Errorf("the revoked link after the attempts: %+v, %v", got, err)
	}
	if a, err := s.Access(ctx(t), "r"); err != nil || a.Public || a.ResolveWhen != store.ResolveAtDeadline {
		t.Errorf("the access after the attempts: %+v, %v", a, err)
	}
}

// TwoStores: two Stores on one database stand for two processes. They
// share no lock in Go, so the database alone must keep appends in order:
// every round, writers on both append the same seq at once (every fifth a
// resolve with its turn), and exactly one wins.
func TwoStores(t *testing.T, a, b store.Store) {
	const id, rounds = "shared", 20
	mustCreate(t, a, sampleRace(id, 1))
	c := ctx(t)
	for seq := 1; seq <= rounds; seq++ {
		var errs [writers]error
		Together(writers, func(w int) {
			e := orderEntry(seq, 1, w, fmt.Sprint(w))
			var rec *store.SavedTurn
			if seq%5 == 0 {
				e = resolveEntry(seq, seq/5)
				e.Text = fmt.Sprint(w)
				rec = savedTurn(seq / 5)
				rec.Hash = fmt.Sprint(w)
			}
			errs[w] = []store.Store{a, b}[w%2].Append(c, id, e, rec)
		})
		won := -1
		for w, err := range errs {
			switch {
			case err == nil && won >= 0:
				t.Fatalf("seq %d: writers %d and %d both won", seq, won, w)
			case err == nil:
				won = w
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("seq %d: %v; want nil or ErrConflict", seq, err)
			}
		}
		if won < 0 {
			t.Fatalf("seq %d: no writer won", seq)
		}
	}
	for _, s := range []store.Store{a, b} {
		log := mustLoad(t, s, id).Log
		if len(log) != rounds {
			t.Fatalf("the log has %d entries, want %d", len(log), rounds)
		}
		turns := mustTurns(t, s, id)
		if len(turns) != rounds/5 {
			t.Fatalf("%d turns saved, want %d", len(turns), rounds/5)
		}
		for _, tr := range turns {
			if e := log[tr.Turn*5-1]; tr.Hash != e.Text {
				t.Errorf("turn %d was saved by writer %s but resolved by writer %s", tr.Turn, tr.Hash, e.Text)
			}
		}
	}
}

// OpenTogether opens n stores at the same moment, as processes that start
// together on a new database do: none may fail for another creating the
// schema. The stores are closed when the test ends.
func OpenTogether(t *testing.T, n int, open func() (store.Store, error)) {
	errs := make([]error, n)
	Together(n, func(i int) {
		var s store.Store
		if s, errs[i] = open(); errs[i] == nil {
			t.Cleanup(func() { _ = s.Close() })
		}
	})
	for i, err := range errs {
		if err != nil {
			t.Errorf("open %d: %v", i, err)
		}
	}
}

// The benchmarks run on context.Background, as the stores' benchmarks
// always did: a context that can be cancelled costs pgx allocations.

// benchRace is the race the benchmarks append to.
func benchRace(b *testing.B, s store.Store) {
	b.Helper()
	r := &race.Race{ID: "r", Ruleset: "ludi", Seed: dice.SeedFromInt(1), Created: time.Now().Truncate(time.Microsecond)}
	if err := s.Create(context.Background(), r); err != nil {
		b.Fatal(err)
	}
}

// BenchAppend: one writer appending orders, or resolves with their turn
// records, each durable before the next. open gives an empty store called
// name, closed when the benchmark ends.
func BenchAppend(b *testing.B, open func(b *testing.B, name string) store.Store) {
	for _, withTurn := range []bool{false, true} {
		b.Run(fmt.Sprintf("turn=%v", withTurn), func(b *testing.B) {
			s := open(b, fmt.Sprintf("bench_append_%v", withTurn))
			benchRace(b, s)
			c := context.Background()
			at := time.Now().Truncate(time.Microsecond)
			state := []byte(`{"turn":1,"cars":[{"seat":0,"pos":3},{"seat":1,"pos":2}]}`)
			b.ReportAllocs()
			seq := 0
			for b.Loop() {
				seq++
				e := race.Entry{Seq: seq, Kind: race.EntryOrder, Turn: 1, Seat: seq % 10, Text: "M3 B", At: at, Hash: "h"}
				var rec *store.SavedTurn
				if withTurn {
					e.Kind, e.Turn = race.EntryResolve, seq
					rec = &store.SavedTurn{Turn: seq, Hash: "h", State: state, DiceState: []byte{1, 2, 3}, At: at}
				}
				if err := s.Append(c, "r", e, rec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchAppendAll is the service's commit as a crowd of racers makes it:
// batches of ten orders, each of another of 100 races, one commit a batch
// (store.Batcher), each race's tenth order followed by its turn's resolve.
// Besides time, it reports the process's CPU time (user and system) an
// entry: a commit's wait for the disk costs time but no CPU, and the CPU
// is what a busy service runs short of.
func BenchAppendAll(b *testing.B, s interface {
	store.Store
	store.Batcher
}) {
	// A race's turn is ten orders (one a seat) and the resolve: eleven entries.
	const races, batch, seats = 100, 10, 10
	const perTurn = seats + 1
	c := context.Background()
	at := time.Now().Truncate(time.Microsecond)
	state := []byte(`{"turn":1,"karts":[{"seat":0,"segment":3},{"seat":1,"segment":2}]}`)
	ids := make([]string, races)
	seqs := make([]int, races)
	for i := range ids {
		ids[i] = fmt.Sprintf("r%03d", i)
		r := &race.Race{ID: ids[i], Ruleset: "rtd", Seed: dice.SeedFromInt(uint64(i)), Created: at}
		if err := s.Create(c, r); err != nil {
			b.Fatal(err)
		}
	}
	hash := func(r, seq int) string { return fmt.Sprintf("h%d-%d", r, seq) }
	b.ReportAllocs()
	next, entries := 0, 0
	cpu0 := cpuTime(b)
	for b.Loop() {
		var ps []store.Pending
		for range batch {
			r := next % races
			next++
			seqs[r]++
			turn := (seqs[r]-1)/perTurn + 1
			e := race.Entry{Seq: seqs[r], Kind: race.EntryOrder, Turn: turn, Seat: (seqs[r] - 1) % perTurn, Text: "defensive",
				Key: fmt.Sprintf("k%d", seqs[r]), At: at, Hash: hash(r, seqs[r])}
			p := store.Pending{Race: ids[r], Entry: e}
			if seqs[r] > 1 {
				p.Prev = hash(r, seqs[r]-1)
			}
			ps = append(ps, p)
			if seqs[r]%perTurn == seats { // the turn's last order: the resolve follows
				seqs[r]++
				ps = append(ps, store.Pending{Race: ids[r], Prev: e.Hash,
					Entry: race.Entry{Seq: seqs[r], Kind: race.EntryResolve, Turn: turn, Seat: -1, At: at, Hash: hash(r, seqs[r])},
					Turn:  &store.SavedTurn{Turn: turn, Hash: "s", State: state, DiceState: []byte{1, 2, 3}, At: at}})
			}
		}
		for i, err := range s.AppendAll(c, ps) {
			if err != nil {
				b.Fatalf("entry %d of the batch: %v", i, err)
			}
		}
		entries += len(ps)
	}
	b.ReportMetric(float64(cpuTime(b)-cpu0)/float64(entries)/1e3, "cpu-us/entry")
}

// BenchResumeAfterResends is a load of a race whose racers resent their
// orders 20,000 times in the open turn: the replaced orders are not read.
// resend stores, behind the store's back and quickly, order entries 2 to
// n+1 of race "r": turn 2, seat seq%12, text "Accelerate".
func BenchResumeAfterResends(b *testing.B, s store.Store, resend func(n int) error) {
	benchRace(b, s)
	at := time.Now().Truncate(time.Microsecond)
	c := context.Background()
	if err := s.Append(c, "r", race.Entry{Seq: 1, Kind: race.EntryResolve, Turn: 1, Seat: -1, At: at},
		&store.SavedTurn{Turn: 1, Hash: "h", State: []byte(`{}`), At: at}); err != nil {
		b.Fatal(err)
	}
	if err := resend(20000); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r, _, err := s.Resume(c, "r", -1)
		if err != nil || len(r.Log) != 14 { // the resolve, the turn's first order and each of 12 seats' last
			b.Fatalf("%d entries, %v", len(r.Log), err)
		}
	}
}

// MigrationNames is the names of a store's schema migrations, in order,
// as migrate.Load reads them from migrations; a bad or empty set fails t.
func MigrationNames(t testing.TB, migrations fs.FS) []string {
	t.Helper()
	ms, err := migrate.Load(migrations)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Name
	}
	return names
}
