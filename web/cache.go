package web

import (
	"context"
	"fmt"
	"sync"
	"time"

	"pitwall/store"
)

// cachedAccess is the service's AccessStore: every request reads its
// token's link and its race's access, and every write the race's controls,
// so those are kept for a moment (ttl) instead of read from the database
// each time. What this instance changes it forgets at once; what another
// instance changes (a link revoked there) holds here for at most ttl.
//
// A link never changes but for its revocation, so what a link is (its race,
// role, seat) is kept for linkTTL, and whether it is revoked is read for all
// the race's links at once, every ttl: a race's ten streams and ten racers
// cost one read a second, not ten.
type cachedAccess struct {
	store.AccessStore
	access   ttlCache[string, store.Access]
	links    ttlCache[string, store.Token]
	revoked  ttlCache[string, map[string]*time.Time] // by race: each link's revocation, nil if none
	controls ttlCache[string, []store.Control]
}

// linkTTL is how long what a link is, and a race's access, stay known.
const linkTTL = 10 * time.Minute

// accessTTL is how long the service trusts what it read of a race's
// links, access and controls.
const accessTTL = time.Second

func cacheAccess(as store.AccessStore, ttl time.Duration) *cachedAccess {
	// A race's access is written with the race and never changed.
	return &cachedAccess{AccessStore: as, access: newTTLCache[string, store.Access](max(ttl, linkTTL)),
		links: newTTLCache[string, store.Token](max(ttl, linkTTL)), revoked: newTTLCache[string, map[string]*time.Time](ttl),
		controls: newTTLCache[string, []store.Control](ttl)}
}

func (c *cachedAccess) Access(ctx context.Context, id string) (store.Access, error) {
	return c.access.get(id, func() (store.Access, error) { return c.AccessStore.Access(ctx, id) })
}

func (c *cachedAccess) Token(ctx context.Context, hash string) (store.Token, error) {
	t, err := c.links.get(hash, func() (store.Token, error) { return c.AccessStore.Token(ctx, hash) })
	if err != nil {
		return t, err
	}
	for range 2 {
		rv, err := c.revoked.get(t.Race, func() (map[string]*time.Time, error) {
			ts, err := c.AccessStore.Tokens(ctx, t.Race)
			m := make(map[string]*time.Time, len(ts))
			for _, x := range ts {
				m[x.Hash] = x.Revoked
			}
			return m, err
		})
		if err != nil {
			return store.Token{}, err
		}
		if r, ok := rv[hash]; ok {
			t.Revoked = r
			return t, nil
		}
		c.revoked.forget(t.Race) // the link is newer than the list
	}
	return store.Token{}, fmt.Errorf("link %.12s of race %s is not among the race's links: %w", hash, t.Race, store.ErrNotFound)
}

// Controls are shared: callers only read them.
func (c *cachedAccess) Controls(ctx context.Context, id string) ([]store.Control, error) {
	return c.controls.get(id, func() ([]store.Control, error) { return c.AccessStore.Controls(ctx, id) })
}

func (c *cachedAccess) RevokeToken(ctx context.Context, id, hash string, at time.Time) error {
	defer c.revoked.forget(id) // after: a read meanwhile may have kept the old list
	return c.AccessStore.RevokeToken(ctx, id, hash, at)
}

func (c *cachedAccess) AddControl(ctx context.Context, ctl store.Control) (store.Control, error) {
	defer c.controls.forget(ctl.Race)
	return c.AccessStore.AddControl(ctx, ctl)
}

// ttlCache keeps what load read for ttl; a failed load is not kept, nor
// one that a forget overtook (it may have read what was changed since).
type ttlCache[K comparable, V any] struct {
	ttl time.Duration
	mu  sync.Mutex
	m   map[K]ttlEntry[V]
	gen uint64 // forgets so far
}

type ttlEntry[V any] struct {
	v    V
	read time.Time
}

func newTTLCache[K comparable, V any](ttl time.Duration) ttlCache[K, V] {
	return ttlCache[K, V]{ttl: ttl, m: map[K]ttlEntry[V]{}}
}

// maxCached bounds a cache: past it, what has expired is dropped.
const maxCached = 100_000

func (c *ttlCache[K, V]) get(k K, load func() (V, error)) (V, error) {
	now := time.Now()
	c.mu.Lock()
	e, ok := c.m[k]
	gen := c.gen
	c.mu.Unlock()
	if ok && now.Sub(e.read) < c.ttl {
		return e.v, nil
	}
	v, err := load()
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen {
		return v, nil
	}
	if len(c.m) >= maxCached {
		for k, e := range c.m {
			if now.Sub(e.read) >= c.ttl {
				delete(c.m, k)
			}
		}
	}
	c.m[k] = ttlEntry[V]{v: v, read: now}
	return v, nil
}

func (c *ttlCache[K, V]) forget(k K) {
	c.mu.Lock()
	delete(c.m, k)
	c.gen++
	c.mu.Unlock()
}
