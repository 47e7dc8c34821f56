// Package ludi plays the Nova Roma chariot race 'Ludi Circenses Supremi Novae
// Romae' (the Super Series): chariots on a lane grid, Formula D speed dice,
// fifteen orders, corners, crashes, lacerations and the whip.
//
// The rules reference, with every reading the text left open, is docs/rules/ludi.md.
package ludi

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"pitwall/dice"
	"pitwall/internal/racers"
	"pitwall/race"
	"pitwall/rules/ludi/tables"
)

// Ruleset is the ludi ruleset; it is registered as "ludi".
type Ruleset struct{}

func init() { race.Register(Ruleset{}) }

// defaultTrack is the track of a race that names none; it is listed first.
const defaultTrack = "circus-maximus"

func corners(t *Track) int {
	n := 0
	for _, s := range t.Segments {
		if s.Corner {
			n++
		}
	}
	return n
}

// characteristic names as racers write them.
var characteristics = []string{"skill", "constitution", "quality", "size", "speed", "endurance"}

// Packages are the six racing packages and the characteristics each gives,
// one point each (rules-notes.md; the pictures that listed them are lost).
// A host can change one with the race option package.NAME=a,b,c. Political
// gives no Size, as the text calls its chariots the team's least durable
// part, and Speed for its one horse point (docs/rules/ludi.md).
var Packages = map[string][3]string{
	"military":  {"skill", "constitution", "endurance"},
	"noble":     {"skill", "quality", "speed"},
	"political": {"skill", "constitution", "speed"},
	"priestly":  {"constitution", "quality", "speed"},
	"strength":  {"constitution", "size", "endurance"},
	"trader":    {"quality", "speed", "endurance"},
}

func packageNames() string {
	var n []string
	for k := range Packages {
		n = append(n, k)
	}
	sort.Strings(n)
	return strings.Join(n, ", ")
}

// BuildTeam adds up a package and two extra characteristics; each stays within 0-2.
func BuildTeam(pkg string, extras []string, options map[string]string) (Team, error) {
	pkg = strings.ToLower(strings.TrimSpace(pkg))
	chars, ok := Packages[pkg]
	list := chars[:]
	if len(options) > 0 { // most races change no package: no key to build
		if o, set := options["package."+pkg]; set {
			list = splitList(o)
			ok = true
		}
	}
	if !ok {
		for k := range options { // a race's own package whose key is not in lower case
			if name, is := strings.CutPrefix(k, "package."); is && strings.ToLower(name) == pkg {
				return Team{}, fmt.Errorf("unknown package %q: the race option %s defines none, as package names are read in lower case; write package.%s", pkg, k, pkg)
			}
		}
		return Team{}, fmt.Errorf("unknown package %q; packages: %s", pkg, packageNames())
	}
	if len(list) != 3 {
		return Team{}, fmt.Errorf("package %s must give three characteristics; the race's option gives %d", pkg, len(list))
	}
	if len(extras) != 2 {
		return Team{}, fmt.Errorf("a team picks two extra characteristics besides its package; got %d (choose from %s)", len(extras), strings.Join(characteristics, ", "))
	}
	var t Team
	add := func(c string) error {
		p := t.field(strings.ToLower(strings.TrimSpace(c)))
		if p == nil {
			return fmt.Errorf("unknown characteristic %q; characteristics: %s", c, strings.Join(characteristics, ", "))
		}
		*p++
		if *p > 2 {
			return fmt.Errorf("%s would reach %d with package %s and extras %s; a characteristic is at most 2", c, *p, pkg, strings.Join(extras, ", "))
		}
		return nil
	}
	for _, cs := range [2][]string{list, extras} { // the package's first, then the extras
		for _, c := range cs {
			if err := add(c); err != nil {
				return Team{}, err
			}
		}
	}
	return t, nil
}

func (t *Team) field(name string) *int {
	switch name {
	case "skill":
		return &t.Skill
	case "constitution":
		return &t.Constitution
	case "quality":
		return &t.Quality
	case "size":
		return &t.Size
	case "speed":
		return &t.Speed
	case "endurance":
		return &t.Endurance
	}
	return nil
}

func splitList(s string) []string {
	out := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	for i, f := range out {
		out[i] = strings.TrimSpace(f)
	}
	return out
}

