package gaslands

import (
	"strconv"
	"testing"
)

// The scatter die, face by face: 1 keeps the facing, each face after it 45
// degrees more, clockwise; each an even chance.
func TestScatter(t *testing.T) {
	odds, err := Ruleset{}.Odds("scatter", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(odds) != 8 {
		t.Errorf("%d outcomes: %v; want 8", len(odds), odds)
	}
	for face, want := range []int{1: 0, 2: 45, 3: 90, 4: 135, 5: 180, 6: 225, 7: 270, 8: 315} {
		if face == 0 {
			continue
		}
		if got := scatterTurn(face); got != want {
			t.Errorf("face %d turns %d°; want %d°", face, got, want)
		}
		if p := odds[strconv.Itoa(want)]; p != 0.125 {
			t.Errorf("%d°: chance %v; want 1/8", want, p)
		}
	}
	if _, err := (Ruleset{}).Odds("scatter", map[string]string{"dice": "2"}); err == nil {
		t.Error("scatter took --dice")
	}
}
