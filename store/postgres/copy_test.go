package postgres

import (
	"context"
	"testing"

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
	storetest.CheckCopyColumns(t, rows)
}
