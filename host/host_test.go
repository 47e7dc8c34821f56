package host

import (
	"context"
	"database/sql"
	"errors"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest/golden"
	_ "pitwall/rules/ludi"
	"pitwall/store/sqlite"
)

func entrants() []race.Entrant {
	return []race.Entrant{
		{Player: "Marcus", Racers: []string{"Marcus Aurelius"}, Options: map[string]string{"package": "military", "extras": "skill,speed"}},
		{Player: "Livia", Racers: []string{"Livia Drusilla", "Livia Minor"}, Options: map[string]string{"package": "noble", "extras": "endurance,size"}},
		{Player: "Gaius", Racers: []string{"Gaius [the *Bold*]"}, Options: map[string]string{"package": "trader", "extras": "skill,skill"}},
	}
}

type fixture struct {
	h    *Host
	path string
	now  time.Time
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	path := filepath.Join(t.TempDir(), "races.db")
	st, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{path: path, now: time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)}
	f.h = &Host{Store: st, Clock: ClockFunc(func() time.Time { return f.now })}
	return f
}

func (f *fixture) race(t testing.TB, seed uint64) *race.Race {
	t.Helper()
	s := dice.SeedFromInt(seed)
	r, err := f.h.NewRace(context.Background(), "ludi", "r1", race.Config{Track: "circus-maximus"}, entrants(), &s)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// load is race id as the host loads it; a race that does not load fails t.
func (f *fixture) load(t testing.TB, id string) *race.Played {
	t.Helper()
	p, err := f.h.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func logLen(t *testing.T, h *Host, id string) int {
	t.Helper()
	r, err := h.Store.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return len(r.Log)
}

func TestRefusedOrdersChangeNothing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 1)
	for _, tc := range []struct {
		seat int
		text string
	}{{0, "Left 1"}, {0, "fly"}, {9, "Accelerate"}, {0, ""}, {0, "Accelerate, bonus move"}} {
		before := logLen(t, f.h, "r1")
		_, err := f.h.Submit(ctx, "r1", tc.seat, tc.text, Req{})
		if err == nil || !IsBadInput(err) {
			t.Fatalf("seat %d %q: %v, want a refusal", tc.seat, tc.text, err)
		}
		if logLen(t, f.h, "r1") != before {
			t.Fatalf("seat %d %q was refused but the log grew", tc.seat, tc.text)
		}
	}
	if _, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{}); err != nil {
		t.Fatal(err)
	}
	if logLen(t, f.h, "r1") != 1 {
		t.Fatal("an accepted order is not in the log")
	}
	if _, err := f.h.Submit(ctx, "nope", 0, "Accelerate", Req{}); !IsBadInput(err) {
		t.Fatalf("an unknown race: %v", err)
	}
}

func TestBonusWindowFollowsTheClock(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 1)
	open, shut := f.now.Add(time.Hour), f.now.Add(2*time.Hour)
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{WindowOpen: &open}, Req{}); err == nil {
		t.Fatal("a window with no closing time was accepted")
	}
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{WindowOpen: &open, WindowClose: &shut}, Req{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.h.Submit(ctx, "r1", 0, "Accelerate, bonus move", Req{}); err == nil {
		t.Fatal("a bonus before the window opened was accepted")
	}
	f.now = open
	if _, err := f.h.Submit(ctx, "r1", 0, "Accelerate, bonus move", Req{}); err != nil {
		t.Fatalf("a bonus as the window opens: %v", err)
	}
	f.now = shut
	if _, err := f.h.Submit(ctx, "r1", 1, "Accelerate, bonus initiative", Req{}); err == nil {
		t.Fatal("a bonus as the window closed was accepted")
	}
	r, _ := f.h.Store.Load(ctx, "r1")
	if r.Log[0].Kind != race.EntrySchedule || !r.Log[1].InWindow {
		t.Fatal("the log does not record that the order came in the window")
	}
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{WindowOpen: &shut, WindowClose: &open}, Req{}); err == nil {
		t.Fatal("a window closing before it opens was accepted")
	}
}

