package host

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"pitwall/race"
	"pitwall/store"
)

// A service keeps the races it serves in memory (KeepLive): each race is
// loaded once, its writes run one at a time on the race as it stands, and
// the appends of all races that arrive together are stored in one
// transaction and one commit. The store stays the truth: a write is
// answered only once it is durable, and every append still names the entry
// it follows, so a race that another process wrote to (a second instance,
// or the CLI on the same file) is refused as a conflict, loaded again, and
// the write tried again on it.
//
// A write does not hold its race while its entry waits for the commit: the
// race in memory moves on past the entry as it is queued, so that the next
// write of the race (the next racer's order of a burst) is checked and
// queued at once and goes out in the same commit, rather than one commit a
// write. What is answered is still only ever what is durable: a write, or
// a read of the race, waits for the entries queued before it to be stored
// before it answers, and streams are told of an entry once it is stored.
// Entries of one race are stored in the order they were queued, each
// naming the one before, so should one fail, every later one fails too
// (it follows an entry the log does not hold); the race in memory is then
// read again from the store before its next use.

// DefaultFresh is how long a race kept in memory is trusted without asking
// the store whether another process has written to it.
const DefaultFresh = time.Second

// maxBatch is the most appends one commit stores.
const maxBatch = 1024

// keepTail is how many of a race's latest entries stay in memory for its
// streams (Since).
const keepTail = 512

type live struct {
	mu    sync.Mutex
	races map[string]*slot
	fresh time.Duration
	batch *committer // nil: the store appends one entry a commit
	log   *slog.Logger
}

// slot is one race in memory. mu is held for the whole of a write, commit
// included, so that the race's writes run one at a time on p; p is nil
// when the race is not in memory (yet, or again after a failure).
type slot struct {
	mu      sync.Mutex
	p       *race.Played
	keys    map[string]race.Entry // every keyed entry of the log
	checked time.Time             // when p was last known to be the store's latest
	used    time.Time             // when a lease last took the slot (under live.mu)
	// behind: another process has appended to the race (Behind); p is
	// checked against the store at its next use, and streams read the store.
	behind atomic.Bool
	// last is the latest entry queued for the store whose outcome this
	// race has not yet looked at (nil: none); broken, that an entry queued
	// failed, so that p holds entries the store does not.
	last   *pending
	broken atomic.Bool

	// The entries appended since p was loaded, from seq from on, for
	// streams: tmu, not mu, so that a stream never waits for a commit.
	tmu  sync.Mutex
	tail []race.Entry
	from int
}

