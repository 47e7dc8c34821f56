package sqlite

import (
	"path/filepath"
	"testing"

	"pitwall/store/storetest"
)

// TestCopyKnowsEveryTable: every table and column of the schema is copied
// (store.CopyColumns) or named as left out (store.CopyLeaves): a table or column
// a migration adds fails here until the copy carries it or says why not.
func TestCopyKnowsEveryTable(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "schema.db"))
	rows, err := s.db.Query(`SELECT m.name, p.name FROM sqlite_schema m, pragma_table_info(m.name) p WHERE m.type = 'table' ORDER BY m.name, p.cid`)
	if err != nil {
		t.Fatal(err)
	}
	storetest.CheckCopyColumns(t, rows)
}
