package sqlite

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pitwall/store"
)

// TestCopyKnowsEveryTable: every table and column of the schema is copied
// (copyColumns) or named as left out (store.CopyLeaves): a table or column
// a migration adds fails here until the copy carries it or says why not.
func TestCopyKnowsEveryTable(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "schema.db"))
	rows, err := s.db.Query(`SELECT m.name, p.name FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid`)
	if err != nil {
		t.Fatal(err)
	}
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
	checkCopyColumns(t, schema, copyColumns)
}

// checkCopyColumns compares a schema's tables and columns with those a
// copy carries.
func checkCopyColumns(t *testing.T, schema map[string][]string, copied map[string]string) {
	t.Helper()
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
