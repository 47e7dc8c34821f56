package race

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func TestBotsOffered(t *testing.T) {
	for _, c := range []struct {
		rs   Ruleset
		want []string
	}{
		{dash{}, []string{BotCruise}},
		{dashBot{}, []string{BotCruise, BotHeuristic}},
	} {
		if got := Bots(c.rs); !slices.Equal(got, c.want) {
			t.Errorf("%T offers %v; want %v", c.rs, got, c.want)
		}
		for _, name := range c.want {
			if _, err := NewBot(c.rs, name, BotOptions{}); err != nil {
				t.Errorf("%T: bot %s: %v", c.rs, name, err)
			}
		}
	}
	for _, c := range []struct {
		rs   Ruleset
		name string
	}{{dash{}, BotHeuristic}, {dash{}, BotSearch}, {dashBot{}, BotSearch}, {dashBot{}, "clever"}} {
		_, err := NewBot(c.rs, c.name, BotOptions{})
		if err == nil || !strings.Contains(err.Error(), `has no bot "`+c.name+`"; its bots: cruise`) {
			t.Errorf("%T bot %s: %v; want refused with the bots it has", c.rs, c.name, err)
		}
	}
}

// The default bot is the heuristic one, or cruise when a game has none.
func TestNewBotDefault(t *testing.T) {
	b, err := NewBot(dashBot{}, "", BotOptions{})
	if err != nil || b(nil, 0, true, nil) != "3" {
		t.Errorf("dashBot's default bot: %v", err)
	}
	b, err = NewBot(dash{}, "", BotOptions{})
	if err != nil || b(nil, 0, true, nil) != "" {
		t.Errorf("dash's default bot: %v", err)
	}
}

// Cruise sends nothing, so the default plays and nothing is logged for it.
func TestBotRaceCruise(t *testing.T) {
	r := newDash(t)
	p, err := Start(dashBot{}, r)
	if err != nil {
		t.Fatal(err)
	}
	cruise, _ := NewBot(dashBot{}, BotCruise, BotOptions{})
	if err := (BotRace{Bot: cruise}).Play(dashBot{}, LogTable{P: p}, rand.New(rand.NewPCG(1, 2))); err != nil {
		t.Fatal(err)
	}
	if !p.State.Over() {
		t.Fatal("the race did not end")
	}
	for _, e := range r.Log {
		if e.Kind != EntryResolve {
			t.Fatalf("a cruise race logged a %s entry", e.Kind)
		}
	}
}