// Setup implements race.Ruleset: teams from the entrants, the grid by lot.
func (Ruleset) Setup(cfg race.Config, entrants []race.Entrant, d *dice.Roller) (race.State, error) {
	t, laps, err := race.TrackAndLaps(cfg, defaultTrack, LoadTrack, func(x *Track) int { return x.Laps })
	if err != nil {
		return nil, err
	}
	rules, err := readOptions(cfg.Options)
	if err != nil {
		return nil, err
	}
	s := &State{TrackID: t.ID, T: 1, Laps: laps, Orders: 1, Rules: rules, track: t}
	n := 0
	for _, e := range entrants {
		n += len(e.Racers)
	}
	s.Chariots = make([]Chariot, 0, n)
	names := make(racers.Names, n)
	for i, e := range entrants {
		if strings.TrimSpace(e.Player) == "" {
			return nil, fmt.Errorf("entrant %d has no player name", i+1)
		}
		if len(e.Racers) < 1 || len(e.Racers) > 2 {
			return nil, fmt.Errorf("%s enters %d aurigae; a participant enters one or two", e.Player, len(e.Racers))
		}
		for k := range e.Options {
			if k != "package" && k != "extras" {
				return nil, fmt.Errorf("%s: unknown choice %q; a ludi entrant chooses a package and extras", e.Player, k)
			}
		}
		team, err := BuildTeam(e.Options["package"], splitList(e.Options["extras"]), cfg.Options)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Player, err)
		}
		for _, r := range e.Racers {
			n, err := names.Take(e.Player, "auriga", r)
			if err != nil {
				return nil, err
			}
			s.Chariots = append(s.Chariots, Chariot{Seat: len(s.Chariots), Player: e.Player, Name: n,
				Package: strings.ToLower(e.Options["package"]), Team: team, Skill: team.Skill, Endurance: team.Endurance})
		}
	}
	grid, err := race.DrawGrid(d, s.Seats(), len(t.Grid), t.Name, "chariots")
	if err != nil {
		return nil, err
	}
	trails := make([]Pos, len(grid))
	for i, g := range grid {
		c := &s.Chariots[i]
		slot := t.Grid[g]
		c.Pos = Pos{Lane: slot.Lane, Seg: 0, Cell: slot.Space}
		trails[i] = c.Pos
		c.Trail = trails[i : i+1 : i+1]
	}
	return s, nil
}

// Set implements race.Ruleset: "orders=N" sets how many orders the coming turn takes.
func (Ruleset) Set(st race.State, key, value string) (race.State, error) {
	s := st.(*State)
	switch key {
	case "orders":
		var n int
		if _, err := fmt.Sscanf(value, "%d", &n); err != nil || n < 1 || n > 3 || fmt.Sprint(n) != strings.TrimSpace(value) {
			return nil, fmt.Errorf("orders is 1, 2 or 3; got %q", value)
		}
		c := s.clone()
		c.Orders = n
		return c, nil
	}
	return nil, fmt.Errorf("unknown setting %q; ludi settings: orders (1-3 orders this turn)", key)
}

// Prompts implements race.Ruleset: every racing chariot whose auriga can take orders.
func (Ruleset) Prompts(st race.State) []race.Prompt {
	s := st.(*State)
	out := make([]race.Prompt, 0, len(s.Chariots))
	for i := range s.Chariots {
		c := &s.Chariots[i]
		if !c.Active() || c.Stunned >= s.Orders {
			continue
		}
		p := race.Prompt{Seat: c.Seat, Name: c.Name, Turn: s.T, Orders: s.Orders}
		p.Legal, p.Note = s.allowedNames(c)
		if s.Orders > 1 {
			p.Note = strings.TrimSpace(p.Note + fmt.Sprintf(" %d orders this turn, each after the first with a contingency (%s)", s.Orders, kindList(contingencies)))
		}
		out = append(out, p)
	}
	return out
}

// orderer is the chariot of seat, if it may order at all: ParseOrder and
// Choices refuse a seat alike.
func (s *State) orderer(seat int) (*Chariot, error) {
	c := s.chariot(seat)
	if c == nil {
		return nil, race.NotAllowed("no_such_seat", "there is no seat %d in this race", seat)
	}
	if !c.Active() {
		return nil, race.NotAllowed("out_of_the_race", "%s is out of the race (%s)", c.Name, c.Out)
	}
	return c, nil
}

// ParseOrder implements race.Ruleset.
func (Ruleset) ParseOrder(st race.State, sub race.Submission) (race.Order, error) {
	s := st.(*State)
	if k, ok := named[sub.Text]; ok {
		// One order written as its name, as bots write it: read as
		// ReadOrder would read it, with no words taken apart.
		c, err := s.orderer(sub.Seat)
		if err != nil {
			return nil, err
		}
		if err := s.legal(c, singleOrder[k].(Orders), sub.InWindow); err != nil {
			return nil, err
		}
		return singleOrder[k], nil
	}
	return race.ReadOrder(sub, s.orderer, ParseOrders, func(c *Chariot, o Orders) (Orders, error) {
		return o, s.legal(c, o, sub.InWindow)
	})
}

// DefaultOrder implements race.Ruleset: a missed turn cruises; a flipped chariot hangs on.
func (Ruleset) DefaultOrder(st race.State, seat int) race.Order {
	s := st.(*State)
	return defaultOrder(s, s.chariot(seat))
}

// defaultOrder is DefaultOrder for chariot c (nil: none).
func defaultOrder(s *State, c *Chariot) Orders {
	if c != nil && c.Flipped {
		return repeated(HangOn, s.Orders)
	}
	return cruise(s.Orders)
}

