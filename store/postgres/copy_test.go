package postgres

import (
	"context"
	"slices"
	"strings"
	"testing"

	"pitwall/store"
)

// TestCopyKnowsEveryTable: every table and column of the schema is copied
// (copyColumns) or named as left out (store.CopyLeaves): a table or column
// a migration adds fails here until the copy carries it or says why not.
func TestCopyKnowsEveryTable(t *testing.T) {
	s := open(t, schema(t, "copy_columns"))
	rows, err := s.pool.Query(context.Background(), `SELECT table_name, column_name FROM information_schema.columns
		WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position`)
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
	if len(schema) == 0 {
		t.Fatal("the schema has no tables")
	}
	for table, columns := range schema {
		if _, left := store.CopyLeaves[table]; left {
			continue
		}
		list, ok := copyColumns[table]
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
	for table := range copyColumns {
		if schema[table] == nil {
			t.Errorf("the copy carries table %s, which the schema does not have", table)
		}
	}
}
