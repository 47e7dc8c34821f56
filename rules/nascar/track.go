package nascar

import (
	"embed"
	"fmt"
	"strconv"
	"strings"

	"pitwall/internal/shipped"
)

// A track is a text grid, as on the forum: one character a square. A header of
// 'key: value' lines comes first, then a line of three dashes, then the map.
//
//	name: Pit Row Oval
//	laps: 3
//	heading: E        the way the cars face on the grid
//	---
//	xxxxxxxxxx
//	x..1.2.F.x
//
// Squares: '.' track, 'x' off the track, 'F' the start/finish line, 'p' pit
// lane, '#' a pit marker (the speed limit holds between and on them), 'P' the
// PP mark (repairs), 's' an oil slick, 'o' a hidden sandbag, and '1'-'9' then
// 'a'-'n' the grid slots in starting order (track squares; 23 at most). x grows to the
// East (right), y to the North (up the page), as in order check.

//go:embed tracks/*.txt
var trackFiles embed.FS

// Square is one square's kind.
type Square byte

// The kinds of square.
const (
	Off     Square = 'x'
	Road    Square = '.'
	Finish  Square = 'F'
	Pit     Square = 'p'
	Marker  Square = '#'
	PPMark  Square = 'P'
	Oil     Square = 's'
	Sandbag Square = 'o'
)

// OnTrack says whether a car may be on the square without leaving the track.
func (q Square) OnTrack() bool { return q != Off }

// InPit says whether the square is part of the pit area.
func (q Square) InPit() bool { return q == Pit || q == Marker || q == PPMark }

// Track is a loaded, validated track.
type Track struct {
	ID      string
	Name    string
	Laps    int
	Heading Heading // the cars' heading on the grid
	W, H    int
	squares []Square // row by row from the North (top) row
	Grid    []Point  // starting squares, pole first
	Oil     []Point  // oil slicks on the map
	Sandbag []Point  // sandbags: hidden from racers until hit

	lap lapIndex
	// drive is what the bot has worked out about driving this track: it
	// depends on the track alone, so every race on it shares its tables.
	drive *drivePool
}

// Point is a square: x to the East, y to the North.
type Point struct{ X, Y int }

func (p Point) String() string { return fmt.Sprintf("(%d,%d)", p.X, p.Y) }

// At is the square at p; Off outside the map.
func (t *Track) At(p Point) Square {
	if p.X < 0 || p.Y < 0 || p.X >= t.W || p.Y >= t.H {
		return Off
	}
	return t.squares[(t.H-1-p.Y)*t.W+p.X]
}

// shippedTracks are the files of tracks/, read once: every state decoded and
// every race set up asks for its track, and a loaded track is never changed
// (races copy what they change, such as the oil).
var shippedTracks = shipped.New(trackFiles, "tracks", "*.txt", "nascar", "track", ParseTrack, func(t *Track) string { return t.ID })

// Tracks lists the shipped tracks, by ID (a track's ID is its file's name).
func Tracks() ([]*Track, error) { return shippedTracks.All() }

// LoadTrack finds a shipped track by ID.
func LoadTrack(id string) (*Track, error) { return shippedTracks.Lookup(id) }

