package gaslands

import (
	"embed"
	"fmt"
	"math"
	"sort"
	"strings"

	"pitwall/internal/shipped"
	"pitwall/internal/yamlfile"
)

// A track is data (tracks/*.yaml, format in docs/tracks.md): a table, a road
// given as a centreline and a width, checkpoints, boosts, obstructions and
// item boxes. Everything off the road is off-road.

// Obstruction kinds (the text): immovable ones stop a kart, destructible
// ones vanish when hit and the kart goes on.
const (
	Immovable    = "immovable"
	Destructible = "destructible"
)

// Obstruction is a block on the table.
type Obstruction struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	Rect Rect   `json:"rect"`
}

// Boost is a boost strip: a rectangle whose heading is the way it carries a kart.
type Boost struct{ Rect Rect }

// Gate is a line across the road at lap distance S; gate 0 is the start line.
type Gate struct {
	S    float64
	A, B Vec
}

// Track is a loaded track.
type Track struct {
	ID, Name, Description string
	Laps, Seats           int
	W, H                  float64 // the table, mm
	Width                 float64 // the road's width
	Line                  []Vec   // the smoothed centreline, closed, racing order
	cum                   []float64
	Length                float64 // one lap along the centreline
	Gates                 []Gate
	Boosts                []Boost
	Obstructions          []Obstruction
	ItemBoxes             []Vec
	GridSlots             []Rect // the file's own grid, pole first; none: made from the road
	segs                  []seg
}

// ItemBoxRadius is an item box's size on the table.
const ItemBoxRadius = 12.0

type trackFile struct {
	ID    string     `yaml:"id"`
	Name  string     `yaml:"name"`
	Laps  int        `yaml:"laps"`
	Seats int        `yaml:"seats"`
	Table [2]float64 `yaml:"table"`
	Road  struct {
		Width      float64      `yaml:"width"`
		Smooth     int          `yaml:"smooth"`
		Centreline [][2]float64 `yaml:"centreline"`
	} `yaml:"road"`
	Gates  []float64 `yaml:"gates"`
	Boosts []struct {
		At      [2]float64 `yaml:"at"`
		Heading float64    `yaml:"heading"`
		Length  float64    `yaml:"length"`
		Width   float64    `yaml:"width"`
	} `yaml:"boosts"`
	Obstructions []struct {
		Name    string     `yaml:"name"`
		Kind    string     `yaml:"kind"`
		At      [2]float64 `yaml:"at"`
		Size    [2]float64 `yaml:"size"`
		Heading float64    `yaml:"heading"`
	} `yaml:"obstructions"`
	ItemBoxes [][2]float64 `yaml:"item-boxes"`
	// Grid is the starting slots, pole first, as [x, y, heading]; when the
	// file gives none, the grid is made from the road behind the start line.
	Grid [][3]float64 `yaml:"grid"`
}

//go:embed tracks/*.yaml
var trackFiles embed.FS

// shippedTracks are the files of tracks/, read once: every race set up and
// every state decoded asks for its track, and a loaded track is never changed.
var shippedTracks = shipped.New(trackFiles, "tracks", "*.yaml", "gaslands", "track", ParseTrack, func(t *Track) string { return t.ID })

// ShippedTracks lists the shipped tracks, by file name (the ID and ".yaml").
func ShippedTracks() ([]*Track, error) { return shippedTracks.All() }

// LoadTrack finds a shipped track by id.
func LoadTrack(id string) (*Track, error) { return shippedTracks.Lookup(id) }

