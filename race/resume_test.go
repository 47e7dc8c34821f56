package race

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
)

// records plays a dash race and keeps, as a store would, every turn's
// record; the log's entries get their hashes.
func records(t *testing.T) (*Race, *Played, map[int]*TurnRecord) {
	t.Helper()
	r := newDash(t)
	live := play(t, r, dash{})
	recs := map[int]*TurnRecord{}
	head := Genesis(r)
	for i, e := range r.Log {
		var rec *TurnRecord
		if e.Kind == EntryResolve {
			x, err := live.Turns[e.Turn-1].Record(e.At)
			if err != nil {
				t.Fatal(err)
			}
			rec = &x
			recs[e.Turn] = rec
		}
		head = ChainNext(head, e, rec, r.Seed)
		r.Log[i].Hash = head
	}
	return r, live, recs
}

// tailAfter is r with its log from turn n's resolve entry on.
func tailAfter(r *Race, n int, extra ...Entry) *Race {
	x := *r
	for i, e := range r.Log {
		if e.Kind == EntryResolve && e.Turn == n {
			x.Log = append(append([]Entry(nil), r.Log[i:]...), extra...)
		}
	}
	return &x
}

// A race resumed from the record of any turn comes to the state, the
// pending orders and the chain head of the whole replay.
func TestResumeEqualsReplay(t *testing.T) {
	r, live, recs := records(t)
	full, err := Replay(dash{}, r)
	if err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= len(live.Turns); n++ {
		p, err := Resume(dash{}, tailAfter(r, n), recs[n])
		if err != nil {
			t.Fatalf("resuming after turn %d: %v", n, err)
		}
		h1, _ := Hash(p.State)
		h2, _ := Hash(full.State)
		if h1 != h2 || p.Seq != len(r.Log) || p.Head != r.Log[len(r.Log)-1].Hash || p.Turns[0].Turn != n || p.Resolved() != full.Resolved() {
			t.Fatalf("resumed after turn %d: %s seq %d from turn %d; want %s seq %d", n, h1, p.Seq, p.Turns[0].Turn, h2, len(r.Log))
		}
		for _, tn := range full.Turns[n-1:] {
			got, ok := p.TurnAt(tn.Turn)
			if !ok || got.Hash != tn.Hash || len(got.Rolls) != len(tn.Rolls) {
				t.Fatalf("resumed after turn %d: turn %d differs", n, tn.Turn)
			}
		}
		if _, ok := p.TurnAt(n - 1); ok {
			t.Fatalf("resumed after turn %d, it holds turn %d", n, n-1)
		}
		if s, err := p.StateAt(n); err != nil || s.Turn() != n+1 {
			t.Fatalf("StateAt(%d) resumed: %v %v", n, s, err)
		}
		if _, err := p.StateAt(0); err == nil {
			t.Fatal("a resumed race gave the start it never saw")
		}
	}
}

// Orders resent for a seat: only the last counts, and the store may leave
// the earlier ones out.
func TestResumeReadsTheLastOrders(t *testing.T) {
	r, live, recs := records(t)
	n := len(live.Turns) - 1
	// Drop the race's last turn; send turn n+1's orders again, twice for seat 0.
	cut, tail := beforeResolve(r, n)
	seq := tail[len(tail)-1].Seq
	more := []Entry{
		{Seq: seq + 1, Kind: EntryOrder, Turn: n + 1, Seat: 1, Text: "3"},
		{Seq: seq + 2, Kind: EntryOrder, Turn: n + 1, Seat: 1, Text: "9"}, // replaced: never read
		{Seq: seq + 3, Kind: EntryOrder, Turn: n + 1, Seat: 1, Text: "2"},
	}
	cut.Log = append(tail, more...)
	p, err := Resume(dash{}, cut, recs[n])
	if err != nil {
		t.Fatal(err)
	}
	if p.Pending[1].String() != "2" || p.PendingAt[1] != seq+3 || p.Pending[0].String() != "2" || p.Seq != seq+3 {
		t.Fatalf("pending %v at %v, seq %d", p.Pending, p.PendingAt, p.Seq)
	}
	// The same with the replaced orders left out, as SQLite does.
	cut.Log = append(append([]Entry(nil), tail[:1]...), more[2])
	p, err = Resume(dash{}, cut, recs[n])
	if err != nil || p.Pending[1].String() != "2" || len(p.Pending) != 1 {
		t.Fatalf("with the replaced orders left out: %v %v", p, err)
	}
	// An order of the last for another turn is a damaged log.
	cut.Log = append(append([]Entry(nil), tail[:1]...), Entry{Seq: seq + 1, Kind: EntryOrder, Turn: n + 5, Seat: 1, Text: "3"}, more[2])
	if _, err := Resume(dash{}, cut, recs[n]); err == nil {
		t.Fatal("an order for another turn was passed over")
	}
	for _, log := range [][]Entry{{tail[0], more[2], more[0]}, {tail[0], more[2], more[2]}} {
		cut.Log = log
		if _, err := Resume(dash{}, cut, recs[n]); err == nil || !strings.Contains(err.Error(), "comes after") {
			t.Fatalf("entries out of order, or one twice: %v", err)
		}
	}
}