// ParseTrack reads a track file named name (its ID is the name without
// '.txt'). Errors name the file, the line, the column where it helps, and
// what would be right.
func ParseTrack(name string, src []byte) (*Track, error) {
	t := &Track{ID: strings.TrimSuffix(name, ".txt"), Heading: E, drive: &drivePool{}}
	lines := strings.Split(strings.ReplaceAll(string(src), "\r\n", "\n"), "\n")
	bad := func(line, col int, format string, a ...any) error {
		if col > 0 {
			return fmt.Errorf("%s:%d:%d: %s", name, line, col, fmt.Sprintf(format, a...))
		}
		return fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, a...))
	}
	// The header.
	i := 0
	seen := map[string]bool{}
	for ; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "---" {
			break
		}
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		k, v, ok := strings.Cut(l, ":")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if c := strings.Index(v, " #"); c >= 0 { // a comment after the value
			v = strings.TrimSpace(v[:c])
		}
		if !ok {
			return nil, bad(i+1, 0, "a header line is 'key: value' (name, laps, heading), and a line '---' comes before the map; got %q", l)
		}
		if seen[k] {
			return nil, bad(i+1, 0, "%s is given twice", k)
		}
		seen[k] = true
		switch k {
		case "name":
			t.Name = v
		case "laps":
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 || n > 20 {
				return nil, bad(i+1, 0, "laps is 1 to 20; got %q", v)
			}
			t.Laps = n
		case "heading":
			h, err := ParseHeading(v)
			if err != nil {
				return nil, bad(i+1, 0, "%v", err)
			}
			t.Heading = h
		default:
			return nil, bad(i+1, 0, "unknown header key %q; keys: name, laps, heading", k)
		}
	}
	if i == len(lines) {
		return nil, bad(len(lines), 0, "no map: the header ends with a line '---' and the map follows")
	}
	if t.Name == "" {
		return nil, bad(1, 0, "the header needs a name")
	}
	if t.Laps == 0 {
		t.Laps = 3
	}
	// The map: drop blank lines at the end, pad short rows with off-track.
	first := i + 1
	rows := lines[first:]
	for len(rows) > 0 && strings.TrimSpace(rows[len(rows)-1]) == "" {
		rows = rows[:len(rows)-1]
	}
	if len(rows) < 3 {
		return nil, bad(first, 0, "the map needs at least 3 rows; it has %d", len(rows))
	}
	for _, r := range rows {
		t.W = max(t.W, len(strings.TrimRight(r, " ")))
	}
	t.H = len(rows)
	if t.W < 3 || t.W > 400 || t.H > 400 {
		return nil, bad(first, 0, "a map is 3 to 400 squares each way; this one is %d by %d", t.W, t.H)
	}
	t.squares = make([]Square, t.W*t.H)
	slots := map[int]Point{}
	slotAt := map[int][2]int{}
	for r, row := range rows {
		row = strings.TrimRight(row, " ")
		for c := 0; c < t.W; c++ {
			ch := byte('x')
			if c < len(row) {
				ch = row[c]
			}
			p := Point{X: c, Y: t.H - 1 - r}
			q := Square(ch)
			switch {
			case strings.IndexByte("x.Fp#Pso", ch) >= 0:
			case ch >= '1' && ch <= '9', ch >= 'a' && ch <= 'n':
				n := slotNumber(ch)
				if _, dup := slots[n]; dup {
					return nil, bad(first+r+1, c+1, "grid slot %c appears twice (first at line %d, column %d)", ch, slotAt[n][0], slotAt[n][1])
				}
				slots[n], slotAt[n] = p, [2]int{first + r + 1, c + 1}
				q = Road
			default:
				return nil, bad(first+r+1, c+1, "%q is not a square; squares: '.' track, 'x' off, 'F' finish line, 'p' pit lane, '#' pit marker, 'P' PP mark, 's' oil, 'o' sandbag, 1-9 and a-n grid slots", ch)
			}
			t.squares[r*t.W+c] = q
			switch q {
			case Oil:
				t.Oil = append(t.Oil, p)
			case Sandbag:
				t.Sandbag = append(t.Sandbag, p)
			}
		}
	}
	// Grid slots numbered from 1 with no gap.
	if len(slots) < 2 {
		return nil, bad(first, 0, "the map needs at least 2 grid slots (1, 2, ...); it has %d", len(slots))
	}
	for n := 1; n <= len(slots); n++ {
		p, ok := slots[n]
		if !ok {
			return nil, bad(first, 0, "grid slot %c is missing: slots are numbered 1-9, then a-n, with no gap", slotChar(n))
		}
		t.Grid = append(t.Grid, p)
	}
	// A finish line, pit markers in a pair, and one track.
	count := map[Square]int{}
	for _, q := range t.squares {
		count[q]++
	}
	if count[Finish] == 0 {
		return nil, bad(first, 0, "the map has no finish line: mark it with F")
	}
	if pit := count[Pit] + count[Marker] + count[PPMark]; pit > 0 {
		if count[Marker] < 2 {
			return nil, bad(first, 0, "a pit lane needs its ## markers: at least two '#' squares, at the entry and the exit; found %d", count[Marker])
		}
		if count[PPMark] == 0 {
			return nil, bad(first, 0, "a pit lane needs a PP mark ('P') where repairs are made")
		}
	}
	if p, ok := t.island(); ok {
		return nil, bad(first+t.H-p.Y, p.X+1, "this square is cut off from the rest of the track: every track square must join up")
	}
	if err := t.index(); err != nil {
		return nil, bad(first, 0, "%v", err)
	}
	return t, nil
}

// island finds a track square not joined (through the eight neighbours) to
// the first grid slot, if there is one.
func (t *Track) island() (Point, bool) {
	seen := make([]bool, len(t.squares))
	idx := func(p Point) int { return (t.H-1-p.Y)*t.W + p.X }
	stack := []Point{t.Grid[0]}
	seen[idx(t.Grid[0])] = true
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				q := Point{p.X + dx, p.Y + dy}
				if t.At(q).OnTrack() && !seen[idx(q)] {
					seen[idx(q)] = true
					stack = append(stack, q)
				}
			}
		}
	}
	for y := t.H - 1; y >= 0; y-- {
		for x := 0; x < t.W; x++ {
			p := Point{x, y}
			if t.At(p).OnTrack() && !seen[idx(p)] {
				return p, true
			}
		}
	}
	return Point{}, false
}

func slotNumber(ch byte) int {
	if ch <= '9' {
		return int(ch - '0')
	}
	return 10 + int(ch-'a')
}

func slotChar(n int) byte {
	if n <= 9 {
		return byte('0' + n)
	}
	return byte('a' + n - 10)
}
