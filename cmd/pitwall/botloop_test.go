package main

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/host"
	"pitwall/race"
	"pitwall/store/memstore"
)

// A turn's post is written once the host's settings for the next turn are
// in, as a host posts: the post before a two-order turn of ludi announces
// two orders (it announced one, and racers who followed it were refused).
func TestPostAnnouncesTheTurnAsSet(t *testing.T) {
	ctx := context.Background()
	clock := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	h := &host.Host{Store: memstore.New(), Clock: host.ClockFunc(func() time.Time { return clock })}
	rs, _ := race.Lookup("ludi")
	seed := dice.SeedFromInt(7)
	r, err := h.NewRace(ctx, "ludi", "announce", race.Config{Track: "circus-maximus"}, rs.Game().Demo.Entrants, &seed)
	if err != nil {
		t.Fatal(err)
	}
	var posted []int
	twoOrderTurns := 0
	resolved := func(p *race.Played, turn int) error {
		posted = append(posted, turn)
		if p.State.Over() {
			return nil
		}
		if next := p.State.Turn(); next != turn+1 {
			t.Fatalf("the post of turn %d sees turn %d coming", turn, next)
		}
		for _, pr := range rs.Prompts(p.State) {
			if want := 1 + boolInt(turn+1 > 1 && (turn+1)%5 == 0); pr.Orders != want {
				t.Fatalf("the post of turn %d announces %d orders for turn %d; the host set %d", turn, pr.Orders, turn+1, want)
			}
			if pr.Orders == 2 {
				twoOrderTurns++
			}
		}
		return nil
	}
	p, err := playBots(ctx, h, r.ID, rand.New(rand.NewPCG(7, 1)), &clock, botHooks{resolved: resolved})
	if err != nil {
		t.Fatal(err)
	}
	if twoOrderTurns == 0 {
		t.Fatal("no two-order turn was announced: the test proves nothing")
	}
	if len(posted) != p.Resolved()+1 || posted[0] != 0 || posted[len(posted)-1] != p.Resolved() {
		t.Fatalf("posts for turns %v; the race resolved %d turns", posted, p.Resolved())
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
