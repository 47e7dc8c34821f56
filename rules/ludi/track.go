package ludi

import (
	"embed"
	"errors"
	"fmt"
	"sync"

	"pitwall/internal/shipped"
	"pitwall/internal/yamlfile"
)

// A track is a ring of lanes divided into segments. Every lane has the same
// number of spaces on a straight; in a corner zone each lane has its own count
// (an outer lane is longer). Lane 1 is the inside, on the racers' left.
//
// A space is named by its lane, its segment and its index in that segment.
// Going forward in a lane visits the segment's spaces in order, then the next
// segment's; past the last segment the lane wraps to segment 0 and the chariot
// crosses the line.

//go:embed tracks/*.yaml
var trackFiles embed.FS

// Track is a loaded, validated track.
type Track struct {
	ID       string    `yaml:"id"`
	Name     string    `yaml:"name"`
	Laps     int       `yaml:"laps"`
	Lanes    int       `yaml:"lanes"`
	Segments []Segment `yaml:"segments"`
	Grid     []Slot    `yaml:"grid"`

	geoOnce sync.Once // the picture's geometry, worked out once per track
	geo     *geometry

	start [][]int // start[lane][seg]: spaces from the line to the segment's first space
	lap   []int   // lap[lane]: spaces in one lap
}

// Segment is a straight (one count for every lane) or a corner zone (a count per lane).
type Segment struct {
	Name   string `yaml:"name"`
	Corner bool   `yaml:"corner"`
	Spaces Counts `yaml:"spaces"`
}

// Counts is one number for every lane, or a list with one number per lane.
type Counts []int

// UnmarshalYAML takes a number or a list of numbers.
func (c *Counts) UnmarshalYAML(unmarshal func(any) error) error {
	var n int
	if err := unmarshal(&n); err == nil {
		*c = Counts{n}
		return nil
	}
	var l []int
	if err := unmarshal(&l); err != nil {
		return errors.New("spaces is a number, or a list with one number per lane")
	}
	*c = l
	return nil
}

// Slot is a starting place: a lane and a space of segment 0.
type Slot struct {
	Lane  int `yaml:"lane"`
	Space int `yaml:"space"`
}

// Pos is a space on the track.
type Pos struct {
	Lane int `json:"lane"`
	Seg  int `json:"seg"`
	Cell int `json:"cell"`
}

func (p Pos) String() string { return fmt.Sprintf("lane %d, %d:%d", p.Lane, p.Seg, p.Cell) }

// Spaces is the number of spaces of lane in segment seg.
func (t *Track) Spaces(seg, lane int) int {
	s := t.Segments[seg].Spaces
	if len(s) == 1 {
		return s[0]
	}
	return s[lane-1]
}

// has says whether p is a space of the track.
func (t *Track) has(p Pos) bool {
	return p.Lane >= 1 && p.Lane <= t.Lanes && p.Seg >= 0 && p.Seg < len(t.Segments) && p.Cell >= 0 && p.Cell < t.Spaces(p.Seg, p.Lane)
}

// Next is the space ahead of p in its lane, and whether moving there crosses the line.
func (t *Track) Next(p Pos) (Pos, bool) {
	p.Cell++
	if p.Cell < t.Spaces(p.Seg, p.Lane) {
		return p, false
	}
	p.Cell = 0
	p.Seg++
	if p.Seg == len(t.Segments) {
		p.Seg = 0
		return p, true
	}
	return p, false
}

// Frac is how far along its segment the middle of p lies, in (0, 1).
func (t *Track) Frac(p Pos) float64 {
	return (float64(p.Cell) + 0.5) / float64(t.Spaces(p.Seg, p.Lane))
}

// Progress is how far round the lap p lies, in segments: comparable across lanes.
func (t *Track) Progress(p Pos) float64 { return float64(p.Seg) + t.Frac(p) }

// Beside is the space in lane p.Lane+dl (dl = -1 left, +1 right) level with p:
// the one whose stretch of the segment holds p's middle. ok is false past the walls.
func (t *Track) Beside(p Pos, dl int) (Pos, bool) {
	l := p.Lane + dl
	if l < 1 || l > t.Lanes {
		return p, false
	}
	f := t.Frac(p)
	n := t.Spaces(p.Seg, l)
	c := int(f * float64(n))
	if c >= n {
		c = n - 1
	}
	return Pos{Lane: l, Seg: p.Seg, Cell: c}, true
}

// Overlaps says whether two spaces in neighbouring lanes lie side by side:
// their stretches of the same segment overlap.
func (t *Track) Overlaps(a, b Pos) bool {
	if a.Seg != b.Seg {
		return false
	}
	na, nb := float64(t.Spaces(a.Seg, a.Lane)), float64(t.Spaces(b.Seg, b.Lane))
	a0, a1 := float64(a.Cell)/na, float64(a.Cell+1)/na
	b0, b1 := float64(b.Cell)/nb, float64(b.Cell+1)/nb
	return a0 < b1-1e-9 && b0 < a1-1e-9
}