// KeepLive makes h keep the races it serves in memory, trusting one for
// fresh (DefaultFresh for 0) before it asks the store whether another
// process wrote to it. It is for a long-running service; call it before h
// serves anything. Failures it recovers from are logged to log (nil: none).
func (h *Host) KeepLive(fresh time.Duration, log *slog.Logger) {
	if fresh <= 0 {
		fresh = DefaultFresh
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	l := &live{races: map[string]*slot{}, fresh: fresh, log: log}
	if b, ok := h.Store.(store.Batcher); ok {
		l.batch = &committer{st: b, log: log}
	}
	h.live = l
}

// Live says whether h keeps races in memory.
func (h *Host) Live() bool { return h.live != nil }

func (l *live) slot(id string) *slot {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.races[id]
	if s == nil {
		s = &slot{}
		l.races[id] = s
	}
	s.used = time.Now()
	return s
}

// Evict drops from memory the races no one has used for idle, and says how
// many it dropped: a service that runs for months must not hold every race
// it ever served. A race in use (a write holds it) stays; a race dropped is
// loaded again when it is next asked for. Should a write that took the
// race just before it was dropped still be running, its append is judged
// by the store as every append is, so nothing is lost or stored twice.
func (h *Host) Evict(idle time.Duration) int {
	if h.live == nil {
		return 0
	}
	now := time.Now()
	h.live.mu.Lock()
	defer h.live.mu.Unlock()
	n := 0
	for id, s := range h.live.races {
		if now.Sub(s.used) < idle || !s.mu.TryLock() {
			continue
		}
		if s.last != nil && !s.last.finished() {
			s.mu.Unlock() // its entries are on their way to the store
			continue
		}
		delete(h.live.races, id)
		s.mu.Unlock()
		n++
	}
	return n
}

// Kept says how many races h keeps in memory.
func (h *Host) Kept() int {
	if h.live == nil {
		return 0
	}
	h.live.mu.Lock()
	defer h.live.mu.Unlock()
	return len(h.live.races)
}

// lease is one write's (or read's) hold on a race: with the race in
// memory, its slot is locked until release.
type lease struct {
	h  *Host
	id string
	s  *slot // nil: the host keeps nothing in memory
	p  *race.Played
	// whole: p is the whole log followed (a race that may be forming), not
	// the slot's; stale: p must not stay in memory after release.
	whole, stale bool
	// checked: p was read from the store, or matched its log, as this lease
	// took it; seq is p's log length then.
	checked bool
	seq     int
	// mine is the entry this lease queued, if any.
	mine *pending
}

// What a write needs of a race: the race as it stands (started), the
// whole log followed (a race that may still be forming), or the first,
// and the second for a race still forming.
const (
	started = iota
	whole
	either
)

// lease takes race id as mode says.
func (h *Host) lease(ctx context.Context, id string, mode int) (*lease, error) {
	l := &lease{h: h, id: id, whole: mode == whole}
	if h.live != nil {
		l.s = h.live.slot(id)
		l.s.mu.Lock()
	}
	var err error
	if !l.whole {
		l.p, err = l.current(ctx)
		if errors.Is(err, ErrForming) && mode == either {
			l.whole = true
		}
	}
	if l.whole {
		l.p, err = h.Forming(ctx, id)
	}
	if err != nil {
		l.release()
		return nil, err
	}
	l.seq = l.p.Seq
	return l, nil
}

// behind says whether a refusal the write came to may be memory's mistake:
// the race in memory, trusted for a while without a look at the store, is
// behind another writer's log (a turn another instance resolved is "not
// open yet" here). Then the race is dropped from memory, for the write to
// be tried again on the log as it is. A refusal is rare, so the look costs
// little.
func (l *lease) behind(ctx context.Context) bool {
	if l.s == nil || l.whole || l.checked {
		return false
	}
	if l.s.quiesce() {
		l.stale = true // an entry queued before failed: p is not the store's
		return true
	}
	last, err := l.h.Store.Last(ctx, l.id)
	if err != nil || last == l.seq {
		return false
	}
	l.stale = true
	return true
}

// current is the race as it stands: the slot's, loaded when it is not in
// memory or the store has moved on.
func (l *lease) current(ctx context.Context) (*race.Played, error) {
	h, s := l.h, l.s
	if s == nil {
		return h.load(ctx, l.id, -1)
	}
	if behind := s.behind.Swap(false); s.p != nil && (behind || s.broken.Load() || time.Since(s.checked) > h.live.fresh) {
		// The store's last entry is compared with p's once p holds only
		// what is stored (quiesce drops p should an entry have failed).
		if !s.quiesce() {
			last, err := h.Store.Last(ctx, l.id)
			if err != nil {
				if behind {
					s.behind.Store(true) // still to be looked at: the look failed
				}
				return nil, err
			}
			if last != s.p.Seq {
				s.drop()
			}
			s.checked, l.checked = time.Now(), true
		}
	}
	if s.p != nil {
		return s.p, nil
	}
	s.quiesce() // what is loaded holds every entry queued
	// What is loaded now holds every write announced so far; one announced
	// during the load sets the mark again.
	s.behind.Store(false)
	p, err := h.load(ctx, l.id, -1)
	if err != nil {
		return nil, err
	}
	keyed, err := h.Store.Keys(ctx, l.id)
	if err != nil {
		return nil, err
	}
	s.keys = make(map[string]race.Entry, len(keyed))
	for _, e := range keyed {
		s.keys[e.Key] = e
	}
	p.Race.Log = nil // the slot keeps what it needs of the log
	s.p, s.checked, l.checked = p, time.Now(), true
	s.tmu.Lock()
	s.tail, s.from = nil, p.Seq+1
	s.tmu.Unlock()
	return p, nil
}

// release lets the race go; a race left stale is loaded again next time.
func (l *lease) release() {
	if l.s == nil {
		return
	}
	if l.stale {
		l.s.drop()
	}
	l.s.mu.Unlock()
}

// drop forgets the race in memory (held under mu), and the tail of its
// log with it: what was stored since is not there, so a stream reads the
// store until the race is loaded again.
func (s *slot) drop() {
	s.p = nil
	s.tmu.Lock()
	s.tail, s.from = nil, 0
	s.tmu.Unlock()
}

// quiesce waits (under mu) for the entries queued for the store to be
// stored or to fail; should one have failed, it drops p, which holds it,
// and says so.
func (s *slot) quiesce() bool {
	if s.last != nil {
		<-s.last.fin
		s.last = nil
	}
	if s.broken.Swap(false) {
		s.drop()
		return true
	}
	return false
}

// stored is told, in the order they were queued, of the outcome of each
// entry of the race: one stored is given to the streams; one that failed
// breaks p. It runs on the committer, so it never takes mu.
func (s *slot) stored(e race.Entry, err error) {
	if err != nil {
		s.broken.Store(true)
		return
	}
	s.tmu.Lock()
	defer s.tmu.Unlock()
	// The tail runs without a gap from s.from: an entry that does not follow
	// it (p was dropped and is loaded again) is left to the load.
	if s.from == 0 || e.Seq != s.from+len(s.tail) {
		return
	}
	s.tail = append(s.tail, e)
	if len(s.tail) > keepTail {
		n := len(s.tail) - keepTail/2
		s.tail, s.from = append([]race.Entry(nil), s.tail[n:]...), s.tail[n].Seq
	}
}

// queued is the latest entry of the race queued for the store whose
// outcome no lease has taken in yet (it may be stored already), under mu:
// a write or a read waits for it before it answers, as what it saw holds
// that entry.
func (l *lease) queued() *pending {
	if l.s == nil {
		return nil
	}
	return l.s.last
}

// wait waits for w (from queued; nil: nothing) and says whether what the
// lease saw is the store's. w stored means every entry before it was (each
// follows the one before). w failed: the store's reason when w is the
// lease's own entry, ErrConflict otherwise (and for a key stored meanwhile),
// so that the write is tried again on the race read again. An entry queued
// after w does not matter: what the lease saw did not hold it.
func (l *lease) wait(w *pending) error {
	if w == nil {
		return nil
	}
	<-w.fin
	if w.err == nil {
		return nil
	}
	if w == l.mine && !errors.Is(w.err, store.ErrDuplicateKey) {
		return w.err
	}
	return store.ErrConflict
}

// changing says that the write is about to change p before it stores
// anything (a resolve plays the turn first): should it fail, p is stale.
func (l *lease) changing() { l.stale = true }

// own is p for a caller to keep: a clone of a race kept in memory.
func (l *lease) own() *race.Played {
	if l.s == nil || l.whole {
		return l.p
	}
	// The prompts are asked of the rules once per state: asked here, before
	// the clone, they serve the clone and the race in memory alike (rtd's
	// write every kart's note).
	l.p.Prompts()
	return l.p.Clone()
}

// keyed is the entry stored with key, or nil: from memory for a race kept
// there (which knows every key of its log), from the store otherwise.
func (l *lease) keyed(ctx context.Context, key string) (*race.Entry, error) {
	if l.s == nil || l.whole {
		return l.h.Store.Keyed(ctx, l.id, key)
	}
	if e, ok := l.s.keys[key]; ok {
		return &e, nil
	}
	return nil, nil
}

// appendEntry links e into the chain after p's head, stores it and moves p
// on past it (a resolve entry's turn has been played on p already).
func (h *Host) appendEntry(ctx context.Context, l *lease, e race.Entry, rec *race.TurnRecord) (race.Entry, error) {
	p := l.p
	e.Seq = p.Seq + 1
	e.Hash = race.ChainNext(p.Head, e, rec, p.Race.Seed)
	// Chained on the entry before it as this host has it, which may still
	// be on its way to the store: the store refuses e should another
	// writer's entry have taken that one's place (the first has no entry
	// before it to name).
	pend := store.Pending{Race: l.id, Entry: e, Turn: rec}
	if e.Seq > 1 {
		pend.Prev = p.Head
	}
	var err error
	queued := false
	switch {
	case l.s != nil && !l.whole && h.live.batch != nil:
		// Queued, not waited for: the lease's holder waits once it has let
		// the race go (see queued).
		s := l.s
		s.last = h.live.batch.add(pend, func(err error) { s.stored(e, err) })
		l.mine, queued = s.last, true
	case l.s != nil && h.live.batch != nil:
		err = h.live.batch.commit(pend)
	default:
		err = h.Store.Append(ctx, l.id, e, rec)
	}
	if err != nil {
		l.stale = true // the store may have moved on (a conflict): it has the truth
		return e, err
	}
	if e.Kind == race.EntryResolve {
		p.Pass(e) // the turn played on p is the one stored
	} else if err := p.Apply(e); err != nil {
		// Stored, and checked before: replaying it here cannot fail unless
		// the rules are not deterministic. The store has the truth.
		l.stale = true
		if h.live != nil {
			h.live.log.Error("a stored entry does not replay on the race in memory", "race", l.id, "entry", e.Seq, "err", err)
		}
		return e, nil
	}
	// p is the race as stored; the whole log's p is not the slot's, which
	// is behind now.
	l.stale = l.whole
	if l.s == nil || l.whole {
		return e, nil
	}
	if e.Key != "" {
		l.s.keys[e.Key] = e
	}
	if !queued {
		l.s.stored(e, nil) // stored already
	}
	return e, nil
}

// Behind says that another process has appended to race id: the race in
// memory is checked against the store before its next use, rather than
// trusted for up to its freshness. An instance calls it on hearing of
// another's write (store.Announcer).
func (h *Host) Behind(id string) {
	if h.live == nil {
		return
	}
	h.live.mu.Lock()
	s := h.live.races[id]
	h.live.mu.Unlock()
	if s != nil {
		s.behind.Store(true)
	}
}

// BehindAll marks every race kept in memory behind (as Behind): after a
// time in which announcements may have been missed.
func (h *Host) BehindAll() {
	if h.live == nil {
		return
	}
	h.live.mu.Lock()
	defer h.live.mu.Unlock()
	for _, s := range h.live.races {
		s.behind.Store(true)
	}
}

// Since returns race id's log entries after entry seq, in order: from
// memory for a race kept there, when it holds them all, from the store
// otherwise. A stream reads them, so it never waits for a commit.
func (h *Host) Since(ctx context.Context, id string, seq int) ([]race.Entry, error) {
	if h.live != nil {
		s := h.live.slot(id)
		s.tmu.Lock()
		ok := s.from > 0 && seq+1 >= s.from && !s.behind.Load()
		var out []race.Entry
		if ok {
			// The tail runs without a gap from s.from: entry seq+1 is at seq+1-s.from.
			out = slices.Clone(s.tail[min(seq+1-s.from, len(s.tail)):])
		}
		s.tmu.Unlock()
		if ok {
			return out, nil
		}
	}
	r, err := h.Store.Load(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []race.Entry
	for _, e := range r.Log {
		if e.Seq > seq {
			out = append(out, e)
		}
	}
	return out, nil
}

// committer stores the appends that arrive together in one AppendAll:
// the first to arrive while none is being stored commits, for itself and
// for every append that queues meanwhile, until the queue is empty.
type committer struct {
	st      store.Batcher
	log     *slog.Logger
	mu      sync.Mutex
	queue   []*pending
	running bool
}

type pending struct {
	p    store.Pending
	then func(error) // told the outcome, in the order of the queue; may be nil
	fin  chan struct{}
	err  error // the outcome, once fin is closed
}

// finished says whether the outcome is known.
func (w *pending) finished() bool {
	select {
	case <-w.fin:
		return true
	default:
		return false
	}
}

// commitTimeout bounds one commit: a store that does not answer fails the
// appends waiting for it rather than hold their races for ever.
const commitTimeout = time.Minute

// commit stores p with whatever else is waiting and returns its error once
// the commit is done. It waits for the outcome whatever the caller's
// context says: the race in memory must learn whether p was stored.
func (c *committer) commit(p store.Pending) error {
	w := c.add(p, nil)
	<-w.fin
	return w.err
}

// add queues p to be stored with whatever else is waiting; then, if not
// nil, is told the outcome before the returned pending finishes. Appends
// are stored in the order they are queued.
func (c *committer) add(p store.Pending, then func(error)) *pending {
	w := &pending{p: p, then: then, fin: make(chan struct{})}
	c.mu.Lock()
	c.queue = append(c.queue, w)
	lead := !c.running
	c.running = true
	c.mu.Unlock()
	if lead {
		go c.run()
	}
	return w
}

// store stores one batch. A store that panics fails the batch rather than
// leave its writers (and their races' locks) waiting for ever.
func (c *committer) store(ps []store.Pending) (errs []error) {
	defer func() {
		if v := recover(); v != nil {
			errs = nil // run gives every append of the batch an error
			c.log.Error("a commit panicked", "panic", v, "stack", string(debug.Stack()))
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), commitTimeout)
	defer cancel()
	return c.st.AppendAll(ctx, ps)
}

func (c *committer) run() {
	for {
		c.mu.Lock()
		n := min(len(c.queue), maxBatch)
		if n == 0 {
			c.running = false
			c.mu.Unlock()
			return
		}
		batch := c.queue[:n:n]
		c.queue = c.queue[n:]
		c.mu.Unlock()
		ps := make([]store.Pending, n)
		for i, w := range batch {
			ps[i] = w.p
		}
		errs := c.store(ps)
		for i, w := range batch {
			var err error
			if i < len(errs) {
				err = errs[i]
			} else {
				err = fmt.Errorf("race %q: the store failed to commit entry %d", w.p.Race, w.p.Entry.Seq)
			}
			w.err = err
			if w.then != nil {
				w.then(err)
			}
			close(w.fin)
		}
	}
}
