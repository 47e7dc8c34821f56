package dice

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"
)

func TestSameSeedSameRolls(t *testing.T) {
	seed := SeedFromInt(7)
	a, b := New(seed), New(seed)
	for i := 0; i < 1000; i++ {
		x, y := a.Roll(0, "t", D20), b.Roll(0, "t", D20)
		if x != y {
			t.Fatalf("roll %d: %d != %d", i, x, y)
		}
	}
}

func TestRestoreContinuesTheStream(t *testing.T) {
	a := New(SeedFromInt(1))
	for i := 0; i < 37; i++ {
		a.Roll(1, "warm up", D6)
	}
	b, err := Restore(a.State())
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 100; i++ {
		if x, y := a.Roll(0, "", D20), b.Roll(0, "", D20); x != y {
			t.Fatalf("after restore, roll %d: %d != %d", i, x, y)
		}
	}
}

func TestRestoreRefusesGarbage(t *testing.T) {
	if _, err := Restore([]byte("nope")); err == nil {
		t.Fatal("a garbage state was accepted")
	}
}

func TestRollsCoverEveryFaceUniformly(t *testing.T) {
	r := New(SeedFromInt(3))
	gear := Die{Name: "orange", Faces: []int{2, 3, 3, 4, 4, 4}}
	count := map[int]int{}
	const n = 60000
	for i := 0; i < n; i++ {
		count[r.Roll(0, "", gear)]++
	}
	// 1/6, 2/6, 3/6 of the rolls; 5 standard deviations of slack.
	for v, want := range map[int]float64{2: n / 6.0, 3: n * 2 / 6.0, 4: n * 3 / 6.0} {
		if d := float64(count[v]) - want; d > 5*150 || d < -5*150 {
			t.Errorf("face %d came up %d times, expected about %.0f", v, count[v], want)
		}
	}
}

func TestLogKeepsSeatReasonDieResult(t *testing.T) {
	s, _ := NewScript("d20=14", "d6=3")
	r := WithSource(s)
	m := r.Mark()
	r.Roll(2, "whip", D20)
	r.Roll(-1, "slip start", D6)
	got := r.Since(m)
	want := []Roll{{2, "whip", "d20", 13, 14}, {-1, "slip start", "d6", 2, 3}}
	if len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("log = %+v, want %+v", got, want)
	}
	if s.Err() != nil || s.Left() != 0 {
		t.Fatalf("script: err %v, %d left", s.Err(), s.Left())
	}
}

func TestScriptMismatches(t *testing.T) {
	for _, tc := range []struct {
		steps []string
		die   Die
	}{
		{[]string{"d20=14"}, D6},  // wrong die
		{[]string{"d6=7"}, D6},    // no such face
		{nil, D20},                // past the end
		{[]string{"d20=0"}, D20},  // no face 0
		{[]string{"d8=8"}, D(20)}, // named d8, rolled d20
	} {
		s, err := NewScript(tc.steps...)
		if err != nil {
			t.Fatal(err)
		}
		WithSource(s).Roll(0, "", tc.die)
		if s.Err() == nil {
			t.Errorf("script %v rolling %s: no error", tc.steps, tc.die.Name)
		}
	}
	for _, bad := range []string{"d20", "=3", "d20=x", ""} {
		if _, err := NewScript(bad); err == nil {
			t.Errorf("NewScript(%q) accepted", bad)
		}
	}
}

func TestCommitment(t *testing.T) {
	s := SeedFromInt(42)
	h := sha256.Sum256(s[:])
	if s.Commitment() != hex.EncodeToString(h[:]) {
		t.Fatal("commitment is not the SHA-256 of the seed")
	}
	back, err := ParseSeed(s.Hex())
	if err != nil || back != s {
		t.Fatalf("ParseSeed(Hex) = %v, %v", back, err)
	}
	if _, err := ParseSeed("abc"); err == nil {
		t.Fatal("short seed accepted")
	}
	a, _ := NewSeed()
	b, _ := NewSeed()
	if a == b {
		t.Fatal("two crypto seeds are equal")
	}
}

