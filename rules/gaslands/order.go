package gaslands

import (
	"strconv"
	"strings"

	"pitwall/race"
)

// Order is one activation's orders. By post a racer cannot see the skid dice
// before choosing, so the choices the rules make after the roll (Push It,
// SHIFT results, the spin) are given in advance as plain instructions:
//
//	gentle left skid 2 push shift up spin right 45 boost medium shell Luigi smash
//
// The template comes first (a side for every template but a straight); the
// rest in any order. The canonical text (String) puts them in that order.
type Order struct {
	Template string `json:"template"`
	Left     bool   `json:"left,omitempty"`
	Side     bool   `json:"side,omitempty"`  // a side was given (every template but a straight needs one)
	Skid     int    `json:"skid,omitempty"`  // skid dice to roll, 0 to the kart's Handling
	Push     bool   `json:"push,omitempty"`  // Push It: re-roll every die not showing SHIFT, once
	Shift    int    `json:"shift,omitempty"` // gears to shift with SHIFT results: +n up, -n down
	// Spin: which way to turn if a SPIN stands, and how far (1 to 90 degrees);
	// SpinSet false turns the kart to face down the road, 90 degrees at most.
	SpinSet   bool    `json:"spin_set,omitempty"`
	SpinLeft  bool    `json:"spin_left,omitempty"`
	SpinDeg   float64 `json:"spin_deg,omitempty"`
	Boost     string  `json:"boost,omitempty"` // the forced move off a boost: medium, gentle or turn
	BoostLeft bool    `json:"boost_left,omitempty"`
	Shell     string  `json:"shell,omitempty"`   // the target of a held shell
	Bill      bool    `json:"bill,omitempty"`    // fire a held Bullet Bill
	Collide   string  `json:"collide,omitempty"` // "smash" or "evade" from now on ("" keeps the kart's choice)
}

// BoostTemplates are the forced moves a boost allows (the text: a medium
// straight, a gentle curve or a curve).
var BoostTemplates = []string{"medium", "gentle", "turn"}

func sideName(left bool) string {
	if left {
		return "left"
	}
	return "right"
}

// String is the canonical text of the order.
func (o Order) String() string {
	w := []string{o.Template}
	if o.Side {
		w = append(w, sideName(o.Left))
	}
	if o.Skid > 0 {
		w = append(w, "skid", strconv.Itoa(o.Skid))
	}
	if o.Push {
		w = append(w, "push")
	}
	switch {
	case o.Shift == 1:
		w = append(w, "shift up")
	case o.Shift > 1:
		w = append(w, "shift up", strconv.Itoa(o.Shift))
	case o.Shift == -1:
		w = append(w, "shift down")
	case o.Shift < -1:
		w = append(w, "shift down", strconv.Itoa(-o.Shift))
	}
	if o.SpinSet {
		w = append(w, "spin", sideName(o.SpinLeft), strconv.FormatFloat(o.SpinDeg, 'f', -1, 64))
	}
	if o.Boost != "" {
		w = append(w, "boost", o.Boost)
		if o.Boost != "medium" {
			w = append(w, sideName(o.BoostLeft))
		}
	}
	if o.Shell != "" {
		w = append(w, "shell", o.Shell)
	}
	if o.Bill {
		w = append(w, "bill")
	}
	if o.Collide != "" {
		w = append(w, o.Collide)
	}
	return strings.Join(w, " ")
}

