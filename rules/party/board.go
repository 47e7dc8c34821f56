package party

import (
	"embed"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"pitwall/dice"
	"pitwall/internal/shipped"
	"pitwall/internal/yamlfile"
)

// A board is a YAML file: the starting space, the spaces with their
// successors, and optionally the players' Movement Roll Dice List:
//
//	name: Toad Town Loop         # optional, for posts
//	start: s0                    # the starting space
//	mrdl: [d10]                  # optional: dice "dN" and integers; default [d10]
//	spaces:
//	  - id: s0
//	    type: start              # blank (default), start, blue, red, star, happening, chance
//	    next: [s1]               # none = the starting space; two or more = a fork
//	    at: [0, 0]               # optional: column and row for the picture
//	  - id: s1
//	    decrementing: false      # default true; a star space is never decrementing
//
// The contract's board (start, spaces, id, next, decrementing) is a board.

//go:embed boards/*.yaml
var boardFiles embed.FS

// Type is what a space does to a player who lands on it or passes it.
type Type string

// The space types. Blank does nothing; the others are those Mario Party
// spaces of the notes that pitwall plays (docs/rules/party.md says what each
// does, and which of the notes' spaces are not played yet).
const (
	Blank     Type = "blank"
	Start     Type = "start"
	Blue      Type = "blue"
	Red       Type = "red"
	Star      Type = "star"
	Happening Type = "happening"
	Chance    Type = "chance"
)

var types = []Type{Blank, Start, Blue, Red, Star, Happening, Chance}

// Space is one space of a board, as written.
type Space struct {
	ID           string    `yaml:"id" json:"id"`
	Type         Type      `yaml:"type" json:"type,omitempty"`
	Next         []string  `yaml:"next" json:"next,omitempty"`
	Decrementing *bool     `yaml:"decrementing" json:"decrementing,omitempty"`
	At           []float64 `yaml:"at" json:"at,omitempty"`
}

// Board is a loaded, validated board.
type Board struct {
	ID     string  `yaml:"id"`
	Name   string  `yaml:"name"`
	Start  string  `yaml:"start"`
	MRDL   []any   `yaml:"mrdl"`
	Spaces []Space `yaml:"spaces"`

	mrdl  MRDL
	index map[string]int
}

// Limits keep a board, and a move on it, small enough for a post and a host.
const (
	maxSpaces   = 500
	maxMovement = 10000 // the largest movement Move takes, either sign
	maxIDLen    = 40
)

// Decrements says whether passing the space costs a point of Movement.
func (sp *Space) Decrements() bool { return sp.Decrementing == nil || *sp.Decrementing }

// Space is the space with id, or nil.
func (b *Board) Space(id string) *Space {
	i, ok := b.index[id]
	if !ok {
		return nil
	}
	return &b.Spaces[i]
}

// Successors are the space's successors; a space that names none leads to the start.
func (b *Board) Successors(id string) []string {
	sp := b.Space(id)
	if sp == nil {
		return nil
	}
	if len(sp.Next) == 0 {
		return []string{b.Start}
	}
	return sp.Next
}

// IsFork says whether a player on the space must choose where to go next.
func (b *Board) IsFork(id string) bool { return len(b.Successors(id)) > 1 }

// DefaultMRDL is the board's Movement Roll Dice List, [d10] when it gives none.
func (b *Board) DefaultMRDL() MRDL { return append(MRDL(nil), b.mrdl...) }

// shippedBoards are the files of boards/, read once: they are part of the binary.
var shippedBoards = shipped.New(boardFiles, "boards", "*.yaml", "party", "board", ParseBoard, func(b *Board) string { return b.ID })

// Boards lists the shipped boards, by file name (the ID and ".yaml"). A
// board is never changed once loaded, so games share them.
func Boards() ([]*Board, error) { return shippedBoards.All() }

// LoadBoard finds a shipped board by ID.
func LoadBoard(id string) (*Board, error) { return shippedBoards.Lookup(id) }

// LoadBoardFile reads and validates a board file (for 'pitwall order check';
// the ruleset itself never reads files).
func LoadBoardFile(path string) (*Board, error) {
	src, err := yamlfile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading the board: %w", err)
	}
	return ParseBoard(filepath.Base(path), src)
}

// ParseBoard reads and validates a board. name is the file's name: it is
// the board's ID when the file gives none, and errors start with it.
func ParseBoard(name string, src []byte) (*Board, error) {
	return yamlfile.DecodeChecked(name, src, func(b *Board) error {
		if b.ID == "" {
			b.ID = strings.TrimSuffix(strings.TrimSuffix(name, ".yaml"), ".yml")
		}
		if b.Name == "" {
			b.Name = b.ID
		}
		return b.validate()
	})
}

