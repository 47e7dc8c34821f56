package postgres

import (
	"context"
	"testing"

	"pitwall/store"
	"pitwall/store/storetest"
)

// TestCopyKnowsEveryTable: every table and column of the schema is copied
// (store.CopyColumns) or named as left out (store.CopyLeaves): a table or column
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
	storetest.CheckCopyColumns(t, schema, store.CopyColumns)
}
