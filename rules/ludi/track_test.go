package ludi

import (
	"encoding/json"
	"testing"

	"pitwall/dice"
	"pitwall/race/racetest"
)

func TestCircusMaximus(t *testing.T) {
	tr, err := LoadTrack("circus-maximus")
	if err != nil {
		t.Fatal(err)
	}
	if tr.Lanes != 6 || len(tr.Grid) != 12 || tr.Laps != 3 {
		t.Fatalf("lanes %d, grid %d, laps %d; want 6, 12, 3", tr.Lanes, len(tr.Grid), tr.Laps)
	}
	// An outer lane is longer: the inside lane is the short way round.
	for l := 2; l <= 6; l++ {
		if tr.LapLength(l) < tr.LapLength(l-1) {
			t.Errorf("lane %d lap %d shorter than lane %d's %d", l, tr.LapLength(l), l-1, tr.LapLength(l-1))
		}
	}
	if got := tr.LapLength(1); got != 46 {
		t.Errorf("lane 1 lap = %d spaces, want 20+3+20+3", got)
	}
}

func TestNextWrapsAndCrossesTheLine(t *testing.T) {
	tr, _ := LoadTrack("circus-maximus")
	p := Pos{Lane: 6, Seg: 0, Cell: 0}
	crossed := 0
	for i := 0; i < tr.LapLength(6); i++ {
		var c bool
		p, c = tr.Next(p)
		if c {
			crossed++
		}
	}
	if p != (Pos{Lane: 6}) || crossed != 1 {
		t.Fatalf("after one lap of lane 6: %v, crossed %d times", p, crossed)
	}
}

func TestBesideAndOverlaps(t *testing.T) {
	tr, _ := LoadTrack("circus-maximus")
	for _, tc := range []struct {
		p    Pos
		dl   int
		want Pos
		ok   bool
	}{
		{Pos{1, 0, 7}, +1, Pos{2, 0, 7}, true}, // a straight: level means the same index
		{Pos{1, 0, 7}, -1, Pos{}, false},       // nothing left of the inside lane
		{Pos{6, 2, 0}, +1, Pos{}, false},       // nothing right of the outer lane
		{Pos{1, 1, 1}, +1, Pos{2, 1, 2}, true}, // corner: lane 1 space 2 of 3 (middle 0.5) is lane 2 space 3 of 4
		{Pos{6, 1, 6}, -1, Pos{5, 1, 5}, true}, // corner: last of 7 beside last of 6
		{Pos{4, 3, 0}, -1, Pos{3, 3, 0}, true}, // corner: first beside first
		{Pos{3, 1, 3}, +1, Pos{4, 1, 4}, true}, // 4 spaces to 5: middle of the 4th (0.875) is the 5th
	} {
		got, ok := tr.Beside(tc.p, tc.dl)
		if ok != tc.ok || (ok && got != tc.want) {
			t.Errorf("Beside(%v, %+d) = %v, %v; want %v, %v", tc.p, tc.dl, got, ok, tc.want, tc.ok)
		}
		if ok && !tr.Overlaps(tc.p, got) {
			t.Errorf("%v and %v are beside each other but do not overlap", tc.p, got)
		}
	}
	if tr.Overlaps(Pos{1, 0, 3}, Pos{2, 0, 4}) {
		t.Error("spaces 3 and 4 of a straight overlap")
	}
	if tr.Overlaps(Pos{1, 0, 19}, Pos{2, 1, 0}) {
		t.Error("spaces in different segments overlap")
	}
}

func TestTrackErrorsNameTheLine(t *testing.T) {
	good := `id: t
name: T
laps: 3
lanes: 2
segments:
  - name: s
    spaces: 10
  - name: c
    corner: true
    spaces: [3, 4]
grid:
  - {lane: 1, space: 2}
  - {lane: 2, space: 1}
`
	// Each refusal names the file and, where the file reads, the line.
	racetest.Edited(t, ParseTrack, "t.yaml", good, [][3]string{
		{"lanes: 2\n", "lanes: 9\n", "t.yaml:4: lanes is 2 to 8"},
		{"spaces: [3, 4]", "spaces: [3]", "t.yaml:10: corner \"c\" needs one count of spaces per lane"},
		{"spaces: [3, 4]", "spaces: [4, 3]", "t.yaml:10: corner \"c\": lane 2 has fewer spaces"},
		{"spaces: [3, 4]", "spaces: [3, 9]", "t.yaml:10: corner \"c\", lane 2: a corner lane has 3 to 7 spaces"},
		{"spaces: 10", "spaces: [10, 10]", "t.yaml:7: straight \"s\" has one count of spaces for every lane"},
		{"{lane: 2, space: 1}", "{lane: 3, space: 1}", "t.yaml:13: grid slot 2: lane is 1 to 2"},
		{"{lane: 2, space: 1}", "{lane: 1, space: 2}", "t.yaml:13: grid slot 2 is the same space as slot 1"},
		{"{lane: 2, space: 1}", "{lane: 2, space: 10}", "t.yaml:13: grid slot 2: space is 0 to 9"},
		{"laps: 3", "laps: 0", "t.yaml:3: laps is 1 to 20"},
		{"laps: 3", "laps: three", "t.yaml: [3:7] cannot unmarshal"},
		{"name: T\n", "name: T\ncolour: red\n", "t.yaml: [3:1] unknown field"},
		{"    corner: true\n", "", "t.yaml:9: straight \"c\" has one count of spaces for every lane"},
	})
}

