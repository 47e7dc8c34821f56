package rtd

import (
	"embed"
	"fmt"
	"strings"

	"pitwall/internal/shipped"
	"pitwall/internal/yamlfile"
)

// A course is a loop of segments (commonly 5 or 6), each with its qualities,
// as a YAML file in courses/:
//
//	id: luigi-circuit
//	name: Luigi Circuit
//	laps: 3
//	segments:
//	  - name: Start Straight
//	    shape: broad-straight      # straight | broad-straight | curve | broad-curve
//	    item-boxes: 4              # a line of boxes at its end; 0 for none
//	    dash-panels: true
//	    hazard: {name: falling rocks, check: -1, lose: 1}
//	    paths:                     # alternate paths from this segment
//	      - {name: Mushroom cut, item: mushroom, check: 0, skip: true}

//go:embed courses/*.yaml
var courseFiles embed.FS

// Shape is a segment's shape, which sets the Power Slide's modifier.
type Shape string

// The shapes of the text: a Power Slide takes -1 'because it requires
// space', but not on curves and broad straights, and broad curves give +1.
const (
	Straight      Shape = "straight"
	BroadStraight Shape = "broad-straight"
	Curve         Shape = "curve"
	BroadCurve    Shape = "broad-curve"
)

// Words is the shape as prose: "broad curve".
func (s Shape) Words() string { return strings.ReplaceAll(string(s), "-", " ") }

// PowerSlideModifier is the Power Slide check's modifier on this shape.
func (s Shape) PowerSlideModifier() int {
	switch s {
	case Curve, BroadStraight:
		return 0
	case BroadCurve:
		return 1
	}
	return -1
}

// Hazard is a danger of a segment, navigated in the Movement Phase with a
// Racing Check: failing it costs Momentum.
type Hazard struct {
	Name  string `yaml:"name"`
	Check int    `yaml:"check"` // the modifier to the Racing Check to get through
	Lose  int    `yaml:"lose"`  // Momentum lost on a failure
}

// Path is an alternate path from a segment: entered with an item, a Racing
// Check, or both; it skips the next segment (a shortcut) or gives Momentum.
type Path struct {
	Name     string `yaml:"name"`
	Item     string `yaml:"item"`     // an item used to enter ("" none)
	Check    *int   `yaml:"check"`    // a Racing Check's modifier to enter (nil: none)
	Skip     bool   `yaml:"skip"`     // a shortcut: the driver skips the next segment
	Momentum int    `yaml:"momentum"` // Momentum gained on the path
}

// Segment is one stretch of the course.
type Segment struct {
	Name       string  `yaml:"name"`
	Shape      Shape   `yaml:"shape"`
	ItemBoxes  int     `yaml:"item-boxes"`
	DashPanels bool    `yaml:"dash-panels"`
	Hazard     *Hazard `yaml:"hazard"`
	Paths      []Path  `yaml:"paths"`
}

// Course is a loaded, validated course.
type Course struct {
	ID       string    `yaml:"id"`
	Name     string    `yaml:"name"`
	Laps     int       `yaml:"laps"`
	Segments []Segment `yaml:"segments"`
	Events   []Event   `yaml:"events"`
}

// Event is one of a course's changing conditions, played in the Cleanup
// Phase after the item boxes: every Every racing turns, or when the host's d6
// shows Roll or more. Each driver who drove Segment this turn makes a Racing
// Check at Check and loses Lose Momentum on a failure.
type Event struct {
	Name    string `yaml:"name"`
	Segment string `yaml:"segment"` // a segment's name
	Every   int    `yaml:"every"`
	Roll    int    `yaml:"roll"`
	Check   int    `yaml:"check"`
	Lose    int    `yaml:"lose"`
}

// segmentIndex is the index of the segment named name, or -1.
func (c *Course) segmentIndex(name string) int {
	for i, s := range c.Segments {
		if strings.EqualFold(s.Name, name) {
			return i
		}
	}
	return -1
}

// shippedCourses are the files of courses/, read once: every race set up and
// every state decoded asks for its course, and a loaded course is never changed.
var shippedCourses = shipped.New(courseFiles, "courses", "*.yaml", "rtd", "course", ParseCourse, func(c *Course) string { return c.ID })

// Courses lists the shipped courses, by file name (the ID and ".yaml").
func Courses() ([]*Course, error) { return shippedCourses.All() }

// LoadCourse finds a shipped course by ID.
func LoadCourse(id string) (*Course, error) { return shippedCourses.Lookup(id) }