// LapLength is the number of spaces in one lap of lane.
func (t *Track) LapLength(lane int) int { return t.lap[lane] }

// Offset counts the spaces from the line to p, along p's lane.
func (t *Track) Offset(p Pos) int { return t.start[p.Lane][p.Seg] + p.Cell }

// index works out where each segment starts in each lane, once, when the track loads.
func (t *Track) index() {
	t.start = make([][]int, t.Lanes+1)
	t.lap = make([]int, t.Lanes+1)
	for l := 1; l <= t.Lanes; l++ {
		t.start[l] = make([]int, len(t.Segments))
		n := 0
		for s := range t.Segments {
			t.start[l][s] = n
			n += t.Spaces(s, l)
		}
		t.lap[l] = n
	}
}

// shippedTracks are the files of tracks/, read once: every race set up and every
// state decoded asks for its track, and a loaded track is never changed.
var shippedTracks = shipped.New(trackFiles, "tracks", "*.yaml", "ludi", "track", ParseTrack, func(t *Track) string { return t.ID })

// Tracks lists the shipped tracks, by file name (the ID and ".yaml").
func Tracks() ([]*Track, error) { return shippedTracks.All() }

// LoadTrack finds a shipped track by ID.
func LoadTrack(id string) (*Track, error) { return shippedTracks.Lookup(id) }

// ParseTrack reads a track file and validates it. Errors name the file, the
// line and what would be right.
func ParseTrack(name string, src []byte) (*Track, error) {
	t, err := yamlfile.DecodeChecked(name, src, (*Track).validate)
	if err != nil {
		return nil, err
	}
	t.index()
	return t, nil
}

// bad is a value of the file that is wrong, at its YAML path.
var bad = yamlfile.Bad

// The limits keep a track drawable and its corners within the slip table (3 to 7 spaces).
const (
	maxLanes    = 8
	maxStraight = 200
)

func (t *Track) validate() error {
	switch {
	case t.ID == "":
		return bad("$", "the track needs an id")
	case t.Name == "":
		return bad("$", "the track needs a name")
	case t.Laps < 1 || t.Laps > 20:
		return bad("$.laps", "laps is 1 to 20; got %d", t.Laps)
	case t.Lanes < 2 || t.Lanes > maxLanes:
		return bad("$.lanes", "lanes is 2 to %d; got %d", maxLanes, t.Lanes)
	case len(t.Segments) < 2:
		return bad("$.segments", "a track needs at least 2 segments (a straight and a corner); got %d", len(t.Segments))
	}
	corners := 0
	for i, s := range t.Segments {
		p := fmt.Sprintf("$.segments[%d]", i)
		if s.Name == "" {
			return bad(p, "segment %d needs a name", i+1)
		}
		if s.Corner {
			corners++
			if len(s.Spaces) != t.Lanes {
				return bad(p+".spaces", "corner %q needs one count of spaces per lane (%d); got %d", s.Name, t.Lanes, len(s.Spaces))
			}
			for l, n := range s.Spaces {
				if n < 3 || n > 7 {
					return bad(p+".spaces", "corner %q, lane %d: a corner lane has 3 to 7 spaces (the slip table's range); got %d", s.Name, l+1, n)
				}
				if l > 0 && n < s.Spaces[l-1] {
					return bad(p+".spaces", "corner %q: lane %d has fewer spaces (%d) than lane %d inside it (%d)", s.Name, l+1, n, l, s.Spaces[l-1])
				}
			}
			continue
		}
		if len(s.Spaces) != 1 {
			return bad(p+".spaces", "straight %q has one count of spaces for every lane; got a list", s.Name)
		}
		if n := s.Spaces[0]; n < 3 || n > maxStraight {
			return bad(p+".spaces", "straight %q has 3 to %d spaces; got %d", s.Name, maxStraight, n)
		}
	}
	if corners == 0 {
		return bad("$.segments", "a track needs at least one corner zone")
	}
	if t.Segments[0].Corner {
		return bad("$.segments[0]", "the first segment holds the line and the grid: it must be a straight")
	}
	if len(t.Grid) < 2 {
		return bad("$.grid", "the grid needs at least 2 slots; got %d", len(t.Grid))
	}
	seen := map[Slot]int{}
	for i, g := range t.Grid {
		p := fmt.Sprintf("$.grid[%d]", i)
		if g.Lane < 1 || g.Lane > t.Lanes {
			return bad(p+".lane", "grid slot %d: lane is 1 to %d; got %d", i+1, t.Lanes, g.Lane)
		}
		if n := t.Segments[0].Spaces[0]; g.Space < 0 || g.Space >= n {
			return bad(p+".space", "grid slot %d: space is 0 to %d on %q; got %d", i+1, n-1, t.Segments[0].Name, g.Space)
		}
		if j, dup := seen[g]; dup {
			return bad(p, "grid slot %d is the same space as slot %d", i+1, j+1)
		}
		seen[g] = i
	}
	return nil
}
