package host

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	_ "pitwall/rules/nascar"
	_ "pitwall/rules/rtd"
	"pitwall/store"
	"pitwall/store/memstore"
	"pitwall/store/sqlite"
)

// hostTable plays a bot race through a host, one call a write, as racers
// and a host would: a deadline a day on every turn, orders some minutes
// apart.
type hostTable struct {
	t   *testing.T
	h   *Host
	id  string
	now *time.Time
}

func (b *hostTable) State() race.State {
	p, err := b.h.Load(context.Background(), b.id)
	if err != nil {
		b.t.Fatal(err)
	}
	return p.State
}

func (b *hostTable) Set(turn int, kv string) error {
	k, v, _ := strings.Cut(kv, "=")
	_, err := b.h.Set(context.Background(), b.id, k, v, Req{Turn: turn, Key: fmt.Sprintf("set-%d-%s", turn, kv)})
	return err
}

func (b *hostTable) Submit(turn, seat int, text string, _ bool) error {
	*b.now = b.now.Add(7 * time.Minute)
	_, err := b.h.Submit(context.Background(), b.id, seat, text, Req{Turn: turn, Key: fmt.Sprintf("o-%d-%d", turn, seat)})
	return err
}

// Resolve resolves turn at its deadline (party's calendar reads the
// times) and gives the next turn a deadline two days on.
func (b *hostTable) Resolve(turn int) error {
	p, err := b.h.Load(context.Background(), b.id)
	if err != nil {
		return err
	}
	if dl := p.Schedule.Deadline; dl != nil {
		*b.now = *dl
	}
	if _, err := b.h.Resolve(context.Background(), b.id, Req{Turn: turn}); err != nil {
		return err
	}
	return b.schedule(turn + 1)
}

func (b *hostTable) schedule(turn int) error {
	dl := b.now.Add(48 * time.Hour)
	_, _, err := b.h.Schedule(context.Background(), b.id, race.Schedule{Deadline: &dl}, Req{Turn: turn, Key: fmt.Sprint("dl-", turn)})
	if errors.Is(err, race.ErrOver) {
		return nil
	}
	return err
}

// playDemo plays game's demo race through h to its end.
func playDemo(t *testing.T, h *Host, game string, now *time.Time) string {
	t.Helper()
	rs, err := race.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	g := rs.Game()
	seed := dice.SeedFromInt(7)
	id := game + "-live"
	if _, err := h.NewRace(context.Background(), game, id, race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps}, g.Demo.Entrants, &seed); err != nil {
		t.Fatal(err)
	}
	tb := &hostTable{t: t, h: h, id: id, now: now}
	if err := tb.schedule(1); err != nil {
		t.Fatal(err)
	}
	b := race.BotRace{Miss: 9, MaxTurns: 400}
	if err := b.Play(rs, tb, rand.New(rand.NewPCG(7, 7))); err != nil {
		t.Fatalf("%s: %v", game, err)
	}
	return id
}

