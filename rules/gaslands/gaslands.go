package gaslands

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

func init() { race.Register(Ruleset{}) }

// Ruleset is the gaslands ruleset. A race turn is one activation: the kart
// whose turn it is in the gear phase sends its orders, and the post tells
// what happened.
type Ruleset struct{}

// defaultTrack is the track of a race that names none; it is listed first.
const defaultTrack = "luigi-raceway"

// Setup implements race.Ruleset: karts on the grid in seat order, pole
// first, in gear 1 with no hazards.
func (Ruleset) Setup(cfg race.Config, entrants []race.Entrant, d *dice.Roller) (race.State, error) {
	t, laps, err := race.TrackAndLaps(cfg, defaultTrack, LoadTrack, func(x *Track) int { return x.Laps })
	if err != nil {
		return nil, err
	}
	m, err := LoadDefaultManeuvers()
	if err != nil {
		return nil, err
	}
	s := &State{TrackID: t.ID, Laps: laps, M: m, track: t, Round: 1, Phase: 1}
	// Templates first, so that a chart row can name a template the race
	// adds; the list of the race's templates last, once all are there.
	rank := func(k string) int {
		switch {
		case strings.HasPrefix(k, "template."):
			return 0
		case k == "templates":
			return 2
		}
		return 1
	}
	keys := sortedKeys(cfg.Options)
	sort.SliceStable(keys, func(i, j int) bool { return rank(keys[i]) < rank(keys[j]) })
	for _, k := range keys {
		v := cfg.Options[k]
		if k == "six-is-one" {
			switch v {
			case "true", "yes", "1":
				s.SixIsOne = true
			case "false", "no", "0":
			default:
				return nil, fmt.Errorf("six-is-one is true or false; got %q", v)
			}
			continue
		}
		if ok, err := s.setReading(k, v); ok || err != nil {
			if err != nil {
				return nil, err
			}
			continue
		}
		ok, err := s.M.Apply(k, v)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, fmt.Errorf("unknown race option %q; gaslands options: %s ('pitwall rules gaslands' says what each takes; the number of laps is --laps)", k, optionUsage())
		}
	}
	names := map[string]bool{}
	for i, e := range entrants {
		if strings.TrimSpace(e.Player) == "" {
			return nil, fmt.Errorf("entrant %d has no player name", i+1)
		}
		if len(e.Racers) != 1 {
			return nil, fmt.Errorf("%s enters %d karts; a player drives one", e.Player, len(e.Racers))
		}
		name := strings.TrimSpace(e.Racers[0])
		if strings.EqualFold(name, NearestTarget) {
			return nil, fmt.Errorf("%s: %q is a word of the orders (shell nearest); choose another name", e.Player, name)
		}
		if name == "" || names[strings.ToLower(name)] || strings.ContainsAny(name, " \t") {
			return nil, fmt.Errorf("%s: every kart needs a one-word name of its own (orders name their targets); %q is empty, taken or has spaces", e.Player, name)
		}
		if _, err := strconv.Atoi(name); err == nil {
			return nil, fmt.Errorf("%s: a kart's name is not a number (orders may name a target by seat); got %q", e.Player, name)
		}
		names[strings.ToLower(name)] = true
		v, _ := VehicleNamed("car")
		for key, val := range e.Options {
			if key != "vehicle" {
				return nil, fmt.Errorf("%s: unknown choice %q; a gaslands kart chooses its vehicle (vehicle=buggy)", e.Player, key)
			}
			if v, err = VehicleNamed(val); err != nil {
				return nil, fmt.Errorf("%s: %v", e.Player, err)
			}
		}
		s.Karts = append(s.Karts, v.kart(len(s.Karts), e.Player, name))
	}
	if len(s.Karts) < 2 {
		return nil, fmt.Errorf("%w: a race needs at least 2 karts; %d entered", race.ErrTooFew, len(s.Karts))
	}
	if len(s.Karts) > t.Seats {
		return nil, fmt.Errorf("%s has a grid of %d; %d karts entered", t.Name, t.Seats, len(s.Karts))
	}
	for i, r := range t.Grid(len(s.Karts)) {
		s.Karts[i].Pos = r
	}
	s.Active = -1
	s.advance()
	return s, nil
}