// ParseCourse reads and validates a course file. Errors name the file, the
// line and what would be right.
func ParseCourse(name string, src []byte) (*Course, error) {
	return yamlfile.DecodeChecked(name, src, (*Course).validate)
}

// bad is a value of the file that is wrong, at its YAML path.
var bad = yamlfile.Bad

// The items a path may ask for: the ones that carry a kart somewhere.
var pathItems = map[string]bool{"mushroom": true, "star": true, "boo": true}

func (c *Course) validate() error {
	switch {
	case c.ID == "":
		return bad("$", "the course needs an id")
	case c.Name == "":
		return bad("$", "the course needs a name")
	case c.Laps < 1 || c.Laps > 20:
		return bad("$.laps", "laps is 1 to 20; got %d", c.Laps)
	case len(c.Segments) < 2 || len(c.Segments) > 20:
		return bad("$.segments", "a course has 2 to 20 segments; got %d", len(c.Segments))
	}
	for i, s := range c.Segments {
		p := fmt.Sprintf("$.segments[%d]", i)
		if s.Name == "" {
			return bad(p, "segment %d needs a name", i+1)
		}
		switch s.Shape {
		case Straight, BroadStraight, Curve, BroadCurve:
		default:
			return bad(p+".shape", "segment %q: shape is straight, broad-straight, curve or broad-curve; got %q", s.Name, s.Shape)
		}
		if s.ItemBoxes < 0 || s.ItemBoxes > 24 {
			return bad(p+".item-boxes", "segment %q: item-boxes is 0 to 24; got %d", s.Name, s.ItemBoxes)
		}
		if h := s.Hazard; h != nil {
			if h.Name == "" {
				return bad(p+".hazard", "segment %q: a hazard needs a name", s.Name)
			}
			if h.Check < -6 || h.Check > 6 {
				return bad(p+".hazard.check", "segment %q: a hazard's check modifier is -6 to 6; got %d", s.Name, h.Check)
			}
			if h.Lose < 1 || h.Lose > 5 {
				return bad(p+".hazard.lose", "segment %q: a hazard costs 1 to 5 Momentum; got %d", s.Name, h.Lose)
			}
		}
		for j, a := range s.Paths {
			q := fmt.Sprintf("%s.paths[%d]", p, j)
			switch {
			case a.Name == "":
				return bad(q, "segment %q: path %d needs a name", s.Name, j+1)
			case a.Item == "" && a.Check == nil:
				return bad(q, "path %q: an alternate path is entered with an item, a check, or both; it gives neither", a.Name)
			case a.Item != "" && !pathItems[a.Item]:
				return bad(q+".item", "path %q: the item to enter is mushroom, star or boo; got %q", a.Name, a.Item)
			case a.Check != nil && (*a.Check < -6 || *a.Check > 6):
				return bad(q+".check", "path %q: the check modifier is -6 to 6; got %d", a.Name, *a.Check)
			case !a.Skip && a.Momentum == 0:
				return bad(q, "path %q does nothing: give it skip: true (a shortcut) or momentum", a.Name)
			case a.Momentum < 0 || a.Momentum > 3:
				return bad(q+".momentum", "path %q: momentum is 0 to 3; got %d", a.Name, a.Momentum)
			}
		}
	}
	for i, e := range c.Events {
		p := fmt.Sprintf("$.events[%d]", i)
		switch {
		case e.Name == "":
			return bad(p, "event %d needs a name", i+1)
		case c.segmentIndex(e.Segment) < 0:
			return bad(p+".segment", "event %q: no segment is named %q", e.Name, e.Segment)
		case (e.Every == 0) == (e.Roll == 0):
			return bad(p, "event %q: give it every: N (turns) or roll: N (a d6 of N or more), one of them", e.Name)
		case e.Every < 0 || e.Every > 20:
			return bad(p+".every", "event %q: every is 1 to 20 turns; got %d", e.Name, e.Every)
		case e.Roll != 0 && (e.Roll < 2 || e.Roll > 6):
			return bad(p+".roll", "event %q: roll is 2 to 6; got %d", e.Name, e.Roll)
		case e.Check < -6 || e.Check > 6:
			return bad(p+".check", "event %q: the check modifier is -6 to 6; got %d", e.Name, e.Check)
		case e.Lose < 1 || e.Lose > 5:
			return bad(p+".lose", "event %q: an event costs 1 to 5 Momentum; got %d", e.Name, e.Lose)
		}
	}
	return nil
}