func TestJoinUntilTheStart(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	if _, err := f.h.NewRace(ctx, "ludi", "forming", race.Config{}, nil, nil); err != nil {
		t.Fatalf("a race with no entrants yet: %v", err)
	}
	if _, err := f.h.Load(ctx, "forming"); !errors.Is(err, ErrForming) || !strings.Contains(err.Error(), "still forming") {
		t.Fatalf("loading a forming race: %v", err)
	}
	for _, e := range entrants()[:2] {
		if _, err := f.h.Join(ctx, "forming", e, Req{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.h.Join(ctx, "forming", race.Entrant{Player: "X", Racers: []string{"Y"}, Options: map[string]string{"package": "senate"}}, Req{}); err == nil {
		t.Fatal("an unknown package was accepted")
	}
	if _, err := f.h.Submit(ctx, "forming", 0, "Accelerate", Req{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.h.Join(ctx, "forming", entrants()[2], Req{}); err == nil || !strings.Contains(err.Error(), "has started") {
		t.Fatalf("joining a started race: %v", err)
	}
	if _, err := f.h.NewRace(ctx, "ludi", "forming", race.Config{}, nil, nil); !IsBadInput(err) {
		t.Fatalf("a duplicate id: %v", err)
	}
	if _, err := f.h.NewRace(ctx, "ludi", "bad id!", race.Config{}, nil, nil); !IsBadInput(err) {
		t.Fatalf("a bad id: %v", err)
	}
	if _, err := f.h.NewRace(ctx, "chess", "", race.Config{}, nil, nil); !IsBadInput(err) {
		t.Fatalf("an unknown ruleset: %v", err)
	}
}

// playOut resolves turns with bots until the race ends.
func playOut(t testing.TB, f *fixture, id string) {
	t.Helper()
	ctx := context.Background()
	for turn := 0; ; turn++ {
		p := f.load(t, id)
		if p.State.Over() {
			return
		}
		if turn > 300 {
			t.Fatal("the race does not end")
		}
		bot := p.Ruleset.(race.Botter)
		rng := rand.New(rand.NewPCG(uint64(turn), 1))
		for _, pr := range p.Ruleset.Prompts(p.State) {
			if _, err := f.h.Submit(ctx, id, pr.Seat, bot.BotOrder(p.State, pr.Seat, false, rng), Req{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.h.Resolve(ctx, id, Req{}); err != nil {
			t.Fatal(err)
		}
		f.now = f.now.Add(48 * time.Hour)
	}
}

func TestVerify(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 5)
	playOut(t, f, "r1")
	rep, err := f.h.Verify(ctx, "r1", "")
	if err != nil {
		t.Fatal(err)
	}
	if !rep.OK || rep.Turns == 0 || rep.Rolls == 0 || !rep.Over || rep.Seed != dice.SeedFromInt(5).Hex() {
		t.Fatalf("an honest race: %+v", rep)
	}
	if _, err := f.h.Resolve(ctx, "r1", Req{}); !IsBadInput(err) {
		t.Fatalf("resolving a finished race: %v", err)
	}

	t.Run("an order changed", func(t *testing.T) {
		tamper(t, f.path, `UPDATE entries SET text = 'Whip' WHERE race_id = 'r1' AND seq = (SELECT MIN(seq) FROM entries WHERE race_id = 'r1' AND kind = 'order' AND turn = 3)`)
		rep, err := f.h.Verify(ctx, "r1", "")
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK || len(rep.Problems) == 0 {
			t.Fatalf("a changed order passed verification: %+v", rep)
		}
	})
	t.Run("a roll changed", func(t *testing.T) {
		g := newFixture(t)
		g.race(t, 6)
		playOut(t, g, "r1")
		var rolls string
		db, _ := sql.Open("sqlite", g.path)
		err := db.QueryRow(`SELECT rolls FROM turns WHERE race_id = 'r1' AND turn = 2`).Scan(&rolls)
		db.Close()
		if err != nil {
			t.Fatal(err)
		}
		i := strings.Index(rolls, `"result":`) + len(`"result":`)
		forged := rolls[:i] + "99" + rolls[i+strings.IndexAny(rolls[i:], ",}"):]
		tamper(t, g.path, `UPDATE turns SET rolls = '`+forged+`' WHERE race_id = 'r1' AND turn = 2`)
		rep, err := g.h.Verify(ctx, "r1", "")
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK || !strings.Contains(strings.Join(rep.Problems, ";"), "turn 2: roll") {
			t.Fatalf("a forged roll passed verification: %+v", rep)
		}
	})
	t.Run("the seed swapped", func(t *testing.T) {
		other := dice.SeedFromInt(77)
		tamper(t, f.path, `UPDATE races SET seed = '`+other.Hex()+`' WHERE id = 'r1'`)
		rep, err := f.h.Verify(ctx, "r1", "")
		if err == nil && rep.OK {
			t.Fatal("a swapped seed passed verification")
		}
	})
}

// tamper changes a race database behind the store's back. The log is
// append-only, so the triggers that guard it are dropped first.
func tamper(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT name FROM sqlite_master WHERE type = 'trigger'`)
	if err != nil {
		t.Fatal(err)
	}
	var triggers []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		triggers = append(triggers, n)
	}
	rows.Close()
	for _, n := range triggers {
		if _, err := db.Exec(`DROP TRIGGER "` + n + `"`); err != nil {
			t.Fatal(err)
		}
	}
	for _, s := range stmts {
		if _, err := db.Exec(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func TestGoldenPosts(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 11)
	deadline := f.now.Add(48 * time.Hour)
	open, shut := f.now.Add(10*time.Hour), f.now.Add(11*time.Hour)
	for turn := 1; turn <= 3; turn++ {
		p := f.load(t, "r1")
		bot := p.Ruleset.(race.Botter)
		rng := rand.New(rand.NewPCG(uint64(turn), 2))
		for _, pr := range p.Ruleset.Prompts(p.State) {
			if pr.Seat == 1 {
				continue // Livia Drusilla misses every turn: she cruises
			}
			if _, err := f.h.Submit(ctx, "r1", pr.Seat, bot.BotOrder(p.State, pr.Seat, false, rng), Req{}); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.h.Resolve(ctx, "r1", Req{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := f.h.Schedule(ctx, "r1", race.Schedule{Deadline: &deadline, WindowOpen: &open, WindowClose: &shut}, Req{}); err != nil {
		t.Fatal(err)
	}
	p := f.load(t, "r1")
	for _, tc := range []struct {
		turn         int
		format, file string
	}{{0, "markdown", "grid.md"}, {3, "markdown", "turn3.md"}, {3, "bbcode", "turn3.bbcode"}} {
		p, err := f.h.LoadAt(ctx, "r1", tc.turn)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.h.WithBefore(ctx, p); err != nil {
			t.Fatal(err)
		}
		got, err := Post(p.View(race.Host), tc.turn, tc.format, "r1-turn03.png")
		if err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", tc.file), got)
	}
	if _, err := Post(p.View(race.Host), 9, "markdown", ""); !IsBadInput(err) {
		t.Fatalf("a turn not played: %v", err)
	}
	if _, err := Post(p.View(race.Host), 1, "html", ""); !IsBadInput(err) {
		t.Fatalf("an unknown format: %v", err)
	}
	for _, f := range []string{"svg", "png"} {
		b, err := Render(p.View(race.Host), 3, f)
		if err != nil || len(b) < 1000 {
			t.Fatalf("render %s: %d bytes, %v", f, len(b), err)
		}
	}
	if _, err := Render(p.View(race.Host), 3, "gif"); !IsBadInput(err) {
		t.Fatalf("an unknown picture format: %v", err)
	}
	var be *BadInput
	if _, err := Render(p.View(race.Host), -1, "png"); !errors.As(err, &be) {
		t.Fatalf("turn -1: %v", err)
	}
}

// Racers sending orders at the same moment all get in: a writer that loses
// the race for the log's next place reloads and tries again.
func TestConcurrentSubmissions(t *testing.T) {
	f := newFixture(t)
	f.race(t, 1)
	ctx := context.Background()
	errs := make(chan error, 4)
	for seat := 0; seat < 4; seat++ {
		go func(seat int) {
			_, err := f.h.Submit(ctx, "r1", seat, "Accelerate", Req{})
			errs <- err
		}(seat)
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if n := logLen(t, f.h, "r1"); n != 4 {
		t.Fatalf("%d orders in the log, want 4", n)
	}
}