func finite(vs ...float64) bool {
	for _, v := range vs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// ParseTrack reads and checks a track file.
func ParseTrack(name string, src []byte) (*Track, error) {
	var f trackFile
	if err := yamlfile.Decode(name, src, &f); err != nil {
		return nil, err
	}
	fail := func(format string, a ...any) error { return fmt.Errorf("%s: %s", name, fmt.Sprintf(format, a...)) }
	t := &Track{ID: f.ID, Name: f.Name, Laps: f.Laps, Seats: f.Seats, W: f.Table[0], H: f.Table[1], Width: f.Road.Width}
	switch {
	case f.ID == "" || strings.ContainsAny(f.ID, " /\\"):
		return nil, fail("id is one word, like luigi-raceway; got %q", f.ID)
	case f.Name == "":
		return nil, fail("the track has no name")
	case f.Laps < 1 || f.Laps > 20:
		return nil, fail("laps is 1 to 20; got %d", f.Laps)
	case f.Seats < 2 || f.Seats > 12:
		return nil, fail("seats is 2 to 12; got %d", f.Seats)
	case !finite(t.W, t.H) || t.W < 300 || t.H < 300 || t.W > 5000 || t.H > 5000:
		return nil, fail("table is [width, depth] in mm, 300 to 5000 each; got %v", f.Table)
	case !finite(t.Width) || t.Width < 80 || t.Width > 1000:
		return nil, fail("road width is 80 to 1000 mm (a kart is %v mm wide); got %v", KartWidth, t.Width)
	case len(f.Road.Centreline) < 3 || len(f.Road.Centreline) > 500:
		return nil, fail("the road's centreline needs 3 to 500 points; got %d", len(f.Road.Centreline))
	case f.Road.Smooth < 0 || f.Road.Smooth > 6:
		return nil, fail("smooth is 0 to 6 corner cuts; got %d", f.Road.Smooth)
	}
	pts := make([]Vec, len(f.Road.Centreline))
	for i, p := range f.Road.Centreline {
		if !finite(p[0], p[1]) || p[0] < 0 || p[1] < 0 || p[0] > t.W || p[1] > t.H {
			return nil, fail("centreline point %d %v is off the table (0..%v, 0..%v)", i+1, p, t.W, t.H)
		}
		if i > 0 && pts[i-1].Near(Vec{p[0], p[1]}, 1) {
			return nil, fail("centreline points %d and %d are the same point", i, i+1)
		}
		pts[i] = Vec{p[0], p[1]}
	}
	start := pts[0]
	for i := 0; i < f.Road.Smooth; i++ {
		pts = chaikin(pts)
	}
	t.Line = pts
	t.cum = make([]float64, len(pts)+1)
	for i := range pts {
		t.cum[i+1] = t.cum[i] + pts[(i+1)%len(pts)].Sub(pts[i]).Len()
	}
	t.Length = t.cum[len(pts)]
	t.index()
	// The lap starts where the first control point falls on the smoothed line.
	s0, _, _ := t.project(start)
	t.cum = rebase(t, s0)
	t.index()
	gates := append([]float64{0}, f.Gates...)
	for i, g := range gates {
		if !finite(g) || g < 0 || g >= 1 || (i > 0 && g <= gates[i-1]) {
			return nil, fail("gates are fractions of the lap between 0 and 1, increasing; got %v", f.Gates)
		}
		p, h := t.At(g * t.Length)
		n := heading(h + math.Pi/2).Scale(float64(t.Width/2) + 20)
		t.Gates = append(t.Gates, Gate{S: g * t.Length, A: p.Add(n), B: p.Sub(n)})
	}
	for i, b := range f.Boosts {
		r := Rect{Centre: Vec{b.At[0], b.At[1]}, Heading: b.Heading * math.Pi / 180, Length: b.Length, Width: b.Width}
		if !finite(r.Centre.X, r.Centre.Y, r.Heading, r.Length, r.Width) || r.Length < 20 || r.Width < 20 || r.Length > 1000 || r.Width > 1000 {
			return nil, fail("boost %d: length and width are 20 to 1000 mm", i+1)
		}
		if !t.Inside(r) {
			return nil, fail("boost %d at %v is not wholly on the table", i+1, b.At)
		}
		t.Boosts = append(t.Boosts, Boost{Rect: r})
	}
	for i, o := range f.Obstructions {
		r := Rect{Centre: Vec{o.At[0], o.At[1]}, Heading: o.Heading * math.Pi / 180, Length: o.Size[0], Width: o.Size[1]}
		switch {
		case o.Kind != Immovable && o.Kind != Destructible:
			return nil, fail("obstruction %d: kind is immovable or destructible; got %q", i+1, o.Kind)
		case strings.TrimSpace(o.Name) == "":
			return nil, fail("obstruction %d has no name", i+1)
		case !finite(r.Centre.X, r.Centre.Y, r.Heading, r.Length, r.Width) || r.Length < 5 || r.Width < 5 || r.Length > 500 || r.Width > 500:
			return nil, fail("obstruction %d (%s): size is [length, width], 5 to 500 mm each", i+1, o.Name)
		case !t.Inside(r):
			return nil, fail("obstruction %d (%s) at %v is not wholly on the table", i+1, o.Name, o.At)
		}
		t.Obstructions = append(t.Obstructions, Obstruction{Name: o.Name, Kind: o.Kind, Rect: r})
	}
	for i, b := range f.ItemBoxes {
		p := Vec{b[0], b[1]}
		if !finite(p.X, p.Y) || p.X < 0 || p.Y < 0 || p.X > t.W || p.Y > t.H {
			return nil, fail("item box %d %v is off the table", i+1, b)
		}
		t.ItemBoxes = append(t.ItemBoxes, p)
	}
	if len(f.Grid) > 0 && len(f.Grid) < t.Seats {
		return nil, fail("the grid has %d slots for %d seats; give one slot a seat, or none to have it made from the road", len(f.Grid), t.Seats)
	}
	for i, g := range f.Grid {
		if !finite(g[0], g[1], g[2]) {
			return nil, fail("grid slot %d is not a position", i+1)
		}
		t.GridSlots = append(t.GridSlots, Rect{Centre: Vec{g[0], g[1]}, Heading: g[2] * math.Pi / 180, Length: KartLength, Width: KartWidth})
	}
	// The grid must fit on the road, clear of obstructions and of itself.
	slots := t.Grid(t.Seats)
	for i, r := range slots {
		if !t.RectOnRoad(r) || !t.Inside(r) {
			if len(t.GridSlots) > 0 {
				return nil, fail("grid slot %d is not wholly on the road", i+1)
			}
			return nil, fail("grid slot %d falls off the road: the road behind the start line is too short or bends too soon for %d seats", i+1, t.Seats)
		}
		for _, o := range t.Obstructions {
			if o.Rect.Overlaps(r) {
				return nil, fail("grid slot %d overlaps the %s", i+1, o.Name)
			}
		}
		for j := range slots[:i] {
			if slots[j].Overlaps(r) {
				return nil, fail("grid slots %d and %d overlap", j+1, i+1)
			}
		}
	}
	return t, nil
}

// chaikin cuts every corner of a closed polyline once.
func chaikin(ps []Vec) []Vec {
	out := make([]Vec, 0, 2*len(ps))
	for i, p := range ps {
		q := ps[(i+1)%len(ps)]
		out = append(out, p.Scale(0.75).Add(q.Scale(0.25)), p.Scale(0.25).Add(q.Scale(0.75)))
	}
	return out
}

// rebase shifts the distances so that the lap starts at s0: the line is
// rotated to begin at the point nearest s0.
func rebase(t *Track, s0 float64) []float64 {
	// Split the segment at s0 so the line starts exactly on the start point.
	i := sort.SearchFloat64s(t.cum, s0) - 1
	if i < 0 {
		i = 0
	}
	if i >= len(t.Line) {
		i = len(t.Line) - 1
	}
	a, b := t.Line[i], t.Line[(i+1)%len(t.Line)]
	seg := t.cum[i+1] - t.cum[i]
	p := a
	if seg > 0 {
		p = a.Add(b.Sub(a).Scale((s0 - t.cum[i]) / seg))
	}
	line := []Vec{p}
	for k := 1; k <= len(t.Line); k++ {
		q := t.Line[(i+k)%len(t.Line)]
		if !q.Near(line[len(line)-1], 1e-6) {
			line = append(line, q)
		}
	}
	if line[len(line)-1].Near(p, 1e-6) {
		line = line[:len(line)-1]
	}
	t.Line = line
	cum := make([]float64, len(line)+1)
	for k := range line {
		cum[k+1] = cum[k] + line[(k+1)%len(line)].Sub(line[k]).Len()
	}
	t.Length = cum[len(line)]
	return cum
}

// seg is one stretch of the centreline, kept ready for projections.
type seg struct {
	a, ab   Vec
	l2, cum float64
	h       float64
}

func (t *Track) segments() []seg { return t.segs }

// index readies the segments; the loader calls it whenever the line changes,
// so a loaded track is never written again (races share it).
func (t *Track) index() {
	t.segs = make([]seg, len(t.Line))
	for i, a := range t.Line {
		ab := t.Line[(i+1)%len(t.Line)].Sub(a)
		t.segs[i] = seg{a: a, ab: ab, l2: ab.Dot(ab), cum: t.cum[i], h: detAtan2(ab.Y, ab.X)}
	}
}

// nearest is the fraction along segment g of its point nearest p, and the
// squared distance to it.
func (g seg) nearest(p Vec) (u, d2 float64) {
	if g.l2 > 0 {
		u = p.Sub(g.a).Dot(g.ab) / g.l2
		u = math.Max(0, math.Min(1, u))
	}
	q := g.a.Add(g.ab.Scale(u))
	dx, dy := p.X-q.X, p.Y-q.Y
	return u, float64(dx*dx) + float64(dy*dy)
}

// project is the lap distance of the centreline's point nearest p, the
// distance to it, and the road's heading there.
func (t *Track) project(p Vec) (s, d, h float64) {
	best := math.Inf(1)
	for _, g := range t.segments() {
		if u, d2 := g.nearest(p); d2 < best {
			best, s, h = d2, g.cum+float64(u*math.Sqrt(g.l2)), g.h
		}
	}
	return s, math.Sqrt(best), h
}

// ProgressNear is how far round the lap p lies, looking only at the road
// within window mm of lap distance near: a point in the infield projects on
// the stretch it came from, not across the grass to another.
func (t *Track) ProgressNear(p Vec, near, window float64) float64 {
	best, s := math.Inf(1), near
	for i, a := range t.Line {
		mid := float64((t.cum[i] + t.cum[i+1]) / 2)
		if math.Abs(math.Remainder(mid-near, t.Length)) > window {
			continue
		}
		b := t.Line[(i+1)%len(t.Line)]
		ab := b.Sub(a)
		l2 := ab.Dot(ab)
		u := 0.0
		if l2 > 0 {
			u = math.Max(0, math.Min(1, p.Sub(a).Dot(ab)/l2))
		}
		if d := p.Sub(a.Add(ab.Scale(u))).Len(); d < best {
			best, s = d, t.cum[i]+float64(u*math.Sqrt(l2))
		}
	}
	return s
}

// Progress is how far round the lap p lies, 0 at the start line.
func (t *Track) Progress(p Vec) float64 { s, _, _ := t.project(p); return s }

// Heading is the road's direction at the point nearest p.
func (t *Track) Heading(p Vec) float64 { _, _, h := t.project(p); return h }

// At is the centreline's point and heading at lap distance s.
func (t *Track) At(s float64) (Vec, float64) {
	s = math.Mod(s, t.Length)
	if s < 0 {
		s += t.Length
	}
	i := sort.SearchFloat64s(t.cum, s) - 1
	i = max(0, min(i, len(t.Line)-1))
	a, b := t.Line[i], t.Line[(i+1)%len(t.Line)]
	ab := b.Sub(a)
	u := 0.0
	if l := t.cum[i+1] - t.cum[i]; l > 0 {
		u = (s - t.cum[i]) / l
	}
	return a.Add(ab.Scale(u)), detAtan2(ab.Y, ab.X)
}

// OnRoad says whether the point p is on the road: within half the road's
// width of some stretch of the centreline.
func (t *Track) OnRoad(p Vec) bool {
	r2 := t.Width * t.Width / 4
	for _, g := range t.segments() {
		if _, d2 := g.nearest(p); d2 <= r2 {
			return true
		}
	}
	return false
}

// onRoadAll checks points along the closed outline pts, at most step mm apart.
func (t *Track) onRoadAll(pts []Vec) bool {
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		n := int(math.Ceil(b.Sub(a).Len() / 8))
		for k := 0; k <= n; k++ {
			if !t.OnRoad(a.Add(b.Sub(a).Scale(float64(k) / float64(max(n, 1))))) {
				return false
			}
		}
	}
	return true
}