// Resolve implements race.Ruleset.
func (Ruleset) Resolve(st race.State, orders map[int]race.Order, d *dice.Roller, _ time.Time) (race.State, []race.Event, error) {
	s := st.(*State)
	r := newResolver(s, d)
	defer r.release()
	for seat, o := range orders {
		x, ok := o.(Orders)
		if !ok {
			return nil, nil, fmt.Errorf("seat %d: not a ludi order: %T", seat, o)
		}
		if seat >= 0 && seat < len(r.orders) { // no chariot sits in another seat
			r.orders[seat], r.has[seat] = x, true
		}
	}
	// Stunned aurigae get no prompt when the stun covers the whole turn: they cruise.
	for i := range s.Chariots {
		c := &s.Chariots[i]
		if !r.has[c.Seat] && c.Active() {
			r.orders[c.Seat] = defaultOrder(s, c)
		}
	}
	n, ev := r.play(s)
	return n, ev, nil
}

// Standings implements race.Ruleset: finishers in order, then the racing
// chariots front first, then those out of the race, furthest first.
func (Ruleset) Standings(st race.State) race.Standings {
	s := st.(*State)
	var out race.Standings
	add := func(c *Chariot, status, detail string) {
		out = append(out, race.Standing{Place: len(out) + 1, Seat: c.Seat, Name: c.Name, Player: c.Player, Status: status, Detail: detail})
	}
	out = make(race.Standings, 0, len(s.Chariots))
	for _, seat := range s.Finish {
		c := s.chariot(seat)
		add(c, "finished", "turn "+strconv.Itoa(c.FinishTurn))
	}
	for _, c := range s.order(nil) {
		detail := "lap " + strconv.Itoa(min(c.Lap+1, s.Laps)) + " of " + strconv.Itoa(s.Laps)
		if c.Flipped {
			detail += ", flipped: hanging on"
		}
		add(c, "racing", detail)
	}
	var out2 []*Chariot
	for i := range s.Chariots {
		if c := &s.Chariots[i]; !c.Active() && c.Out != Finished {
			out2 = append(out2, c)
		}
	}
	sort.SliceStable(out2, func(i, j int) bool { return s.ahead(out2[i], out2[j]) })
	for _, c := range out2 {
		add(c, "out", c.Out)
	}
	return out
}

// DecodeState implements race.Ruleset.
func (Ruleset) DecodeState(b []byte) (race.State, error) {
	return race.DecodeJSON[State]("a ludi state", b, func(s *State) (err error) {
		s.track, err = LoadTrack(s.TrackID)
		s.Rules.fill() // a state stored before an option existed plays by its default
		return err
	}, (*State).check)
}

// check is what race.DecodeJSON holds a stored state to; it refuses seats out
// of order, chariots or trails off the track, unknown levels or reasons for
// being out, finishers that did not finish.
func (s *State) check() error {
	t := s.track
	if err := race.CheckLaps(s.Laps); err != nil {
		return err
	}
	switch {
	case s.T < 1:
		return fmt.Errorf("turn %d; turns count from 1", s.T)
	case s.Orders < 1 || s.Orders > 3:
		return fmt.Errorf("%d orders a turn; a turn takes 1 to 3", s.Orders)
	case len(s.Chariots) < 2 || len(s.Chariots) > len(t.Grid):
		return fmt.Errorf("%d chariots; %s races 2 to %d", len(s.Chariots), t.Name, len(t.Grid))
	}
	if err := s.Rules.check(); err != nil {
		return err
	}
	finished := 0
	for i := range s.Chariots {
		c := &s.Chariots[i]
		switch {
		case c.Seat != i:
			return fmt.Errorf("chariot %d sits in seat %d", i+1, c.Seat)
		case !t.has(c.Pos):
			return fmt.Errorf("%s is at %v, which is not on %s", c.Name, c.Pos, t.Name)
		case c.Level < tables.Stop || c.Level > tables.Max:
			return fmt.Errorf("%s is at speed level %d; levels are %d (STOP) to %d (MAX)", c.Name, c.Level, tables.Stop, tables.Max)
		case c.Lap < 0 || c.Lap > s.Laps:
			return fmt.Errorf("%s is on lap %d of %d", c.Name, c.Lap, s.Laps)
		}
		for _, p := range c.Trail {
			if !t.has(p) {
				return fmt.Errorf("%s's trail passes %v, which is not on %s", c.Name, p, t.Name)
			}
		}
		switch c.Out {
		case Racing, RolledAway, Thrown, HorsesStopped, DraggedOver:
		case Finished:
			finished++
		default:
			return fmt.Errorf("%s is out for an unknown reason %q", c.Name, c.Out)
		}
	}
	racer := func(seat int) (string, bool, bool) {
		if c := s.chariot(seat); c != nil {
			return c.Name, c.Out == Finished, true
		}
		return "", false, false
	}
	return race.CheckFinishOrder(s.Finish, racer, finished, "chariots")
}

// Checks implements race.Oddser.
func (Ruleset) Checks() []race.Check { return tables.Checks() }

// Odds implements race.Oddser.
func (Ruleset) Odds(check string, args map[string]string) (map[string]float64, error) {
	return tables.Odds(check, args)
}
