package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"strings"
	"time"

	"pitwall/store"
)

var _ store.Announcer = (*Store)(nil)

// newName is an instance's application_name: the entries it appends are
// announced with it, so that it passes over its own.
func newName() string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return "pitwall-" + hex.EncodeToString(b)
}

// Listen implements store.Announcer: it holds one connection of the pool,
// LISTENing on pitwall_log (migration 8), until ctx ends or the connection
// fails.
func (s *Store) Listen(ctx context.Context, fn func(id string)) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, "LISTEN pitwall_log"); err != nil {
		return err
	}
	// The connection goes back to the pool: it must not keep listening.
	defer func() {
		uctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		_, _ = conn.Exec(uctx, "UNLISTEN *")
	}()
	for {
		n, err := conn.Conn().WaitForNotification(ctx)
		if err != nil {
			return err
		}
		id, writer, ok := strings.Cut(n.Payload, " ")
		if ok && writer != s.name {
			fn(id)
		}
	}
}