// readings set the state's choice between two readings of the text, by
// the race option of that name (checked against its field first).
var readings = map[string]func(s *State, v string){
	"trivial":  func(s *State, v string) { s.TrivialToken = v == "token" },
	"bill":     func(s *State, v string) { s.BillEveryAct = v == "every-activation" },
	"kart-hit": func(s *State, v string) { s.KartHitStops = v == "stop" },
}

// setReading sets the reading that race option k names to v; it reports
// whether k names one, and refuses a value its field does not take.
func (s *State) setReading(k, v string) (bool, error) {
	set, ok := readings[k]
	if !ok {
		return false, nil
	}
	f, _ := race.FieldNamed(game().Options, k)
	w, err := f.Chosen(v)
	if err != nil {
		return true, err
	}
	set(s, w)
	return true, nil
}

// optionUsage lists the race options as KEY=VALUES, for an unknown one's error.
func optionUsage() string {
	var out []string
	for _, f := range game().Options {
		if f.Type != race.File {
			out = append(out, f.Name+"="+f.Usage())
		}
	}
	return strings.Join(out, ", ")
}

// advance finds the next kart to activate: in the gear phase, every kart in
// that gear or higher, from pole position round the seats; after phase 6 the
// round ends and pole position passes to the next seat (the text).
func (s *State) advance() {
	n := len(s.Karts)
	for guard := 0; guard < 8*(n+1)*(MaxGear+1); guard++ {
		if s.Done {
			s.Active = -1
			return
		}
		if s.Next < n {
			i := (s.Pole + s.Next) % n
			s.Next++
			if k := s.Karts[i]; !k.Finished && k.Gear >= s.Phase {
				s.Active = i
				return
			}
			continue
		}
		s.Phase, s.Next = s.Phase+1, 0
		if s.Phase <= MaxGear {
			continue
		}
		// The round is over.
		if s.placed() > 0 || s.Round >= s.MaxRounds() {
			s.Done = true
			continue
		}
		s.Round, s.Phase = s.Round+1, 1
		s.Pole = (s.Pole + 1) % n
	}
	s.Done, s.Active = true, -1 // cannot happen: every round has a phase 1 with every kart in it
}

// Prompts implements race.Ruleset: the active kart, with the templates its gear permits.
func (Ruleset) Prompts(st race.State) []race.Prompt {
	s := st.(*State)
	if s.Done || s.Active < 0 {
		return nil
	}
	k := s.Karts[s.Active]
	var legal []string
	for _, name := range s.M.Allowed(k.Gear) {
		t, _ := s.M.Template(name)
		c := s.M.Class(name, k.Gear)
		tag := ""
		if c == Trivial || c == Hazardous {
			tag = " (" + c.String() + ")"
		}
		if t.Straight() {
			legal = append(legal, name+tag)
		} else {
			legal = append(legal, name+" left"+tag, name+" right"+tag)
		}
	}
	note := fmt.Sprintf("round %d, gear phase %d: gear %d of %d, %s, Handling %d (up to %d skid dice)", s.Round, s.Phase, k.Gear, k.MaxGear, plural(k.Hazards, "hazard"), k.Handling, k.Handling)
	if k.Item != "" {
		note += ", holding " + itemName(k.Item)
		if k.Item != BulletBill {
			// Pre-measuring is allowed for attacks: what the shell reaches from here.
			var reach []string
			for j, x := range s.Karts {
				if j == s.Active || x.Finished {
					continue
				}
				if a := Aim(s, s.Active, j, k.Item); a.Reason == "" {
					r := fmt.Sprintf("%s %.0f mm", x.Name, a.Range)
					if a.Cover {
						r += " in cover"
					}
					reach = append(reach, r)
				}
			}
			if len(reach) > 0 {
				note += " (in reach from here: " + strings.Join(reach, ", ") + ")"
			}
		}
	}
	return []race.Prompt{{Seat: k.Seat, Name: k.Name, Turn: s.Turn(), Orders: 1, Legal: legal, Note: note}}
}

// ParseOrder implements race.Ruleset.
func (Ruleset) ParseOrder(st race.State, sub race.Submission) (race.Order, error) {
	s := st.(*State)
	parse := func(text string) (Order, error) { return Parse(text, s.M) } // an OrderError of kind Invalid, with its code
	return race.ReadOrder(sub, s.orderer, parse, func(seat int, o Order) (Order, error) {
		return o, s.legal(seat, o)
	})
}

