package storetest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	_ "pitwall/rules/gaslands" // the games whose races are copied
	_ "pitwall/rules/ludi"
	_ "pitwall/rules/nascar"
	_ "pitwall/rules/party"
	_ "pitwall/rules/rtd"
	"pitwall/store"
)

// RunCopy runs, as subtests of t, the cases of store.Copier: races copied
// from stores that from gives to stores that to gives (two kinds of store,
// or two of one kind). Both must give stores that implement store.Copier.
func RunCopy(t *testing.T, from, to Opener) {
	hf, ht := &harness{open: from}, &harness{open: to}
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, from, to store.Copier)
	}{
		{"Games", testCopyGames},
		{"Repeat", testCopyRepeat},
		{"Conflict", testCopyConflict},
		{"Times", testCopyTimes},
		{"Renumbered", testCopyRenumbered},
		{"SourceMoved", testCopySourceMoved},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, copier(t, hf), copier(t, ht)) })
	}
}

func copier(t *testing.T, h *harness) store.Copier {
	t.Helper()
	c, _ := freshAs[store.Copier](t, h)
	return c
}

// copyTable plays a bot race on a store as a host would, entry by entry,
// each with its link in the chain and each resolve with its turn record;
// it stops before the resolve of turn stop, with that turn's orders in.
// (The host package's tests use this package: it cannot use the host.)
type copyTable struct {
	s    store.Store
	p    *race.Played
	now  *time.Time
	stop int
}

var errStopped = errors.New("stopped mid-race")

func (b *copyTable) add(e race.Entry) error {
	*b.now = b.now.Add(7*time.Minute + 123*time.Microsecond)
	p := b.p
	e.Seq, e.Turn, e.At = len(p.Race.Log)+1, p.State.Turn(), *b.now
	head := p.Head
	if err := p.Apply(e); err != nil {
		return err
	}
	var saved *store.SavedTurn
	if e.Kind == race.EntryResolve {
		rec, err := p.Turns[len(p.Turns)-1].Record(e.At)
		if err != nil {
			return err
		}
		saved = &rec
	}
	e.Hash = race.ChainNext(head, e, saved, p.Race.Seed)
	p.Head = e.Hash
	p.Race.Log = append(p.Race.Log, e)
	return b.s.Append(context.Background(), p.Race.ID, e, saved)
}

func (b *copyTable) State() race.State { return b.p.State }

func (b *copyTable) Set(_ int, kv string) error {
	return b.add(race.Entry{Kind: race.EntrySet, Seat: -1, Text: kv})
}

func (b *copyTable) Submit(turn, seat int, text string, in bool) error {
	return b.add(race.Entry{Kind: race.EntryOrder, Seat: seat, Text: text, InWindow: in, Key: fmt.Sprintf("o-%d-%d", turn, seat)})
}

func (b *copyTable) Resolve(turn int) error {
	if turn >= b.stop {
		return errStopped
	}
	return b.add(race.Entry{Kind: race.EntryResolve, Seat: -1})
}

