// Package gaslands is the Gaslands Mario Kart edition: karts on a continuous
// table, maneuver templates, skid dice, hazards and collisions. This first
// part is the skid die and its exact odds; the table and the race follow.
package gaslands

import (
	"fmt"
	"strings"
)

// Skid is a face of the skid die.
type Skid int

// The faces' kinds.
const (
	Shift Skid = iota + 1
	Hazard
	Slide
	Spin
)

var skidNames = [...]string{"", "shift", "hazard", "slide", "spin"}

// String is the face as the contract names it.
func (s Skid) String() string {
	if s < Shift || s > Spin {
		return fmt.Sprintf("Skid(%d)", int(s))
	}
	return skidNames[s]
}

// SkidDie is the skid die, face by face (rules notes: 3 SHIFT, 1 SPIN, 1
// SLIDE, 1 HAZARD). A d6 roll of n reads SkidDie[n-1].
var SkidDie = [6]Skid{Shift, Shift, Shift, Hazard, Slide, Spin}

// MaxSkidDice is the most skid dice a kart rolls: its Handling, 6 at most.
const MaxSkidDice = 6

// SkidOutcome names a roll of n skid dice by how many of each face came up,
// in a fixed order: "shift" for one die, "2 shift + spin" for three.
func SkidOutcome(faces []Skid) string {
	count := map[Skid]int{}
	for _, f := range faces {
		count[f]++
	}
	var parts []string
	for k := Shift; k <= Spin; k++ {
		switch c := count[k]; {
		case c == 1:
			parts = append(parts, k.String())
		case c > 1:
			parts = append(parts, fmt.Sprintf("%d %s", c, k))
		}
	}
	return strings.Join(parts, " + ")
}

// SkidOdds is the exact chance of each outcome of n skid dice, counted over
// all 6^n rolls.
func SkidOdds(n int) (map[string]float64, error) {
	if n < 1 || n > MaxSkidDice {
		return nil, fmt.Errorf("--dice is 1 to %d (a kart rolls up to its Handling); got %d", MaxSkidDice, n)
	}
	out := map[string]float64{}
	total := 1
	for i := 0; i < n; i++ {
		total *= 6
	}
	faces := make([]Skid, n)
	for r := 0; r < total; r++ {
		x := r
		for i := range faces {
			faces[i] = SkidDie[x%6]
			x /= 6
		}
		out[SkidOutcome(faces)] += 1 / float64(total)
	}
	return out, nil
}