// beforeResolve is r after turn n's record, as tailAfter gives it, and that
// log's entries up to turn n+1's resolve, left out.
func beforeResolve(r *Race, n int) (*Race, []Entry) {
	x := tailAfter(r, n)
	var log []Entry
	for _, e := range x.Log {
		if e.Kind == EntryResolve && e.Turn == n+1 {
			break
		}
		log = append(log, e)
	}
	return x, log
}

func TestResumeRefusesABadRecord(t *testing.T) {
	r, _, recs := records(t)
	bad := func(change func(rec *TurnRecord, r *Race)) error {
		rec := *recs[2]
		x := tailAfter(r, 2)
		change(&rec, x)
		_, err := Resume(dash{}, x, &rec)
		return err
	}
	for name, change := range map[string]func(*TurnRecord, *Race){
		"another hash":     func(rec *TurnRecord, _ *Race) { rec.Hash = strings.Repeat("0", 64) },
		"a snapshot":       func(rec *TurnRecord, _ *Race) { rec.State = []byte(`{"t":3,"pos":[1,2]}`) },
		"no json":          func(rec *TurnRecord, _ *Race) { rec.State = []byte(`{`) },
		"the dice":         func(rec *TurnRecord, _ *Race) { rec.DiceState = []byte{1, 2} },
		"the story":        func(rec *TurnRecord, _ *Race) { rec.Story = []byte(`[`) },
		"no resolve first": func(_ *TurnRecord, x *Race) { x.Log = x.Log[1:] },
		"no log":           func(_ *TurnRecord, x *Race) { x.Log = nil },
		"another turn":     func(rec *TurnRecord, _ *Race) { rec.Turn = 3 },
	} {
		if err := bad(change); err == nil {
			t.Errorf("%s: resumed", name)
		}
	}
	if err := bad(func(*TurnRecord, *Race) {}); err != nil {
		t.Fatal(err)
	}
}

// After a rules change, a pending order the new rules refuse is voided, not
// a failed load; under the same rules it is a damaged log.
func TestResumeUnderOtherRules(t *testing.T) {
	defer func() { dashVersion = 1 }()
	r, live, recs := records(t)
	n := len(live.Turns) - 1
	x, log := beforeResolve(r, n)
	seq := log[len(log)-1].Seq
	log = append(log, Entry{Seq: seq + 1, Kind: EntryOrder, Turn: n + 1, Seat: 1, Text: "7"},
		Entry{Seq: seq + 2, Kind: EntrySet, Turn: n + 1, Seat: -1, Text: "nope=1"})
	x.Log = log
	if _, err := Resume(dash{}, x, recs[n]); err == nil {
		t.Fatal("an order the rules refuse was taken under the same rules")
	}
	dashVersion = 2
	p, err := Resume(dash{}, x, recs[n])
	if err != nil {
		t.Fatalf("after a rules change: %v", err)
	}
	if !p.Lenient || len(p.Voided) != 2 || p.Voided[0].Seat != 1 || p.Voided[0].Seq != seq+1 || p.Voided[1].Kind != EntrySet || p.Seq != seq+2 {
		t.Fatalf("voided %+v, seq %d", p.Voided, p.Seq)
	}
	if _, in := p.Pending[1]; in || p.Pending[0] == nil {
		t.Fatalf("pending %v: seat 1's refused order replaced its earlier one; seat 0's stays", p.Pending)
	}
	tn, err := p.NextTurn(time.Time{})
	if err != nil || tn.Rules != 2 || tn.Defaulted[0] != 1 || p.Lenient || p.Voided != nil {
		t.Fatalf("the next turn: %+v %v; lenient %v", tn, err, p.Lenient)
	}
	// An entry that is not an order error is never voided.
	p, _ = Resume(dash{}, tailAfter(r, n), recs[n])
	p.Lenient = true
	if err := p.Apply(Entry{Seq: p.Seq + 1, Kind: EntryOrder, Turn: 99, Seat: 0, Text: "1"}); err == nil {
		t.Fatal("an order for another turn was voided")
	}
}