// orderer is seat, if its kart may order now: only the kart whose
// activation it is.
func (s *State) orderer(seat int) (int, error) {
	if err := s.seated(seat); err != nil {
		return 0, err
	}
	if s.Done || s.Active < 0 {
		return 0, race.NotAllowed(CodeRaceOver, "the race is over")
	}
	if seat != s.Active {
		return 0, race.NotAllowed(CodeNotYourActivation, "it is %s's activation, not %s's", s.Karts[s.Active].Name, s.Karts[seat].Name)
	}
	return seat, nil
}

// seated refuses a seat no kart sits in: ParseOrder and Choices alike.
func (s *State) seated(seat int) error {
	if seat < 0 || seat >= len(s.Karts) {
		return race.NotAllowed(CodeNoSeat, "there is no seat %d in this race (seats 0 to %d)", seat, len(s.Karts)-1)
	}
	return nil
}

// The codes of gaslands' refused orders (race.OrderError.Code): stable
// names a page or a bot can act on, whatever the reason's wording.
const (
	CodeNoSeat            = "no_such_seat"
	CodeRaceOver          = "race_over"
	CodeNotYourActivation = "not_your_activation"
	CodeNotPermitted      = "template_not_permitted" // the chart says X in the kart's gear
	CodeOverHandling      = "skid_over_handling"     // more skid dice than the kart's Handling
	CodeAboveTopGear      = "shift_above_top_gear"
	CodeBelowFirstGear    = "shift_below_first_gear"
	CodeNoShell           = "no_shell_held"
	CodeNoSuchKart        = "no_such_kart"
	CodeShellAtSelf       = "shell_at_self"
	CodeTargetFinished    = "target_finished"
	CodeNoBill            = "no_bill_held"
	CodeShiftNeedsSkid    = "shift_needs_skid" // a shift with no SHIFT to make it
	CodeShiftTooFar       = "shift_too_far"    // more gears than SHIFTs
)

// legal checks an order against the kart's gear, Handling and item.
func (s *State) legal(i int, o Order) error {
	k := s.Karts[i]
	if c := s.M.Class(o.Template, k.Gear); c == NotPermitted {
		return race.NotAllowed(CodeNotPermitted, "the %s is not permitted in gear %d; gear %d permits %s", o.Template, k.Gear, k.Gear, strings.Join(s.M.Allowed(k.Gear), ", "))
	}
	if o.Skid > k.Handling {
		return race.NotAllowed(CodeOverHandling, "%s's Handling is %d: skid 0 to %d, not %d", k.Name, k.Handling, k.Handling, o.Skid)
	}
	// Each gear shifted takes a SHIFT: of the skid dice, or a trivial
	// template's free one (trivial=shift).
	free := 0
	if s.skidRule(s.M.Class(o.Template, k.Gear), o).freeShift {
		free = 1
	}
	// (Parse refuses more than the dice and one free SHIFT could give.)
	if n := abs(o.Shift); n > o.Skid+free {
		if o.Skid == 0 {
			return race.NotAllowed(CodeShiftNeedsSkid, "shifting gear takes SHIFT results: roll skid dice (\"%s skid 2 shift up\"), or take a template trivial in gear %d for its free SHIFT", o.Template, k.Gear)
		}
		return race.NotAllowed(CodeShiftTooFar, "shifting %s takes %s, and %s can give at most %d: the %s is not trivial in gear %d", plural(n, "gear"), plural(n, "SHIFT result"), plural(o.Skid, "skid die"), o.Skid, o.Template, k.Gear)
	}
	if o.Shift > 0 && k.Gear+o.Shift > k.MaxGear {
		return race.NotAllowed(CodeAboveTopGear, "%s is in gear %d with a top gear of %d: it cannot shift up %d", k.Name, k.Gear, k.MaxGear, o.Shift)
	}
	if o.Shift < 0 && k.Gear+o.Shift < 1 {
		return race.NotAllowed(CodeBelowFirstGear, "%s is in gear %d: it cannot shift down %d", k.Name, k.Gear, -o.Shift)
	}
	if o.Shell != "" {
		j := s.kartByName(o.Shell)
		switch {
		case k.Item != GreenShell && k.Item != RedShell:
			return race.NotAllowed(CodeNoShell, "%s holds no shell (%s)", k.Name, itemName(k.Item))
		case o.Shell == NearestTarget:
		case j < 0:
			return race.NotAllowed(CodeNoSuchKart, "no kart called %q in this race; a shell names a kart, a seat number or nearest", o.Shell)
		case j == i:
			return race.NotAllowed(CodeShellAtSelf, "%s cannot throw a shell at itself; name another kart", k.Name)
		case s.Karts[j].Finished:
			return race.NotAllowed(CodeTargetFinished, "%s has finished; name a kart still racing, or nearest", s.Karts[j].Name)
		}
	}
	if o.Bill && k.Item != BulletBill {
		return race.NotAllowed(CodeNoBill, "%s holds no Bullet Bill (%s)", k.Name, itemName(k.Item))
	}
	return nil
}