// servedRace stores game's demo race in s as the service keeps one: with
// its access and links (one revoked, one added later), controls, webhooks
// (one removed) and their outbox (deliveries done, failed and still to be
// sent, and a warning), played by bots to the orders of turn stop.
func servedRace(t *testing.T, s store.Copier, game, id string, seed uint64, stop int) {
	t.Helper()
	ctx := context.Background()
	now := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	rs, err := race.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	g := rs.Game()
	r := &race.Race{ID: id, Ruleset: game, Rules: g.Version, Config: race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps},
		Entrants: g.Demo.Entrants, Seed: dice.SeedFromInt(seed), Created: now}
	p, err := race.Start(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	p.Head = race.Genesis(r)
	a, ts := sampleLinks(id)
	a.Created, a.Invite = now, seed%2 == 1 // an invite race's access, and another's
	if err := s.CreateWithAccess(ctx, r, a, ts); err != nil {
		t.Fatal(err)
	}
	hk := func(url string, events ...string) store.Hook {
		hook := sampleHook(id, url, "k-"+url, events...)
		hook.Created = now
		return mustHook(t, s, hook)
	}
	told := hk("https://example.org/" + id + "/told")
	hk("https://example.org/"+id+"/finish", store.EventFinished)
	gone := hk("https://example.org/" + id + "/gone")
	ctl := func(kind string, seat int, value, key string) {
		c := control(id, kind, seat, value, key)
		c.At = now
		if _, err := s.AddControl(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	ctl(store.ControlSeat, 1, store.ControlBot, "bot-1")
	ctl(store.ControlSchedule, -1, `{"every":"48h"}`, "")
	tb := &copyTable{s: s, p: p, now: &now, stop: stop}
	if err := (race.BotRace{Miss: 9, MaxTurns: 400}).Play(rs, tb, rand.New(rand.NewPCG(seed, 7))); !errors.Is(err, errStopped) {
		t.Fatalf("%s: %v; want a race stopped at turn %d", id, err, stop)
	}
	ctl(store.ControlSeat, 1, store.ControlPerson, "person-1")
	ctl(store.ControlClock, -1, store.ControlPaused, "pause")
	if err := s.RevokeToken(ctx, id, ts[1].Hash, now); err != nil {
		t.Fatal(err)
	}
	later := []store.Token{{Hash: hashOf(id + "later"), Race: id, Role: store.RoleSpectator, Seat: -1, Created: now},
		{Hash: hashOf(id + "invite"), Race: id, Role: store.RoleInvite, Seat: -1, Created: now},
		{Hash: hashOf(id + "racer"), Race: id, Role: store.RoleSeat, Seat: -1, Racer: "Zoë", Created: now}} // a racer's link made before the start
	if err := s.AddTokens(ctx, id, later); err != nil {
		t.Fatal(err)
	}
	// The told hook's first delivery went, its second failed once and
	// waits; gone's are dropped with it.
	for i, outcome := range []string{store.Delivered, ""} {
		at := now.Add(time.Duration(i+1) * time.Hour)
		ds, err := s.Claim(ctx, "copier", at, at.Add(time.Minute), 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range ds {
			if d.Hook != told.ID {
				continue
			}
			d.Attempts, d.Outcome, d.Error = 1, outcome, "502 Bad Gateway"
			if outcome != "" {
				d.Done, d.Error = &at, ""
			} else {
				d.Due = at.Add(time.Hour)
			}
			if held, err := s.Settle(ctx, d); !held || err != nil {
				t.Fatalf("settling %+v: %v %v", d, held, err)
			}
		}
	}
	if _, err := s.Warn(ctx, store.Delivery{Hook: told.ID, Race: id, Turn: stop, Deadline: ptr(now.Add(48 * time.Hour)), Created: now, Due: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.RemoveHook(ctx, id, gone.ID, now); err != nil {
		t.Fatal(err)
	}
}

// readCopy reads race id whole.
func readCopy(t *testing.T, s store.Copier, id string) *store.RaceCopy {
	t.Helper()
	c, err := s.ReadRace(ctx(t), id)
	if err != nil {
		t.Fatalf("ReadRace(%q): %v", id, err)
	}
	return c
}

// sameCopy fails the test where got (read from the destination) is not
// want (read from the source), part by part.
func sameCopy(t *testing.T, got, want *store.RaceCopy) {
	t.Helper()
	g, w := reflect.ValueOf(*got), reflect.ValueOf(*want)
	for i := range g.NumField() {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			t.Errorf("race %s: the copy's %s differs:\n got %+v\nwant %+v", want.Race.ID, g.Type().Field(i).Name, g.Field(i).Interface(), w.Field(i).Interface())
		}
	}
}

// copyRace copies race id and checks what CopyRace says.
func copyRace(t *testing.T, from, to store.Copier, id string, moved bool) store.Copied {
	t.Helper()
	got, err := store.CopyRace(ctx(t), from, to, id)
	if err != nil {
		t.Fatalf("copying %s: %v", id, err)
	}
	if got.Moved != moved {
		t.Fatalf("copying %s: moved %v, want %v", id, got.Moved, moved)
	}
	return got
}

// testCopyGames: races of every game, stopped mid-race with the open
// turn's orders in, each with links (revoked and not), controls, webhooks
// (removed and not) and an outbox (done, failed once and waiting, a
// warning), come over whole: every part reads back the same from the
// destination, its chain worked out again ends at the source's head, its
// turn hashes are the source's, it resumes from its last turn's record, and
// the source is as it was.
func testCopyGames(t *testing.T, from, to store.Copier) {
	games := []string{"ludi", "nascar", "rtd", "gaslands", "party"}
	before := map[string]*store.RaceCopy{}
	for i, game := range games {
		id := game + "-copied"
		servedRace(t, from, game, id, uint64(i+3), 3+i%2)
		before[id] = readCopy(t, from, id)
	}
	for _, game := range games {
		id := game + "-copied"
		c := before[id]
		if len(c.Turns) < 2 || len(c.Outbox) < 3 || len(c.Controls) != 4 || len(c.Tokens) != 6 || c.Access == nil ||
			!slices.ContainsFunc(c.Tokens, func(x store.Token) bool { return x.Racer != "" }) {
			t.Fatalf("%s is not the race this test means to copy: %d turns, %d deliveries, %d controls, %d links",
				id, len(c.Turns), len(c.Outbox), len(c.Controls), len(c.Tokens))
		}
		if last := c.Race.Log[len(c.Race.Log)-1]; last.Kind != race.EntryOrder {
			t.Fatalf("%s ends with a %s entry; want the open turn's orders", id, last.Kind)
		}
		got := copyRace(t, from, to, id, true)
		if got.Entries != len(c.Race.Log) || got.Turns != len(c.Turns) || got.Head != c.Head() || got.Renumbered.Hooks != nil {
			t.Errorf("%s: copied %+v; want %d entries, %d turns, head %s, no id renumbered", id, got, len(c.Race.Log), len(c.Turns), c.Head())
		}
		sameCopy(t, readCopy(t, to, id), c)
		sameCopy(t, readCopy(t, from, id), c)
		r := mustLoad(t, to, id)
		turns := mustTurns(t, to, id)
		if head := chainOf(t, r, turns); head != c.Head() {
			t.Errorf("%s: the copy's chain, worked out again, ends at %s; want the source's %s", id, head, c.Head())
		}
		for i, tn := range turns {
			if tn.Hash != c.Turns[i].Hash {
				t.Errorf("%s: turn %d's hash %s; the source's %s", id, tn.Turn, tn.Hash, c.Turns[i].Hash)
			}
		}
		if _, rec, err := to.Resume(ctx(t), id, -1); err != nil || rec == nil || rec.Hash != c.Turns[len(c.Turns)-1].Hash {
			t.Errorf("%s: the copy resumes from %+v, %v; want the last turn's record", id, rec, err)
		}
	}
	// The destination's counters are past the ids the copies kept: what it
	// numbers next is new.
	hk := sampleHook("ludi-copied", "https://example.org/new", "new")
	if _, err := to.AddHook(ctx(t), hk); err != nil {
		t.Errorf("a hook added after the copies: %v", err)
	}
	// The copies' deliveries waiting are the destination's to send.
	pending := 0
	for _, id := range []string{"ludi-copied", "party-copied"} {
		for _, d := range before[id].Outbox {
			if d.Outcome == "" {
				pending++
			}
		}
	}
	far := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	ds, err := to.Claim(ctx(t), "after", far, far.Add(time.Minute), 1000)
	if err != nil || len(ds) == 0 {
		t.Errorf("the destination's outbox gives %d deliveries to send (%v); want the copies' waiting ones (%d of two races)", len(ds), err, pending)
	}
}

// testCopyRepeat: a race copied again is there already, the same: nothing
// is written, and CopyRace says so.
func testCopyRepeat(t *testing.T, from, to store.Copier) {
	servedRace(t, from, "nascar", "again", 11, 3)
	copyRace(t, from, to, "again", true)
	want := readCopy(t, to, "again")
	got := copyRace(t, from, to, "again", false)
	if got.Entries != len(want.Race.Log) || got.Head != want.Head() {
		t.Errorf("the repeat: %+v", got)
	}
	sameCopy(t, readCopy(t, to, "again"), want)
}

// testCopyConflict: a race of the same ID, not the same race, is refused
// as ErrExists, naming the race, and nothing of the source's is written; a
// link whose hash the destination holds for another race is refused too,
// with nothing written.
func testCopyConflict(t *testing.T, from, to store.Copier) {
	servedRace(t, from, "ludi", "taken", 5, 3)
	servedRace(t, to, "ludi", "taken", 6, 2)
	want := readCopy(t, to, "taken")
	_, err := store.CopyRace(ctx(t), from, to, "taken")
	checkErr(t, "copying onto another race of the ID", err, store.ErrExists, "taken")
	sameCopy(t, readCopy(t, to, "taken"), want)

	// A race of another ID with a link of "taken"'s in the destination.
	c := readCopy(t, from, "taken")
	c.Race.ID = "twin"
	c.Access, c.Controls, c.Hooks, c.Outbox = nil, nil, nil, nil
	c.Tokens = c.Tokens[:1]
	c.Tokens[0].Race = "twin"
	c.Tokens[0].Hash = want.Tokens[0].Hash
	c.Race.Log, c.Turns, c.Rolls = nil, nil, nil
	if _, err := to.WriteRace(ctx(t), c, nil); err == nil || !strings.Contains(err.Error(), "twin") || !strings.Contains(err.Error(), "the hash of a link") {
		t.Errorf("a link whose hash is taken: error %v; want a refusal naming the race", err)
	}
	if _, err := to.Load(ctx(t), "twin"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after the refusal, the race was stored: %v", err)
	}
}

// testCopyTimes: every time comes over to the microsecond, in UTC,
// whatever zone it was stored in, near the ends of what a store keeps; a
// time finer than a microsecond is refused and nothing written.
func testCopyTimes(t *testing.T, from, to store.Copier) {
	zone := time.FixedZone("", -(9*3600 + 30*60))
	times := []time.Time{
		time.Date(1970, 1, 1, 0, 0, 0, 1000, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999999000, zone),
		time.Date(2026, 11, 23, 18, 0, 0, 123456000, zone),
		time.Date(2999, 12, 31, 23, 59, 59, 999999000, time.UTC),
	}
	r := sampleRace("times", 7)
	r.Created = times[1]
	a, ts := sampleLinks("times")
	a.Created = times[2]
	if err := from.CreateWithAccess(ctx(t), r, a, ts); err != nil {
		t.Fatal(err)
	}
	for i, at := range times {
		e := orderEntry(2*i+1, i+1, 0, "go")
		e.At = at
		mustAppend(t, from, "times", e, nil)
		res := resolveEntry(2*i+2, i+1)
		res.At = at
		tn := savedTurn(i + 1)
		tn.At = times[len(times)-1-i]
		mustAppend(t, from, "times", res, tn)
	}
	if err := from.RevokeToken(ctx(t), "times", ts[0].Hash, times[3]); err != nil {
		t.Fatal(err)
	}
	hk := sampleHook("times", "https://example.org/t", "")
	hk.Created = times[0]
	hook := mustHook(t, from, hk)
	if _, err := from.Warn(ctx(t), store.Delivery{Hook: hook.ID, Race: "times", Turn: 5, Deadline: &times[3], Created: times[1], Due: times[2]}); err != nil {
		t.Fatal(err)
	}
	want := readCopy(t, from, "times")
	for _, e := range want.Race.Log {
		if e.At.Location() != time.UTC {
			t.Fatalf("the source gives entry %d's time in %v", e.Seq, e.At.Location())
		}
	}
	copyRace(t, from, to, "times", true)
	got := readCopy(t, to, "times")
	sameCopy(t, got, want)
	for i, at := range times {
		checkTime(t, fmt.Sprint("entry ", 2*i+1), got.Race.Log[2*i].At, at)
	}
	checkTime(t, "the creation", got.Race.Created, times[1])

	fine := readCopy(t, from, "times")
	fine.Race.ID = "fine"
	fine.Access, fine.Tokens, fine.Hooks, fine.Outbox = nil, nil, nil, nil
	fine.Race.Log[0].At = fine.Race.Log[0].At.Add(time.Nanosecond)
	if _, err := to.WriteRace(ctx(t), fine, nil); err == nil || !strings.Contains(err.Error(), "microsecond") {
		t.Errorf("a time finer than a microsecond: error %v", err)
	}
	if _, err := to.Load(ctx(t), "fine"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("after the refusal, the race was stored: %v", err)
	}
}

// testCopyRenumbered: where the destination has given a hook's, control's
// or delivery's id to another race, the copy's are numbered anew, in their
// order, its deliveries name its hooks by their new ids, and CopyRace says
// which ids changed.
func testCopyRenumbered(t *testing.T, from, to store.Copier) {
	servedRace(t, from, "rtd", "moved", 2, 3)
	servedRace(t, to, "rtd", "local", 2, 2)
	want := readCopy(t, from, "moved")
	got := copyRace(t, from, to, "moved", true)
	if len(got.Renumbered.Hooks) != len(want.Hooks) || len(got.Renumbered.Controls) != len(want.Controls) ||
		len(got.Renumbered.Deliveries) != len(want.Outbox) {
		t.Fatalf("renumbered %+v; want every hook, control and delivery of the race", got.Renumbered)
	}
	for _, h := range want.Hooks {
		if h.ID == got.Renumbered.Hooks[h.ID] {
			t.Errorf("hook %d kept its id, which the destination's race has", h.ID)
		}
	}
	// As the source's, with the new ids.
	for i := range want.Hooks {
		want.Hooks[i].ID = got.Renumbered.Hooks[want.Hooks[i].ID]
	}
	for i := range want.Controls {
		want.Controls[i].Seq = got.Renumbered.Controls[want.Controls[i].Seq]
	}
	for i := range want.Outbox {
		d := &want.Outbox[i]
		d.ID, d.Hook = got.Renumbered.Deliveries[d.ID], got.Renumbered.Hooks[d.Hook]
	}
	sameCopy(t, readCopy(t, to, "moved"), want)
}

// flaky is a source that a service writes to while the race is copied: an
// order goes in before the race is read again.
type flaky struct {
	store.Copier
	reads int
	write func()
}

func (f *flaky) ReadRace(ctx context.Context, id string) (*store.RaceCopy, error) {
	if f.reads++; f.reads == 2 {
		f.write()
	}
	return f.Copier.ReadRace(ctx, id)
}

// testCopySourceMoved: a race that moves on in the source while it is
// copied is not written, and the error says to stop the service.
func testCopySourceMoved(t *testing.T, from, to store.Copier) {
	servedRace(t, from, "gaslands", "busy", 4, 2)
	c := readCopy(t, from, "busy")
	last := c.Race.Log[len(c.Race.Log)-1]
	src := &flaky{Copier: from, write: func() {
		if err := from.Append(ctx(t), "busy", race.Entry{Seq: last.Seq + 1, Kind: race.EntryReady, Turn: last.Turn, Seat: 0,
			Text: "", At: last.At, Hash: "x"}, nil); err != nil {
			t.Fatal(err)
		}
	}}
	_, err := store.CopyRace(ctx(t), src, to, "busy")
	if !errors.Is(err, store.ErrSourceMoved) || !strings.Contains(err.Error(), "busy") || !strings.Contains(err.Error(), "stop the service") {
		t.Errorf("a race written to while copied: error %v; want ErrSourceMoved, naming the race", err)
	}
	if _, err := to.Load(ctx(t), "busy"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("the race moved on in the source, and the copy was stored: %v", err)
	}
}

// chainOf works race r's chain out again from its log and turn records
// (as a verify does) and gives its head; a link that is not the stored
// hash fails t.
func chainOf(t *testing.T, r *race.Race, turns []store.SavedTurn) string {
	t.Helper()
	byTurn := map[int]*store.SavedTurn{}
	for i := range turns {
		byTurn[turns[i].Turn] = &turns[i]
	}
	head := race.Genesis(r)
	for _, e := range r.Log {
		var rec *store.SavedTurn
		if e.Kind == race.EntryResolve {
			rec = byTurn[e.Turn]
		}
		if head = race.ChainNext(head, e, rec, r.Seed); head != e.Hash {
			t.Errorf("race %s: entry %d's hash is %s; its chain gives %s", r.ID, e.Seq, e.Hash, head)
		}
	}
	return head
}
