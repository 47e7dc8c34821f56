package rtd

import (
	"errors"
	"strings"
	"testing"

	"pitwall/race"
)

// Orders are checked against the race: each refusal says what was wrong and
// what would do.
func TestParseOrderRefusals(t *testing.T) {
	c, err := LoadCourse("luigi-circuit")
	if err != nil {
		t.Fatal(err)
	}
	mk := func(turn int) *State {
		return &State{CourseID: c.ID, course: c, T: turn, Laps: 3, Order: []int{0, 1, 2, 3, 4, 5}, Racers: []Racer{
			{Seat: 0, Name: "Mario", Segment: 0},                                      // Start Straight: no paths
			{Seat: 1, Name: "Luigi", Segment: 5, Hand: GreenShell},                    // Home Bend: a mushroom path
			{Seat: 2, Name: "Peach", Segment: 3, Hand: Banana, Bag: []Item{Mushroom}}, // Tunnel: a check-only path
			{Seat: 3, Name: "Toad", Segment: 5, Finished: true, Laps: 3},
			{Seat: 4, Name: "Daisy", Segment: 5, Hand: BobOmb, Bag: []Item{Mushroom}}, // Home Bend: the mushroom behind a dragged bob-omb
			{Seat: 5, Name: "Yoshi", Segment: 5, Hand: Star, Bag: []Item{Mushroom}},
		}}
	}
	for _, tc := range []struct {
		turn int
		seat int
		text string
		says string // "" = accepted
		code string
	}{
		{0, 0, "rocket start", "", ""},
		{0, 0, "safe start", "", ""},
		{0, 0, "aggressive", "at the start the only action is a Rocket Start", CodeRocketStartOnly},
		{0, 0, "rocket start then hold", "nobody pulls ahead at the start", CodeRocketStartOnly},
		{3, 0, "aggressive then hold", "", ""},
		{3, 2, "item lay, pull ahead", "", ""},
		{3, 2, "item star", "Peach holds a banana and a mushroom; there is no star to deploy", CodeNotHeld},
		{3, 2, "item mushroom", "Peach drags a banana, which must be used before another item is deployed: 'item banana' first", CodeDraggedFirst},
		{3, 2, "item banana throw at Mario", "", ""},
		{3, 2, "item mushroom lay", "Peach drags a banana", CodeDraggedFirst},
		{3, 1, "path 1", "needs a mushroom in hand; Luigi holds a green-shell", CodePathNeedsItem},
		{3, 4, "path 1", "Daisy drags a bob-omb, which must be used before another item: 'item bob-omb' first, then Mushroom cut", CodeDraggedFirst},
		{3, 4, "item mushroom", "Daisy drags a bob-omb", CodeDraggedFirst},
		{3, 4, "item", "", ""},
		{3, 5, "item mushroom", "", ""},
		{3, 5, "item star lay", "a star is not laid or thrown", CodeNotLaidOrThrown},
		{3, 5, "path 1", "", ""},
		{3, 0, "rocket start", "for the start only", CodeStartIsOver},
		{3, 0, "safe start", "for the start only", CodeStartIsOver},
		{3, 0, "item", "Mario has no item to deploy", CodeNoItemInHand},
		{3, 0, "item throw at Luigi", "Mario has no item to deploy", CodeNoItemInHand},
		{3, 1, "item lay", "a green-shell is not laid or thrown", CodeNotLaidOrThrown},
		{3, 1, "item throw at Mario", "a green-shell is not laid or thrown", CodeNotLaidOrThrown},
		{3, 2, "item throw", "a throw needs a target", CodeThrowNeedsTarget},
		{3, 2, "item forward", "only a green shell is fired forward", CodeNotAGreenShell},
		{3, 2, "item backward", "only a green shell is fired backward", CodeNotAGreenShell},
		{3, 2, "item throw at Bowser", `no racer called "Bowser"`, CodeUnknownTarget},
		{3, 1, "item forward at Bowser", `no racer called "Bowser"`, CodeUnknownTarget},
		{3, 2, "item throw at Mario", "", ""},
		{3, 2, "item lay", "", ""},
		{3, 2, "item", "", ""},
		{3, 1, "item backward", "", ""},
		{3, 1, "item forward at mario", "", ""},
		{3, 0, "path 1", "Start Straight has no alternate path", CodeNoAlternatePath},
		{3, 2, "path 2", "Tunnel has 1 alternate path, path 1 to 1; path 2 is not one", CodeNoSuchPath},
		{3, 2, "path 1", "", ""},
		{3, 3, "aggressive", "Toad has finished", CodeFinished},
		{3, 9, "aggressive", "no seat 9", CodeNoSuchSeat},
		{3, 0, "fly", "not an action", CodeUnknownAction},
		{3, 0, "  ", "no action given", CodeNoAction},
		{3, 0, "path x", "chosen by its number", CodeBadPath},
		{3, 0, "item sideways", "an item is used as", CodeBadItemUse},
		{0, 3, "fly", "Toad has finished", CodeFinished}, // the seat is checked before the text
	} {
		_, err := Ruleset{}.ParseOrder(mk(tc.turn), race.Submission{Seat: tc.seat, Text: tc.text})
		var oe *race.OrderError
		switch {
		case tc.says == "" && err != nil:
			t.Errorf("turn %d seat %d %q: refused: %v", tc.turn, tc.seat, tc.text, err)
		case tc.says != "" && (err == nil || !strings.Contains(err.Error(), tc.says)):
			t.Errorf("turn %d seat %d %q: %v, want %q", tc.turn, tc.seat, tc.text, err, tc.says)
		case err != nil && !errors.As(err, &oe):
			t.Errorf("%q: %v is not an order error", tc.text, err)
		case err != nil && oe.Code != tc.code:
			t.Errorf("%q: code %q, want %q", tc.text, oe.Code, tc.code)
		case err != nil && (oe.Kind == race.Invalid) != map[string]bool{CodeNoAction: true, CodeUnknownAction: true, CodeBadPath: true, CodeBadItemUse: true}[tc.code]:
			t.Errorf("%q: kind %v for code %q: a text that is no action is Invalid, an action not allowed Illegal", tc.text, oe.Kind, tc.code)
		}
	}
}

// A target named in any case is the racer of that name: the order keeps the
// racer's own spelling, which the items match.
func TestTargetTakesTheRacersSpelling(t *testing.T) {
	_, p := botRace(t, 1, 3, "luigi-circuit")
	s := p.Start.(*State).clone()
	s.T = 1
	x := &s.Racers[0]
	x.Hand = Banana
	o, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: 0, Text: "item throw at " + strings.ToLower(s.Racers[2].Name)})
	if err != nil {
		t.Fatal(err)
	}
	if got := o.(Action).Target; got != s.Racers[2].Name {
		t.Errorf("target %q, want %q", got, s.Racers[2].Name)
	}
}
