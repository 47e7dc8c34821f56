package race

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
)

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name, want string // want: a word of the refusal, "" to accept
	}{
		{"Marcus Aurelius", ""},
		{"Zoë «Ünïcödé» ☃", ""},
		{strings.Repeat("é", MaxName), ""},
		{"a", ""},
		{strings.Repeat("é", MaxName+1), "at most 64"},
		{"\xff\xfe", "UTF-8"},
		{"", "empty"},
		{"   ", "empty"},
		{" Marcus", "space"},
		{"Marcus ", "space"},
		{"Mar\x00cus", "unprintable"},
		{"Tab\there", "unprintable"},
		{"\u202eevil", "unprintable"},
	} {
		err := CheckName("the name", tc.name)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%.20q: %v, want %q", tc.name, err, tc.want)
		}
	}
	ok := Entrant{Player: "P", Racers: []string{"R"}, Options: map[string]string{"package": "noble"}}
	if err := CheckEntrant(ok); err != nil {
		t.Fatal(err)
	}
	for _, e := range []Entrant{
		{Player: "", Racers: []string{"R"}},
		{Player: "P", Racers: []string{"R", "\x01"}},
		{Player: "P", Options: map[string]string{strings.Repeat("k", MaxName+1): "v"}},
		{Player: "P", Options: map[string]string{"k": strings.Repeat("v", 4097)}},
		{Player: "P", Options: map[string]string{"k": "\xff"}},
		{Player: "P", Options: map[string]string{"\xff": "v"}},
	} {
		if CheckEntrant(e) == nil {
			t.Errorf("%+.40v accepted", e)
		}
	}
	long := Entrant{Player: "P", Options: map[string]string{strings.Repeat("k", MaxName): strings.Repeat("v", 4096)}}
	if err := CheckEntrant(long); err != nil {
		t.Errorf("a choice at the limits: %v", err)
	}
}

func entrantEntry(kind string, e Entrant) Entry {
	return Entry{Kind: kind, Text: EntrantText(e)}
}

func TestApplyEntrant(t *testing.T) {
	a := Entrant{Player: "Ann", Racers: []string{"A"}}
	b := Entrant{Player: "Bo", Racers: []string{"B"}}
	es, err := ApplyEntrant(nil, entrantEntry(EntryJoin, a))
	if err != nil || !reflect.DeepEqual(es, []Entrant{a}) {
		t.Fatal(es, err)
	}
	es2, err := ApplyEntrant(es, entrantEntry(EntryJoin, b))
	if err != nil || len(es2) != 2 || es2[1].Player != "Bo" {
		t.Fatal(es2, err)
	}
	if _, err := ApplyEntrant(es2, entrantEntry(EntryJoin, Entrant{Player: "ANN", Racers: []string{"X"}})); err == nil || !strings.Contains(err.Error(), "joined already") {
		t.Fatalf("a second join, in another case: %v", err)
	}
	fixed, err := ApplyEntrant(es2, entrantEntry(EntryFix, Entrant{Player: "ann", Racers: []string{"Z"}}))
	if err != nil || len(fixed) != 2 || fixed[0].Racers[0] != "Z" || fixed[1].Player != "Bo" {
		t.Fatalf("a fix keeps the entrant's place: %v %v", fixed, err)
	}
	if es2[0].Racers[0] != "A" {
		t.Fatal("a fix changed the list it was given")
	}
	if _, err := ApplyEntrant(es2, entrantEntry(EntryFix, Entrant{Player: "Cy", Racers: []string{"C"}})); err == nil || !strings.Contains(err.Error(), "Ann, Bo") {
		t.Fatalf("fixing nobody: %v", err)
	}
	left, err := ApplyEntrant(es2, Entry{Kind: EntryWithdraw, Text: "ANN"})
	if err != nil || len(left) != 1 || left[0].Player != "Bo" || len(es2) != 2 || es2[0].Player != "Ann" {
		t.Fatalf("a withdrawal: %v %v (was %v)", left, err, es2)
	}
	if _, err := ApplyEntrant(nil, Entry{Kind: EntryWithdraw, Text: "Ann"}); err == nil || !strings.Contains(err.Error(), "none yet") {
		t.Fatalf("withdrawing from nobody: %v", err)
	}
	for _, e := range []Entry{{Kind: EntryJoin, Text: "{"}, {Kind: EntryJoin, Text: `{"player":""}`}, {Kind: EntryOrder, Text: "x"}} {
		if _, err := ApplyEntrant(es2, e); err == nil {
			t.Errorf("%+v applied", e)
		}
	}
	if !entrantEntry(EntryFix, a).IsEntrant() || (Entry{Kind: EntrySchedule}).IsEntrant() {
		t.Fatal("IsEntrant")
	}
}

