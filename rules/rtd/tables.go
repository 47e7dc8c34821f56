// Package rtd plays 'Mario Kart RTD', the roll-the-dice forum race of
// Momentum, course segments, racing checks, passes and items.
//
// This file holds the text's tables: the Racing Check, the Item chart and the
// Item Roll's bonuses, and the Pass, with their exact odds. The rules
// reference is docs/rules/rtd.md.
package rtd

import (
	"fmt"
	"strconv"
	"strings"
)

// Outcome is a Racing Check's result: whether the action succeeds and the
// Momentum it gains or loses.
type Outcome int

// The Racing Check's outcomes, worst first.
const (
	FailLoseTwo    Outcome = iota // 0 and below: FAILS, lose TWO Momentum
	FailLoseOne                   // 1: FAILS, lose ONE Momentum
	Fail                          // 2, 3: FAILS
	Succeed                       // 4, 5: SUCCEEDS
	SucceedGainOne                // 6: SUCCEEDS, gain ONE Momentum
	SucceedGainTwo                // 7 and above: SUCCEEDS, gain TWO Momentum
)

var outcomeNames = [...]string{"fail-2", "fail-1", "fail", "success", "success+1", "success+2"}

// String is the contract's outcome name: fail-2 ... success+2.
func (o Outcome) String() string { return outcomeNames[o] }

// Succeeds says whether the action succeeds.
func (o Outcome) Succeeds() bool { return o >= Succeed }

// Momentum is the Momentum the result gains (or loses, when negative).
func (o Outcome) Momentum() int { return [...]int{-2, -1, 0, 0, 1, 2}[o] }

// RacingCheckTable is the text's list, result by result: a d6 gives 1-6,
// and modifiers can take it below 1 or above 6.
var RacingCheckTable = []struct {
	Result  string // as the text heads the line
	From    int    // the lowest result on this line
	Outcome Outcome
}{
	{"0 and Below", -1 << 31, FailLoseTwo},
	{"1", 1, FailLoseOne},
	{"2", 2, Fail},
	{"3", 3, Fail},
	{"4", 4, Succeed},
	{"5", 5, Succeed},
	{"6", 6, SucceedGainOne},
	{"7", 7, SucceedGainTwo}, // the text's last line: 7 and above gain TWO
}

// RacingCheck reads a modified result (a d6 plus modifiers) off the table.
func RacingCheck(result int) Outcome {
	out := RacingCheckTable[0].Outcome
	for _, l := range RacingCheckTable {
		if result >= l.From {
			out = l.Outcome
		}
	}
	return out
}

// Item is one of the twelve items, numbered as the chart numbers them.
type Item int

// The Item chart, 1 to 12.
const (
	Banana Item = iota + 1
	FakeItemBox
	GreenShell
	Blooper
	BobOmb
	Mushroom
	RedShell
	Boo
	BlueShell
	TripleRedShell
	Star
	Thunderbolt
)

var itemNames = [...]string{"", "banana", "fake-item-box", "green-shell", "blooper", "bob-omb", "mushroom",
	"red-shell", "boo", "blue-shell", "triple-red-shell", "star", "thunderbolt"}

// String is the item's name as the contract writes it.
func (i Item) String() string {
	if i < Banana || i > Thunderbolt {
		return "Item(" + strconv.Itoa(int(i)) + ")"
	}
	return itemNames[i]
}

// ParseItem reads an item's name as String writes it.
func ParseItem(name string) (Item, error) {
	for i := Banana; i <= Thunderbolt; i++ {
		if strings.EqualFold(strings.TrimSpace(name), itemNames[i]) {
			return i, nil
		}
	}
	return 0, fmt.Errorf("unknown item %q; items: %s", name, strings.Join(itemNames[1:], ", "))
}

// ItemFor reads an Item Roll's total off the chart: below 1 reads as 1, above 12 as 12 (rules notes).
func ItemFor(total int) Item { return Item(min(max(total, 1), 12)) }

// Perk is a kart's one perk or debuff (a standard kart has none).
type Perk int

// The perks and debuffs of the text.
const (
	Standard         Perk = iota
	RammingSpeed          // +1 on Ram Checks
	ItemBonus             // +1 on Item Rolls
	HighAcceleration      // +1 Momentum on starting a turn at zero
	Featherweight         // -1 on Ram Checks (a debuff)
	LowLoot               // -1 on Item Rolls (a debuff)
	Slow                  // maximum Momentum 4, not 5 (a debuff)
)

var perkNames = [...]string{"standard", "ramming-speed", "item-bonus", "high-acceleration", "featherweight", "low-loot", "slow"}

func (p Perk) String() string { return perkNames[p] }

// ParsePerk reads a perk or debuff by its name.
func ParsePerk(s string) (Perk, error) {
	for i, n := range perkNames {
		if n == s {
			return Perk(i), nil
		}
	}
	return 0, fmt.Errorf("a perk or debuff is one of standard, ramming-speed, item-bonus, high-acceleration, featherweight, low-loot, slow; got %q", s)
}

// ItemRollBonus is what is added to the Item Roll's d6: nothing for first
// place, +1 for second, +2 for third and so on; +1 for a driver who has fallen
// behind; +1 for Item Bonus, -1 for Low Loot.
func ItemRollBonus(position int, behind bool, p Perk) int {
	b := position - 1
	if behind {
		b++
	}
	switch p {
	case ItemBonus:
		b++
	case LowLoot:
		b--
	}
	return b
}

// MaxMomentum is a kart's most Momentum: 5, or 4 for a Slow kart.
func MaxMomentum(p Perk) int {
	if p == Slow {
		return 4
	}
	return 5
}

// PassSucceeds says whether a Pass wins: the passer's d6 plus Momentum (and
// bonuses) must beat the defender's. A tie keeps the defender ahead: a pass
// has to succeed to move ahead (docs/rules/rtd.md).
func PassSucceeds(passer, defender int) bool { return passer > defender }

// RamSucceeds says whether a ram lands: an opposed Racing Check, the rammer's
// total must beat the other's; a tie bounces the rammer off.
func RamSucceeds(rammer, other int) bool { return rammer > other }

// EventComes says whether a course event that comes on a roll comes this
// turn: the d6 must show needs or more.
func EventComes(face, needs int) bool { return face >= needs }

// AggressiveGain is the Momentum that driving aggressively gives at a total
// (the d6 and the driver's modifiers): a special check, one on a 4, two on
// anything higher, and a Racing Check's losses at 1 and below.
func AggressiveGain(total int) int {
	switch {
	case total == 4:
		return 1
	case total > 4:
		return 2
	}
	return RacingCheck(total).Momentum()
}
