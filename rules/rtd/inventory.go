package rtd

import (
	"fmt"
	"slices"
	"strings"

	"pitwall/internal/words"
)

// A racer's items (the text's inventory) are Hand, the item in front, and
// Bag, the rest. Dragged items come first, each group in the order taken:
// the text has a dragged item used before any other is deployed, so the
// item in front is what a bare 'item' deploys and, if any item is dragged,
// the one dragged behind the kart. How many a racer may hold is the race
// option inventory. The slices are never written in place: a state's
// clone shares them.

// items are everything x holds, the item in front first.
func (x *Racer) items() []Item {
	if x.Hand == 0 {
		return nil
	}
	return append([]Item{x.Hand}, x.Bag...)
}

// setItems makes its x's items, in that order.
func (x *Racer) setItems(its []Item) {
	x.Hand, x.Bag = 0, nil
	if len(its) > 0 {
		x.Hand = its[0]
	}
	if len(its) > 1 {
		x.Bag = slices.Clone(its[1:])
	}
}

// holding says whether x holds an it.
func (x *Racer) holding(it Item) bool { return it != 0 && slices.Contains(x.items(), it) }

// holdsNamed says whether x holds the item of that name (a path's).
func (x *Racer) holdsNamed(name string) bool {
	it, err := ParseItem(name)
	return err == nil && x.holding(it)
}

// give adds it to x's items: a dragged item after the dragged ones, any
// other last. A triple red shell's shells are the caller's to add.
func (x *Racer) give(it Item) {
	its := x.items()
	at := len(its)
	if it.Dragged() {
		at = 0
		for at < len(its) && its[at].Dragged() {
			at++
		}
	}
	x.setItems(slices.Insert(its, at, it))
}

// drop takes x's first it away.
func (x *Racer) drop(it Item) {
	its := x.items()
	if i := slices.Index(its, it); i >= 0 {
		x.setItems(slices.Delete(its, i, i+1))
	}
}

// spend takes it from x as deploying it does: the item, or of a triple red
// shell one shell, and the item when one triple's shells are spent.
func (x *Racer) spend(it Item) {
	if it != TripleRedShell {
		x.drop(it)
		return
	}
	if x.Shells <= 0 {
		x.Shells = 3
	}
	x.Shells--
	if x.Shells <= 3*(x.count(TripleRedShell)-1) {
		x.drop(TripleRedShell)
	}
}

// addShells sets n more red shells orbiting the triple red shell x has just
// been given. Shells left over with no triple to orbit (a state stored
// before items were pooled may hold them) go first, so x never holds more
// than three a triple.
func (x *Racer) addShells(n int) {
	x.Shells = max(0, min(x.Shells, 3*(x.count(TripleRedShell)-1))) + n
}

// loseAll takes every item x holds, orbiting shells and all.
func (x *Racer) loseAll() { x.Hand, x.Bag, x.Shells = 0, nil, 0 }

// count is how many its x holds.
func (x *Racer) count(it Item) int {
	n := 0
	for _, y := range x.items() {
		if y == it {
			n++
		}
	}
	return n
}

// itemsText names x's items for the board and the cases: "banana,
// mushroom", a triple red shell with its shells left ("triple-red-shell
// x2"); "" for none.
func (x *Racer) itemsText() string {
	var out []string
	shells := false
	for _, it := range x.items() {
		s := it.String()
		if it == TripleRedShell && !shells { // the orbiting shells, counted once
			s += fmt.Sprintf(" x%d", x.Shells)
			shells = true
		}
		out = append(out, s)
	}
	return strings.Join(out, ", ")
}

// holds says what x holds, for errors: "Mario holds a banana and a mushroom".
func (x *Racer) holds() string {
	if x.Hand == 0 {
		return x.Name + " holds no item"
	}
	return x.Name + " holds " + x.itemsSaid()
}

// itemsSaid names x's items in a sentence: "a banana and a mushroom".
func (x *Racer) itemsSaid() string {
	var its []string
	for _, it := range x.items() {
		its = append(its, "a "+it.String())
	}
	return words.List(its)
}

// itemsInOrder says whether its are items of the chart, dragged ones first.
func itemsInOrder(its []Item) bool {
	for i, it := range its {
		if it < Banana || it > Thunderbolt || i > 0 && it.Dragged() && !its[i-1].Dragged() {
			return false
		}
	}
	return true
}
