package memstore

import (
	"sync"
	"testing"

	"pitwall/store"
	"pitwall/store/storetest"
)

func TestConformance(t *testing.T) {
	var mu sync.Mutex
	data := map[string]*Data{}
	storetest.Run(t, func(t *testing.T, name string) store.Store {
		mu.Lock()
		defer mu.Unlock()
		if data[name] == nil {
			data[name] = NewData()
		}
		return Open(data[name])
	})
}
