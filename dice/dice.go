// Package dice rolls the dice of a race: seeded, logged and checkable.
//
// A race owns one Roller. Its source is a ChaCha8 stream seeded once, when the
// race is created; every roll is logged with the seat, the reason, the die and
// the result, so the host's 'I rolled a 14' can be checked by anyone who
// replays the race once the seed is revealed.
package dice

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	mrand "math/rand/v2"
	"slices"
	"strconv"
)

// SeedSize is the length of a race's seed in bytes (a ChaCha8 key).
type Seed [32]byte

// NewSeed draws a seed from crypto/rand; it is what a real race uses.
func NewSeed() (Seed, error) {
	var s Seed
	if _, err := rand.Read(s[:]); err != nil {
		return s, fmt.Errorf("drawing a seed from the system's random source: %w", err)
	}
	return s, nil
}

// SeedFromInt makes a seed from a small number, for tests and demos only:
// such a seed can be guessed, so a real race never uses one.
func SeedFromInt(n uint64) Seed {
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], n)
	return Seed(sha256.Sum256(append([]byte("pitwall demo seed "), b[:]...)))
}

// Hex is the seed as 64 hex digits.
func (s Seed) Hex() string { return hex.EncodeToString(s[:]) }

// Commitment is the SHA-256 of the seed, in hex: published when the race starts,
// it binds the host to the seed revealed when the race ends.
func (s Seed) Commitment() string {
	h := sha256.Sum256(s[:])
	return hex.EncodeToString(h[:])
}

// ParseSeed reads 64 hex digits.
func ParseSeed(text string) (Seed, error) {
	var s Seed
	b, err := hex.DecodeString(text)
	if err != nil || len(b) != len(s) {
		return s, fmt.Errorf("a seed is 64 hex digits; got %q", text)
	}
	copy(s[:], b)
	return s, nil
}

// Die is a die with numbered faces: a plain dN has faces 1..N; a special die
// (the Formula D gear dice) lists its faces, repeats included.
type Die struct {
	Name  string
	Faces []int
}

// D returns the plain die with faces 1..n.
func D(n int) Die {
	f := make([]int, n)
	for i := range f {
		f[i] = i + 1
	}
	return Die{Name: "d" + strconv.Itoa(n), Faces: f}
}

// D20, D8 and D6 are the plain dice the texts name most.
var (
	D20 = D(20)
	D8  = D(8)
	D6  = D(6)
)

// Sides is the number of faces.
func (d Die) Sides() int { return len(d.Faces) }

// Has reports whether some face shows v.
func (d Die) Has(v int) bool {
	for _, f := range d.Faces {
		if f == v {
			return true
		}
	}
	return false
}

// Roll is one logged roll.
type Roll struct {
	Seat   int    `json:"seat"` // -1 when the roll belongs to no seat
	Reason string `json:"reason"`
	Die    string `json:"die"`
	Face   int    `json:"face"` // index of the face that came up
	Result int    `json:"result"`
}

func (r Roll) String() string {
	return fmt.Sprintf("%s: %s = %d", r.Reason, r.Die, r.Result)
}

// Source picks a face: a number in [0, n).
type Source interface {
	Face(d Die) int
}

// Roller rolls dice from a Source and logs every roll (a quiet one counts them).
type Roller struct {
	src   Source
	log   []Roll
	quiet bool
	n     int // rolls made by a quiet roller
}

// New returns a roller on a ChaCha8 stream keyed by the seed.
func New(seed Seed) *Roller {
	return &Roller{src: &chachaSource{r: mrand.NewChaCha8(seed)}}
}

// NewQuiet returns a roller on the same stream as New that keeps no log: it
// counts its rolls (Mark) and gives none back (Log, Since). It is the
// simulator's, which reads no story: a game's Resolve may ask Telling and
// skip writing one.
func NewQuiet(seed Seed) *Roller {
	r := New(seed)
	r.quiet = true
	return r
}

// Telling says whether the roller keeps its rolls, and so whether the
// story of a turn is read: false for a quiet roller.
func (r *Roller) Telling() bool { return !r.quiet }

// Restore returns a roller whose stream continues from a saved state (State).
func Restore(state []byte) (*Roller, error) {
	c := new(mrand.ChaCha8)
	if err := c.UnmarshalBinary(state); err != nil {
		return nil, fmt.Errorf("restoring the dice stream: %w", err)
	}
	return &Roller{src: &chachaSource{r: c}}, nil
}

// WithSource returns a roller on any source (a script, in tests).
func WithSource(s Source) *Roller { return &Roller{src: s} }

// State is the stream's position, to save with the race; nil for a source
// that is not a ChaCha8 stream.
func (r *Roller) State() []byte {
	if c, ok := r.src.(*chachaSource); ok {
		b, _ := c.r.MarshalBinary() // never fails for ChaCha8
		return b
	}
	return nil
}

// Clone is a roller that goes on from where r stands without moving r on
// (a ChaCha8 stream is copied); a roller on another source shares it.
func (r *Roller) Clone() *Roller {
	c := &Roller{src: r.src, log: slices.Clip(r.log), quiet: r.quiet, n: r.n}
	if st := r.State(); st != nil {
		if cr, err := Restore(st); err == nil { // r's own state always restores
			c.src = cr.src
		}
	}
	return c
}

// Roll rolls d for seat, for the reason given, logs it, and returns the face's value.
func (r *Roller) Roll(seat int, reason string, d Die) int {
	i := r.src.Face(d)
	v := d.Faces[i]
	if r.quiet {
		r.n++
		return v
	}
	r.log = append(r.log, Roll{Seat: seat, Reason: reason, Die: d.Name, Face: i, Result: v})
	return v
}

// Log is every roll so far, in order (none for a quiet roller).
func (r *Roller) Log() []Roll { return r.log }

// Mark is the number of rolls made so far: the log's length; Since(m)
// gives the rolls made after it.
func (r *Roller) Mark() int {
	if r.quiet {
		return r.n
	}
	return len(r.log)
}

// Since returns the rolls made after mark m (none for a quiet roller).
func (r *Roller) Since(m int) []Roll {
	if r.quiet {
		return nil
	}
	out := make([]Roll, len(r.log)-m)
	copy(out, r.log[m:])
	return out
}

type chachaSource struct{ r *mrand.ChaCha8 }

func (c *chachaSource) Face(d Die) int {
	// rand.New over the stream gives an unbiased IntN; it holds no state of its own.
	return mrand.New(c.r).IntN(len(d.Faces))
}
