package tables

import (
	"fmt"

	"pitwall/dice"
)

// Corner is the outcome of a cornering roll.
type Corner int

// The three outcomes of 'Cornering Outcome'.
const (
	NoChange  Corner = iota // the chariot moves its spaces within its lane
	Slip                    // see SlipStart and SlipDamage
	Naufragia               // the chariot rolls over; see FallDamage
)

var cornerNames = [...]string{NoChange: "none", Slip: "slip", Naufragia: "naufragia"}

// String gives "none", "slip" or "naufragia" (the odds' outcome names).
func (c Corner) String() string { return label("Corner", c, cornerNames[:]) }

// CornerBand is one range of a cornering cell: the speed-die results From..To
// (inclusive) give Outcome; Pct is the percentage the text prints beside it.
// From == 0 covers every face of the die: the text's "No Change (100%)",
// which names no range.
type CornerBand struct {
	From, To int
	Outcome  Corner
	Pct      string
}

func (b CornerBand) covers(roll int) bool {
	return b.From == 0 || b.From <= roll && roll <= b.To
}

// every is a cell line that names no range: the same outcome on every face.
func every(c Corner) []CornerBand { return []CornerBand{{0, 0, c, "100%"}} }

// CornerCell is one cell of the cornering table: a line for each speed level.
type CornerCell struct {
	Low, Fast, Max []CornerBand
}

// At is the cell's line for level l (nil at STOP: no roll).
func (c CornerCell) At(l Level) []CornerBand {
	switch l {
	case Low:
		return c.Low
	case Fast:
		return c.Fast
	case Max:
		return c.Max
	}
	return nil
}

// Cornering is 'Cornering Outcome', rolled on the special speed die of the
// chariot's level: rows Inside Lane, 2nd Lane, 3rd Lane, 4th Lane, 5th Lane +;
// columns Skill = 0, 1, 2.
var Cornering = [5][3]CornerCell{
	{ // Inside Lane
		{ // Skill = 0
			Low:  []CornerBand{{2, 3, NoChange, "50%"}, {4, 4, Slip, "50%"}},
			Fast: []CornerBand{{4, 4, Slip, "12.5%"}, {5, 8, Naufragia, "87.5%"}},
			Max:  []CornerBand{{7, 12, Naufragia, "100%"}},
		},
		{ // Skill = 1
			Low:  every(NoChange),
			Fast: []CornerBand{{4, 5, Slip, "25%"}, {6, 8, Naufragia, "75%"}},
			Max:  []CornerBand{{7, 12, Naufragia, "100%"}},
		},
		{ // Skill = 2
			Low:  every(NoChange),
			Fast: []CornerBand{{4, 4, NoChange, "12.5%"}, {5, 6, Slip, "37.5%"}, {7, 8, Naufragia, "50%"}},
			Max:  []CornerBand{{7, 8, Slip, "33.33%"}, {9, 12, Naufragia, "66.66%"}},
		},
	},
	{ // 2nd Lane
		{ // Skill = 0
			Low:  every(NoChange),
			Fast: []CornerBand{{4, 5, NoChange, "25%"}, {6, 8, Slip, "75%"}},
			Max:  []CornerBand{{7, 9, Slip, "50%"}, {10, 12, Naufragia, "50%"}}, // "7-8-9", "10-11-12"
		},
		{ // Skill = 1
			Low:  every(NoChange),
			Fast: []CornerBand{{4, 6, NoChange, "50%"}, {7, 8, Slip, "50%"}},
			Max:  []CornerBand{{7, 7, NoChange, "16.66%"}, {8, 10, Slip, "50%"}, {11, 12, Naufragia, "33.33%"}},
		},
		{ // Skill = 2
			Low:  every(NoChange),
			Fast: []CornerBand{{4, 7, NoChange, "75%"}, {8, 8, Slip, "25%"}},
			Max:  []CornerBand{{7, 8, NoChange, "33.33%"}, {9, 11, Slip, "50%"}, {12, 12, Naufragia, "16.66%"}},
		},
	},
	{ // 3rd Lane
		{ // Skill = 0
			Low:  every(NoChange),
			Fast: []CornerBand{{4, 6, NoChange, "50%"}, {7, 8, Slip, "50%"}},
			Max:  []CornerBand{{7, 8, NoChange, "33.33%"}, {9, 11, Slip, "50%"}, {12, 12, Naufragia, "16.66%"}},
		},
		{ // Skill = 1
			Low:  every(NoChange),
			Fast: []CornerBand{{4, 7, NoChange, "75%"}, {8, 8, Slip, "25%"}},
			Max:  []CornerBand{{7, 9, NoChange, "50%"}, {10, 12, Slip, "50%"}},
		},
		{ // Skill = 2
			Low:  every(NoChange),
			Fast: every(NoChange),
			Max:  []CornerBand{{7, 10, NoChange, "66.66%"}, {11, 12, Slip, "33.33%"}},
		},
	},
	{ // 4th Lane
		{ // Skill = 0
			Low:  every(NoChange),
			Fast: every(NoChange),
			Max:  []CornerBand{{7, 9, NoChange, "50%"}, {10, 12, Slip, "50%"}},
		},
		{ // Skill = 1
			Low:  every(NoChange),
			Fast: every(NoChange),
			Max:  []CornerBand{{7, 10, NoChange, "66.66%"}, {11, 12, Slip, "33.33%"}},
		},
		{ // Skill = 2
			Low:  every(NoChange),
			Fast: every(NoChange),
			Max:  []CornerBand{{7, 11, NoChange, "83.33%"}, {12, 12, Slip, "16.66%"}},
		},
	},
	{ // 5th Lane +
		{Low: every(NoChange), Fast: every(NoChange), Max: every(NoChange)}, // Skill = 0
		{Low: every(NoChange), Fast: every(NoChange), Max: every(NoChange)}, // Skill = 1
		{Low: every(NoChange), Fast: every(NoChange), Max: every(NoChange)}, // Skill = 2
	},
}