// A clone rolls what the original would have, and rolling it leaves the
// original where it stood, its log included.
func TestCloneGoesOnAlone(t *testing.T) {
	a := New(SeedFromInt(3))
	for i := 0; i < 11; i++ {
		a.Roll(0, "warm up", D6)
	}
	want := a.Clone()
	c := a.Clone()
	var got []int
	for i := 0; i < 50; i++ {
		got = append(got, c.Roll(1, "clone", D20))
	}
	if len(a.Since(0)) != 11 {
		t.Fatalf("rolling the clone logged %d rolls on the original, want 11", len(a.Since(0)))
	}
	for i, g := range got {
		if x := a.Roll(1, "original", D20); x != g {
			t.Fatalf("roll %d: original %d, clone %d", i, x, g)
		}
	}
	for i, g := range got { // a clone taken before them stood still too
		if x := want.Roll(1, "", D20); x != g {
			t.Fatalf("the first clone's roll %d: %d, want %d", i, x, g)
		}
	}
	s := WithSource(&Script{})
	if s.Clone().src != s.src {
		t.Error("a roller on a script does not share it with its clone")
	}
}

// A quiet roller rolls what a logging one on the same seed rolls, counts
// its rolls in Mark, keeps none, and says it is not telling.
func TestQuietRollsTheSameAndKeepsNone(t *testing.T) {
	a, q := New(SeedFromInt(5)), NewQuiet(SeedFromInt(5))
	if !a.Telling() || q.Telling() {
		t.Fatalf("telling: logging roller %v, quiet one %v", a.Telling(), q.Telling())
	}
	for i := 0; i < 200; i++ {
		d := []Die{D20, D6, {Name: "odd", Faces: []int{2, 3, 3, 4}}}[i%3]
		if x, y := a.Roll(i%4, "why", d), q.Roll(i%4, "why", d); x != y {
			t.Fatalf("roll %d: logging %d, quiet %d", i, x, y)
		}
	}
	if a.Mark() != 200 || q.Mark() != 200 {
		t.Errorf("marks after 200 rolls: logging %d, quiet %d", a.Mark(), q.Mark())
	}
	if len(q.Log()) != 0 || len(q.Since(0)) != 0 || len(a.Since(150)) != 50 {
		t.Errorf("quiet log %d, quiet since 0: %d; logging since 150: %d", len(q.Log()), len(q.Since(0)), len(a.Since(150)))
	}
	c := q.Clone()
	if c.Telling() || c.Mark() != 200 || c.Roll(0, "", D20) != q.Roll(0, "", D20) {
		t.Error("a quiet roller's clone is not quiet at the same mark on the same stream")
	}
}

func TestHas(t *testing.T) {
	for _, v := range []int{1, 6} {
		if !D6.Has(v) {
			t.Errorf("d6 has no face %d", v)
		}
	}
	for _, v := range []int{0, 7, -1} {
		if D6.Has(v) {
			t.Errorf("d6 has a face %d", v)
		}
	}
}

// Two seeds drawn are two seeds, and drawing one is no error.
func TestNewSeed(t *testing.T) {
	a, err := NewSeed()
	if err != nil {
		t.Fatal(err)
	}
	b, err := NewSeed()
	if err != nil {
		t.Fatal(err)
	}
	if a == b || a == (Seed{}) {
		t.Errorf("seeds %x and %x", a, b)
	}
}

// A script run past its end says which roll asked and how many steps it had.
func TestScriptPastItsEndSaysWhere(t *testing.T) {
	s, _ := NewScript("d6=3", "d6=4")
	r := WithSource(s)
	for range 3 {
		r.Roll(0, "", D6)
	}
	if err := s.Err(); err == nil || err.Error() != "roll 3 of d6: the script has only 2 steps" {
		t.Errorf("past the end: %v", err)
	}
}