// Parse reads an order's words against the race's templates m. It checks the
// syntax only; whether the kart may do it now is the ruleset's to say.
func Parse(text string, m Maneuvers) (Order, error) {
	w := strings.Fields(strings.ToLower(strings.NewReplacer(",", " ", ";", " ").Replace(text)))
	var o Order
	if len(w) == 0 {
		return o, race.NotUnderstood("no_template", "an order starts with a template (%s), then a side for a turn: \"gentle left\"", strings.Join(templateNames(m), ", "))
	}
	t, err := m.Template(w[0])
	if err != nil {
		return o, race.NotUnderstood("unknown_template", "an order starts with a template: %v", err)
	}
	o.Template = t.Name
	i := 1
	if i < len(w) && (w[i] == "left" || w[i] == "right") {
		if t.Straight() {
			return o, race.NotUnderstood("straight_has_no_side", "the %s straight has no side; drop %q", t.Name, w[i])
		}
		o.Side, o.Left = true, w[i] == "left"
		i++
	} else if !t.Straight() {
		return o, race.NotUnderstood("side_needed", "the %s template needs a side: \"%s left\" or \"%s right\"", t.Name, t.Name, t.Name)
	}
	seen := map[string]bool{}
	number := func(what string, lo, hi int) (int, error) {
		if i >= len(w) {
			return 0, race.NotUnderstood("number_needed", "%s needs a number, %d to %d", what, lo, hi)
		}
		n, err := strconv.Atoi(w[i])
		if err != nil || n < lo || n > hi {
			return 0, race.NotUnderstood("number_out_of_range", "%s takes a number %d to %d; got %q", what, lo, hi, w[i])
		}
		i++
		return n, nil
	}
	for i < len(w) {
		word := w[i]
		i++
		key := word
		if key == "smash" || key == "evade" {
			key = "collide"
		}
		if seen[key] {
			return o, race.NotUnderstood("given_twice", "%q is given twice", word)
		}
		seen[key] = true
		switch word {
		case "skid":
			n, err := number("skid", 0, MaxSkidDice)
			if err != nil {
				return o, err
			}
			o.Skid = n
		case "push":
			o.Push = true
		case "shift":
			if i >= len(w) || (w[i] != "up" && w[i] != "down") {
				return o, race.NotUnderstood("bad_shift", "shift is \"shift up\" or \"shift down\", with a number of gears if more than one")
			}
			dir := 1
			if w[i] == "down" {
				dir = -1
			}
			i++
			n := 1
			if i < len(w) {
				if v, err := strconv.Atoi(w[i]); err == nil {
					if v < 1 || v > MaxGear-1 {
						return o, race.NotUnderstood("shift_out_of_range", "shift takes 1 to %d gears; got %d", MaxGear-1, v)
					}
					n = v
					i++
				}
			}
			o.Shift = dir * n
		case "spin":
			if i >= len(w) || (w[i] != "left" && w[i] != "right") {
				return o, race.NotUnderstood("bad_spin", "spin is \"spin left\" or \"spin right\", with the degrees (1 to 90, default 90)")
			}
			o.SpinSet, o.SpinLeft, o.SpinDeg = true, w[i] == "left", 90
			i++
			if i < len(w) {
				if v, err := strconv.Atoi(w[i]); err == nil {
					if v < 1 || v > 90 {
						return o, race.NotUnderstood("spin_out_of_range", "a spin turns the kart 1 to 90 degrees; got %d", v)
					}
					o.SpinDeg = float64(v)
					i++
				}
			}
		case "boost":
			if i >= len(w) {
				return o, race.NotUnderstood("boost_needs_template", "boost names the forced move off a boost: %s (with a side for a curve)", strings.Join(BoostTemplates, ", "))
			}
			b := w[i]
			i++
			if b != "medium" && b != "gentle" && b != "turn" {
				return o, race.NotUnderstood("bad_boost_template", "off a boost the forced move is %s; got %q", strings.Join(BoostTemplates, ", "), b)
			}
			if _, err := m.Template(b); err != nil {
				return o, race.NotUnderstood("no_boost_template", "this race has no %s template for a boost", b)
			}
			o.Boost = b
			if b != "medium" {
				if i >= len(w) || (w[i] != "left" && w[i] != "right") {
					return o, race.NotUnderstood("boost_needs_side", "boost %s needs a side: \"boost %s left\" or \"boost %s right\"", b, b, b)
				}
				o.BoostLeft = w[i] == "left"
				i++
			}
		case "shell":
			if i >= len(w) {
				return o, race.NotUnderstood("shell_needs_target", "shell names its target: \"shell Luigi\", \"shell 2\" (a seat) or \"shell nearest\" (the nearest kart in reach after the move)")
			}
			o.Shell = w[i]
			i++
		case "bill":
			o.Bill = true
		case "smash", "evade":
			o.Collide = word
		default:
			return o, race.NotUnderstood("unknown_word", "%q is not part of an order; after the template come skid N, push, shift up|down [N], spin left|right [DEG], boost TEMPLATE [SIDE], shell TARGET, bill, smash or evade", word)
		}
	}
	if o.Shell != "" && o.Bill {
		return o, race.NotUnderstood("one_item", "a kart holds one item: shell or bill, not both")
	}
	if o.Push && o.Skid == 0 {
		return o, race.NotUnderstood("push_needs_skid", "push re-rolls skid dice: roll some first (\"skid 2 push\")")
	}
	// A gear a SHIFT: the dice's, and at most one free one of a trivial
	// template. Whether this template gives it is the kart's gear's to say
	// (legal); more than that no template can give.
	if n := abs(o.Shift); n > o.Skid+1 {
		return o, race.NotUnderstood(CodeShiftTooFar, "shifting %s takes %s; %s and a trivial template's free SHIFT give at most %d", plural(n, "gear"), plural(n, "SHIFT result"), plural(o.Skid, "skid die"), o.Skid+1)
	}
	return o, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func templateNames(m Maneuvers) []string {
	var out []string
	for _, t := range m.Templates {
		out = append(out, t.Name)
	}
	return out
}
