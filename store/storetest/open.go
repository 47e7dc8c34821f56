package storetest

import (
	"context"
	"path/filepath"
	"sync"
	"testing"

	"pitwall/store"
	"pitwall/store/postgres/pgtest"
)

// FileOpener opens each name as a file of its own, name.db, in one
// directory of the test's: open is a store's Open (sqlite.Open).
func FileOpener[S store.Store](t *testing.T, open func(path string) (S, error)) Opener {
	dir := t.TempDir()
	return func(t *testing.T, name string) store.Store {
		s, err := open(filepath.Join(dir, name+".db"))
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return s
	}
}

// SchemaOpener opens each name in a PostgreSQL schema of its own
// (pgtest.Schema; prefix keeps two suites' names apart), and a second open
// of a name reopens it: open is a store's Open (postgres.Open). It skips
// the test without a server, or fails it under CI, once rather than in
// every subtest.
func SchemaOpener[S store.Store](t *testing.T, prefix string, open func(ctx context.Context, url string) (S, error)) Opener {
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
		s, err := open(t.Context(), u)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return s
	}
}
