package race

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"pitwall/dice"
)

func gridSeats(n int) []Seat {
	var out []Seat
	for i := range n {
		out = append(out, Seat{Seat: i, Name: string(rune('A' + i))})
	}
	return out
}

// Each racer in seat order draws one of the slots left: A on a d4 draws the
// third slot, B on a d3 the first left, C on a d2 the second left, and D
// takes the last without a roll.
func TestDrawGridByLot(t *testing.T) {
	s, err := dice.NewScript("d4=3", "d3=1", "d2=2")
	if err != nil {
		t.Fatal(err)
	}
	d := dice.WithSource(s)
	got, err := DrawGrid(d, gridSeats(4), 6, "the oval", "cars")
	if err != nil {
		t.Fatal(err)
	}
	if want := []int{2, 0, 3, 1}; !slices.Equal(got, want) {
		t.Errorf("slots %v, want %v", got, want)
	}
	if s.Err() != nil || s.Left() != 0 {
		t.Fatalf("dice: %v, %d left", s.Err(), s.Left())
	}
	rolls := d.Since(0)
	if len(rolls) != 3 || rolls[0].Seat != 0 || rolls[2].Seat != 2 || rolls[1].Reason != "B: grid draw" {
		t.Errorf("rolls %+v", rolls)
	}
}

func TestDrawGridRefuses(t *testing.T) {
	d := dice.New(dice.SeedFromInt(1))
	if _, err := DrawGrid(d, gridSeats(1), 6, "the oval", "cars"); !errors.Is(err, ErrTooFew) || !strings.Contains(err.Error(), "at least 2 cars; 1 entered") {
		t.Errorf("one car: %v", err)
	}
	if _, err := DrawGrid(d, gridSeats(7), 6, "the oval", "cars"); err == nil || err.Error() != "the oval has 6 grid slots; 7 cars entered" {
		t.Errorf("seven cars on six slots: %v", err)
	}
	if got, err := DrawGrid(d, gridSeats(6), 6, "the oval", "cars"); err != nil || len(got) != 6 {
		t.Errorf("six cars on six slots: %v %v", got, err)
	}
	if got, err := DrawGrid(d, gridSeats(2), 6, "the oval", "cars"); err != nil || len(got) != 2 {
		t.Errorf("two cars: %v %v", got, err)
	}
	if len(d.Since(0)) != 5+1 {
		t.Errorf("%d rolls; a draw of n rolls n-1 times", len(d.Since(0)))
	}
}

func TestTrackAndLaps(t *testing.T) {
	tracks := map[string]int{"oval": 3, "road": 2}
	load := func(id string) (string, error) {
		if _, ok := tracks[id]; !ok {
			return "", errors.New("no track " + id)
		}
		return id, nil
	}
	laps := func(id string) int { return tracks[id] }
	for _, c := range []struct {
		cfg   Config
		track string
		laps  int
		err   string
	}{
		{Config{}, "oval", 3, ""},
		{Config{Track: "road"}, "road", 2, ""},
		{Config{Track: "road", Laps: 5}, "road", 5, ""},
		{Config{Track: "moon"}, "", 0, "no track moon"},
		{Config{Laps: MaxLaps + 1}, "oval", 0, "laps is 1 to"},
	} {
		tr, n, err := TrackAndLaps(c.cfg, "oval", load, laps)
		if (err == nil) != (c.err == "") || (err != nil && !strings.Contains(err.Error(), c.err)) || (err == nil && (tr != c.track || n != c.laps)) {
			t.Errorf("%+v: %q %d %v; want %q %d %q", c.cfg, tr, n, err, c.track, c.laps, c.err)
		}
	}
}
