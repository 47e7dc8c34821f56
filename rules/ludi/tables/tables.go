// Package tables holds every table of the Ludi Circenses Supremi Novae Romae
// (the Nova Roma 'Super Series' chariot race) as Go values laid out like the
// text, cell by cell, and computes exact odds from them.
//
// Each table keeps the text's row and column headers in comments, and each
// range keeps the percentage the text prints beside it (Pct), so a reader can
// hold a table beside the text. The tests check every cell at every roll the
// text's ranges cover, and every printed percentage against its range.
//
// Values the tables do not cover are clamped, never a panic: a characteristic
// (Skill, Size, Endurance, Constitution) below 0 reads as 0 and above the
// table's last column or row as the last one; a d20 roll below 1 reads as 1
// and above 20 as 20; a speed-die roll outside the die's faces reads as the
// nearest face.
package tables

import (
	"fmt"
	"strconv"
	"strings"

	"pitwall/dice"
)

// Level is a chariot's speed level ('Moving and Accelerating').
type Level int

// The four speed levels, slowest first.
const (
	Stop Level = iota // 0 spaces per turn, no die roll
	Low               // orange die, 2-4 spaces
	Fast              // red die, 4-8 spaces
	Max               // green die, 7-12 spaces
)

var levelNames = [...]string{Stop: "STOP", Low: "LOW", Fast: "FAST", Max: "MAX"}

// String gives the level as the text writes it: "STOP", "LOW", "FAST", "MAX".
func (l Level) String() string { return label("Level", l, levelNames[:]) }

// label is the name names gives v, a value of the enumeration kind, or
// "kind(v)" for a value it has none for: every String of the tables' enumerations.
func label[T ~int](kind string, v T, names []string) string {
	if v < 0 || int(v) >= len(names) {
		return kind + "(" + strconv.Itoa(int(v)) + ")"
	}
	return names[v]
}

// ParseLevel reads stop, low, fast or max, in any case.
func ParseLevel(s string) (Level, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "stop":
		return Stop, nil
	case "low":
		return Low, nil
	case "fast":
		return Fast, nil
	case "max":
		return Max, nil
	}
	return Stop, fmt.Errorf("speed level must be one of stop, low, fast, max; got %q", s)
}

// SpeedTable is the die rolled at each speed level: the Formula D gear dice
// ('Standard six, eight or twelve-sided dice are not appropriate substitutes').
// STOP has no die: 0 spaces per turn, no roll.
var SpeedTable = [Max + 1]dice.Die{
	// LOW: 6-sided special die - 1x2-space (17%), 2x3-space (33%), 3x4-space (50%)
	Low: {Name: "orange", Faces: []int{2, 3, 3, 4, 4, 4}},
	// FAST: 8-sided special die - 1x4-space (12.5%), 1x5-space (12.5%),
	// 2x6-space (25%), 2x7-space (25%), 2x8-space (25%)
	Fast: {Name: "red", Faces: []int{4, 5, 6, 6, 7, 7, 8, 8}},
	// MAX: 12-sided special die - 2x7-space .. 2x12-space (16.66% each)
	Max: {Name: "green", Faces: []int{7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12}},
}

// SpeedDie is the die rolled at level l; false at STOP (no roll) or for a
// level that is not one of the four.
func SpeedDie(l Level) (dice.Die, bool) {
	if l <= Stop || l > Max {
		return dice.Die{}, false
	}
	d := SpeedTable[l]
	return dice.Die{Name: d.Name, Faces: append([]int(nil), d.Faces...)}, true
}

// faceRange is the lowest and highest face of d.
func faceRange(d dice.Die) (lo, hi int) {
	for i, f := range d.Faces {
		if i == 0 || f < lo {
			lo = f
		}
		if i == 0 || f > hi {
			hi = f
		}
	}
	return lo, hi
}

func clamp(v, lo, hi int) int {
	return max(lo, min(v, hi))
}

