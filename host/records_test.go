package host

import (
	"context"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
	_ "pitwall/rules/rtd"
)

// Course records are the best over every race on the course: each race's
// own records are found again in the list or beaten there.
func TestCourseRecords(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	es := []race.Entrant{{Player: "Sam", Racers: []string{"Mario"}}, {Player: "Kit", Racers: []string{"Yoshi"}},
		{Player: "Jo", Racers: []string{"Bowser"}, Options: map[string]string{"perk": "ramming-speed", "debuff": "slow"}}}
	var mine [][]race.Record
	for i, id := range []string{"k1", "k2", "k3"} {
		s := dice.SeedFromInt(uint64(40 + i))
		if _, err := f.h.NewRace(ctx, "rtd", id, race.Config{Track: "rainbow-road"}, es, &s); err != nil {
			t.Fatal(err)
		}
		f.now = f.now.Add(time.Hour)
		playOut(t, f, id)
		p := f.load(t, id)
		mine = append(mine, p.Ruleset.(race.Recorder).Records(p.State))
	}
	var calls int
	got, err := f.h.Records(ctx, "rtd", "rainbow-road", func(done, total int) { calls++ })
	if err != nil {
		t.Fatal(err)
	}
	if calls != 3 || len(got) != 2 {
		t.Fatalf("%d progress calls, records %+v", calls, got)
	}
	for _, cr := range got {
		if cr.Track != "rainbow-road" {
			t.Errorf("record on %s", cr.Track)
		}
		for i, rs := range mine {
			for _, r := range rs {
				if r.Kind == cr.Kind && r.Better(cr.Record) {
					t.Errorf("race k%d's %s (%d turns) beats the course record %+v", i+1, r.Kind, r.Turns, cr)
				}
			}
		}
	}
	if none, err := f.h.Records(ctx, "rtd", "luigi-circuit", nil); err != nil || len(none) != 0 {
		t.Fatalf("no races on luigi-circuit: %+v %v", none, err)
	}
	for _, bad := range [][2]string{{"rtd", "moon"}, {"chess", ""}, {"ludi", ""}} {
		if _, err := f.h.Records(ctx, bad[0], bad[1], nil); !IsBadInput(err) {
			t.Errorf("%v: %v, want bad input", bad, err)
		}
	}
}
