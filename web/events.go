package web

import (
	"context"
	"fmt"
	"io"
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
const linger = 250 * time.Millisecond

// broker wakes the streams of a race when its log has grown.
type broker struct {
	mu   sync.Mutex
	subs map[string]map[chan struct{}]bool
	// lingering holds the races whose streams will be woken when linger
	// has passed.
	lingering map[string]bool
}

func newBroker() *broker {
	return &broker{subs: map[string]map[chan struct{}]bool{}, lingering: map[string]bool{}}
}

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

// wake tells race id's streams that its log has grown; a stream already
// woken is not woken twice (it reads everything new when it runs). A wake
// that is not urgent (a seat's orders or ready mark) waits up to linger to
// go out with what follows it: a burst of orders wakes each stream once,
// not once an order.
func (b *broker) wake(id string, urgent bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if urgent {
		b.signal(id)
		return
	}
	if b.lingering[id] || len(b.subs[id]) == 0 {
		return
	}
	b.lingering[id] = true
	time.AfterFunc(linger, func() {
		b.mu.Lock()
		defer b.mu.Unlock()
		delete(b.lingering, id)
		b.signal(id)
	})
}

// signal wakes race id's streams now; b.mu is held.
func (b *broker) signal(id string) {
	for ch := range b.subs[id] {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// streamEvent is what one log entry tells a stream, if anything: the
// event's name and its data, a JSON object.
func streamEvent(e race.Entry) (name string, data []byte, ok bool) {
	// The keys in the order encoding/json gives a map's: sorted.
	num := func(b []byte, key string, n int) []byte {
		b = append(b, `"`+key+`":`...)
		return strconv.AppendInt(b, int64(n), 10)
	}
	switch e.Kind {
	case race.EntryResolve:
		name, data = "turn", num([]byte("{"), "turn", e.Turn)
	case race.EntryOrder:
		name, data = "orders_in", num(append(num([]byte("{"), "seat", e.Seat+1), ','), "turn", e.Turn)
	case race.EntryReady:
		data = strconv.AppendBool([]byte(`{"ready":`), e.Text == "yes")
		name, data = "ready", num(append(num(append(data, ','), "seat", e.Seat+1), ','), "turn", e.Turn)
	case race.EntrySchedule:
		name, data = "schedule", num([]byte("{"), "turn", e.Turn)
	case race.EntryStart:
		name, data = "start", num([]byte("{"), "turn", e.Turn)
	default:
		return "", nil, false
	}
	return name, append(data, '}'), true
}

func (s *Server) stream(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	_, tok, err := s.viewer(r, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if _, ok := w.(http.Flusher); !ok {
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
	rc := http.NewResponseController(w)
	buf := []byte("retry: 3000\n\n")
	// send writes the events of log and flushes them.
	send := func(log []race.Entry) error {
		for _, e := range log {
			last = e.Seq
			buf = appendEvent(buf, e)
		}
		if len(buf) == 0 {
			return nil
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		if err != nil {
			return err
		}
		return rc.Flush()
	}
	if err := send(log); err != nil { // what the client missed, at once
		return
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case <-s.done:
			return
		case <-tick.C:
			if _, err := io.WriteString(w, ": still here\n\n"); err != nil || rc.Flush() != nil {
				return
			}
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
		if err := send(log); err != nil {
			return
		}
	}
}

// appendEvent appends what entry e tells a stream, if anything, as one
// server-sent event whose id is the entry's number.
func appendEvent(b []byte, e race.Entry) []byte {
	name, data, ok := streamEvent(e)
	if !ok {
		return b
	}
	b = append(b, "id: "...)
	b = strconv.AppendInt(b, int64(e.Seq), 10)
	b = append(b, "\nevent: "...)
	b = append(b, name...)
	b = append(b, "\ndata: "...)
	b = append(b, data...)
	return append(b, "\n\n"...)
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
		s.events.wake(id, true)
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
			s.events.wake(id, true)
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