// A race kept in memory plays every game's bot race to the same log, entry
// for entry and hash for hash, as a host that loads the race for every
// call, while readers take it, its views and its entries all along (the
// race detector watches that nothing they hold changes under them).
func TestLiveRacesPlayAsLoadedOnes(t *testing.T) {
	for _, game := range []string{"ludi", "nascar", "rtd", "gaslands", "party"} {
		t.Run(game, func(t *testing.T) {
			start := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
			nowA, nowB := start, start
			loaded := &Host{Store: memstore.New(), Clock: ClockFunc(func() time.Time { return nowB })}
			want := playDemo(t, loaded, game, &nowB)

			st := memstore.New()
			live := &Host{Store: st, Clock: ClockFunc(func() time.Time { return nowA })}
			live.KeepLive(time.Hour, nil)
			id := game + "-live"
			stop := make(chan struct{})
			var readers sync.WaitGroup
			for r := 0; r < 2; r++ {
				readers.Go(func() {
					for {
						// The readers run beside the writes for the race
						// detector; once stopped, each reads once more (the
						// race is there by then), and that read must succeed.
						var last bool
						select {
						case <-stop:
							last = true
						default:
						}
						p, err := live.Load(context.Background(), id)
						if err != nil && !last {
							time.Sleep(time.Millisecond) // not created yet
							continue
						}
						if err != nil {
							t.Error(err)
							return
						}
						if _, err := json.Marshal(p.View(race.SeatViewer(r))); err != nil {
							t.Error(err)
							return
						}
						if _, err := live.Since(context.Background(), id, max(0, p.Seq-3)); err != nil {
							t.Error(err)
							return
						}
						if last {
							return
						}
					}
				})
			}
			playDemo(t, live, game, &nowA)
			close(stop)
			readers.Wait()
			a, err := st.Load(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			b, err := loaded.Store.Load(context.Background(), want)
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Log) != len(b.Log) || len(a.Log) < 20 {
				t.Fatalf("the live race logged %d entries, the loaded one %d", len(a.Log), len(b.Log))
			}
			for i := range a.Log {
				if a.Log[i] != b.Log[i] {
					t.Fatalf("entry %d differs:\nlive   %+v\nloaded %+v", i+1, a.Log[i], b.Log[i])
				}
			}
			pa, err := live.Load(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			pb, err := (&Host{Store: st, Clock: live.Clock}).Load(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			ha, _ := race.Hash(pa.State)
			hb, _ := race.Hash(pb.State)
			if ha != hb || pa.Seq != pb.Seq || pa.Head != pb.Head || !pa.State.Over() {
				t.Errorf("in memory: seq %d head %.12s state %.12s (over %v); from the store: seq %d head %.12s state %.12s",
					pa.Seq, pa.Head, ha, pa.State.Over(), pb.Seq, pb.Head, hb)
			}
		})
	}
}

// liveFixture is a fixture whose host keeps races in memory on the
// fixture's SQLite file, with a second host on the same file that loads
// the race for every call (the CLI beside a running service).
func liveFixture(t *testing.T, fresh time.Duration) (f *fixture, other *Host) {
	t.Helper()
	f = newFixture(t)
	f.race(t, 1)
	st, err := sqlite.Open(f.path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	other = &Host{Store: st, Clock: f.h.Clock}
	f.h.KeepLive(fresh, nil)
	return f, other
}

// The race in memory is refused when another process has written to the
// race, and the write goes on from the store's race: nothing is lost or
// stored twice. A read sees the other's write once fresh has passed.
func TestLiveRaceAfterAnotherWriter(t *testing.T) {
	ctx := context.Background()
	f, other := liveFixture(t, time.Hour)
	if _, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Submit(ctx, "r1", 1, "Whip", Req{Turn: 1, Key: "livia"}); err != nil {
		t.Fatal(err)
	}
	p, err := f.h.Load(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if _, in := p.Pending[1]; in {
		t.Fatal("the race in memory saw the other host's write before fresh passed; the test means to write on a stale race")
	}
	// The stale race's write is refused by the store and made again.
	a, err := f.h.Submit(ctx, "r1", 2, "Hold", Req{Turn: 1})
	if err != nil {
		t.Fatal(err)
	}
	if a.Entry != logLen(t, other, "r1") {
		t.Errorf("the write was acknowledged as entry %d; the log has %d", a.Entry, logLen(t, other, "r1"))
	}
	// A key the other host stored after the race was loaded: a repeat.
	a, err = f.h.Submit(ctx, "r1", 1, "Whip", Req{Turn: 1, Key: "livia"})
	if err != nil || !a.Repeat {
		t.Fatalf("repeating the other host's key: %+v, %v; want a repeat", a, err)
	}
	p, err = f.h.Load(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Pending) != 3 {
		t.Errorf("in memory after the retry: orders in for %d seats, want 3", len(p.Pending))
	}
	// With fresh at a nanosecond, a read sees another's resolve at once.
	f2, other2 := liveFixture(t, time.Nanosecond)
	if _, err := f2.h.Load(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if _, err := other2.Resolve(ctx, "r1", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	if p, err := f2.h.Load(ctx, "r1"); err != nil || p.Turn() != 2 {
		t.Fatalf("a read after the other host resolved: %v; want turn 2 open", err)
	}
}

// A write that memory would refuse, because the race there is behind
// another writer's log, is judged again on the log: an order for the turn
// another host opened is taken, not called "not open yet"; an order for a
// turn it closed is refused as closed.
func TestLiveRaceBehindRefusesNothingWrongly(t *testing.T) {
	ctx := context.Background()
	f, other := liveFixture(t, time.Hour)
	if _, err := f.h.Load(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Resolve(ctx, "r1", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	a, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 2})
	if err != nil || a.Turn != 2 {
		t.Fatalf("an order for the turn the other host opened: %+v, %v", a, err)
	}
	if _, err := other.Resolve(ctx, "r1", Req{Turn: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.h.Submit(ctx, "r1", 1, "Accelerate", Req{Turn: 2}); !errors.Is(err, ErrClosed) {
		t.Errorf("an order for the turn the other host closed: %v; want ErrClosed", err)
	}
	if res, err := f.h.Resolve(ctx, "r1", Req{Turn: 3}); err != nil || !res.Resolved {
		t.Errorf("resolving the turn the other host opened: %+v, %v", res, err)
	}
}

// A key stored before the race was loaded into memory is known there: the
// repeat is answered as one, even when the turn has closed since.
func TestLiveRaceKnowsEarlierKeys(t *testing.T) {
	ctx := context.Background()
	f, other := liveFixture(t, time.Hour)
	if _, err := other.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1, Key: "marcus-1"}); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Resolve(ctx, "r1", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	a, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1, Key: "marcus-1"})
	if err != nil || !a.Repeat || a.Turn != 1 {
		t.Fatalf("a repeat of a key stored before the load: %+v, %v; want a repeat for turn 1", a, err)
	}
	if _, err := f.h.Submit(ctx, "r1", 1, "Accelerate", Req{Turn: 2, Key: "marcus-1"}); err == nil {
		t.Fatal("the key of seat 1's order was taken for seat 2's")
	}
}

// failingCommit is a store whose next AppendAll fails after storing nothing.
type failingCommit struct {
	*memstore.Store
	fail atomic.Bool
}

func (s *failingCommit) AppendAll(ctx context.Context, batch []store.Pending) []error {
	if s.fail.CompareAndSwap(true, false) {
		errs := make([]error, len(batch))
		for i := range errs {
			errs[i] = errors.New("the disk is full")
		}
		return errs
	}
	return s.Store.AppendAll(ctx, batch)
}

// A write whose commit fails leaves nothing of itself in memory: a resolve
// played on the race in memory before it was stored is forgotten.
func TestLiveFailedCommitForgetsTheTurn(t *testing.T) {
	ctx := context.Background()
	st := &failingCommit{Store: memstore.New()}
	now := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	h := &Host{Store: st, Clock: ClockFunc(func() time.Time { return now })}
	h.KeepLive(time.Hour, nil)
	seed := dice.SeedFromInt(1)
	if _, err := h.NewRace(ctx, "ludi", "r1", race.Config{Track: "circus-maximus"}, entrants(), &seed); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	st.fail.Store(true)
	if _, err := h.Resolve(ctx, "r1", Req{Turn: 1}); err == nil {
		t.Fatal("a resolve whose commit failed was acknowledged")
	}
	p, err := h.Load(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if p.Turn() != 1 || p.Seq != 1 || len(p.Pending) != 1 {
		t.Fatalf("after the failed resolve: turn %d, seq %d, %d orders in; want turn 1, seq 1, 1 order", p.Turn(), p.Seq, len(p.Pending))
	}
	st.fail.Store(true)
	if _, err := h.Submit(ctx, "r1", 1, "Whip", Req{Turn: 1}); err == nil {
		t.Fatal("an order whose commit failed was acknowledged")
	}
	if p, _ := h.Load(ctx, "r1"); len(p.Pending) != 1 {
		t.Fatalf("the failed order is in memory: %d orders in", len(p.Pending))
	}
	res, err := h.Resolve(ctx, "r1", Req{Turn: 1})
	if err != nil || !res.Resolved {
		t.Fatalf("the resolve tried again: %+v, %v", res, err)
	}
	r, err := st.Load(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if n := len(r.Log); n != 2 || r.Log[1].Kind != race.EntryResolve {
		t.Errorf("the log has %d entries, want 2: an order and a resolve", n)
	}
}

// gate is a store whose first AppendAll waits until n appends, its own
// and those queued behind it, have come, so that the rest are sure to be
// batched.
type gate struct {
	*memstore.Store
	h       *Host
	n       int
	once    sync.Once
	batches []int
	mu      sync.Mutex
	// failFirst fails the first commit whole, storing nothing of it.
	failFirst bool
	// begun, if not nil, is closed as the first commit begins.
	begun chan struct{}
}

func (s *gate) AppendAll(ctx context.Context, batch []store.Pending) []error {
	first := false
	s.once.Do(func() {
		first = true
		if s.begun != nil {
			close(s.begun)
		}
		// Bounded: should the appends never all come, the test fails on
		// its counts rather than hang.
		for stop := time.Now().Add(10 * time.Second); time.Now().Before(stop); {
			c := s.h.live.batch
			c.mu.Lock()
			queued := len(c.queue)
			c.mu.Unlock()
			if len(batch)+queued >= s.n {
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	s.mu.Lock()
	s.batches = append(s.batches, len(batch))
	s.mu.Unlock()
	if first && s.failFirst {
		errs := make([]error, len(batch))
		for i := range errs {
			errs[i] = errors.New("the disk is full")
		}
		return errs
	}
	return s.Store.AppendAll(ctx, batch)
}

// gatedRace is race r1 (ludi, four seats) on a gate for n appends, kept
// live.
func gatedRace(t *testing.T, n int, failFirst bool) (*Host, *gate) {
	t.Helper()
	st := &gate{Store: memstore.New(), n: n, failFirst: failFirst, begun: make(chan struct{})}
	now := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	h := &Host{Store: st, Clock: ClockFunc(func() time.Time { return now })}
	st.h = h
	seed := dice.SeedFromInt(1)
	if _, err := h.NewRace(context.Background(), "ludi", "r1", race.Config{Track: "circus-maximus"}, entrants(), &seed); err != nil {
		t.Fatal(err)
	}
	h.KeepLive(time.Hour, nil)
	return h, st
}

// submitAll sends an order for each of r1's four seats: seat 1's first,
// and the other three at once while its commit (the gate's first) is on
// its way, so that they queue behind it.
func submitAll(h *Host, st *gate) ([]Ack, []error) {
	acks, errs := make([]Ack, 4), make([]error, 4)
	var wg sync.WaitGroup
	for seat := range 4 {
		if seat == 1 {
			<-st.begun
		}
		wg.Go(func() {
			acks[seat], errs[seat] = h.Submit(context.Background(), "r1", seat, "Accelerate", Req{Turn: 1, Key: fmt.Sprint("k", seat)})
		})
	}
	wg.Wait()
	return acks, errs
}

// The writes of one race that arrive while a commit is on its way are
// queued on the race as it will stand and go out together in the next
// commit, not one commit each (the race is not held for its commit).
func TestLiveOneRaceWritesShareACommit(t *testing.T) {
	h, st := gatedRace(t, 4, false)
	acks, errs := submitAll(h, st)
	var entries []int
	for seat, err := range errs {
		if err != nil {
			t.Fatalf("seat %d: %v", seat+1, err)
		}
		entries = append(entries, acks[seat].Entry)
	}
	slices.Sort(entries)
	if !slices.Equal(entries, []int{1, 2, 3, 4}) {
		t.Errorf("the orders were acknowledged as entries %v; want 1 to 4", entries)
	}
	if len(st.batches) > 2 {
		t.Errorf("commits of %v appends; want the four in one or two commits", st.batches)
	}
	p, err := h.Load(context.Background(), "r1")
	if err != nil || p.Seq != 4 || len(p.Pending) != 4 {
		t.Fatalf("the race after: %v; want entry 4 with four orders in", err)
	}
	if n := logLen(t, h, "r1"); n != 4 {
		t.Errorf("the log holds %d entries, want 4", n)
	}
}

// When an entry queued on the race fails, those queued after it (which
// follow it) fail in the store too; their writes are tried again on the
// race read again from the store, and are stored once each. Only the write
// whose own entry failed is refused, and nothing refused is in the log.
func TestLiveFailedEntryFailsWhatFollows(t *testing.T) {
	h, st := gatedRace(t, 4, true)
	acks, errs := submitAll(h, st)
	var failed []int
	want := map[int]int{} // acknowledged: seat -> entry
	for seat, err := range errs {
		switch {
		case err != nil && strings.Contains(err.Error(), "the disk is full"):
			failed = append(failed, seat)
		case err != nil:
			t.Errorf("seat %d: %v; want its order stored, or the first commit's failure", seat+1, err)
		default:
			want[seat] = acks[seat].Entry
		}
	}
	if !slices.Equal(failed, []int{0}) || st.batches[0] != 1 {
		t.Fatalf("seats %v failed, first commit of %d; want seat 1's alone, the one write of the failed commit", failed, st.batches[0])
	}
	r, err := st.Load(context.Background(), "r1")
	if err != nil {
		t.Fatal(err)
	}
	got := map[int]int{}
	for _, e := range r.Log {
		if _, twice := got[e.Seat]; twice {
			t.Errorf("seat %d's order is stored twice", e.Seat+1)
		}
		got[e.Seat] = e.Seq
	}
	if !maps.Equal(got, want) {
		t.Errorf("stored (seat: entry) %v; acknowledged %v", got, want)
	}
	p, err := h.Load(context.Background(), "r1")
	if err != nil || p.Seq != 3 || len(p.Pending) != 3 || p.Pending[failed[0]] != nil {
		t.Fatalf("the race in memory after: %v; want the three stored orders and no other", err)
	}
	// The failed write, sent again with its key, is stored.
	if a, err := h.Submit(context.Background(), "r1", failed[0], "Accelerate", Req{Turn: 1, Key: fmt.Sprint("k", failed[0])}); err != nil || a.Repeat || a.Entry != 4 {
		t.Errorf("the failed order sent again: %+v, %v; want it stored as entry 4", a, err)
	}
}

// holding is a store whose commits wait until released, saying when one
// has begun.
type holding struct {
	*memstore.Store
	begun   chan struct{}
	release chan struct{}
	stored  atomic.Bool
	once    sync.Once
}

func (s *holding) AppendAll(ctx context.Context, batch []store.Pending) []error {
	s.once.Do(func() { close(s.begun) })
	<-s.release
	defer s.stored.Store(true)
	return s.Store.AppendAll(ctx, batch)
}

// An entry on its way to the store is nobody's news: streams do not see it,
// and a read of the race answers only once it is stored.
func TestLiveQueuedEntryUnseenUntilStored(t *testing.T) {
	ctx := context.Background()
	st := &holding{Store: memstore.New(), begun: make(chan struct{}), release: make(chan struct{})}
	h := &Host{Store: st, Clock: SystemClock}
	seed := dice.SeedFromInt(1)
	if _, err := h.NewRace(ctx, "ludi", "r1", race.Config{Track: "circus-maximus"}, entrants(), &seed); err != nil {
		t.Fatal(err)
	}
	h.KeepLive(time.Hour, nil)
	if _, err := h.Load(ctx, "r1"); err != nil { // in memory, with an empty tail
		t.Fatal(err)
	}
	acked := make(chan error, 1)
	go func() {
		_, err := h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1})
		acked <- err
	}()
	<-st.begun
	if es, err := h.Since(ctx, "r1", 0); err != nil || len(es) != 0 {
		t.Errorf("Since(0) while the order's commit is on its way: %d entries, %v; want none", len(es), err)
	}
	loaded := make(chan bool, 1)
	go func() {
		p, err := h.Load(ctx, "r1")
		loaded <- err == nil && p.Seq == 1 && st.stored.Load()
	}()
	close(st.release)
	if err := <-acked; err != nil {
		t.Fatal(err)
	}
	if !<-loaded {
		t.Error("a read of the race answered with the order before it was stored")
	}
	if es, err := h.Since(ctx, "r1", 0); err != nil || len(es) != 1 {
		t.Errorf("Since(0) once the order is stored: %d entries, %v; want 1", len(es), err)
	}
}

// The appends of many races that arrive while a commit is on its way are
// stored together in the next one, and each is acknowledged once durable.
func TestLiveGroupCommit(t *testing.T) {
	ctx := context.Background()
	const races = 12
	st := &gate{Store: memstore.New(), n: races}
	now := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	h := &Host{Store: st, Clock: ClockFunc(func() time.Time { return now })}
	st.h = h
	for i := 0; i < races; i++ {
		seed := dice.SeedFromInt(uint64(i))
		if _, err := h.NewRace(ctx, "ludi", fmt.Sprint("r", i), race.Config{Track: "circus-maximus"}, entrants(), &seed); err != nil {
			t.Fatal(err)
		}
	}
	h.KeepLive(time.Hour, nil)
	var wg sync.WaitGroup
	acks := make([]Ack, races)
	errs := make([]error, races)
	for i := 0; i < races; i++ {
		wg.Go(func() {
			acks[i], errs[i] = h.Submit(ctx, fmt.Sprint("r", i), 0, "Accelerate", Req{Turn: 1})
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil || acks[i].Entry != 1 {
			t.Errorf("race r%d: %+v, %v", i, acks[i], err)
		}
	}
	// The first commit holds until every append has come: they are stored
	// in it, or in it and one more (as the queue was taken), never one
	// commit each.
	sum := 0
	for _, n := range st.batches {
		sum += n
	}
	if len(st.batches) > 2 || sum != races {
		t.Errorf("commits of %v appends; want %d in all, in one or two commits", st.batches, races)
	}
	for i := 0; i < races; i++ {
		if n := logLen(t, h, fmt.Sprint("r", i)); n != 1 {
			t.Errorf("race r%d: %d entries, want 1", i, n)
		}
	}
}

// Since gives the entries after a seq, from memory once the race is there
// and from the store before and behind what memory holds.
func TestLiveSince(t *testing.T) {
	ctx := context.Background()
	f, _ := liveFixture(t, time.Hour)
	seqs := func(es []race.Entry, err error) []int {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []int
		for _, e := range es {
			out = append(out, e.Seq)
		}
		return out
	}
	if got := seqs(f.h.Since(ctx, "r1", 0)); len(got) != 0 {
		t.Fatalf("Since(0) on a new race: %v", got)
	}
	for seat := 0; seat < 3; seat++ {
		if _, err := f.h.Submit(ctx, "r1", seat, "Accelerate", Req{Turn: 1}); err != nil {
			t.Fatal(err)
		}
	}
	if got := seqs(f.h.Since(ctx, "r1", 1)); !slices.Equal(got, []int{2, 3}) {
		t.Errorf("Since(1) = %v, want [2 3]", got)
	}
	if got := seqs(f.h.Since(ctx, "r1", 0)); !slices.Equal(got, []int{1, 2, 3}) {
		t.Errorf("Since(0) = %v, want [1 2 3]", got)
	}
	if got := seqs(f.h.Since(ctx, "r1", 3)); len(got) != 0 {
		t.Errorf("Since(3) = %v, want nothing", got)
	}
	if _, err := f.h.Since(ctx, "no-such-race", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("Since on no race: %v", err)
	}
}

// A race kept in memory that is read by a path the slot never loaded gives
// the same entries as the store: the tail trimmed past keepTail.
func TestLiveSinceTrimsItsTail(t *testing.T) {
	ctx := context.Background()
	f, _ := liveFixture(t, time.Hour)
	for i := 0; i < keepTail+10; i++ {
		if _, err := f.h.Submit(ctx, "r1", i%3, []string{"Accelerate", "Whip", "Hold"}[i%3], Req{Turn: 1}); err != nil {
			t.Fatal(err)
		}
	}
	for _, from := range []int{0, 5, keepTail, keepTail + 9} {
		got, err := f.h.Since(ctx, "r1", from)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != keepTail+10-from || got[0].Seq != from+1 {
			t.Errorf("Since(%d): %d entries from %d; want %d from %d", from, len(got), got[0].Seq, keepTail+10-from, from+1)
		}
	}
}

// panicking is a store whose next AppendAll panics.
type panicking struct {
	*memstore.Store
	panic atomic.Bool
}

func (s *panicking) AppendAll(ctx context.Context, batch []store.Pending) []error {
	if s.panic.CompareAndSwap(true, false) {
		panic("the driver lost its mind")
	}
	return s.Store.AppendAll(ctx, batch)
}

// A commit that panics fails its writes instead of leaving them, and their
// race, waiting for ever; the next write is stored.
func TestLivePanickingCommitFailsItsWrites(t *testing.T) {
	ctx := context.Background()
	st := &panicking{Store: memstore.New()}
	h := &Host{Store: st, Clock: SystemClock}
	h.KeepLive(time.Hour, nil)
	seed := dice.SeedFromInt(1)
	if _, err := h.NewRace(ctx, "ludi", "r1", race.Config{Track: "circus-maximus"}, entrants(), &seed); err != nil {
		t.Fatal(err)
	}
	st.panic.Store(true)
	if _, err := h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1}); err == nil || !strings.Contains(err.Error(), "failed to commit") {
		t.Fatalf("an order whose commit panicked: %v; want an error", err)
	}
	a, err := h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1})
	if err != nil || a.Entry != 1 {
		t.Fatalf("the next order: %+v, %v; want entry 1", a, err)
	}
}

// A clone is the caller's to fill in: WithBefore on one changes neither
// the race in memory nor another clone.
func TestLiveClonesAreTheirOwn(t *testing.T) {
	ctx := context.Background()
	f, other := liveFixture(t, time.Hour)
	if _, err := other.Resolve(ctx, "r1", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	a := f.load(t, "r1") // resumed from turn 1's record: its state before is not known
	if len(a.Turns) != 1 || a.Turns[0].Before != nil {
		t.Fatalf("the race in memory holds %d turns; want turn 1 without its state before", len(a.Turns))
	}
	if err := f.h.WithBefore(ctx, a); err != nil || a.Turns[0].Before == nil {
		t.Fatalf("WithBefore: %v", err)
	}
	if b := f.load(t, "r1"); b.Turns[0].Before != nil {
		t.Error("filling in one clone's turn filled in the race in memory")
	}
}

// Races not used for a while are dropped from memory, and loaded again
// when asked for; a race a write holds is not dropped.
func TestLiveRacesEvicted(t *testing.T) {
	ctx := context.Background()
	f, _ := liveFixture(t, time.Hour)
	if _, err := f.h.Load(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	if n := f.h.Evict(time.Hour); n != 0 || f.h.Kept() != 1 {
		t.Fatalf("a race just used was dropped: %d, %d kept", n, f.h.Kept())
	}
	l, err := f.h.lease(ctx, "r1", started)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.h.Evict(0); n != 0 {
		t.Errorf("a race a write holds was dropped")
	}
	l.release()
	if n := f.h.Evict(0); n != 1 || f.h.Kept() != 0 {
		t.Fatalf("dropped %d, %d kept; want the race dropped", n, f.h.Kept())
	}
	a, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1})
	if err != nil || a.Entry != logLen(t, f.h, "r1") {
		t.Fatalf("a write after the race was dropped: %+v, %v", a, err)
	}
	if f.h.Kept() != 1 {
		t.Errorf("%d races kept after the write; want the race loaded again", f.h.Kept())
	}
}

// Behind: a race marked behind (another process announced a write) is read
// from the store by streams and checked at its next use; once loaded
// again, it is trusted as before, also when it was marked before it was
// ever loaded.
func TestLiveRaceBehind(t *testing.T) {
	ctx := context.Background()
	f, other := liveFixture(t, time.Hour)
	if _, err := f.h.Since(ctx, "r1", 0); err != nil { // a stream comes first: a slot with no race
		t.Fatal(err)
	}
	f.h.Behind("r1")
	if _, err := f.h.Load(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	seq := logLen(t, other, "r1")
	if _, err := other.Submit(ctx, "r1", 1, "Whip", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	if got, err := f.h.Since(ctx, "r1", seq); err != nil || len(got) != 0 {
		t.Fatalf("before any announcement, from memory trusted for an hour: %v, %v; want nothing new", got, err)
	}
	f.h.Behind("r1")
	if got, err := f.h.Since(ctx, "r1", seq); err != nil || len(got) != 1 || got[0].Seat != 1 {
		t.Fatalf("once told of the other's write: %v, %v; want its order", got, err)
	}
	p, err := f.h.Load(ctx, "r1")
	if err != nil || p.Seq != seq+1 {
		t.Fatalf("the next use: seq %d, %v; want the race read again, %d entries", p.Seq, err, seq+1)
	}
	f.h.Behind("no-such-race") // a race not kept: nothing to mark
	// BehindAll marks every race kept, as after a time deaf to announcements.
	if _, err := other.Submit(ctx, "r1", 2, "Hold", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	f.h.BehindAll()
	if got, err := f.h.Since(ctx, "r1", seq+1); err != nil || len(got) != 1 || got[0].Seat != 2 {
		t.Fatalf("after BehindAll: %v, %v; want the other's second order", got, err)
	}
}

// A race dropped from memory (as a failed write, a write on the race while
// it forms, or a look that found it behind leaves it) takes its log's tail
// with it: Since reads what was stored meanwhile from the store.
func TestLiveSinceAfterDrop(t *testing.T) {
	ctx := context.Background()
	f, _ := liveFixture(t, time.Hour)
	p, err := f.h.Load(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	f.h.live.races["r1"].mu.Lock()
	f.h.live.races["r1"].drop() // as a failed write leaves it
	f.h.live.races["r1"].mu.Unlock()
	other := &Host{Store: f.h.Store, Clock: f.h.Clock}
	if _, err := other.Submit(ctx, "r1", 1, "Whip", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	got, err := f.h.Since(ctx, "r1", p.Seq)
	if err != nil || len(got) != 2 || got[1].Seat != 1 {
		t.Fatalf("Since after the race was dropped: %v, %v; want both orders, the other's from the store", got, err)
	}
}

// lastFails is a store whose Last fails while fail is set.
type lastFails struct {
	store.Store
	fail bool
}

func (s *lastFails) Last(ctx context.Context, id string) (int, error) {
	if s.fail {
		return 0, errors.New("the store is away")
	}
	return s.Store.Last(ctx, id)
}

// A race marked behind whose look at the store failed stays marked: the
// next use looks again, and does not trust memory for another hour.
func TestLiveRaceBehindAfterAFailedLook(t *testing.T) {
	ctx := context.Background()
	f, other := liveFixture(t, time.Hour)
	if _, err := f.h.Load(ctx, "r1"); err != nil {
		t.Fatal(err)
	}
	seq := logLen(t, other, "r1")
	if _, err := other.Submit(ctx, "r1", 1, "Whip", Req{Turn: 1}); err != nil {
		t.Fatal(err)
	}
	ls := &lastFails{Store: f.h.Store, fail: true}
	f.h.Store = ls
	f.h.Behind("r1")
	if _, err := f.h.Load(ctx, "r1"); err == nil {
		t.Fatal("a load whose look at the store failed succeeded")
	}
	ls.fail = false
	p, err := f.h.Load(ctx, "r1")
	if err != nil || p.Seq != seq+1 {
		t.Fatalf("after the failed look: seq %d, %v; want the other's order read, %d entries", p.Seq, err, seq+1)
	}
}

// A race kept in memory asks its rules for a state's prompts once, however
// many copies of it are handed out and orders checked on it: rtd's prompts
// write every kart's note, and the service looks at them for every order.
func TestLivePromptsAskedOncePerState(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t)
	f.h.KeepLive(time.Hour, nil)
	s := dice.SeedFromInt(1)
	es := []race.Entrant{{Player: "A", Racers: []string{"A"}}, {Player: "B", Racers: []string{"B"}}}
	if _, err := f.h.NewRace(ctx, "hop", "h", race.Config{}, es, &s); err != nil {
		t.Fatal(err)
	}
	res, err := f.h.Resolve(ctx, "h", Req{Turn: 1})
	if err != nil {
		t.Fatal(err)
	}
	res.Race.Prompts()
	for seat := range 2 {
		if _, err := f.h.Submit(ctx, "h", seat, "2", Req{Turn: 2}); err != nil {
			t.Fatal(err)
		}
		p, err := f.h.Load(ctx, "h")
		if err != nil {
			t.Fatal(err)
		}
		p.Prompts()
	}
	asked := int64(0)
	if n, ok := hopPrompts.Load(res.Race.State); ok {
		asked = n.(*atomic.Int64).Load()
	}
	if asked != 1 {
		t.Errorf("the prompts of turn 2's state were asked %d times; want once", asked)
	}
}

// Two live hosts on one database (two instances, or a service and the CLI)
// take orders for the same race at once, each queueing its writes behind
// those still on their way to the store: every order is acknowledged once,
// each key names one entry of the log, a key sent again is answered as a
// repeat with the same entry, the log's chain holds, and both hosts end
// with the race the store has.
func TestLiveTwoHostsOrderAtOnce(t *testing.T) {
	ctx := context.Background()
	f, other := liveFixture(t, time.Hour)
	other.KeepLive(time.Hour, nil)
	hosts := []*Host{f.h, other}
	const writers, rounds = 8, 12
	orders := []string{"Accelerate", "Whip", "Hold"}
	type ack struct {
		key   string
		entry int
	}
	acks := make([][]ack, writers)
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			h, seat := hosts[w%2], w%4
			for r := range rounds {
				key := fmt.Sprintf("w%d-r%d", w, r)
				q := Req{Turn: 1, Key: key}
				a, err := h.Submit(ctx, "r1", seat, orders[(w+r)%3], q)
				if err != nil || a.Repeat {
					t.Errorf("writer %d, round %d: %+v, %v", w, r, a, err)
					return
				}
				acks[w] = append(acks[w], ack{key, a.Entry})
				// Sent again through the other host: the same entry.
				again, err := hosts[(w+1)%2].Submit(ctx, "r1", seat, orders[(w+r)%3], q)
				if err != nil || !again.Repeat || again.Entry != a.Entry {
					t.Errorf("writer %d, round %d sent again: %+v, %v; want a repeat of entry %d", w, r, again, err, a.Entry)
				}
			}
		})
	}
	wg.Wait()
	r, err := f.h.Store.Load(ctx, "r1")
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]int{}
	for _, e := range r.Log {
		if _, twice := stored[e.Key]; twice {
			t.Errorf("key %s is stored twice", e.Key)
		}
		stored[e.Key] = e.Seq
	}
	n := 0
	for _, as := range acks {
		for _, a := range as {
			n++
			if stored[a.key] != a.entry {
				t.Errorf("key %s was acknowledged as entry %d; the log has it as %d", a.key, a.entry, stored[a.key])
			}
		}
	}
	if n != writers*rounds || len(r.Log) != n {
		t.Errorf("%d orders acknowledged, %d entries stored; want %d of each", n, len(r.Log), writers*rounds)
	}
	if rep, err := f.h.Verify(ctx, "r1", ""); err != nil || !rep.OK {
		t.Errorf("the race does not verify: %+v, %v", rep, err)
	}
	for i, h := range hosts {
		// A host trusts memory for an hour: Behind is what an instance hears.
		h.Behind("r1")
		p, err := h.Load(ctx, "r1")
		if err != nil || p.Seq != len(r.Log) {
			t.Errorf("host %d after: %v; want the race at entry %d", i+1, err, len(r.Log))
		}
	}
}
