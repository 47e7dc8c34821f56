package postgres

import (
	"sync"
	"testing"

	"pitwall/store"
	"pitwall/store/storetest"
)

// Each subtest gets a schema of its own, as in TestConformance.
func TestAccessConformance(t *testing.T) {
	server(t)
	var mu sync.Mutex
	urls := map[string]string{}
	storetest.RunAccess(t, func(t *testing.T, name string) store.Store {
		mu.Lock()
		u, ok := urls[name]
		if !ok {
			u = schema(t, "access_"+name)
			urls[name] = u
		}
		mu.Unlock()
		s, err := Open(t.Context(), u)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return s
	})
}
