package storetest_test

import (
	"path/filepath"
	"sync"
	"testing"

	"pitwall/store"
	"pitwall/store/postgres"
	"pitwall/store/postgres/pgtest"
	"pitwall/store/sqlite"
	"pitwall/store/storetest"
)

// The copy's cases need two kinds of store at once, so they run here
// rather than in either store's package.

func sqliteOpener(t *testing.T) storetest.Opener {
	dir := t.TempDir()
	return func(t *testing.T, name string) store.Store {
		s, err := sqlite.Open(filepath.Join(dir, name+".db"))
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return s
	}
}

// postgresOpener opens each name in a schema of its own (prefix keeps the
// runs' names apart); it skips the test without a server, or fails it
// under CI.
func postgresOpener(t *testing.T, prefix string) storetest.Opener {
	pgtest.Server(t)
	var mu sync.Mutex
	urls := map[string]string{}
	return func(t *testing.T, name string) store.Store {
		mu.Lock()
		u, ok := urls[name]
		if !ok {
			u = pgtest.Schema(t, prefix+name)
			urls[name] = u
		}
		mu.Unlock()
		s, err := postgres.Open(t.Context(), u)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return s
	}
}

func TestCopySQLiteToSQLite(t *testing.T) {
	storetest.RunCopy(t, sqliteOpener(t), sqliteOpener(t))
}

func TestCopySQLiteToPostgres(t *testing.T) {
	storetest.RunCopy(t, sqliteOpener(t), postgresOpener(t, "copy_to_"))
}

func TestCopyPostgresToSQLite(t *testing.T) {
	storetest.RunCopy(t, postgresOpener(t, "copy_from_"), sqliteOpener(t))
}

func TestCopyPostgresToPostgres(t *testing.T) {
	storetest.RunCopy(t, postgresOpener(t, "copy_a_"), postgresOpener(t, "copy_b_"))
}
