// Package gaslands is the Gaslands Mario Kart edition: karts on a continuous
// table, maneuver templates, skid dice, hazards and collisions. This first
// part is the skid die and its exact odds; the table and the race follow.
package gaslands

import (
	"fmt"
	"sort"
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
func (s Skid) String() string { return enumName("Skid", s, skidNames[:]) }

// enumName is the name names gives v, a value of the enumeration kind, or
// "kind(v)" for a value it has none for: the String of Skid and Weight.
func enumName[T ~int](kind string, v T, names []string) string {
	if v < 0 || int(v) >= len(names) || names[v] == "" {
		return fmt.Sprintf("%s(%d)", kind, int(v))
	}
	return names[v]
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

// SkidOdds is the exact chance of each outcome of n skid dice, worked out
// face by face from SkidDie.
func SkidOdds(n int) (map[string]float64, error) {
	if n < 1 || n > MaxSkidDice {
		return nil, fmt.Errorf("--dice is 1 to %d (a kart rolls up to its Handling); got %d", MaxSkidDice, n)
	}
	out := map[string]float64{}
	counts := skidCounts(n, false)
	for _, c := range sortedCounts(counts) {
		p := counts[c]
		var faces []Skid
		for f := Shift; f <= Spin; f++ {
			for j := 0; j < c[f]; j++ {
				faces = append(faces, f)
			}
		}
		out[SkidOutcome(faces)] += p
	}
	return out, nil
}

// faceOdds is one skid die's chance of each face, counted on SkidDie; pushed,
// a die not showing SHIFT is rolled once more.
func faceOdds(push bool) [Spin + 1]float64 {
	var p [Spin + 1]float64
	for _, f := range SkidDie {
		p[f] += 1 / float64(len(SkidDie))
	}
	if push {
		again := 1 - p[Shift]
		for f := Shift; f <= Spin; f++ {
			p[f] *= again
		}
		p[Shift] += 1 - again
	}
	return p
}

// sortedCounts are m's counts in a fixed order: sums made in map order
// could differ in the last bit from one call to the next.
func sortedCounts(m map[[Spin + 1]int]float64) [][Spin + 1]int {
	out := make([][Spin + 1]int, 0, len(m))
	for c := range m {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		for f := range a {
			if a[f] != b[f] {
				return a[f] < b[f]
			}
		}
		return false
	})
	return out
}

// skidCounts is the chance of each count of faces (indexed by Skid) on n
// skid dice, pushed or not: the dice are alike, so only the counts matter.
func skidCounts(n int, push bool) map[[Spin + 1]int]float64 {
	face := faceOdds(push)
	out := map[[Spin + 1]int]float64{{}: 1}
	for range n {
		next := map[[Spin + 1]int]float64{}
		for _, c := range sortedCounts(out) {
			p := out[c]
			for f := Shift; f <= Spin; f++ {
				c2 := c
				c2[f]++
				next[c2] += float64(p * face[f]) // no fused multiply-add: the same odds on every machine
			}
		}
		out = next
	}
	return out
}