// Range is a range of rolls as the text prints it, "14-20 (35%)": the rolls
// From..To (inclusive) on a standard D20, and the percentage printed beside
// them. From == 0 is the empty range, the text's "Self Damage (0%)".
type Range struct {
	From, To int
	Pct      string // as printed, e.g. "35%"
}

// Has reports whether roll lies in the range.
func (r Range) Has(roll int) bool {
	return r.From > 0 && r.From <= roll && roll <= r.To
}

// d20 clamps a (possibly modified) D20 roll to 1..20.
func d20(roll int) int { return clamp(roll, 1, 20) }

// col clamps a characteristic to a column or row of a 0..2 table.
func col(v int) int { return clamp(v, 0, 2) }

// SlipDamageTable is the damage roll of a Slip with no contact ('Slipping
// Outcome', second table, one standard D20). A 50-50 roll first picks the
// horses or the chariot; the table is then read by the chariot's Size, or by
// the horses' Endurance, alone. (The text lays it out as a grid with the
// Endurance columns across the Size = 0 row and one cell each for Size = 1
// and 2; both read the same: value 0, 1, 2.)
var SlipDamageTable = [3]Range{
	0: {14, 20, "35%"}, // Size/Endurance = 0: 14-20 (35% Damage Probability)
	1: {16, 20, "25%"}, // Size/Endurance = 1: 16-20 (25% Damage Probability)
	2: {18, 20, "15%"}, // Size/Endurance = 2: 18-20 (15% Damage Probability)
}

// SlipDamage reports whether a Slip damages the part whose Size (chariot) or
// Endurance (horses) is value, on the D20 roll.
func SlipDamage(value, roll int) bool {
	return SlipDamageTable[col(value)].Has(d20(roll))
}

// WallDamageTable is contact with the wall ('Obstacle Outcome'): a standard
// D20 after each move that ends beside the inner or outer wall, by Skill.
var WallDamageTable = [3]Range{
	0: {14, 20, "35%"}, // 0 Skill auriga: 35% chance (rolls 14-20)
	1: {16, 20, "25%"}, // 1 Skill auriga: 25% chance (rolls 16-20)
	2: {18, 20, "15%"}, // 2 Skill auriga: 15% chance (rolls 18-20)
}

// WallDamage reports whether wall contact does damage, for an auriga of the
// given Skill, on the D20 roll.
func WallDamage(skill, roll int) bool {
	return WallDamageTable[col(skill)].Has(d20(roll))
}

// FallDamageTable is the auriga's fall at a naufragia ('Naufragia (Chariot
// Rollover) Event'): a standard D20, by Constitution.
var FallDamageTable = [3]Range{
	0: {14, 20, "35%"}, // 0 Constitution auriga: 35% chance (rolls 14-20)
	1: {16, 20, "25%"}, // 1 Constitution auriga: 25% chance (rolls 16-20)
	2: {18, 20, "15%"}, // 2 Constitution auriga: 15% chance (rolls 18-20)
}

// FallDamage reports whether the auriga is hurt falling from the chariot, for
// the given Constitution, on the D20 roll.
func FallDamage(constitution, roll int) bool {
	return FallDamageTable[col(constitution)].Has(d20(roll))
}

// WhipCell is one cell of 'Roll 1: Whip Success'.
type WhipCell struct {
	Success Range
	Spaces  int // the extra move spaces on a success
}

// WhipSuccessTable is 'Whipping Outcome', Roll 1: Whip Success (standard
// D20), by the horses' Endurance.
var WhipSuccessTable = [3]WhipCell{
	0: {Range{11, 20, "50%"}, 2}, // Endurance = 0: 11-20 (50% Success Probability) +2 Move Spaces
	1: {Range{9, 20, "60%"}, 2},  // Endurance = 1: 9-20 (60% Success Probability) +2 Move Spaces
	2: {Range{7, 20, "70%"}, 3},  // Endurance = 2: 7-20 (70% Success Probability) +3 Move Spaces
}