func TestApplyRefuses(t *testing.T) {
	r := newDash(t)
	p := Begin(dash{}, r)
	if p.Turn() != 1 || p.Resolved() != 0 || p.Started {
		t.Fatal("a race before its start is on turn 1")
	}
	join := func(seq int, player string) Entry {
		return Entry{Seq: seq, Kind: EntryJoin, Text: EntrantText(Entrant{Player: player, Racers: []string{player}})}
	}
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	for i, e := range []Entry{
		join(1, "c"),
		{Seq: 2, Kind: EntrySchedule, Turn: 1, Seat: -1, Text: Schedule{Deadline: &at}.Text()},
	} {
		if err := p.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", i+1, err)
		}
	}
	if len(p.Entrants) != 3 || p.Started || p.Schedule.Deadline == nil || !p.Schedule.Deadline.Equal(at) {
		t.Fatalf("after a join and a schedule: %+v", p)
	}
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{join(4, "d"), "follows entry 2"},
		{Entry{Seq: 3, Kind: EntryJoin, Turn: 1, Text: EntrantText(Entrant{Player: "d"})}, "turn 0"},
		{join(3, "c"), "joined already"},
		{Entry{Seq: 3, Kind: EntrySchedule, Turn: 1, Text: "{"}, "schedule"},
		{Entry{Seq: 3, Kind: EntrySchedule, Turn: 2, Text: "{}"}, "turn 2"},
		{Entry{Seq: 3, Kind: "shout", Turn: 1}, "unknown"},
		{Entry{Seq: 3, Kind: EntrySet, Turn: 1, Text: "bot"}, "KEY=VALUE"},
		{Entry{Seq: 3, Kind: EntrySet, Turn: 1, Text: "speed=9"}, "unknown setting"},
	} {
		if err := p.Apply(tc.e); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.e, err, tc.want)
		}
	}
	if err := p.Apply(Entry{Seq: 3, Kind: EntryOrder, Turn: 1, Seat: 0, Text: "2"}); err != nil || !p.Started || len(p.State.Seats()) != 3 {
		t.Fatalf("the first order sets the race up with its entrants: %v", err)
	}
	if err := p.Apply(join(4, "e")); !errors.Is(err, ErrStarted) {
		t.Fatalf("a join after the start: %v", err)
	}
	if err := p.SetUp(); err != nil {
		t.Fatal("setting up a race set up is nothing to do")
	}
	// A race that never had an entry is set up by its first resolve.
	q := Begin(dash{}, newDash(t))
	if tn, err := q.NextTurn(time.Time{}); err != nil || tn.Turn != 1 || len(tn.Defaulted) != 2 || q.Resolved() != 1 {
		t.Fatalf("a first resolve: %+v %v", tn, err)
	}
	// Too few entrants: the error says so and the Played keeps what it has.
	empty := newDash(t)
	empty.Entrants = nil
	f, err := Replay(dash{}, empty)
	if err == nil || f == nil || f.Started {
		t.Fatalf("a race with nobody in it: %v %v", f, err)
	}
}