// laneRow is the row of Cornering for a lane: lane 1 (or less) is the Inside
// Lane, lanes 5 and beyond share '5th Lane +'.
func laneRow(lane int) int { return clamp(lane, 1, 5) - 1 }

// ControlModifier is what a Control order subtracts from cornering rolls at
// level l: 1 at FAST, 2 at MAX, none at LOW (or STOP).
func ControlModifier(l Level) int {
	switch l {
	case Fast:
		return 1
	case Max:
		return 2
	}
	return 0
}

// CornerOutcome reads the cornering table for a chariot in lane (1 = inside;
// 5 and beyond = '5th Lane +') at level l with an auriga of the given Skill.
// roll is the speed die's result, already less ControlModifier(l) under a
// Control order; a roll below the die's lowest face reads as that face (and
// one above its highest as the highest). At STOP there is no roll: NoChange.
func CornerOutcome(lane int, l Level, skill int, roll int) Corner {
	if l <= Stop || l > Max { // no die: SpeedDie's false
		return NoChange
	}
	lo, hi := faceRange(SpeedTable[l]) // read, not copied: asked on every corner
	roll = clamp(roll, lo, hi)
	for _, b := range Cornering[laneRow(lane)][col(skill)].At(l) {
		if b.covers(roll) {
			return b.Outcome
		}
	}
	return NoChange // not reached: the tests check that every cell covers every face
}

// Slip commence spaces that are not a fixed space number.
const (
	Reroll   = 0  // roll the die again
	AsRolled = -1 // the space is the number rolled
)

// SlipBand is one part of a 'Slip Commence Space' line: rolls From..To
// (inclusive) give Space (a space number from 1, or Reroll or AsRolled).
type SlipBand struct {
	From, To, Space int
}

// SlipRule is one row of the 'Lane Spaces / Slip Commence Space' table.
type SlipRule struct {
	Die   dice.Die
	Bands []SlipBand
}

// SlipStartTable is 'Lane Spaces / Slip Commence Space': the die that picks
// the corner space where a Slip begins, by the number of spaces the lane has
// in the corner.
var SlipStartTable = map[int]SlipRule{
	// 3 Spaces, D6: 1 or 2 = 1st space; 3 or 4 = 2nd space; 5 or 6 = 3rd space
	3: {dice.D6, []SlipBand{{1, 2, 1}, {3, 4, 2}, {5, 6, 3}}},
	// 4 Spaces, D8: 1 or 2 = 1st; 3 or 4 = 2nd; 5 or 6 = 3rd; 7 or 8 = 4th
	4: {dice.D8, []SlipBand{{1, 2, 1}, {3, 4, 2}, {5, 6, 3}, {7, 8, 4}}},
	// 5 Spaces, D6: 1-5 = space as rolled; 6 = rerolled
	5: {dice.D6, []SlipBand{{1, 5, AsRolled}, {6, 6, Reroll}}},
	// 6 Spaces, D6: 1-6 = space as rolled
	6: {dice.D6, []SlipBand{{1, 6, AsRolled}}},
	// 7 Spaces, D8: 1-7 = space as rolled; 8 = rerolled
	7: {dice.D8, []SlipBand{{1, 7, AsRolled}, {8, 8, Reroll}}},
}

// SlipStart gives, for a lane with the given number of corner spaces (3..7),
// the die to roll and how to read it: the space (from 1) where the Slip
// begins, or reroll. A roll the die cannot show reads as reroll.
func SlipStart(spaces int) (dice.Die, func(roll int) (space int, reroll bool), error) {
	rule, ok := SlipStartTable[spaces]
	if !ok {
		return dice.Die{}, nil, fmt.Errorf("slip commence space: a corner lane has 3..7 spaces in the table; got %d", spaces)
	}
	read := func(roll int) (int, bool) {
		for _, b := range rule.Bands {
			if roll < b.From || roll > b.To {
				continue
			}
			switch b.Space {
			case Reroll:
				return 0, true
			case AsRolled:
				return roll, false
			}
			return b.Space, false
		}
		return 0, true
	}
	return rule.Die, read, nil
}