func TestSchedule(t *testing.T) {
	at := func(h int) *time.Time { x := time.Date(2030, 1, 1, h, 0, 0, 0, time.UTC); return &x }
	s := Schedule{Deadline: at(20), WindowOpen: at(10), WindowClose: at(11)}
	back, err := ParseSchedule(s.Text())
	if err != nil || !back.Deadline.Equal(*s.Deadline) || !back.WindowOpen.Equal(*s.WindowOpen) || !back.WindowClose.Equal(*s.WindowClose) {
		t.Fatalf("round trip: %+v %v", back, err)
	}
	for _, c := range []struct {
		t    time.Time
		want bool
	}{{*at(9), false}, {*at(10), true}, {at(11).Add(-time.Nanosecond), true}, {*at(11), false}} {
		if s.InWindow(c.t) != c.want {
			t.Errorf("InWindow(%s) = %v", c.t, !c.want)
		}
	}
	if (Schedule{Deadline: at(1)}).InWindow(*at(1)) || (Schedule{WindowOpen: at(1)}).InWindow(*at(1)) || (Schedule{WindowClose: at(2)}).InWindow(*at(1)) {
		t.Error("a window with an end missing is open")
	}
	if !(Schedule{}).Empty() || (Schedule{Deadline: at(1)}).Empty() || (Schedule{WindowOpen: at(1)}).Empty() || (Schedule{WindowClose: at(1)}).Empty() {
		t.Error("Empty")
	}
	for _, text := range []string{
		(Schedule{WindowOpen: at(10)}).Text(),
		(Schedule{WindowClose: at(10)}).Text(),
		(Schedule{WindowOpen: at(10), WindowClose: at(10)}).Text(),
		(Schedule{WindowOpen: at(11), WindowClose: at(10)}).Text(),
		`{"deadline":"2030-01-01T00:00:00Z","late":true}`,
		`[`,
		`null`,
		`{} {"deadline":"bogus"}`,
		`{}}`,
		`{} garbage`,
	} {
		if _, err := ParseSchedule(text); err == nil {
			t.Errorf("%s accepted", text)
		}
	}
	if _, err := ParseSchedule(" {}\n"); err != nil {
		t.Errorf("an empty schedule: %v", err)
	}
}

// The chain covers every field of an entry and of a turn record, and the
// race's definition: change any one and the hash changes.
func TestChainCoversEveryField(t *testing.T) {
	at := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	e := Entry{Seq: 3, Kind: EntryResolve, Turn: 2, Seat: -1, Text: "t", InWindow: false, At: at, Key: "k"}
	rec := TurnRecord{Turn: 2, Hash: "h", Rolls: []dice.Roll{{Seat: 0, Reason: "r", Die: "d6", Face: 1, Result: 2}},
		DiceState: []byte{1}, State: []byte(`{}`), Story: []byte(`{}`), At: at, Rules: 1}
	seed := dice.SeedFromInt(7)
	base := ChainNext("p", e, &rec, seed)
	if base != ChainNext("p", e, &rec, seed) || base == ChainNext("p", e, nil, seed) {
		t.Fatal("the chain is not a function of its inputs")
	}
	entries := []func(*Entry){
		func(x *Entry) { x.Seq++ }, func(x *Entry) { x.Kind = EntryOrder }, func(x *Entry) { x.Turn++ },
		func(x *Entry) { x.Seat++ }, func(x *Entry) { x.Text += "!" }, func(x *Entry) { x.InWindow = true },
		func(x *Entry) { x.At = x.At.Add(time.Nanosecond) }, func(x *Entry) { x.Key = "" },
	}
	for i, change := range entries {
		x := e
		change(&x)
		if ChainNext("p", x, &rec, seed) == base {
			t.Errorf("entry change %d does not change the hash", i)
		}
	}
	records := []func(*TurnRecord){
		func(r *TurnRecord) { r.Turn++ }, func(r *TurnRecord) { r.Hash = "g" },
		func(r *TurnRecord) { r.Rolls = []dice.Roll{{Seat: 0, Reason: "r", Die: "d6", Face: 1, Result: 3}} },
		func(r *TurnRecord) { r.DiceState = []byte{2} }, func(r *TurnRecord) { r.State = []byte(`{ }`) },
		func(r *TurnRecord) { r.Story = []byte(`{ }`) }, func(r *TurnRecord) { r.At = r.At.Add(time.Microsecond) },
		func(r *TurnRecord) { r.Rules++ },
	}
	for i, change := range records {
		x := rec
		change(&x)
		if ChainNext("p", e, &x, seed) == base {
			t.Errorf("record change %d does not change the hash", i)
		}
	}
	if ChainNext("q", e, &rec, seed) == base {
		t.Error("the hash before does not change the hash")
	}
	if ChainNext("p", e, &rec, dice.SeedFromInt(8)) == base {
		t.Error("the seal does not depend on the seed")
	}
	// A record given without its secret parts, with its seal, links the same.
	given := TurnRecord{Turn: rec.Turn, Rolls: rec.Rolls, Story: rec.Story, At: rec.At, Rules: rec.Rules, Given: rec.Seal(seed)}
	if ChainNext("p", e, &given, dice.Seed{}) != base {
		t.Error("a sealed record links differently")
	}
	r := Race{ID: "r", Ruleset: "dash", Rules: 1, Config: Config{Track: "t", Laps: 2, Options: map[string]string{"a": "b"}},
		Entrants: []Entrant{{Player: "P", Racers: []string{"R"}}}, Seed: dice.SeedFromInt(1), Created: at}
	g := Genesis(&r)
	for i, change := range []func(*Race){
		func(x *Race) { x.ID = "s" }, func(x *Race) { x.Ruleset = "hop" }, func(x *Race) { x.Rules = 2 },
		func(x *Race) { x.Config.Track = "u" }, func(x *Race) { x.Config.Laps = 3 }, func(x *Race) { x.Config.Options = map[string]string{"a": "c"} },
		func(x *Race) { x.Entrants = []Entrant{{Player: "Q", Racers: []string{"R"}}} }, func(x *Race) { x.Seed = dice.SeedFromInt(2) },
		func(x *Race) { x.Created = at.Add(time.Microsecond) },
	} {
		x := r
		change(&x)
		if Genesis(&x) == g {
			t.Errorf("definition change %d does not change the genesis hash", i)
		}
	}
	// The log is not part of the definition.
	r.Log = []Entry{e}
	if Genesis(&r) != g {
		t.Error("the genesis hash depends on the log")
	}
}

