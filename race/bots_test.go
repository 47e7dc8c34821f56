package race

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// dashBot steps 3 in the window, 2 out of it.
type dashBot struct{ dash }

func (dashBot) BotOrder(_ State, _ int, inWindow bool, _ *rand.Rand) string {
	if inWindow {
		return "3"
	}
	return "2"
}

func TestBotRacePlaysToTheEnd(t *testing.T) {
	r := newDash(t)
	p, err := Start(dashBot{}, r)
	if err != nil {
		t.Fatal(err)
	}
	var windows int
	b := BotRace{
		Before: func(s State, _ *rand.Rand) []string {
			if s.Turn() == 2 {
				return []string{"bot=on"}
			}
			return nil
		},
		InWindow: func(_ State, seat int, _ *rand.Rand) bool { windows++; return seat == 1 },
	}
	if err := b.Play(dashBot{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	if !p.State.Over() || !p.State.(*dashState).Bot {
		t.Fatalf("the race: %+v", p.State)
	}
	var kinds []string
	for i, e := range r.Log {
		if e.Seq != i+1 {
			t.Fatalf("entry %d has seq %d", i, e.Seq)
		}
		kinds = append(kinds, e.Kind)
		if e.Kind == EntryOrder && e.Text != map[int]string{0: "2", 1: "3"}[e.Seat] {
			t.Errorf("seat %d ordered %q", e.Seat, e.Text)
		}
		if e.Kind == EntryOrder && e.InWindow != (e.Seat == 1) {
			t.Errorf("seat %d's window logged as %v", e.Seat, e.InWindow)
		}
		if e.Kind != EntryOrder && e.Seat != -1 {
			t.Errorf("a %s entry belongs to seat %d; it belongs to none (-1)", e.Kind, e.Seat)
		}
	}
	if got := strings.Join(kinds[:7], " "); got != "order order resolve set order order resolve" {
		t.Errorf("the log begins %s", got)
	}
	if windows != 2*p.Resolved() {
		t.Errorf("asked for the window %d times in %d turns", windows, p.Resolved())
	}
	// The replay of the log gives the same race.
	q, err := Follow(dashBot{}, r)
	if err != nil || q.Head != p.Head {
		t.Errorf("replay: %v, heads %s and %s", err, q.Head, p.Head)
	}
}

func TestBotRaceMisses(t *testing.T) {
	r := newDash(t)
	p, _ := Start(dashBot{}, r)
	if err := (BotRace{Miss: 4}).Play(dashBot{}, LogTable{P: p}, rand.New(rand.NewPCG(3, 4))); err != nil {
		t.Fatal(err)
	}
	orders, resolves := 0, 0
	for _, e := range r.Log {
		switch e.Kind {
		case EntryOrder:
			orders++
		case EntryResolve:
			resolves++
		}
	}
	// One prompt in four missed: most are answered, not all.
	if orders <= resolves || orders >= 2*resolves {
		t.Errorf("%d orders in %d turns of two seats, one in four missed", orders, resolves)
	}
}

func TestBotRaceStops(t *testing.T) {
	p, _ := Start(dashBot{}, newDash(t))
	if err := (BotRace{MaxTurns: 2}).Play(dashBot{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), "not over after 2 turns") {
		t.Errorf("a race longer than its bound: %v", err)
	}
	if p.Resolved() != 2 {
		t.Errorf("stopped after %d turns; the bound is 2", p.Resolved())
	}
	p, _ = Start(dash{}, newDash(t))
	if err := (BotRace{}).Play(dash{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), "dash has no bot") {
		t.Errorf("a game without a bot: %v", err)
	}
	bad := BotRace{Bot: func(State, int, bool, *rand.Rand) string { return "9" }}
	if err := bad.Play(dash{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), `turn 1, seat 0, "9": a step is 1 to 3`) {
		t.Errorf("a refused order: %v", err)
	}
	set := BotRace{Before: func(State, *rand.Rand) []string { return []string{"fast"} }}
	if err := set.Play(dashBot{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), "KEY=VALUE") {
		t.Errorf("a setting without a value: %v", err)
	}
	set = BotRace{Before: func(State, *rand.Rand) []string { return []string{"colour=red"} }}
	if err := set.Play(dashBot{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err == nil || !strings.Contains(err.Error(), "setting colour=red") {
		t.Errorf("a setting the game refuses: %v", err)
	}
}

// dashHost's host turns the bot setting on before the first turn.
type dashHost struct{ dashBot }

func (dashHost) HostSettings(s State, _ *rand.Rand) []string {
	if s.Turn() == 1 {
		return []string{"bot=on"}
	}
	return nil
}

func TestBotRaceAsksTheHostBot(t *testing.T) {
	r := newDash(t)
	p, _ := Start(dashHost{}, r)
	if err := (BotRace{}).Play(dashHost{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	if r.Log[0].Kind != EntrySet || r.Log[0].Text != "bot=on" || !p.State.(*dashState).Bot {
		t.Errorf("the host's setting: %+v", r.Log[0])
	}
	// A Before of the caller's own stands in for the host bot.
	r = newDash(t)
	p, _ = Start(dashHost{}, r)
	none := BotRace{Before: func(State, *rand.Rand) []string { return nil }}
	if err := none.Play(dashHost{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err != nil || r.Log[0].Kind == EntrySet {
		t.Errorf("a Before of its own: %v, first entry %+v", err, r.Log[0])
	}
}

// A bot that sends nothing lets the default play, and nothing is logged
// for it (the cruise bot).
func TestBotRaceSendsNothing(t *testing.T) {
	r := newDash(t)
	p, err := Start(dashBot{}, r)
	if err != nil {
		t.Fatal(err)
	}
	silent := func(State, int, bool, *rand.Rand) string { return "" }
	if err := (BotRace{Bot: silent}).Play(dashBot{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	if !p.State.Over() {
		t.Fatal("the race did not end")
	}
	for _, e := range r.Log {
		if e.Kind != EntryResolve {
			t.Fatalf("a silent race logged a %s entry", e.Kind)
		}
	}
}
