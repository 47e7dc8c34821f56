package web

import (
	"context"
	"time"
)

// Cleaning the outbox. Every delivery is kept with its outcome, for a
// race's host to see what became of it; once done and a month old it is of
// no more use, and an outbox never cleaned grows a row a hook a turn for
// ever. Each instance cleans up once an hour (several instances each do:
// what one deleted another finds gone), in batches, each its own short
// transaction, so that sending waits for no long delete.
const (
	pruneAfter   = 30 * 24 * time.Hour // how long a done delivery is kept
	pruneEvery   = time.Hour
	pruneBatch   = 500 // deliveries a transaction
	pruneBatches = 40  // batches a cleanup: the rest waits for the next
)

// PruneOutbox deletes the deliveries done more than 30 days ago, save each
// race's latest (GET /api/races/{id}/hooks shows the same as before), if
// this server has not done so in the last hour by its clock; it says how
// many it deleted.
func (s *Server) PruneOutbox(ctx context.Context) (int, error) {
	hs, err := s.hookStore()
	if err != nil {
		return 0, err
	}
	now := s.host.Now()
	s.hooks.mu.Lock()
	due := s.hooks.pruned.IsZero() || !now.Before(s.hooks.pruned.Add(pruneEvery))
	if due {
		s.hooks.pruned = now
	}
	s.hooks.mu.Unlock()
	if !due {
		return 0, nil
	}
	all := 0
	for range pruneBatches {
		n, err := hs.Prune(ctx, now.Add(-pruneAfter), deliveriesShown, pruneBatch)
		all += n
		if err != nil || n < pruneBatch {
			return all, err
		}
	}
	return all, nil
}