func FuzzParseTrack(f *testing.F) {
	seeds := racetest.ReadFiles(f, trackFiles, "tracks/circus-maximus.yaml")
	seeds = append(seeds, []byte("id: x\nsegments: [{spaces: [1,2,3]}]\n"), []byte("{"))
	racetest.FuzzParse(f, ParseTrack, "f.yaml", seeds, func(t *testing.T, tr *Track) {
		// A track that loads can be walked round every lane without going wrong.
		for l := 1; l <= tr.Lanes; l++ {
			p := Pos{Lane: l}
			for i := 0; i < tr.LapLength(l); i++ {
				p, _ = tr.Next(p)
				if _, ok := tr.Beside(p, 1); !ok && l < tr.Lanes {
					t.Fatalf("no space beside %v", p)
				}
			}
		}
	})
}

// The gap between two chariots is the distance on the track, whatever laps
// they are on, and wraps across the line.
func TestGapIgnoresLapsAndWraps(t *testing.T) {
	tr, _ := LoadTrack("circus-maximus")
	s := &State{track: tr}
	at := func(lane, seg, cell, lap int) *Chariot { return &Chariot{Pos: Pos{lane, seg, cell}, Lap: lap} }
	for _, tc := range []struct {
		a, b *Chariot
		want int
	}{
		{at(3, 0, 7, 0), at(3, 0, 5, 2), 2},      // a wreck from lap 0, two spaces ahead of a chariot on lap 2
		{at(3, 0, 5, 2), at(3, 0, 7, 0), -2},     // and the other way round
		{at(3, 0, 1, 1), at(3, 3, 2, 0), 3},      // across the line: near meta (4 spaces in lane 3) to the home straight
		{at(2, 0, 9, 0), at(3, 0, 9, 0), 0},      // level in neighbouring lanes
		{at(1, 1, 2, 0), at(1, 1, 0, 0), 2},      // within a corner
		{at(4, 1, 4, 0), at(4, 0, 0, 0), 20 + 4}, // just under half a lap (50 in lane 4) ahead
	} {
		if got := s.gap(tc.a, tc.b); got != tc.want {
			t.Errorf("gap(%v lap %d, %v lap %d) = %d, want %d", tc.a.Pos, tc.a.Lap, tc.b.Pos, tc.b.Lap, got, tc.want)
		}
	}
}

// Every shipped track reads, and is named by its file (tracks/ID.yaml), so
// the file-name order Tracks gives is the IDs' order.
func TestShippedTracks(t *testing.T) {
	ts := racetest.Shipped(t, "track", Tracks, func(tr *Track) string { return tr.ID }, trackFiles, "tracks", ".yaml")
	if len(ts) == 0 {
		t.Fatal("no tracks")
	}
	for _, tr := range ts {
		again, err := LoadTrack(tr.ID)
		if err != nil || again != tr {
			t.Errorf("%s: looked up %p, %v; listed %p", tr.ID, again, err, tr)
		}
	}
}

// A race set up, or a state decoded, finds its track read already: it does
// not read and parse the file again (each did, 4,700 allocations a time).
func TestSetupDoesNotReparse(t *testing.T) {
	src, err := trackFiles.ReadFile("tracks/circus-maximus.yaml")
	if err != nil {
		t.Fatal(err)
	}
	parse := testing.AllocsPerRun(3, func() {
		if _, err := ParseTrack("circus-maximus.yaml", src); err != nil {
			t.Fatal(err)
		}
	})
	cfg, es := setupArgs()
	var js []byte
	setup := testing.AllocsPerRun(3, func() {
		s, err := (Ruleset{}).Setup(cfg, es, dice.New(dice.SeedFromInt(1)))
		if err != nil {
			t.Fatal(err)
		}
		if js == nil {
			js, _ = json.Marshal(s)
		}
	})
	decode := testing.AllocsPerRun(3, func() {
		if _, err := (Ruleset{}).DecodeState(js); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("allocations: parsing the track %.0f, a 12-chariot setup %.0f, decoding its state %.0f", parse, setup, decode)
	if setup > parse/4 || decode > parse/4 {
		t.Errorf("a setup allocates %.0f times and a decode %.0f; parsing the track alone %.0f: the track is read again", setup, decode, parse)
	}
}