func TestRecordBetter(t *testing.T) {
	a, b, c := Record{Turns: 5, Turn: 9}, Record{Turns: 6, Turn: 1}, Record{Turns: 5, Turn: 10}
	if !a.Better(b) || b.Better(a) || !a.Better(c) || c.Better(a) || a.Better(a) {
		t.Fatal("fewer turns win, then the earlier turn; a record does not beat itself")
	}
}

func TestTurnOf(t *testing.T) {
	story, _ := json.Marshal(Story{Orders: map[int]string{0: "2"}, Defaulted: []int{1}, Events: []Event{{Seat: 0, Text: "x"}}})
	rec := &TurnRecord{Turn: 4, Hash: "h", Rules: 3, Story: story, Rolls: []dice.Roll{{Result: 1}}}
	tn, err := TurnOf(rec)
	if err != nil || tn.Turn != 4 || tn.Hash != "h" || tn.Rules != 3 || tn.Orders[0] != "2" || tn.Defaulted[0] != 1 || tn.Events[0].Text != "x" || len(tn.Rolls) != 1 || tn.Untold {
		t.Fatalf("%+v %v", tn, err)
	}
	rec.Story = nil
	if tn, err := TurnOf(rec); err != nil || !tn.Untold || tn.Turn != 4 || tn.Events != nil {
		t.Fatalf("a record with no story: %+v %v", tn, err)
	}
	rec.Story = []byte("{")
	if _, err := TurnOf(rec); err == nil {
		t.Fatal("a broken story was read")
	}
	var je *json.SyntaxError
	if _, err := TurnOf(rec); !errors.As(err, &je) {
		t.Fatalf("the error does not say why: %v", err)
	}
}

func TestPublicLen(t *testing.T) {
	e := func(kinds ...string) []Entry {
		var log []Entry
		for _, k := range kinds {
			log = append(log, Entry{Kind: k})
		}
		return log
	}
	for _, tc := range []struct {
		log  []Entry
		want int
	}{
		{nil, 0},
		{e(EntryJoin, EntrySchedule), 2},
		{e(EntryJoin, EntryOrder, EntrySchedule), 1},
		{e(EntryOrder, EntryResolve, EntrySchedule, EntrySet), 4},
		{e(EntryOrder, EntryResolve, EntrySchedule, EntryOrder, EntrySet, EntryOrder), 3},
		{e(EntryOrder, EntryResolve, EntryOrder, EntryResolve), 4},
	} {
		if got := PublicLen(tc.log); got != tc.want {
			t.Errorf("%v: %d, want %d", tc.log, got, tc.want)
		}
	}
	// A Played keeps the same public part as it goes: at every length of
	// the log, mid-turn with orders in included.
	r, _, _ := records(t)
	full := r.Log
	secret := 0
	for k := 1; k <= len(full); k++ {
		r.Log = full[:k]
		p, err := Replay(dash{}, r)
		if err != nil {
			t.Fatal(err)
		}
		n := PublicLen(r.Log)
		if n < k {
			secret++
		}
		if p.PublicSeq != n || n > 0 && p.PublicHead != r.Log[n-1].Hash {
			t.Fatalf("after entry %d: PublicSeq %d, want %d", k, p.PublicSeq, n)
		}
	}
	if secret == 0 {
		t.Fatal("no cut of the log ended in a secret part: the test proves nothing")
	}
}
