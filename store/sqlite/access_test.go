package sqlite

import (
	"path/filepath"
	"testing"

	"pitwall/store"
	"pitwall/store/storetest"
)

func TestAccessConformance(t *testing.T) {
	dir := t.TempDir()
	storetest.RunAccess(t, func(t *testing.T, name string) store.Store {
		s, err := Open(filepath.Join(dir, name+".db"))
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return s
	})
}
