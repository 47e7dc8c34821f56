package race

import (
	"testing"
)

// sly is dash with a secret: its 'bot' setting is the host's alone until
// the race is over, and so is its race option 'trap'.
type sly struct{ dash }

func (sly) Redact(s State, v Viewer) State {
	n := *s.(*dashState)
	n.Bot = false
	return &n
}

func (sly) SecretOptions() []string { return []string{"trap"} }

// slyRace plays sly until turn turns+1 is open, with the bot setting on, and
// seat 0's orders in for that turn (seat 1's not).
func slyRace(t *testing.T, turns int) (*Played, *Race) {
	t.Helper()
	r := newDash(t)
	r.Config = Config{Track: "t", Options: map[string]string{"trap": "7", "colour": "red"}}
	p, err := Start(sly{}, r)
	if err != nil {
		t.Fatal(err)
	}
	seq := 0
	add := func(kind string, seat int, text string) {
		t.Helper()
		seq++
		if err := p.Apply(Entry{Seq: seq, Kind: kind, Turn: p.State.Turn(), Seat: seat, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	add(EntrySet, -1, "bot=on")
	for i := 0; i < turns && !p.State.Over(); i++ {
		add(EntryOrder, 0, "3")
		add(EntryResolve, -1, "")
	}
	if !p.State.Over() {
		add(EntryOrder, 0, "2")
	}
	return p, r
}

func TestViewerRoles(t *testing.T) {
	var zero Viewer
	if zero != Spectator || zero.IsHost() || zero.String() != "spectator" {
		t.Fatalf("the zero Viewer is %v: it must be a spectator", zero)
	}
	if !Host.IsHost() || Host.String() != "host" || !Host.Sees(0) || !Host.Sees(5) {
		t.Fatal("the host sees every seat")
	}
	if _, ok := Host.Seat(); ok {
		t.Fatal("the host has no seat")
	}
	v := SeatViewer(2)
	if s, ok := v.Seat(); !ok || s != 2 || v.IsHost() || v.String() != "seat 3" {
		t.Fatalf("SeatViewer(2) is %v (seat %d, %v)", v, s, ok)
	}
	if !v.Sees(2) || v.Sees(1) || v.Sees(3) || Spectator.Sees(0) {
		t.Fatal("a seat sees its own and no other; a spectator none")
	}
}

func TestViewHidesWhatTheViewerMayNotSee(t *testing.T) {
	p, r := slyRace(t, 2)
	if p.State.Over() {
		t.Fatal("the race is over after two turns; the test needs it running")
	}
	host := p.View(Host)
	if host.Orders[0] != "2" || len(host.Orders) != 1 || !host.State.(*dashState).Bot || host.Config.Options["trap"] != "7" {
		t.Fatalf("the host's view: orders %v, state %+v, options %v", host.Orders, host.State, host.Config.Options)
	}
	if host.Seq != p.Seq || host.Head != p.Head || host.Turns[0].Hash == "" || host.Turns[0].DiceState == nil {
		t.Fatal("the host's view lacks the log's head, a state hash or the dice state")
	}
	if !host.OrdersIn[0] || host.OrdersIn[1] || len(host.OrdersIn) != 2 {
		t.Fatalf("orders in: %v, want seat 0 only of two", host.OrdersIn)
	}
	for _, v := range []Viewer{Spectator, SeatViewer(0), SeatViewer(1)} {
		w := p.View(v)
		if w.Seed != "" || w.Over {
			t.Fatalf("%v: the seed %q shows before the end", v, w.Seed)
		}
		if w.Commitment != r.Commitment() || w.ID != "x" {
			t.Fatalf("%v: commitment %q, id %q", v, w.Commitment, w.ID)
		}
		if _, ok := w.Config.Options["trap"]; ok || w.Config.Options["colour"] != "red" || w.Config.Track != "t" {
			t.Fatalf("%v: options %v: trap is secret, colour is not", v, w.Config.Options)
		}
		if w.State.(*dashState).Bot || w.Turns[len(w.Turns)-1].After.(*dashState).Bot {
			t.Fatalf("%v: the secret setting shows", v)
		}
		for _, x := range w.Turns {
			if x.Hash != "" || x.DiceState != nil {
				t.Fatalf("%v: turn %d shows its hash or dice state", v, x.Turn)
			}
			if len(x.Rolls) == 0 || len(x.Events) == 0 {
				t.Fatalf("%v: turn %d lacks its rolls or events, which are public", v, x.Turn)
			}
		}
		if w.Seq != p.PublicSeq || w.Head != p.PublicHead || w.Seq == p.Seq {
			t.Fatalf("%v: log head after %d, want the public part's %d", v, w.Seq, p.PublicSeq)
		}
		if !w.OrdersIn[0] || w.OrdersIn[1] {
			t.Fatalf("%v: orders in %v", v, w.OrdersIn)
		}
		want := map[int]string{}
		if s, ok := v.Seat(); ok && s == 0 {
			want[0] = "2"
		}
		if len(w.Orders) != len(want) || w.Orders[0] != want[0] {
			t.Fatalf("%v: orders %v, want %v", v, w.Orders, want)
		}
	}
	if !p.State.(*dashState).Bot || p.Race.Config.Options["trap"] != "7" {
		t.Fatal("a view changed the race it was made from")
	}
}

func TestViewOfAnOverRaceHidesNothing(t *testing.T) {
	p, r := slyRace(t, 30)
	if !p.State.Over() {
		t.Fatal("thirty turns did not end the race")
	}
	w := p.View(Spectator)
	if !w.Over || w.Seed != r.Seed.Hex() || !w.State.(*dashState).Bot || w.Config.Options["trap"] != "7" {
		t.Fatalf("the race is over: seed %q, state %+v, options %v", w.Seed, w.State, w.Config.Options)
	}
	if w.Turns[0].Hash == "" || w.Turns[0].DiceState != nil {
		t.Fatal("once over, the hashes are public; the dice state stays the host's")
	}
	if len(w.OrdersIn) != 0 {
		t.Fatalf("no one is asked for orders in an over race: %v", w.OrdersIn)
	}
}

func TestViewTurns(t *testing.T) {
	p, _ := slyRace(t, 2)
	w := p.View(Spectator)
	if w.Resolved() != 2 {
		t.Fatalf("resolved %d", w.Resolved())
	}
	s0, err := w.StateAt(0)
	if err != nil || s0.Turn() != 1 || s0.(*dashState).Bot {
		t.Fatalf("the start: %+v, %v", s0, err)
	}
	s2, err := w.StateAt(2)
	if err != nil || s2.Turn() != 3 {
		t.Fatalf("after turn 2: %+v, %v", s2, err)
	}
	if _, err := w.StateAt(3); err == nil {
		t.Fatal("turn 3 has not been played")
	}
	if x, ok := w.TurnAt(1); !ok || x.Turn != 1 {
		t.Fatalf("turn 1: %+v %v", x, ok)
	}
	if _, ok := w.TurnAt(4); ok {
		t.Fatal("turn 4 is no turn")
	}
	if (&View{}).Resolved() != 0 {
		t.Fatal("a view of a race not started has resolved nothing")
	}
}

// A pending entry the rules now refuse is shown to the host and to its seat.
func TestViewVoided(t *testing.T) {
	p, _ := slyRace(t, 1)
	p.Voided = []Voided{{Seq: 9, Kind: EntryOrder, Seat: 1, Text: "9", Reason: "no"}}
	if len(p.View(Host).Voided) != 1 || len(p.View(SeatViewer(1)).Voided) != 1 {
		t.Fatal("the host and seat 1 see seat 1's voided order")
	}
	if len(p.View(Spectator).Voided) != 0 || len(p.View(SeatViewer(0)).Voided) != 0 {
		t.Fatal("a spectator or another seat sees a voided order")
	}
}

func TestOrderErrorCodes(t *testing.T) {
	for _, c := range []struct {
		err  *OrderError
		want string
	}{
		{Invalidf("x").(*OrderError), CodeNotUnderstood},
		{Illegalf("x").(*OrderError), CodeNotAllowed},
		{&OrderError{Kind: Illegal, Code: "needs_adjacent_chariot"}, "needs_adjacent_chariot"},
		{&OrderError{Kind: Invalid, Code: "unknown_word"}, "unknown_word"},
	} {
		if got := c.err.ErrCode(); got != c.want {
			t.Errorf("%+v: code %q, want %q", c.err, got, c.want)
		}
	}
}
