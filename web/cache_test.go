package web

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"pitwall/store"
)

// linkStore is an AccessStore of links alone that counts its reads.
type linkStore struct {
	store.AccessStore
	mu           sync.Mutex
	links        map[string]store.Token
	token, lists int
}

func (s *linkStore) Token(_ context.Context, hash string) (store.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.token++
	t, ok := s.links[hash]
	if !ok {
		return t, fmt.Errorf("no link %s: %w", hash, store.ErrNotFound)
	}
	return t, nil
}

func (s *linkStore) Tokens(_ context.Context, id string) ([]store.Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists++
	var out []store.Token
	for _, t := range s.links {
		if t.Race == id {
			out = append(out, t)
		}
	}
	return out, nil
}

func (s *linkStore) RevokeToken(_ context.Context, id, hash string, at time.Time) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := s.links[hash]
	t.Revoked = &at
	s.links[hash] = t
	return nil
}

func (s *linkStore) add(race string, seat int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := fmt.Sprintf("%s-%d", race, seat)
	s.links[h] = store.Token{Hash: h, Race: race, Role: store.RoleSeat, Seat: seat}
	return h
}

func TestCachedLinks(t *testing.T) {
	ctx := context.Background()
	ls := &linkStore{links: map[string]store.Token{}}
	var hashes []string
	for seat := range 10 {
		hashes = append(hashes, ls.add("a", seat))
	}
	other := ls.add("b", 0)
	c := cacheAccess(ls, time.Hour)
	for range 3 {
		for i, h := range hashes {
			tok, err := c.Token(ctx, h)
			if err != nil || tok.Seat != i || tok.Race != "a" || tok.Revoked != nil {
				t.Fatalf("link %s: %+v %v", h, tok, err)
			}
		}
	}
	if ls.token != 10 || ls.lists != 1 {
		t.Fatalf("30 looks at 10 links of a race read %d links and %d lists; want 10 and 1", ls.token, ls.lists)
	}
	if _, err := c.Token(ctx, "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("an unknown link: %v", err)
	}

	// A link revoked here is revoked at once; the race's other links are not.
	if err := c.RevokeToken(ctx, "a", hashes[3], time.Unix(100, 0)); err != nil {
		t.Fatal(err)
	}
	if tok, err := c.Token(ctx, hashes[3]); err != nil || tok.Revoked == nil || !tok.Revoked.Equal(time.Unix(100, 0)) {
		t.Fatalf("a link revoked here: %+v %v", tok, err)
	}
	if tok, err := c.Token(ctx, hashes[4]); err != nil || tok.Revoked != nil {
		t.Fatalf("another link of the race: %+v %v", tok, err)
	}

	// One revoked behind the cache's back (by another instance) holds
	// until the ttl has passed: here, an hour.
	if err := ls.RevokeToken(ctx, "b", other, time.Unix(200, 0)); err != nil {
		t.Fatal(err)
	}
	if tok, err := c.Token(ctx, other); err != nil || tok.Revoked == nil { // first read: the list is read now
		t.Fatalf("a link revoked before it was first read: %+v %v", tok, err)
	}
	// With no ttl, every look reads the list again and sees it.
	fresh := cacheAccess(ls, 0)
	if tok, err := fresh.Token(ctx, hashes[5]); err != nil || tok.Revoked != nil {
		t.Fatalf("a link not revoked yet, through a cache with no ttl: %+v %v", tok, err)
	}
	if err := ls.RevokeToken(ctx, "a", hashes[5], time.Unix(300, 0)); err != nil {
		t.Fatal(err)
	}
	if tok, _ := c.Token(ctx, hashes[5]); tok.Revoked != nil {
		t.Fatalf("the list was read again within its ttl: %+v", tok)
	}
	lists := ls.lists
	if tok, err := fresh.Token(ctx, hashes[5]); err != nil || tok.Revoked == nil || !tok.Revoked.Equal(time.Unix(300, 0)) || ls.lists != lists+1 {
		t.Fatalf("a revocation made elsewhere, the ttl gone: %+v %v, the list read %d more times", tok, err, ls.lists-lists)
	}

	// A link made after the race's list was read is found: the list is read again.
	lists = ls.lists
	late := ls.add("a", 10)
	if tok, err := c.Token(ctx, late); err != nil || tok.Seat != 10 || tok.Revoked != nil {
		t.Fatalf("a link newer than the list: %+v %v", tok, err)
	}
	if ls.lists != lists+1 {
		t.Fatalf("the list was read %d more times for a new link; want once", ls.lists-lists)
	}
}
