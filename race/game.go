package race

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Game describes one game as a value: everything the CLI, the service, a page
// or a bot needs to offer it without knowing its name. The CLI builds its
// flags and forms from the fields, so a game added to rules/ needs no
// change in cmd/pitwall.
type Game struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Version is the version of the rules as this build plays them. It goes
	// up whenever a change could play a logged turn differently; a race
	// records the version it was created under and each turn the version
	// that resolved it.
	Version int         `json:"version"`
	Tracks  []TrackInfo `json:"tracks"` // the first is the default
	// Options are what a host may choose for the whole race (Config.Options).
	Options []Field `json:"options,omitempty"`
	// Entrant is what each entrant chooses (Entrant.Options).
	Entrant []Field `json:"entrant,omitempty"`
	// Racers is how many racers one entrant fields (ludi: one or two aurigae).
	Racers Range `json:"racers"`
	// Settings are what the host may set turn by turn (Ruleset.Set).
	Settings []Field `json:"settings,omitempty"`
	Words    Words   `json:"words"`
	// Calendar says the game's turns follow the logged time of each
	// resolve (party's weeks): a turn nobody wrote in still moves it on.
	Calendar bool `json:"calendar,omitempty"`
	// Demo is a race to show the game with: the demo and tests play it.
	Demo Demo `json:"-"`
}

// Words are a game's own words, for posts, pages and help.
type Words struct {
	Racer  string `json:"racer"`  // what one racer is: "auriga", "car", "kart"
	Racers string `json:"racers"` // and more than one: "aurigae"
	Turn   string `json:"turn"`   // what a turn is: "turn", "activation"
	Start  string `json:"start"`  // what turn 0 is: "the grid", "the start"
	// Default is what a racer who sends nothing does ("they cruise").
	Default string `json:"default"`
	// Bonus is what orders sent in the host's bonus window may add; empty
	// when the game has no bonus, and posts then leave the window out.
	Bonus string `json:"bonus,omitempty"`
}

// Range is a number from Min to Max.
type Range struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// Demo is a race to show a game with.
type Demo struct {
	Laps     int // 0: the track's
	Entrants []Entrant
}

// OneChoiceEach is a demo's entrants when each fields one racer and makes one
// choice, key: a row is the player, the racer and the value chosen.
func OneChoiceEach(key string, rows [][3]string) []Entrant {
	var out []Entrant
	for _, x := range rows {
		out = append(out, Entrant{Player: x[0], Racers: []string{x[1]}, Options: map[string]string{key: x[2]}})
	}
	return out
}

// The types of a Field.
const (
	Choice  = "choice"  // one of Values
	Choices = "choices" // Count of Values, comma-separated, each once
	Int     = "int"     // a whole number from Min to Max
	Text    = "text"    // free text, such as a time zone
	File    = "file"    // a file the CLI reads; Read turns it into options
)

// Field is one thing a host or an entrant chooses: a race option, an
// entrant's choice or a turn's setting.
type Field struct {
	// Name is the key in the options (and the CLI's flag). A name ending in
	// ".NAME" is a family of keys: "package.NAME" stands for package.noble...
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Values  []string `json:"values,omitempty"`
	Count   int      `json:"count,omitempty"` // Choices: how many
	Min     int      `json:"min,omitempty"`   // Int
	Max     int      `json:"max,omitempty"`   // Int
	Default string   `json:"default,omitempty"`
	Help    string   `json:"help"`
	// Open says the race's options may add values (ludi's package.NAME
	// adds a package), so only the ruleset can judge one.
	Open bool `json:"open,omitempty"`
	// With names the fields that must be chosen together with this one
	// (rtd's perk and debuff): all of them or none.
	With []string `json:"with,omitempty"`
	// Read turns the file a File field names into the race's options, and
	// the track it is, if it is one; name is the file's name, for errors.
	// The options are kept in the race, so it replays the same anywhere.
	Read func(name string, src []byte) (options map[string]string, track string, err error) `json:"-"`
}

// Check says whether value is one this field takes; the ruleset checks it
// again (and everything else) when the race is set up, so this is for an
// early, clear error beside a field.
func (f Field) Check(value string) error {
	switch f.Type {
	case Choice:
		if !slices.Contains(f.Values, chosenWord(value)) {
			return fmt.Errorf("%s is one of %s; got %q", f.Name, strings.Join(f.Values, ", "), value)
		}
	case Choices:
		parts := strings.Split(value, ",")
		seen := map[string]bool{}
		for i, p := range parts {
			p = chosenWord(p)
			parts[i] = p
			if !slices.Contains(f.Values, p) || seen[p] {
				return fmt.Errorf("%s is %d of %s, each once; got %q", f.Name, f.Count, strings.Join(f.Values, ", "), value)
			}
			seen[p] = true
		}
		if f.Count > 0 && len(parts) != f.Count {
			return fmt.Errorf("%s is %d of %s, each once; got %q", f.Name, f.Count, strings.Join(f.Values, ", "), value)
		}
	case Int:
		n, err := strconv.Atoi(strings.TrimSpace(value))
		if err != nil || n < f.Min || n > f.Max {
			return fmt.Errorf("%s is %d to %d; got %q", f.Name, f.Min, f.Max, value)
		}
	}
	return nil
}

