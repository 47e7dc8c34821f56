package storetest

import (
	"slices"
	"strings"
	"testing"

	"pitwall/store"
)

// Rows are the rows of a query, as database/sql and pgx both give them.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// CheckCopyColumns reads a store's schema from rows of (table, column),
// each table's columns in their order, and compares it with
// store.CopyColumns (checkCopyColumns).
func CheckCopyColumns(t *testing.T, rows Rows) {
	t.Helper()
	schema := map[string][]string{}
	for rows.Next() {
		var table, column string
		if err := rows.Scan(&table, &column); err != nil {
			t.Fatal(err)
		}
		schema[table] = append(schema[table], column)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	checkCopyColumns(t, schema, store.CopyColumns)
}

// checkCopyColumns compares a store's schema (its tables' columns) with
// the columns its copy carries, table by table (each a comma-separated
// list), less what store.CopyLeaves names: a table or column a migration
// adds fails it until the copy carries it or says why not.
func checkCopyColumns(t *testing.T, schema map[string][]string, copied map[string]string) {
	t.Helper()
	if len(schema) == 0 {
		t.Fatal("the schema has no tables")
	}
	for table, columns := range schema {
		if _, left := store.CopyLeaves[table]; left {
			continue
		}
		list, ok := copied[table]
		if !ok {
			t.Errorf("table %s is neither copied nor named in store.CopyLeaves", table)
			continue
		}
		var want []string
		for _, c := range columns {
			if _, left := store.CopyLeaves[table+"."+c]; !left {
				want = append(want, c)
			}
		}
		got := strings.Split(list, ", ")
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("table %s: the copy carries %v; the schema has %v (less what store.CopyLeaves names)", table, got, want)
		}
	}
	for table := range copied {
		if schema[table] == nil {
			t.Errorf("the copy carries table %s, which the schema does not have", table)
		}
	}
}
