package host

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/store/sqlite"
)

// BenchmarkLoad is what every command pays before it does anything: loading
// a race. It resumes from the last turn's record, so it should cost the same
// on a race of 30 turns as on one of 300 (the toy hop game, mid-turn with
// two orders in).
func BenchmarkLoad(b *testing.B) {
	benchLengths(b, func(ctx context.Context, h *Host) error {
		_, err := h.Load(ctx, "b")
		return err
	})
}

// BenchmarkSubmit is a whole order: load, check, append (SQLite, synchronous=FULL).
func BenchmarkSubmit(b *testing.B) {
	benchLengths(b, func(ctx context.Context, h *Host) error {
		_, err := h.Submit(ctx, "b", 1, "2", Req{})
		return err
	})
}

// BenchmarkFullReplay is what every load cost before loads resumed from the
// last record, and what verify still does: the whole log from the setup.
func BenchmarkFullReplay(b *testing.B) {
	rs, _ := race.Lookup("hop")
	benchLengths(b, func(ctx context.Context, h *Host) error {
		r, err := h.Store.Load(ctx, "b")
		if err != nil {
			return err
		}
		_, err = race.Replay(rs, r)
		return err
	})
}

// benchLengths times op on a race of 30 turns and on one of 300 (benchRace).
func benchLengths(b *testing.B, op func(ctx context.Context, h *Host) error) {
	for _, turns := range []int{30, 300} {
		b.Run(fmt.Sprintf("turns=%d", turns), func(b *testing.B) {
			h := benchRace(b, turns)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				if err := op(ctx, h); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchRace stores a hop race of the given length, with its last turn open
// and two orders in.
func benchRace(b *testing.B, turns int) *Host {
	b.Helper()
	st, err := sqlite.Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	now := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	h := &Host{Store: st, Clock: ClockFunc(func() time.Time { return now })}
	ctx := context.Background()
	s := dice.SeedFromInt(1)
	es := []race.Entrant{{Player: "A", Racers: []string{"A"}}, {Player: "B", Racers: []string{"B"}}, {Player: "C", Racers: []string{"C"}}}
	if _, err := h.NewRace(ctx, "hop", "b", race.Config{Laps: turns/10 + 1}, es, &s); err != nil {
		b.Fatal(err)
	}
	for turn := 1; turn <= turns; turn++ {
		for seat := range 3 {
			if _, err := h.Submit(ctx, "b", seat, "2", Req{Turn: turn}); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := h.Resolve(ctx, "b", Req{Turn: turn}); err != nil {
			b.Fatal(err)
		}
	}
	for seat := range 2 {
		if _, err := h.Submit(ctx, "b", seat, "1", Req{}); err != nil {
			b.Fatal(err)
		}
	}
	return h
}