// RectOnRoad says whether the whole rectangle is on the road.
func (t *Track) RectOnRoad(r Rect) bool { c := r.Corners(); return t.onRoadAll(c[:]) }

// RectOffRoad says whether any part of the rectangle is off the road.
func (t *Track) RectOffRoad(r Rect) bool { return !t.RectOnRoad(r) }

// Inside says whether the rectangle is wholly on the table.
func (t *Track) Inside(r Rect) bool {
	for _, c := range r.Corners() {
		if c.X < -1e-9 || c.Y < -1e-9 || c.X > t.W+1e-9 || c.Y > t.H+1e-9 {
			return false
		}
	}
	return true
}

// Grid is the starting slots, pole first: the file's own, or two abreast
// behind the start line, the outer file a half row back, every kart facing
// down the road.
func (t *Track) Grid(n int) []Rect {
	if len(t.GridSlots) >= n {
		return append([]Rect(nil), t.GridSlots[:n]...)
	}
	var out []Rect
	for i := 0; i < n; i++ {
		row, col := i/2, i%2
		back := KartLength/2 + 15 + float64(float64(row)*(KartLength+30)) + float64(float64(col)*(KartLength/2+15))
		p, h := t.At(-back)
		side := t.Width / 4
		if col == 1 {
			side = -side
		}
		out = append(out, Rect{Centre: p.Add(heading(h + math.Pi/2).Scale(side)), Heading: h, Length: KartLength, Width: KartWidth})
	}
	return out
}

// KartLength and KartWidth are every kart's footprint (pitwall's default: a
// kart model on a 60 by 30 mm base).
const (
	KartLength = 60.0
	KartWidth  = 30.0
)
