package sqlite

import (
	"context"
	"database/sql"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// The trigger that refuses an INSERT OR REPLACE over a stored entry runs at
// every append: each of its lookups must go by an index to the one entry
// it asks about, not read the race's whole log (which made an append cost
// more the longer its race ran: in BenchmarkAppend, 0.69 ms an append on
// average over a race's first 1,000 entries and 1.05 ms over its first
// 5,000, where by index it is 0.30-0.35 ms at either).
// SQLite does not plan a trigger's body for EXPLAIN, so the test plans its
// WHEN clause as a query, with NEW's columns as parameters, as the trigger
// sees them: values known only when it runs.
func TestReplaceTriggerLooksUpByIndex(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "plan.db"))
	var body string
	if err := s.db.QueryRow(`SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'entries_no_replace'`).Scan(&body); err != nil {
		t.Fatal(err)
	}
	when := regexp.MustCompile(`(?s)\bWHEN\b(.*)\bBEGIN\b`).FindStringSubmatch(body)
	if when == nil {
		t.Fatalf("no WHEN clause in the trigger:\n%s", body)
	}
	query := "EXPLAIN QUERY PLAN SELECT " + regexp.MustCompile(`NEW\.(\w+)`).ReplaceAllString(when[1], ":$1")
	rows, err := s.db.Query(query, namedNew()...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	lookups := 0
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(detail, "entries") {
			continue
		}
		lookups++
		// An index lookup narrower than the race names a second column.
		if !strings.HasPrefix(detail, "SEARCH") || !strings.Contains(detail, "race_id=? AND ") {
			t.Errorf("the trigger reads more than one entry to judge an insert: %s", detail)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if lookups != 3 { // by seq, by key, by a resolve's turn
		t.Errorf("the trigger makes %d lookups in entries, want 3:\n%s", lookups, body)
	}
}

// A load's Tail reads the entries that are not orders by an index of them
// alone, and each seat's last order by entries_orders: never the race's
// every entry from the last resolve on, which holds every resent order.
func TestTailReadsNoResentOrder(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "plan.db"))
	rows, err := s.db.Query("EXPLAIN QUERY PLAN "+tailQuery, "r", 1, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	searches := 0
	for _, d := range plan {
		if !strings.HasPrefix(d, "SEARCH entries") && !strings.HasPrefix(d, "SCAN entries") {
			continue
		}
		searches++
		if !strings.Contains(d, "INDEX entries_others") && !strings.Contains(d, "INDEX entries_orders") && !strings.HasSuffix(d, "(race_id=? AND seq=?)") {
			t.Errorf("the load reads a range of entries that holds resent orders: %s", d)
		}
	}
	if searches != 4 { // the others, the entries picked, each seat's last order, each turn's first
		t.Errorf("%d reads of entries, want 4:\n%s", searches, strings.Join(plan, "\n"))
	}
}

// namedNew binds every column NEW may name.
func namedNew() []any {
	var args []any
	for name, v := range map[string]any{"race_id": "r", "seq": 1, "kind": "resolve", "turn": 1, "seat": 0,
		"text": "", "in_window": 0, "at": "", "key": "k", "hash": ""} {
		args = append(args, sql.Named(name, v))
	}
	return args
}

// An INSERT OR REPLACE of a new entry that collides with a stored one on
// its key or on its turn's resolve would delete the stored one (REPLACE
// fires no DELETE trigger): the trigger refuses each, and the log stays.
func TestReplaceCollisionsRefused(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "replace.db"))
	ctx := context.Background()
	at := time.Now().Truncate(time.Microsecond)
	if err := s.Create(ctx, &race.Race{ID: "r", Ruleset: "ludi", Seed: dice.SeedFromInt(1), Created: at}); err != nil {
		t.Fatal(err)
	}
	log := []race.Entry{
		{Seq: 1, Kind: race.EntryOrder, Turn: 1, Seat: 0, Text: "M3", At: at, Key: "k1", Hash: "a"},
		{Seq: 2, Kind: race.EntryResolve, Turn: 1, Seat: -1, At: at, Hash: "b"},
	}
	for _, e := range log {
		if err := s.Append(ctx, "r", e, nil); err != nil {
			t.Fatal(err)
		}
	}
	const insert = `INSERT OR REPLACE INTO entries (race_id, seq, kind, turn, seat, text, in_window, at, key, hash) VALUES ('r', 3, ?, ?, 0, 'forged', 0, ?, ?, 'h')`
	for _, c := range []struct {
		what, kind, key string
		turn            int
	}{
		{"an order with a stored key", "order", "k1", 2},
		{"a second resolve of turn 1", "resolve", "", 1},
	} {
		if _, err := s.db.Exec(insert, c.kind, c.turn, formatTime(at), c.key); err == nil || !strings.Contains(err.Error(), "append-only") {
			t.Errorf("%s: error = %v, want a refusal", c.what, err)
		}
	}
	// A new entry that collides with nothing is stored: the trigger refuses
	// collisions, not inserts.
	if _, err := s.db.Exec(insert, "order", 2, formatTime(at), "k2"); err != nil {
		t.Errorf("a new order: %v", err)
	}
	got, err := s.Load(ctx, "r")
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Log) != 3 || got.Log[0].Key != "k1" || got.Log[0].Text != "M3" || got.Log[1].Kind != race.EntryResolve {
		t.Errorf("the log after the refused inserts: %+v", got.Log)
	}
}
