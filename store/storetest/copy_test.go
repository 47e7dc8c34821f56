package storetest_test

import (
	"testing"

	"pitwall/store/postgres"
	"pitwall/store/sqlite"
	"pitwall/store/storetest"
)

// The copy's cases need two kinds of store at once, so they run here
// rather than in either store's package.

func TestCopySQLiteToSQLite(t *testing.T) {
	storetest.RunCopy(t, storetest.FileOpener(t, sqlite.Open), storetest.FileOpener(t, sqlite.Open))
}

func TestCopySQLiteToPostgres(t *testing.T) {
	storetest.RunCopy(t, storetest.FileOpener(t, sqlite.Open), storetest.SchemaOpener(t, "copy_to_", postgres.Open))
}

func TestCopyPostgresToSQLite(t *testing.T) {
	storetest.RunCopy(t, storetest.SchemaOpener(t, "copy_from_", postgres.Open), storetest.FileOpener(t, sqlite.Open))
}

func TestCopyPostgresToPostgres(t *testing.T) {
	storetest.RunCopy(t, storetest.SchemaOpener(t, "copy_a_", postgres.Open), storetest.SchemaOpener(t, "copy_b_", postgres.Open))
}