// DefaultOrder implements race.Ruleset: a kart whose racer sends nothing
// drives on along the road with the template that gains the most ground
// without a hazard, rolling no skid dice.
func (Ruleset) DefaultOrder(st race.State, seat int) race.Order {
	s := st.(*State)
	if seat < 0 || seat >= len(s.Karts) {
		return Order{Template: s.M.Templates[0].Name}
	}
	return plan(s, seat)
}

// Resolve implements race.Ruleset: the active kart's activation.
func (Ruleset) Resolve(st race.State, orders map[int]race.Order, d *dice.Roller, _ time.Time) (race.State, []race.Event, error) {
	old := st.(*State)
	if old.Done {
		return nil, nil, fmt.Errorf("the race is over")
	}
	s := old.clone()
	os, err := race.OrdersAs[Order]("gaslands", orders)
	if err != nil {
		return nil, nil, err
	}
	o, ok := os[s.Active]
	if !ok {
		o = plan(s, s.Active)
	}
	if err := s.legal(s.Active, o); err != nil {
		o = plan(s, s.Active) // cannot happen for a parsed order: the state has not changed
	}
	p := &play{s: s, d: d}
	p.say(-1, "phase", "Round %d, gear phase %d.", s.Round, s.Phase)
	p.activate(o)
	s.Last = p.act
	s.Act++
	s.advance()
	if s.Done {
		p.say(-1, "end", "The race is over.")
	}
	return s, p.ev, nil
}

// Standings implements race.Ruleset: finishers by place, then by distance round the race.
func (Ruleset) Standings(st race.State) race.Standings {
	s := st.(*State)
	idx := make([]int, len(s.Karts))
	for i := range idx {
		idx[i] = i
	}
	dist := make([]float64, len(s.Karts))
	for i, k := range s.Karts {
		dist[i] = s.Distance(k)
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ka, kb := s.Karts[idx[a]], s.Karts[idx[b]]
		switch {
		case ka.Finished != kb.Finished:
			return ka.Finished
		case ka.Finished:
			return ka.Place < kb.Place
		}
		return dist[idx[a]] > dist[idx[b]]
	})
	var out race.Standings
	for _, i := range idx {
		k := s.Karts[i]
		st := race.Standing{Place: len(out) + 1, Seat: k.Seat, Name: k.Name, Player: k.Player, Status: "racing"}
		if k.Finished {
			st.Status, st.Detail = "finished", fmt.Sprintf("activation %d", k.FinishAt)
		} else {
			st.Detail = fmt.Sprintf("lap %d of %d, gear %d, %s", max(1, min(k.Lap, s.Laps)), s.Laps, k.Gear, plural(k.Hazards, "hazard"))
		}
		out = append(out, st)
	}
	return out
}

// DecodeState implements race.Ruleset.
func (Ruleset) DecodeState(b []byte) (race.State, error) { return decode(b) }

// road heading difference, for the bot and the default.
func angleTo(from, to float64) float64 { return math.Remainder(to-from, 2*math.Pi) }

// Set implements race.Ruleset: gaslands has no settings for an activation.
func (Ruleset) Set(race.State, string, string) (race.State, error) {
	return nil, fmt.Errorf("gaslands has no settings for an activation")
}