// WhipSuccess reads roll 1 of a Whip: whether it succeeds and, if so, how
// many extra spaces it gives.
func WhipSuccess(endurance, roll int) (ok bool, spaces int) {
	c := WhipSuccessTable[col(endurance)]
	if c.Success.Has(d20(roll)) {
		return true, c.Spaces
	}
	return false, 0
}

// WhipHarm is what roll 2 of a Whip costs the horses when it hits.
type WhipHarm int

// The two harms the text names.
const (
	EnduranceLoss WhipHarm = iota // '-1 Endurance Stat'
	HorseDamage                   // '-1 Horse Damage (Enduring)': no Endurance left to lose
)

var whipHarmNames = [...]string{EnduranceLoss: "-1 Endurance Stat", HorseDamage: "-1 Horse Damage (Enduring)"}

// String gives the text's label.
func (h WhipHarm) String() string { return label("WhipHarm", h, whipHarmNames[:]) }

// WhipHurtCell is one cell of 'Roll 2: Damage to Horses'.
type WhipHurtCell struct {
	Damage Range
	Harm   WhipHarm
}

// WhipHurtsTable is 'Whipping Outcome', Roll 2: Damage to Horses (standard
// D20, rolled independently of roll 1), by the horses' Endurance. Note the
// damage range is at the low end of the die.
var WhipHurtsTable = [3]WhipHurtCell{
	0: {Range{1, 10, "50%"}, HorseDamage},   // Endurance = 0: 1-10 (50% Damage Probability) -1 Horse Damage (Enduring)
	1: {Range{1, 10, "50%"}, EnduranceLoss}, // Endurance = 1: 1-10 (50% Damage Probability) -1 Endurance Stat
	2: {Range{1, 8, "40%"}, EnduranceLoss},  // Endurance = 2: 1-8 (40% Damage Probability) -1 Endurance Stat
}

// WhipHurts reads roll 2 of a Whip: whether the horses take damage.
func WhipHurts(endurance, roll int) bool {
	return WhipHurtsTable[col(endurance)].Damage.Has(d20(roll))
}

// LacerateCell is one cell of the laceration table: the rolls that stun the
// defending auriga (Stun.From is the lowest such roll) and for how many orders.
type LacerateCell struct {
	Stun   Range
	Orders int // 1 = 'stunned for one order', 2 = 'stunned for two orders'
}

// LacerateTable is 'Lacertaion Outcome' (sic), one standard D20:
// rows Attacker Skill = 0, 1, 2; columns Defender Constitution = 0, 1, 2.
var LacerateTable = [3][3]LacerateCell{
	{ // Skill = 0
		{Range{13, 20, "40%"}, 1}, // 13-20 (40%); stunned for one order
		{Range{16, 20, "25%"}, 1}, // 16-20 (25%); stunned for one order
		{Range{19, 20, "10%"}, 1}, // 19-20 (10%); stunned for one order
	},
	{ // Skill = 1
		{Range{10, 20, "55%"}, 1}, // 10-20 (55%); stunned for one order
		{Range{13, 20, "40%"}, 1}, // 13-20 (40%); stunned for one order
		{Range{16, 20, "25%"}, 1}, // 16-20 (25%); stunned for one order
	},
	{ // Skill = 2
		{Range{7, 20, "70%"}, 2},  // 7-20 (70%); stunned for two orders
		{Range{10, 20, "55%"}, 2}, // 10-20 (55%); stunned for two orders
		{Range{13, 20, "40%"}, 1}, // 13-20 (40%); stunned for one order
	},
}

// WatchModifier is what a Watch order subtracts from a laceration roll
// against the auriga ('Control & Watch Outcome').
const WatchModifier = 2

// LacerateStun reads a laceration roll (already less WatchModifier if the
// defender watches; a modified roll below 1 reads as 1): the number of orders
// the defending auriga is stunned for, 0 for no stun.
func LacerateStun(skill, constitution, roll int) (stunnedOrders int) {
	c := LacerateTable[col(skill)][col(constitution)]
	if c.Stun.Has(d20(roll)) {
		return c.Orders
	}
	return 0
}