// bad is a value of the file that is wrong, at its YAML path.
var bad = yamlfile.Bad

// validID is a word an order can carry: no spaces, nothing a post would mangle.
func validID(id string) bool {
	if id == "" || len(id) > maxIDLen {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

func typeNames() string {
	var s []string
	for _, t := range types {
		s = append(s, string(t))
	}
	return strings.Join(s, ", ")
}

func (b *Board) validate() error {
	if !validID(b.ID) {
		return bad("$.id", "the board's id %q is not a word of letters, digits, '-', '_' or '.' (at most %d)", b.ID, maxIDLen)
	}
	if len(b.Spaces) == 0 {
		return bad("$.spaces", "the board has no spaces; list them under spaces:")
	}
	if len(b.Spaces) > maxSpaces {
		return bad("$.spaces", "a board has at most %d spaces; this one has %d", maxSpaces, len(b.Spaces))
	}
	b.index = map[string]int{}
	lower := map[string]int{}
	for i := range b.Spaces {
		sp := &b.Spaces[i]
		p := fmt.Sprintf("$.spaces[%d]", i)
		if !validID(sp.ID) {
			return bad(p+".id", "space %d: the id %q is not a word of letters, digits, '-', '_' or '.' (1 to %d)", i+1, sp.ID, maxIDLen)
		}
		if j, dup := b.index[sp.ID]; dup {
			return bad(p+".id", "two spaces are called %q (spaces %d and %d); every id must be its own", sp.ID, j+1, i+1)
		}
		// Orders name spaces in any case, so ids must differ by more than case.
		if j, dup := lower[strings.ToLower(sp.ID)]; dup {
			return bad(p+".id", "spaces %d and %d are %q and %q: orders name spaces in any case, so ids must differ by more than that", j+1, i+1, b.Spaces[j].ID, sp.ID)
		}
		lower[strings.ToLower(sp.ID)] = i
		b.index[sp.ID] = i
		if sp.Type == "" {
			sp.Type = Blank
		}
		known := false
		for _, t := range types {
			known = known || sp.Type == t
		}
		if !known {
			return bad(p+".type", "space %q: the type %q is not one of %s", sp.ID, sp.Type, typeNames())
		}
		if sp.Type == Star {
			if sp.Decrementing != nil && *sp.Decrementing {
				return bad(p+".decrementing", "space %q: a star space is passed, not counted: it cannot be decrementing (leave decrementing out)", sp.ID)
			}
			f := false
			sp.Decrementing = &f
		}
		if len(sp.At) != 0 && len(sp.At) != 2 {
			return bad(p+".at", "space %q: at is [column, row]; got %d numbers", sp.ID, len(sp.At))
		}
		for _, v := range sp.At {
			if v != v || v < -1000 || v > 1000 {
				return bad(p+".at", "space %q: at's numbers are -1000 to 1000", sp.ID)
			}
		}
	}
	if b.Start == "" {
		return bad("$", "the board has no start: name the starting space with start: ID")
	}
	st := b.Space(b.Start)
	if st == nil {
		return bad("$.start", "the start %q is not a space of the board", b.Start)
	}
	if st.Type == Star {
		return bad("$.start", "the start %q is a star space, which players pass but never stand on; start on another space", b.Start)
	}
	for i, sp := range b.Spaces {
		seen := map[string]bool{}
		for j, n := range sp.Next {
			if b.Space(n) == nil {
				return bad(fmt.Sprintf("$.spaces[%d].next[%d]", i, j), "space %q: its successor %q is not a space of the board", sp.ID, n)
			}
			if seen[n] {
				return bad(fmt.Sprintf("$.spaces[%d].next[%d]", i, j), "space %q names %q twice as a successor; a fork's ways must differ", sp.ID, n)
			}
			seen[n] = true
		}
	}
	if un := b.unreachable(); len(un) > 0 {
		return bad("$.spaces", "no player can ever reach %s from the start %q; link them in or remove them", listIDs(un), b.Start)
	}
	if loop := b.freeLoop(); len(loop) > 0 {
		return bad("$.spaces", "the non-decrementing spaces %s form a loop: a player in it would move for ever; make one of them decrementing", listIDs(loop))
	}
	if b.MRDL != nil {
		m, err := parseMRDLItems(b.MRDL)
		if err != nil {
			return bad("$.mrdl", "mrdl: %v", err)
		}
		b.mrdl = m
	} else {
		b.mrdl = MRDL{{Sides: 10}}
	}
	return nil
}

func listIDs(ids []string) string {
	const most = 8
	if len(ids) > most {
		return strings.Join(ids[:most], ", ") + fmt.Sprintf(" and %d more", len(ids)-most)
	}
	return strings.Join(ids, ", ")
}

// unreachable lists, in board order, the spaces no walk from the start reaches.
func (b *Board) unreachable() []string {
	seen := map[string]bool{b.Start: true}
	queue := []string{b.Start}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		for _, n := range b.Successors(id) {
			if !seen[n] {
				seen[n] = true
				queue = append(queue, n)
			}
		}
	}
	var out []string
	for _, sp := range b.Spaces {
		if !seen[sp.ID] {
			out = append(out, sp.ID)
		}
	}
	return out
}

// freeLoop finds a cycle made only of non-decrementing spaces (a walk that
// never spends Movement), in walk order from its first space on the board, or nil.
func (b *Board) freeLoop() []string {
	const (
		white = iota
		grey
		black
	)
	colour := map[string]int{}
	var stack []string
	var found []string
	var visit func(id string) bool
	visit = func(id string) bool {
		colour[id] = grey
		stack = append(stack, id)
		for _, n := range b.Successors(id) {
			if b.Space(n).Decrements() {
				continue
			}
			switch colour[n] {
			case grey:
				for i := len(stack) - 1; i >= 0; i-- {
					if stack[i] == n {
						found = append([]string(nil), stack[i:]...)
						return true
					}
				}
			case white:
				if visit(n) {
					return true
				}
			}
		}
		stack = stack[:len(stack)-1]
		colour[id] = black
		return false
	}
	for _, sp := range b.Spaces {
		if !sp.Decrements() && colour[sp.ID] == white && visit(sp.ID) {
			return found
		}
	}
	return nil
}

// Trace is what a movement did: every space passed, in order (the last one
// is where the player lands, when they moved at all), and the landing.
type Trace struct {
	Passed []string `json:"passed"`
	Landed string   `json:"landed"`
	// Unused are choices left over when the movement ended.
	Unused []string `json:"unused,omitempty"`
}

// Move walks a player from the space at with the given Movement, answering
// the forks met with choose, in order, as the rules' movement does. A fork
// met with no choice left, or a choice that is not a successor there, is an
// error; so is a movement larger than pitwall moves.
func (b *Board) Move(at string, movement int, choose []string) (Trace, error) {
	if b.Space(at) == nil {
		return Trace{}, fmt.Errorf("no space %q on the board; spaces: %s", at, listIDs(b.ids()))
	}
	if movement > maxMovement || movement < -maxMovement {
		return Trace{}, fmt.Errorf("movement %d is out of range: pitwall moves -%d to %d", movement, maxMovement, maxMovement)
	}
	w := b.walk(at, movement, choose, nil)
	switch {
	case w.err != nil:
		return Trace{}, w.err
	case w.refused != "":
		return Trace{}, fmt.Errorf("choice %d, %q, is not a successor of the fork %s; its successors: %s", w.used+1, w.refused, w.fork, strings.Join(b.Successors(w.fork), ", "))
	case w.fork != "":
		return Trace{}, fmt.Errorf("the fork %s is met with no choice left (choice %d); its successors: %s", w.fork, w.used+1, strings.Join(b.Successors(w.fork), ", "))
	}
	return Trace{Passed: w.passed, Landed: w.at, Unused: choose[w.used:]}, nil
}

func (b *Board) ids() []string {
	out := make([]string, len(b.Spaces))
	for i, sp := range b.Spaces {
		out[i] = sp.ID
	}
	return out
}

// walked is where a walk stopped: landed (movement spent), or at a fork
// waiting for a choice (fork set; refused set when the choice given there
// was not one of its successors).
type walked struct {
	at       string   // the Most Recently Passed Space
	movement int      // Movement left
	passed   []string // spaces passed, in order
	used     int      // choices used
	fork     string   // the fork waiting for a choice, if any
	refused  string   // the choice that fork refused, if any
	err      error
}

// walk is the movement of the rules, from the moment the Most Recently
// Passed Space is set to the player's space. pass is called for each space
// passed (the rules' hook for passing effects). It stops when Movement is 0
// or less, or at a fork with no usable choice, so that the caller can ask.
func (b *Board) walk(from string, movement int, choose []string, pass func(id string)) walked {
	w := walked{at: from, movement: movement, passed: []string{}}
	// Validation refuses loops of non-decrementing spaces, so a walk passes
	// at most len(spaces) of them between two decrementing ones; the bound
	// only guards against a board that was never validated.
	limit := (max(movement, 0) + 1) * (len(b.Spaces) + 1)
	for steps := 0; w.movement > 0; steps++ {
		if steps > limit {
			w.err = fmt.Errorf("the movement from %s never ends: %s passed without spending Movement (a loop of non-decrementing spaces)", from, listIDs(w.passed[max(0, len(w.passed)-len(b.Spaces)):]))
			return w
		}
		succ := b.Successors(w.at)
		next := succ[0]
		if len(succ) > 1 {
			if w.used >= len(choose) {
				w.fork = w.at
				return w
			}
			c := choose[w.used]
			if !slices.Contains(succ, c) {
				w.fork, w.refused = w.at, c
				return w
			}
			next = c
			w.used++
		}
		w.passed = append(w.passed, next)
		if pass != nil {
			pass(next)
		}
		if b.Space(next).Decrements() {
			w.movement--
		}
		w.at = next
	}
	return w
}

// Term is one entry of a Movement Roll Dice List: a die (Sides > 0) or an integer.
type Term struct {
	Sides int `json:"sides,omitempty"`
	Add   int `json:"add,omitempty"`
}

func (t Term) String() string {
	if t.Sides > 0 {
		return "d" + strconv.Itoa(t.Sides)
	}
	return strconv.Itoa(t.Add)
}

// MRDL is a Movement Roll Dice List.
type MRDL []Term

func (m MRDL) String() string {
	var s []string
	for _, t := range m {
		s = append(s, t.String())
	}
	return "[" + strings.Join(s, ", ") + "]"
}

// Roll rolls every die and adds every integer: the Movement.
func (m MRDL) Roll(d *dice.Roller, seat int, reason string) (int, []int) {
	sum := 0
	var faces []int
	for _, t := range m {
		if t.Sides > 0 {
			v := d.Roll(seat, reason, dice.D(t.Sides))
			faces = append(faces, v)
			sum += v
		} else {
			sum += t.Add
		}
	}
	return sum, faces
}

const (
	maxTerms = 12
	maxSides = 100
	maxAdd   = 100
)

// check holds a stored MRDL to what ParseMRDL reads: at most maxTerms
// entries, each a die of 1 to maxSides sides or an integer within maxAdd
// (a die of a billion sides would be counted face by face for its odds).
func (m MRDL) check() error {
	if len(m) > maxTerms {
		return fmt.Errorf("%d entries; at most %d", len(m), maxTerms)
	}
	for _, t := range m {
		switch {
		case t.Sides < 0 || t.Sides > maxSides:
			return fmt.Errorf("a die of %d sides; a die has 1 to %d", t.Sides, maxSides)
		case t.Sides > 0 && t.Add != 0:
			return fmt.Errorf("an entry both a d%d and %+d; each is a die or an integer", t.Sides, t.Add)
		case t.Add < -maxAdd || t.Add > maxAdd:
			return fmt.Errorf("an integer %d; from -%d to %d", t.Add, maxAdd, maxAdd)
		}
	}
	return nil
}

// ParseMRDL reads a list such as "d10", "2d6 +1" or "d6, d4, -2": dice as
// dN (or KdN for K of them) and integers, separated by spaces or commas.
func ParseMRDL(text string) (MRDL, error) {
	var items []any
	for _, f := range strings.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == ',' || r == '[' || r == ']' }) {
		items = append(items, f)
	}
	if len(items) == 0 {
		return nil, fmt.Errorf("an MRDL lists dice (d10) and integers (+1); got %q", text)
	}
	return parseMRDLItems(items)
}

