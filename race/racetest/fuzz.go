package racetest

import (
	"errors"
	"io/fs"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// FuzzTurn plays one turn of st with the orders text gives each prompt, as
// a fuzz test's racers would send them: a refused order must be a
// race.OrderError with a code of its own, for a page to show beside the
// field (then the seat plays its default), and Resolve must
// neither fail nor change st. It returns the state after the turn.
func FuzzTurn(t testing.TB, rs race.Ruleset, st race.State, d *dice.Roller, text func(seat int) (orders string, inWindow bool)) race.State {
	t.Helper()
	orders := map[int]race.Order{}
	for _, p := range rs.Prompts(st) {
		s, in := text(p.Seat)
		o, err := rs.ParseOrder(st, race.Submission{Seat: p.Seat, Text: s, InWindow: in})
		if err != nil {
			var oe *race.OrderError
			if !errors.As(err, &oe) {
				t.Fatalf("%q: an error that is not an order error: %v", s, err)
			}
			if oe.Code == "" {
				t.Fatalf("%q: refused without a code of its own: %v", s, err)
			}
			o = rs.DefaultOrder(st, p.Seat)
		}
		orders[p.Seat] = o
	}
	before, _ := race.Hash(st)
	next, _, err := rs.Resolve(st, orders, d, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if after, _ := race.Hash(st); after != before {
		t.Fatal("Resolve changed its input")
	}
	return next
}

// FuzzParse fuzzes parse, a game's reader of a data file (a track, a
// course), from seeds: any input is read or refused without a panic, and
// what reads, read as a file called name, must pass check.
func FuzzParse[T any](f *testing.F, parse func(name string, src []byte) (T, error), name string, seeds [][]byte, check func(t *testing.T, v T)) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		v, err := parse(name, src)
		if err != nil {
			return
		}
		check(t, v)
	})
}

// ReadFiles reads each of paths from fsys (a game's embedded files), for
// seeds; a file that does not read fails t.
func ReadFiles(t testing.TB, fsys fs.FS, paths ...string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, p := range paths {
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}
