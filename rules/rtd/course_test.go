package rtd

import (
	"testing"

	"pitwall/race/racetest"
)

func TestShippedCourses(t *testing.T) {
	cs := racetest.Shipped(t, "course", Courses, func(c *Course) string { return c.ID }, courseFiles, "courses", ".yaml")
	if len(cs) != 3 {
		t.Fatalf("%d courses, want 3", len(cs))
	}
	for _, c := range cs {
		if len(c.Segments) < 5 || len(c.Segments) > 6 || c.Laps != 3 {
			t.Errorf("%s: %d segments, %d laps", c.ID, len(c.Segments), c.Laps)
		}
		boxes := 0
		for _, s := range c.Segments {
			boxes += s.ItemBoxes
		}
		if boxes == 0 {
			t.Errorf("%s has no item boxes", c.ID)
		}
	}
	rr, err := LoadCourse("rainbow-road")
	if err != nil {
		t.Fatal(err)
	}
	if rr.Segments[1].Hazard == nil || rr.Segments[1].Hazard.Lose != 2 {
		t.Errorf("Rainbow Road's Star Bend: %+v", rr.Segments[1])
	}
	if _, err := LoadCourse("moo-moo-meadows"); err == nil {
		t.Error("an unknown course was found")
	}
}

func TestPowerSlideModifier(t *testing.T) {
	for s, want := range map[Shape]int{Straight: -1, BroadStraight: 0, Curve: 0, BroadCurve: 1} {
		if got := s.PowerSlideModifier(); got != want {
			t.Errorf("%s: %d, want %d", s, got, want)
		}
	}
}

const course = `id: t
name: Test
laps: 3
segments:
  - name: A
    shape: straight
    item-boxes: 2
  - name: B
    shape: curve
    hazard: {name: rocks, check: -1, lose: 1}
    paths:
      - {name: Cut, item: mushroom, skip: true}
events:
  - {name: fog, segment: B, every: 2, check: -1, lose: 1}
`

func TestCourseErrors(t *testing.T) {
	racetest.Edited(t, ParseCourse, "t.yaml", course, [][3]string{
		{"laps: 3", "laps: 0", "t.yaml:3: laps is 1 to 20"},
		{"shape: curve", "shape: hairpin", "t.yaml:9: segment \"B\": shape is straight"},
		{"item-boxes: 2", "item-boxes: -1", "t.yaml:7: segment \"A\": item-boxes is 0 to 24"},
		{"lose: 1", "lose: 0", "a hazard costs 1 to 5 Momentum"},
		{"{name: rocks, ", "{", "a hazard needs a name"},
		{"item: mushroom, skip: true", "skip: true", "is entered with an item, a check, or both"},
		{"item: mushroom", "item: banana", "the item to enter is mushroom, star or boo"},
		{"item: mushroom, skip: true", "item: mushroom", "does nothing"},
		{"  - name: A\n", "  - name: \"\"\n", "segment 1 needs a name"},
		{"name: Test\n", "name: Test\nweather: rain\n", "t.yaml"},
		{"laps: 3", "laps: three", "t.yaml"},
		{"segment: B", "segment: C", "event \"fog\": no segment is named \"C\""},
		{"every: 2", "roll: 9", "roll is 2 to 6"},
		{"every: 2", "every: 2, roll: 5", "one of them"},
		{"every: 2", "every: 0", "one of them"},
		{"every: 2", "every: 30", "every is 1 to 20"},
		{"name: fog", "name: \"\"", "event 1 needs a name"},
		{"every: 2, check: -1, lose: 1", "every: 2, check: -1, lose: 9", "an event costs 1 to 5"},
	})
}

func FuzzParseCourse(f *testing.F) {
	f.Add([]byte(course))
	b, _ := courseFiles.ReadFile("courses/rainbow-road.yaml")
	f.Add(b)
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := ParseCourse("f.yaml", src)
		if err != nil {
			return
		}
		if len(c.Segments) < 2 || c.Laps < 1 {
			t.Fatalf("a course that should have been refused: %+v", c)
		}
	})
}