func parseMRDLItems(items []any) (MRDL, error) {
	var m MRDL
	for _, it := range items {
		var s string
		switch v := it.(type) {
		case string:
			s = strings.TrimSpace(v)
		case int, int64, uint64, int32, uint32:
			s = fmt.Sprint(v)
		default:
			return nil, fmt.Errorf("%v is neither a die (d10) nor an integer", it)
		}
		low := strings.ToLower(s)
		if k, n, ok := strings.Cut(low, "d"); ok {
			count := 1
			if k != "" {
				c, err := strconv.Atoi(k)
				if err != nil || c < 1 || c > maxTerms {
					return nil, fmt.Errorf("%q: the number of dice before d is 1 to %d", s, maxTerms)
				}
				count = c
			}
			sides, err := strconv.Atoi(n)
			if err != nil || sides < 1 || sides > maxSides {
				return nil, fmt.Errorf("%q: a die has 1 to %d sides, written dN", s, maxSides)
			}
			for range count {
				m = append(m, Term{Sides: sides})
			}
		} else {
			v, err := strconv.Atoi(s)
			if err != nil || v < -maxAdd || v > maxAdd {
				return nil, fmt.Errorf("%q is neither a die (d10) nor an integer from -%d to %d", s, maxAdd, maxAdd)
			}
			m = append(m, Term{Add: v})
		}
		if len(m) > maxTerms {
			return nil, fmt.Errorf("an MRDL has at most %d entries", maxTerms)
		}
	}
	if len(m) == 0 {
		return nil, fmt.Errorf("the list is empty: nobody would ever move; leave it out for the default [d10]")
	}
	return m, nil
}
