package host

import (
	"context"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store"
	"pitwall/store/memstore"
	"pitwall/store/sqlite"
)

// storeBotRace plays a whole race with bots and stores it as the host would:
// every entry appended in order, each resolve with its turn record.
func storeBotRace(t *testing.T, st store.Store, id string, seed uint64, seats int) {
	t.Helper()
	ctx := context.Background()
	var es []race.Entrant
	pkgs := []string{"military", "noble", "political", "priestly", "strength", "trader"}
	for i := 0; i < seats; i++ {
		es = append(es, race.Entrant{Player: fmt.Sprint("P", i), Racers: []string{fmt.Sprint("Auriga ", i)},
			Options: map[string]string{"package": pkgs[i%6], "extras": "skill,speed"}})
	}
	r := &race.Race{ID: id, Ruleset: "ludi", Config: race.Config{Track: "circus-maximus"}, Entrants: es,
		Seed: dice.SeedFromInt(seed), Created: time.Unix(int64(seed), 0).UTC()}
	if err := st.Create(ctx, r); err != nil {
		t.Fatal(err)
	}
	rs, _ := race.Lookup("ludi")
	p, err := race.Start(rs, r)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 9))
	seq := 0
	add := func(e race.Entry) {
		seq++
		e.Seq, e.Turn, e.At = seq, p.State.Turn(), time.Unix(int64(seq), 0).UTC()
		var saved *store.SavedTurn
		head := p.Head
		if err := p.Apply(e); err != nil {
			t.Fatalf("%s entry %d: %v", id, seq, err)
		}
		if e.Kind == race.EntryResolve {
			rec, err := p.Turns[len(p.Turns)-1].Record(e.At)
			if err != nil {
				t.Fatal(err)
			}
			saved = &rec
		}
		e.Hash = race.ChainNext(head, e, saved, r.Seed)
		p.Head = e.Hash
		if err := st.Append(ctx, id, e, saved); err != nil {
			t.Fatal(err)
		}
	}
	bot := rs.(race.Botter)
	for !p.State.Over() {
		if p.State.Turn() > 1000 { // bots that stall must fail the test, not hang it
			t.Fatalf("%s: not over after 1000 turns", id)
		}
		for _, pr := range rs.Prompts(p.State) {
			if rng.IntN(8) > 0 {
				add(race.Entry{Kind: race.EntryOrder, Seat: pr.Seat, Text: bot.BotOrder(p.State, pr.Seat, false, rng)})
			}
		}
		add(race.Entry{Kind: race.EntryResolve, Seat: -1})
	}
}

// TestVerifyBotRaces stores whole bot races and verifies each, then changes
// one order in every tenth race behind the store's back: verify must fail on
// those. 1,000 races in memory, and 40 on SQLite (an fsync a log entry makes
// the file store the slow part).
func TestVerifyBotRaces(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 100
	}
	t.Run("memory", func(t *testing.T) {
		st := memstore.New()
		verifyBotRaces(t, st, n, func(stmts []int) store.Store {
			// The memory store has no way round its append-only log: tamper with a copy of a race.
			for _, i := range stmts {
				id := fmt.Sprint("r", i)
				r, _ := st.Load(context.Background(), id)
				turns, _ := st.Turns(context.Background(), id)
				r.ID = id + "x"
				log := r.Log
				r.Log = nil
				st.Create(context.Background(), r)
				j, changed := 0, false
				for _, e := range log {
					if !changed && e.Kind == race.EntryOrder { // the first order: a bot's Accelerate at the start
						e.Text, changed = "Hold", true
					}
					var tn *store.SavedTurn
					if e.Kind == race.EntryResolve {
						tn = &turns[j]
						j++
					}
					if err := st.Append(context.Background(), r.ID, e, tn); err != nil {
						t.Fatal(err)
					}
				}
			}
			return st
		}, "x")
	})
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "races.db")
		st, err := sqlite.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		verifyBotRaces(t, st, 40, func(ids []int) store.Store {
			var stmts []string
			for _, i := range ids {
				stmts = append(stmts, fmt.Sprintf(`UPDATE entries SET text = 'Hold' WHERE race_id = 'r%[1]d' AND seq = (SELECT MIN(seq) FROM entries WHERE race_id = 'r%[1]d' AND kind = 'order')`, i))
			}
			st.Close()
			tamper(t, path, stmts...)
			st2, err := sqlite.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { st2.Close() })
			return st2
		}, "")
	})
}

// verifyBotRaces stores n bot races in st and verifies them; then tampers
// with every tenth (the tamper function returns the store to read after it,
// and suffix is added to the ids of the tampered races) and expects failures.
func verifyBotRaces(t *testing.T, st store.Store, n int, tamperWith func(ids []int) store.Store, suffix string) {
	ctx := context.Background()
	for i := 1; i <= n; i++ {
		storeBotRace(t, st, fmt.Sprint("r", i), uint64(i), 2+i%11)
	}
	h := New(st)
	for i := 1; i <= n; i++ {
		rep, err := h.Verify(ctx, fmt.Sprint("r", i), "")
		if err != nil || !rep.OK {
			t.Fatalf("race r%d: %v %+v", i, err, rep)
		}
	}
	var ids []int
	for i := 10; i <= n; i += 10 {
		ids = append(ids, i)
	}
	h = New(tamperWith(ids))
	for _, i := range ids {
		rep, err := h.Verify(ctx, fmt.Sprint("r", i, suffix), "")
		if err != nil {
			t.Fatal(err)
		}
		if rep.OK {
			t.Fatalf("race r%d%s passed verification with a changed order", i, suffix)
		}
	}
}