func TestOverAndAdopt(t *testing.T) {
	r, live, recs := records(t)
	p, err := Replay(dash{}, r)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(Entry{Seq: p.Seq + 1, Kind: EntrySet, Turn: p.Turn(), Text: "bot=on"}); !errors.Is(err, ErrOver) {
		t.Fatalf("a setting after the end: %v", err)
	}
	if _, err := p.NextTurn(time.Time{}); !errors.Is(err, ErrOver) {
		t.Fatalf("a resolve after the end: %v", err)
	}
	if err := p.CheckSetting("bot", "on"); !errors.Is(err, ErrOver) {
		t.Fatalf("a setting checked after the end: %v", err)
	}
	// Adopt takes a turn from its record, as verify does for a turn it cannot replay.
	q := Begin(dash{}, r)
	for _, e := range r.Log {
		if e.Kind == EntryResolve && e.Turn == 2 {
			if err := q.Adopt(e, recs[2]); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if e.Turn == 2 {
			q.Pass(e)
			continue
		}
		if err := q.Apply(e); err != nil {
			t.Fatalf("entry %d: %v", e.Seq, err)
		}
	}
	if h, _ := Hash(q.State); h != live.Turns[len(live.Turns)-1].Hash || q.Seq != len(r.Log) {
		t.Fatal("a race that adopted turn 2 from its record ends elsewhere")
	}
	rec := *recs[2]
	rec.State = []byte("[")
	if err := Begin(dash{}, r).Adopt(r.Log[0], &rec); err == nil {
		t.Fatal("a broken snapshot was adopted")
	}
	rec = *recs[2]
	rec.Story = []byte("[")
	if err := Begin(dash{}, r).Adopt(r.Log[0], &rec); err == nil {
		t.Fatal("a broken story was adopted")
	}
	rec = *recs[2]
	rec.DiceState = []byte{9}
	if err := Begin(dash{}, r).Adopt(r.Log[0], &rec); err == nil {
		t.Fatal("a broken dice state was adopted")
	}
}

// A refusal names seats as posts number them, from 1.
func TestRefusalsNameSeatsFromOne(t *testing.T) {
	p, err := Start(dash{}, newDash(t))
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Check(Submission{Seat: 5, Text: "1"})
	if err == nil || !strings.Contains(err.Error(), "seat 6 has nothing to order on turn 1; racers who do:  (seat 1),  (seat 2)") {
		t.Fatalf("%v", err)
	}
	// Reseat on a race with no turn yet.
	if err := p.Reseat(p.State, dice.New(dice.SeedFromInt(1)).State()); err != nil || len(p.Turns) != 0 {
		t.Fatal(err)
	}
}

func TestRecordOfATurn(t *testing.T) {
	_, live, recs := records(t)
	tn := live.Turns[0]
	rec := recs[1]
	var st Story
	if err := json.Unmarshal(rec.Story, &st); err != nil || st.Orders[0] != tn.Orders[0] || len(st.Events) != len(tn.Events) {
		t.Fatalf("the story: %s %v", rec.Story, err)
	}
	if h, _ := Hash(tn.After); rec.Hash != h || string(rec.DiceState) != string(tn.DiceState) || rec.Rules != dashVersion || len(rec.Rolls) != len(tn.Rolls) {
		t.Fatalf("the record: %+v", rec)
	}
	var s dashState
	if err := json.Unmarshal(rec.State, &s); err != nil || s.T != 2 {
		t.Fatalf("the snapshot: %s", rec.State)
	}
	if _, err := (Turn{After: &unmarshalable{}}).Record(time.Time{}); err == nil {
		t.Fatal("a state that does not marshal was recorded")
	}
	if _, err := Hash(&unmarshalable{}); err == nil {
		t.Fatal("a state that does not marshal was hashed")
	}
	_ = dice.D6
}

type unmarshalable struct{ dashState }

func (*unmarshalable) MarshalJSON() ([]byte, error) { return nil, errors.New("no") }

// TestStartEntry: a start entry sets the race up and does nothing more: the
// entrants are fixed from it on, no order or mark is made, and a replay
// from the log comes to the same race; with too few entrants, or for a
// turn other than the first, it is refused.
func TestStartEntry(t *testing.T) {
	r := newDash(t)
	p := Begin(dash{}, r)
	join := Entry{Seq: 1, Kind: EntryJoin, Text: EntrantText(Entrant{Player: "c", Racers: []string{"c"}})}
	start := Entry{Seq: 2, Kind: EntryStart, Turn: 1, Seat: -1}
	for _, e := range []Entry{join, start} {
		if err := p.Apply(e); err != nil {
			t.Fatalf("%s: %v", e.Kind, err)
		}
	}
	if !p.Started || len(p.State.Seats()) != 3 || len(p.Pending) != 0 || len(p.Ready) != 0 || p.Resolved() != 0 {
		t.Fatalf("after a join and a start: started %v, seats %v, pending %v, ready %v", p.Started, p.State.Seats(), p.Pending, p.Ready)
	}
	if err := p.Apply(Entry{Seq: 3, Kind: EntryJoin, Text: EntrantText(Entrant{Player: "d", Racers: []string{"d"}})}); !errors.Is(err, ErrStarted) {
		t.Errorf("a join after the start: %v, want ErrStarted", err)
	}
	r.Log = []Entry{join, start}
	f, err := Follow(dash{}, r)
	if err != nil || !f.Started {
		t.Fatalf("following a log with a start: %v, started %v", err, f != nil && f.Started)
	}
	for _, tc := range []struct {
		e    Entry
		want string
	}{
		{Entry{Seq: 3, Kind: EntryStart, Turn: 2, Seat: -1}, "turn 2"},
		{Entry{Seq: 3, Kind: EntryStart, Turn: 1, Seat: 0}, "no seat"},
		{Entry{Seq: 3, Kind: EntryStart, Turn: 1, Seat: -1, Text: "x"}, "no seat"},
	} {
		if err := p.Apply(tc.e); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.e, err, tc.want)
		}
	}
	empty := newDash(t)
	empty.Entrants = nil
	q := Begin(dash{}, empty)
	if err := q.Apply(Entry{Seq: 1, Kind: EntryStart, Turn: 1, Seat: -1}); err == nil || q.Started {
		t.Errorf("a start with nobody entered: %v, started %v", err, q.Started)
	}
}
