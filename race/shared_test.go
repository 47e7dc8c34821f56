package race

import (
	"errors"
	"reflect"
	"testing"
)

func TestBySeat(t *testing.T) {
	rs := []Seat{{Seat: 2, Name: "b"}, {Seat: 0, Name: "a"}}
	seat := func(s *Seat) int { return s.Seat }
	if got := BySeat(rs, 0, seat); got != &rs[1] {
		t.Errorf("seat 0: %v, want the racer itself, %v", got, &rs[1])
	}
	if got := BySeat(rs, 1, seat); got != nil {
		t.Errorf("seat 1, empty: %v, want nil", got)
	}
}

func TestIntFlag(t *testing.T) {
	args := map[string]string{"n": " 3 ", "low": "-1", "high": "10", "word": "two"}
	if n, err := IntFlag(args, "n", 7, 0, 9); n != 3 || err != nil {
		t.Errorf("given: %d %v, want 3", n, err)
	}
	if n, err := IntFlag(args, "absent", 7, 0, 9); n != 7 || err != nil {
		t.Errorf("absent: %d %v, want the default 7", n, err)
	}
	for name, says := range map[string]string{
		"low":  `--low must be a whole number from 0 to 9; got "-1"`,
		"high": `--high must be a whole number from 0 to 9; got "10"`,
		"word": `--word must be a whole number from 0 to 9; got "two"`,
	} {
		if n, err := IntFlag(args, name, 7, 0, 9); n != 0 || err == nil || err.Error() != says {
			t.Errorf("%s: %d %v, want %q", name, n, err, says)
		}
	}
}

func TestTrackInfos(t *testing.T) {
	info := func(id string) TrackInfo { return TrackInfo{ID: id, Name: "the " + id} }
	tracks := func() ([]string, error) { return []string{"a", "b", "c"}, nil }
	ids := func(ts []TrackInfo) []string {
		var out []string
		for _, t := range ts {
			out = append(out, t.ID)
		}
		return out
	}
	if got := TrackInfos(tracks, "c", info); !reflect.DeepEqual(ids(got), []string{"c", "a", "b"}) || got[0].Name != "the c" {
		t.Errorf("default c: %v, want c first, the others in order", got)
	}
	if got := ids(TrackInfos(tracks, "a", info)); !reflect.DeepEqual(got, []string{"a", "b", "c"}) {
		t.Errorf("default a: %v, want the order kept", got)
	}
	broken := func() ([]string, error) { return []string{"a"}, errors.New("unreadable") }
	if got := TrackInfos(broken, "a", info); got != nil {
		t.Errorf("unreadable tracks: %v, want none", got)
	}
}
