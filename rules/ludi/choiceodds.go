package ludi

import (
	"math/big"
	"strings"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/rules/ludi/tables"
)

// The outcomes of one order's move, as Choice.Odds names them. Each is the
// first of them that happens to the chariot during the order; later harm
// (a slip's damage, a wall's) is not told apart.
const (
	OutNone          = "none"           // none of the others
	OutSlip          = "slip"           // the cornering table slips the chariot
	OutNaufragia     = "naufragia"      // the chariot flips (a corner, or a crash's recoil)
	OutWall          = "wall"           // the move ends against a wall and the contact roll hurts
	OutHorsesStopped = "horses_stopped" // the horses lose their fourth point (whip, an obstacle)
	OutThrown        = "thrown"         // hanging on to a wreck, the auriga is thrown clear
)

// Outcomes lists every outcome name, in the order Odds keeps them.
var Outcomes = []string{OutNone, OutSlip, OutNaufragia, OutWall, OutHorsesStopped, OutThrown}

// orderOdds works out, exactly, the odds of each outcome when the chariot in
// seat gives k as its first order, and the level it then moves at. The odds
// come from the resolver itself, run on every distinct throw of the dice
// that can change the outcome, so they cannot drift from the rules. The
// other chariots are taken as they stand: those acting first this turn may
// still move out of the way or into it, and this order's move is all that
// is counted (a later order plays from where it ends).
func (s *State) orderOdds(seat int, k Kind) (tables.Level, map[string]float64) {
	base := s.clone()
	base.Orders = 1 // the first order's move is the same whatever follows it
	var me *Chariot
	for i := range base.Chariots {
		c := &base.Chariots[i]
		if c.Seat == seat {
			me = c
		} else if c.Active() {
			c.Out = RolledAway // an obstacle where it stands, with no turn of its own
		}
	}
	orders := map[int]Orders{seat: {Steps: []Step{{Kind: k}}}}
	e := &enumeration{c: *me, k: k, total: map[string]*big.Rat{}, level: tables.Stop}
	for _, o := range Outcomes {
		e.total[o] = new(big.Rat)
	}
	e.walk(nil, big.NewRat(1, 1), func(src dice.Source) (*State, []race.Event, []dice.Roll) {
		d := dice.WithSource(src)
		after, ev := resolve(base, orders, d)
		return after, ev, d.Log()
	})
	out := make(map[string]float64, len(e.total))
	for o, p := range e.total {
		out[o], _ = p.Float64()
	}
	return e.level, out
}

// enumeration walks the tree of the dice one move can throw.
type enumeration struct {
	c     Chariot // before the turn
	k     Kind
	total map[string]*big.Rat
	level tables.Level
}

// group is the faces of one roll that lead the same way: a representative
// face and how many faces it stands for.
type group struct{ face, n int }

// walk runs the move on the faces given and, at the first later roll whose
// face can change the outcome, branches on each group of its faces; with no
// such roll left, the run's outcome takes the weight w.
func (e *enumeration) walk(faces []int, w *big.Rat, run func(dice.Source) (*State, []race.Event, []dice.Roll)) {
	src := &dice.Prefix{Faces: faces}
	after, ev, log := run(src)
	for j := len(faces); j < len(src.Asked); j++ {
		gs := e.groups(log[j], src.Asked[j])
		if gs == nil {
			continue
		}
		var head []int // the faces the run showed before roll j
		for _, r := range log[:j] {
			head = append(head, r.Face)
		}
		for _, g := range gs {
			e.walk(append(head, g.face), new(big.Rat).Mul(w, big.NewRat(int64(g.n), int64(src.Asked[j].Sides()))), run)
		}
		return
	}
	for _, r := range log {
		if l, ok := levelOf(r.Reason); ok && r.Seat == e.c.Seat {
			e.level = l
		}
	}
	o := e.outcome(after, ev)
	e.total[o].Add(e.total[o], w)
}

// levelOf reads the level from a speed roll's reason ('Name: speed FAST').
func levelOf(reason string) (tables.Level, bool) {
	for _, l := range []tables.Level{tables.Low, tables.Fast, tables.Max} {
		if strings.HasSuffix(reason, ": speed "+l.String()) {
			return l, true
		}
	}
	return tables.Stop, false
}

// groups splits the faces of a roll by where they lead, or returns nil for a
// roll that cannot change the outcome (it comes after the outcome is known,
// or harms another chariot).
func (e *enumeration) groups(r dice.Roll, d dice.Die) []group {
	c := &e.c
	if r.Seat != c.Seat {
		return nil
	}
	why := strings.TrimPrefix(r.Reason, c.Name+": ")
	var key func(v int) any
	switch {
	case why == "whip success":
		key = func(v int) any { ok, plus := tables.WhipSuccess(c.Endurance, v); return [2]any{ok, plus} }
	case why == "whip damage":
		key = func(v int) any { return tables.WhipHurts(c.Endurance, v) }
	case strings.HasPrefix(why, "speed "):
		key = func(v int) any { return v }
	case why == "wall contact":
		key = func(v int) any { return tables.WallDamage(c.Skill, v) }
	case why == "hang on":
		key = func(v int) any { return tables.FallDamage(c.Team.Constitution, v) }
	case e.k.IsCrash() && (c.DamageL == 2 || c.DamageR == 2) &&
		(why == "crash" || why == "crash damage" || strings.HasPrefix(why, "strike horses")):
		// The recoil of a crash could break the third point off a side:
		// every face counts.
		key = func(v int) any { return v }
	default:
		return nil
	}
	var gs []group
	at := map[any]int{}
	for i, v := range d.Faces {
		kv := key(v)
		if j, ok := at[kv]; ok {
			gs[j].n++
			continue
		}
		at[kv] = len(gs)
		gs = append(gs, group{face: i, n: 1})
	}
	return gs
}

// outcome is the first outcome the events of a run show for the chariot.
func (e *enumeration) outcome(after *State, ev []race.Event) string {
	for _, x := range ev {
		if x.Seat != e.c.Seat {
			continue
		}
		switch x.Kind {
		case "slip":
			return OutSlip
		case "naufragia":
			return OutNaufragia
		case "wall":
			// A wall event carries its contact roll first.
			if tables.WallDamage(e.c.Skill, x.Rolls[0].Result) {
				return OutWall
			}
		case "out":
			switch after.chariot(e.c.Seat).Out {
			case HorsesStopped:
				return OutHorsesStopped
			case Thrown:
				return OutThrown
			}
		}
	}
	return OutNone
}
