package dice

import "testing"

func TestPrefix(t *testing.T) {
	p := &Prefix{Faces: []int{4, 1}}
	r := WithSource(p)
	got := []int{r.Roll(0, "a", D6), r.Roll(0, "b", D(3)), r.Roll(1, "c", D6), r.Roll(1, "d", D20)}
	// faces from 0: 4 is a 5, 1 a 2; then the first face, a 1
	if want := []int{5, 2, 1, 1}; got[0] != want[0] || got[1] != want[1] || got[2] != want[2] || got[3] != want[3] {
		t.Errorf("rolls %v, want %v", got, want)
	}
	if len(p.Asked) != 4 || p.Asked[1].Sides() != 3 || p.Asked[3].Sides() != 20 {
		t.Errorf("asked %v", p.Asked)
	}
}
