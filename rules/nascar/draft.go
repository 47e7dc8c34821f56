package nascar

import (
	"errors"
	"strings"

	"pitwall/race"
)

// DraftCheck is a draft order checked as far as it goes, for a page that
// checks an order letter by letter as the racer writes it.
type DraftCheck struct {
	Draft string `json:"draft"`
	// Complete says the draft is a whole legal order as it stands; Plan is
	// then what it does.
	Complete bool  `json:"complete"`
	Plan     *Plan `json:"plan,omitempty"`
	// Next lists the letters that may be written next and still leave an
	// order that can be finished legally; empty when none can.
	Next []string `json:"next"`
	// Code and Reason say why the draft cannot be finished (Next empty and
	// not Complete), or, for a draft that is not yet whole, what it lacks.
	Code   string `json:"code,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// Draft checks a draft order against a car: whether it is whole, and which
// letters may come next. A letter may come next when some way of going on
// from it (more speed changes before the moves, more moves, nothing more)
// is legal: a turn's letters are few, so every such way is tried.
func Draft(c Car, draft string) DraftCheck {
	out := DraftCheck{Draft: draft, Next: []string{}}
	o, err := Parse(draft)
	if strings.TrimSpace(draft) == "" {
		err = nil // nothing written yet: every start is open
	} else if err == nil {
		var p Plan
		if p, err = Check(o, c); err == nil {
			out.Complete, out.Plan = true, &p
		}
	}
	var oe *race.OrderError
	if errors.As(err, &oe) {
		out.Code, out.Reason = oe.ErrCode(), oe.Reason
	}
	if err != nil && oe != nil && oe.Kind == race.Invalid {
		return out // not understood: no letter mends it
	}
	for _, l := range []string{"S", "A", "B", "M", "L", "R"} {
		if completable(c, draft+l) {
			out.Next = append(out.Next, l)
		}
	}
	return out
}

// completable says some legal order begins with draft.
func completable(c Car, draft string) bool {
	o, err := Parse(draft)
	if err != nil || len(o.Moves) > c.MaxSpeed || len(o.Before)+len(o.After) > 5 {
		return false // no letter after it can mend too many moves, or speed changes past S, AA and BB
	}
	// Check counts letters and does not mind their order, so each way on
	// is tried once: speed changes before the moves (while there are no
	// moves yet), moves, speed changes after.
	speeds := []string{"", "A", "AA", "B", "BB", "AB", "AAB", "ABB", "AABB"}
	before := []string{""}
	if len(o.Moves) == 0 && len(o.After) == 0 {
		before = speeds
	}
	moves := []string{""}
	if len(o.After) == 0 {
		for k := 1; k <= c.MaxSpeed; k++ {
			moves = append(moves, strings.Repeat("M", k))
		}
	}
	var tails []string
	for _, b := range before {
		for _, m := range moves {
			for _, a := range speeds {
				if m == "" && a != "" && b != "" {
					continue // with no moves, A and B after are the same as before
				}
				tails = append(tails, b+m+a)
			}
		}
	}
	for _, t := range tails {
		if o, err := Parse(draft + t); err == nil {
			if _, err := Check(o, c); err == nil {
				return true
			}
		}
	}
	return false
}
