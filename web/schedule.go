package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"pitwall/host"
	"pitwall/race"
	"pitwall/store"
)

// Deadlines. A turn resolves at its deadline exactly once, whichever
// instance (or how many) sees it fall due: every resolve names its turn, and
// the store takes one resolve of a turn (host.Resolve). So the scheduler
// needs no lock or lease; what it keeps is only an index of when to look.
//
// The index holds the deadline of every served race's open turn, as this
// instance last read it. A write through this instance updates it at once;
// Rescan reads every race again (at start, which is how deadlines that fell
// due while the service was down are resolved, and then now and then, which
// is how one instance learns of another's schedules). A deadline read stale
// does no harm: the race is read afresh before anything is resolved.

// deadlines is the scheduler's index.
type deadlines struct {
	mu   sync.Mutex
	at   map[string]time.Time // race id: its open turn's deadline
	poke chan struct{}        // an earlier deadline than the loop waits for
}

func newDeadlines() *deadlines {
	return &deadlines{at: map[string]time.Time{}, poke: make(chan struct{}, 1)}
}

// note records p's deadline (none, once p is over or its turn has none).
func (d *deadlines) note(p *race.Played) {
	if !p.Started || p.State.Over() {
		d.set(p.Race.ID, nil)
		return
	}
	d.set(p.Race.ID, p.Schedule.Deadline)
}

// set records race id's open turn's deadline dl (nil: none).
func (d *deadlines) set(id string, dl *time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if dl == nil {
		delete(d.at, id)
		return
	}
	if old, ok := d.at[id]; !ok || dl.Before(old) {
		select {
		case d.poke <- struct{}{}:
		default:
		}
	}
	d.at[id] = *dl
}

// of is race id's open turn's deadline, as the index holds it.
func (d *deadlines) of(id string) (time.Time, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	t, ok := d.at[id]
	return t, ok
}

// due lists the races whose deadline has come at now, and the next
// deadline after now (zero for none).
func (d *deadlines) due(now time.Time) (ids []string, next time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for id, t := range d.at {
		switch {
		case !t.After(now):
			ids = append(ids, id)
		case next.IsZero() || t.Before(next):
			next = t
		}
	}
	return ids, next
}

// ResolveDue resolves every turn whose deadline has come, by the index, and
// returns how many this call resolved (another instance may have resolved
// some of them first).
func (s *Server) ResolveDue(ctx context.Context) int {
	ids, _ := s.deadlines.due(s.host.Now())
	n := 0
	for _, id := range ids {
		if s.settle(ctx, id) {
			n++
		}
	}
	return n
}

// Rescan reads every served race: it notes each open turn's deadline and
// resolves the turns that are due (a deadline passed while the service was
// down, or every seat ready before a resolve was stored). It returns how
// many turns it resolved.
func (s *Server) Rescan(ctx context.Context) (int, error) {
	list, err := s.host.Store.List(ctx, store.Page{})
	if err != nil {
		return 0, err
	}
	n := 0
	for _, r := range list {
		if _, over := s.finished.Load(r.ID); over {
			continue // a race over never changes
		}
		if _, err := s.access.Access(ctx, r.ID); errors.Is(err, store.ErrNotFound) {
			continue // a race of the command line's, not served
		}
		if s.settle(ctx, r.ID) {
			n++
		}
		if ctx.Err() != nil {
			return n, ctx.Err()
		}
	}
	return n, nil
}

// EvictAfter is how long a race no one uses stays in memory.
const EvictAfter = 10 * time.Minute

// RunDeadlines resolves turns at their deadlines until ctx ends: it reads
// every race at once and then every rescan, and in between wakes at the
// next deadline it knows. At each rescan it drops from memory the races
// unused for EvictAfter.
func (s *Server) RunDeadlines(ctx context.Context, rescan time.Duration) {
	scan := func() {
		if n, err := s.Rescan(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("reading the races' deadlines", "err", err)
		} else if n > 0 {
			s.log.Info("resolved the turns that fell due", "turns", n)
		}
		// The scan read every race still running: what it did not read,
		// and no one asked for since, goes (races over, mostly).
		s.host.Evict(EvictAfter)
	}
	scan()
	lastScan := s.host.Now()
	for {
		s.ResolveDue(ctx)
		now := s.host.Now()
		wait := rescan - now.Sub(lastScan)
		if _, next := s.deadlines.due(now); !next.IsZero() && next.Sub(now) < wait {
			wait = next.Sub(now)
		}
		t := time.NewTimer(max(wait, 0))
		select {
		case <-ctx.Done():
			t.Stop()
			return
		case <-s.deadlines.poke:
			t.Stop()
			continue
		case <-t.C:
		}
		if s.host.Now().Sub(lastScan) >= rescan {
			scan()
			lastScan = s.host.Now()
		}
	}
}

// scheduleBody is POST /api/races/{id}/schedule: a deadline (and bonus
// window) for a turn, or an extension of its deadline.
type scheduleBody struct {
	Turn        *int       `json:"turn"`
	Deadline    *time.Time `json:"deadline"`
	WindowOpen  *time.Time `json:"window_open"`
	WindowClose *time.Time `json:"window_close"`
	Extend      string     `json:"extend"`
	Key         string     `json:"key"`
}

func (s *Server) setSchedule(w http.ResponseWriter, r *http.Request) {
	var b scheduleBody
	id, ok := s.hostBody(w, r, "a schedule", "only the race's host sets its deadlines", &b)
	if !ok {
		return
	}
	if b.Turn == nil || *b.Turn < 1 {
		s.fail(w, r, &apiError{Msg: "name the turn the schedule is for: \"turn\": N, from 1", Field: "turn", Code: "bad_input"})
		return
	}
	if err := checkKey(b.Key); err != nil {
		s.fail(w, r, err)
		return
	}
	q := host.Req{Turn: *b.Turn, Key: b.Key}
	var turn int
	var sch race.Schedule
	var err error
	change := race.Schedule{Deadline: b.Deadline, WindowOpen: b.WindowOpen, WindowClose: b.WindowClose}
	switch {
	case b.Extend != "" && !change.Empty():
		err = &apiError{Msg: "extend moves the deadline there is; give it alone, or give the times and no extend", Field: "extend", Code: "bad_input"}
	case b.Extend != "":
		d, perr := time.ParseDuration(b.Extend)
		if perr != nil {
			err = &apiError{Msg: fmt.Sprintf("extend is a length of time such as \"24h\" or \"90m\"; not %q", b.Extend), Field: "extend", Code: "bad_input"}
			break
		}
		turn, sch, err = s.host.Extend(r.Context(), id, d, q)
	case change.Empty():
		err = &apiError{Msg: "give a deadline (RFC 3339, such as 2026-12-01T20:00:00+01:00), a bonus window (window_open and window_close), or extend", Field: "deadline", Code: "bad_input"}
	default:
		turn, sch, err = s.host.Schedule(r.Context(), id, change, q)
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.events.wake(id, true)
	// A race by invite not started yet resolves and warns of nothing: its
	// start (settle) puts turn 1's deadline in the index.
	if s.isBegun(r.Context(), id) {
		s.deadlines.set(id, sch.Deadline) // a race over takes no schedule
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "race": id, "turn": turn, "schedule": sch})
}
