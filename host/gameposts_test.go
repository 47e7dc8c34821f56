package host

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest/golden"
	_ "pitwall/rules/gaslands"
	_ "pitwall/rules/party"
)

// clockTable plays a bot race on its log in memory as a host would: a
// deadline two days on for every turn, orders sent some minutes apart, the
// resolve at the deadline (party's calendar reads the times).
type clockTable struct {
	p   *race.Played
	now time.Time
}

func (t *clockTable) add(e race.Entry) error {
	e.Seq, e.Turn, e.At = len(t.p.Race.Log)+1, t.p.State.Turn(), t.now
	if err := t.p.Apply(e); err != nil {
		return err
	}
	t.p.Race.Log = append(t.p.Race.Log, e)
	return nil
}

func (t *clockTable) schedule() error {
	deadline := t.now.Add(48 * time.Hour)
	b, err := json.Marshal(race.Schedule{Deadline: &deadline})
	if err != nil {
		return err
	}
	return t.add(race.Entry{Kind: race.EntrySchedule, Seat: -1, Text: string(b)})
}

func (t *clockTable) State() race.State { return t.p.State }

func (t *clockTable) Set(_ int, kv string) error {
	return t.add(race.Entry{Kind: race.EntrySet, Seat: -1, Text: kv})
}

func (t *clockTable) Submit(_, seat int, text string, inWindow bool) error {
	t.now = t.now.Add(7 * time.Minute)
	return t.add(race.Entry{Kind: race.EntryOrder, Seat: seat, Text: text, InWindow: inWindow})
}

func (t *clockTable) Resolve(int) error {
	t.now = *t.p.Schedule.Deadline
	if err := t.add(race.Entry{Kind: race.EntryResolve, Seat: -1}); err != nil {
		return err
	}
	if t.p.State.Over() {
		return nil
	}
	return t.schedule()
}

// gamePostsRace plays game's demo race (its entrants, first track and laps)
// with bots from a fixed seed, as the demo does: one racer in twelve
// missing a turn, a two-order turn every fifth turn in the games that have
// them, the game's host settings (party's minigame results).
func gamePostsRace(t *testing.T, game string) *race.Played {
	t.Helper()
	rs, err := race.Lookup(game)
	if err != nil {
		t.Fatal(err)
	}
	g := rs.Game()
	r := &race.Race{ID: game + "-golden", Ruleset: game, Config: race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps},
		Entrants: g.Demo.Entrants, Seed: dice.SeedFromInt(7), Created: time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)}
	p, err := race.Start(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	tb := &clockTable{p: p, now: r.Created}
	if err := tb.schedule(); err != nil {
		t.Fatal(err)
	}
	hb, _ := rs.(race.HostBotter)
	b := race.BotRace{Miss: 12, MaxTurns: 500, Before: func(s race.State, rng *rand.Rand) []string {
		var kv []string
		if turn := s.Turn(); turn > 1 && turn%5 == 0 {
			if _, err := rs.Set(s, "orders", "2"); err == nil {
				kv = append(kv, "orders=2")
			}
		}
		if hb != nil {
			kv = append(kv, hb.HostSettings(s, rng)...)
		}
		return kv
	}}
	if err := b.Play(rs, tb, rand.New(rand.NewPCG(7, 7))); err != nil {
		t.Fatalf("%s: %v", game, err)
	}
	return p
}

// asPosted is the race as it stood when turn n's post went up: its log up
// to the next turn's schedule and settings, before any of its orders.
func asPosted(t *testing.T, p *race.Played, n int) *race.Played {
	t.Helper()
	log, cut := p.Race.Log, len(p.Race.Log)
	for i, e := range log {
		if e.Kind == race.EntryResolve && e.Turn == n {
			for cut = i + 1; cut < len(log) && log[cut].Kind != race.EntryOrder && log[cut].Kind != race.EntryResolve; cut++ {
			}
			break
		}
	}
	r := *p.Race
	r.Log = log[:cut]
	q, err := race.Replay(p.Ruleset, &r)
	if err != nil {
		t.Fatal(err)
	}
	return q
}

// TestGamePosts: the post of a middle turn (as posted then, with the next
// turn's orders to send) and the last post of every game's bot race, as a
// spectator (a forum) sees them, against testdata/posts (-update rewrites
// them: read every one as a racer would). ludi's middle post is also kept
// in BBCode.
func TestGamePosts(t *testing.T) {
	for _, game := range []string{"ludi", "nascar", "rtd", "gaslands", "party"} {
		p := gamePostsRace(t, game)
		last := p.Resolved()
		mid := asPosted(t, p, last/2)
		for _, tc := range []struct {
			name, format string
			p            *race.Played
			turn         int
		}{
			{game + "-middle.md", "markdown", mid, last / 2},
			{game + "-final.md", "markdown", p, last},
			{game + "-middle.bbcode", "bbcode", mid, last / 2},
		} {
			if tc.format == "bbcode" && game != "ludi" {
				continue
			}
			post, err := Post(tc.p.View(race.Spectator), tc.turn, tc.format, fmt.Sprintf("%s-turn%02d.png", game, tc.turn))
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			if over := strings.Contains(post, "The race is over."); over != (tc.turn == last) {
				t.Errorf("%s: the race told over: %v", tc.name, over)
			}
			if menu := strings.Contains(post, ": your orders"); menu == (tc.turn == last) {
				t.Errorf("%s: the next turn's orders told: %v", tc.name, menu)
			}
			golden.Check(t, filepath.Join("testdata", "posts", tc.name), post)
		}
	}
}
