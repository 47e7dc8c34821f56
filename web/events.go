package web

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"pitwall/race"
	"pitwall/store"
)

// The stream of a race is a projection of its log: every event is made from
// a log entry and carries the entry's number as its id, so a client that
// comes back with Last-Event-ID gets exactly what it missed, from the store,
// whatever instance it reaches (host.Since: from memory while the race is
// there, from the store otherwise). An order's entry says only that the seat's
// orders are in, never what they are.

// heartbeat is how often an idle stream sends a comment line, so that
// proxies keep it open and a client learns soon that it has gone.
const heartbeat = 25 * time.Second

// linger is how long an event other than a turn may wait to be sent with
// the events that follow it.
const linger = 20 * time.Millisecond

// broker wakes the streams of a race when its log has grown.
type broker struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]bool
}

func newBroker() *broker { return &broker{subs: map[string]map[chan struct{}]bool{}} }

func (b *broker) subscribe(id string) (chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	b.mu.Lock()
	if b.subs[id] == nil {
		b.subs[id] = map[chan struct{}]bool{}
	}
	b.subs[id][ch] = true
	b.mu.Unlock()
	return ch, func() {
		b.mu.Lock()
		delete(b.subs[id], ch)
		if len(b.subs[id]) == 0 {
			delete(b.subs, id)
		}
		b.mu.Unlock()
	}
}

// wake tells race id's streams to read the log again; a stream already
// woken is not woken twice (it reads everything new when it runs).
func (b *broker) wake(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for ch := range b.subs[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// streamEvent is what one log entry tells a stream, if anything.
func streamEvent(e race.Entry) (name string, data map[string]any, ok bool) {
	switch e.Kind {
	case race.EntryResolve:
		return "turn", map[string]any{"turn": e.Turn}, true
	case race.EntryOrder:
		return "orders_in", map[string]any{"turn": e.Turn, "seat": e.Seat + 1}, true
	case race.EntryReady:
		return "ready", map[string]any{"turn": e.Turn, "seat": e.Seat + 1, "ready": e.Text == "yes"}, true
	case race.EntrySchedule:
		return "schedule", map[string]any{"turn": e.Turn}, true
	}
	return "", nil, false
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	_, tok, err := s.viewer(r, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	fl, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, r, fmt.Errorf("the response writer cannot stream"))
		return
	}
	ch, unsubscribe := s.events.subscribe(id)
	defer unsubscribe()
	// From the entry after Last-Event-ID, or (a new stream) from now on.
	last := -1
	if h := r.Header.Get("Last-Event-ID"); h != "" {
		n, err := strconv.Atoi(h)
		if err != nil || n < 0 {
			s.fail(w, r, &apiError{Msg: fmt.Sprintf("Last-Event-ID is an event's id, a number from 0; not %q", h), Field: "Last-Event-ID", Code: "bad_input"})
			return
		}
		last = n
	}
	if last < 0 {
		n, err := s.host.Store.Last(r.Context(), id)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		last = n
	}
	log, err := s.host.Since(r.Context(), id, last)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Accel-Buffering", "no") // nginx: pass events on at once
	w.WriteHeader(http.StatusOK)
	// send writes the events of log; it says whether any was written, and
	// whether one was a turn.
	send := func(log []race.Entry) (wrote, turn bool, err error) {
		for _, e := range log {
			last = e.Seq
			if name, data, ok := streamEvent(e); ok {
				if _, err := fmt.Fprintf(w, "id: %d\nevent: %s\ndata: %s\n\n", e.Seq, name, jsonString(data)); err != nil {
					return wrote, turn, err
				}
				wrote, turn = true, turn || name == "turn"
			}
		}
		return wrote, turn, nil
	}
	fmt.Fprintf(w, "retry: 3000\n\n")
	if _, _, err := send(log); err != nil { // what the client missed, at once
		return
	}
	fl.Flush()
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	// A turn is sent at once; other events wait up to linger for those
	// that come after them (a turn's orders come in bursts), so that a
	// burst costs the stream one write, not one an event.
	var later <-chan time.Time
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case <-later:
			fl.Flush()
			later = nil
			continue
		case <-tick.C:
			if _, err := fmt.Fprint(w, ": still here\n\n"); err != nil {
				return
			}
			fl.Flush()
			later = nil
			continue
		case <-ch:
		}
		// A link revoked while its stream is open closes the stream at the
		// race's next event.
		if tok != nil {
			if t, err := s.access.Token(r.Context(), tok.Hash); err != nil || t.Revoked != nil {
				return
			}
		}
		if log, err = s.host.Since(r.Context(), id, last); err != nil {
			return // the client reconnects with Last-Event-ID
		}
		wrote, turn, err := send(log)
		switch {
		case err != nil:
			return
		case turn:
			fl.Flush()
			later = nil
		case wrote && later == nil:
			later = time.After(linger)
		}
	}
}

// RunListen, on a store shared with other instances (store.Announcer),
// hears of every entry they append until ctx ends: the race this instance
// keeps in memory is read again, and its streams wake. Should the
// connection fail, it listens again a second later, and wakes every stream
// and marks every race it keeps behind (what it missed meanwhile is read
// from the store).
func (s *Server) RunListen(ctx context.Context) {
	an, ok := s.host.Store.(store.Announcer)
	if !ok {
		return
	}
	heard := func(id string) {
		s.host.Behind(id)
		s.events.wake(id)
	}
	for {
		err := an.Listen(ctx, heard)
		if ctx.Err() != nil {
			return
		}
		s.log.Error("listening for other instances' writes; listening again in a second", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
		s.host.BehindAll() // what was announced meanwhile is not known
		for _, id := range s.events.races() {
			s.events.wake(id)
		}
	}
}

// races lists the races with a stream open.
func (b *broker) races() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	ids := make([]string, 0, len(b.subs))
	for id := range b.subs {
		ids = append(ids, id)
	}
	return ids
}