// Chosen is value as the Choice field f reads it, or Check's error: a game
// reads the choices it offers so, taking just what the field says it takes.
func (f Field) Chosen(value string) (string, error) {
	if err := f.Check(value); err != nil {
		return "", err
	}
	return chosenWord(value), nil
}

// chosenWord is a choice's value as written (in any case, with spaces
// around it) as the field lists it.
func chosenWord(v string) string { return strings.ToLower(strings.TrimSpace(v)) }

// Usage is the field's values for help and hints: "military|noble", "1..3".
func (f Field) Usage() string {
	switch f.Type {
	case Choice:
		return strings.Join(f.Values, "|")
	case Choices:
		return fmt.Sprintf("%d of %s", f.Count, strings.Join(f.Values, ","))
	case Int:
		return fmt.Sprintf("%d..%d", f.Min, f.Max)
	case File:
		return "FILE"
	}
	return "VALUE"
}

// FieldNamed is the field of fs named name, or of the family it belongs to
// ("package.noble" is of "package.NAME").
func FieldNamed(fs []Field, name string) (Field, bool) {
	for _, f := range fs {
		if f.Name == name {
			return f, true
		}
		if fam, ok := strings.CutSuffix(f.Name, ".NAME"); ok && strings.HasPrefix(name, fam+".") && len(name) > len(fam)+1 {
			return f, true
		}
	}
	return Field{}, false
}

// CheckEntrant checks an entrant's choices against the game's fields: every
// choice known, each value one the field takes, and fields that go together
// chosen together. The ruleset checks them again at setup.
func (g *Game) CheckEntrant(e Entrant) error {
	if n := len(e.Racers); n < g.Racers.Min || n > g.Racers.Max {
		if g.Racers.Min == g.Racers.Max {
			return fmt.Errorf("%s enters %d racers; an entrant in %s enters %d", e.Player, n, g.ID, g.Racers.Min)
		}
		return fmt.Errorf("%s enters %d racers; an entrant in %s enters %d to %d", e.Player, n, g.ID, g.Racers.Min, g.Racers.Max)
	}
	keys := slices.Sorted(maps.Keys(e.Options)) // the same error for the same entrant
	for _, k := range keys {
		f, ok := FieldNamed(g.Entrant, k)
		if !ok {
			return fmt.Errorf("%s: %s has no entrant choice %q; %s", e.Player, g.ID, k, g.entrantNames())
		}
		if err := f.Check(e.Options[k]); err != nil && !f.Open {
			return fmt.Errorf("%s: %w", e.Player, err)
		}
		for _, w := range f.With {
			if _, ok := e.Options[w]; !ok {
				return fmt.Errorf("%s: %s goes with %s; give both or neither", e.Player, k, w)
			}
		}
	}
	return nil
}

func (g *Game) entrantNames() string {
	if len(g.Entrant) == 0 {
		return "an entrant chooses nothing but its racers"
	}
	var names []string
	for _, f := range g.Entrant {
		names = append(names, f.Name)
	}
	return "the choices are " + strings.Join(names, ", ")
}

// Capabilities are what a ruleset can do beyond playing a race, as its
// optional interfaces say.
type Capabilities struct {
	Odds       bool `json:"odds"`        // Oddser: exact odds of its checks
	Choices    bool `json:"choices"`     // Chooser: legal choices as data
	Bots       bool `json:"bots"`        // Botter
	HostBot    bool `json:"host_bot"`    // HostBotter: a host's settings by bot
	Records    bool `json:"records"`     // Recorder: records across races
	Secrets    bool `json:"secrets"`     // Redactor: a state with hidden things
	OrderCheck bool `json:"order_check"` // OrderChecker: orders checked without a race
	Calendar   bool `json:"calendar"`    // turns follow the logged time
}

// CapabilitiesOf reads a ruleset's capabilities from what it implements, so
// they cannot say more or less than the code does.
func CapabilitiesOf(rs Ruleset) Capabilities {
	_, odds := rs.(Oddser)
	_, choices := rs.(Chooser)
	_, bots := rs.(Botter)
	_, hostBot := rs.(HostBotter)
	_, records := rs.(Recorder)
	_, secrets := rs.(Redactor)
	_, check := rs.(OrderChecker)
	return Capabilities{Odds: odds, Choices: choices, Bots: bots, HostBot: hostBot, Records: records,
		Secrets: secrets, OrderCheck: check, Calendar: rs.Game().Calendar}
}

// OrderChecker is a game whose orders can be checked without a race, from a
// small state given by flags ('pitwall order check').
type OrderChecker interface {
	// CheckFlags are the flags that give the state.
	CheckFlags() []Flag
	// CheckOrder parses and checks order against the state the flags give
	// (args by name without dashes, as for Odds) and says what it does.
	// A game whose flags say it all (party's move) takes order "".
	CheckOrder(args map[string]string, order string) (CheckedOrder, error)
}

// CheckedOrder is what an order does: Fields for --json, as the contract
// names them, and the same in sentences for a person (Says).
type CheckedOrder struct {
	Fields map[string]any
	Says   []string
}
