package race

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"pitwall/dice"
)

// Entry kinds in a race's log.
const (
	EntryJoin     = "join"     // an entrant joins before the start (Text: the entrant as JSON)
	EntryFix      = "fix"      // an entrant's choices are replaced before the start (Text: the entrant as JSON, found by its player)
	EntryWithdraw = "withdraw" // an entrant leaves before the start (Text: the player's name)
	EntrySchedule = "schedule" // the deadline and bonus window of turn Entry.Turn (Text: the Schedule as JSON)
	EntryOrder    = "order"    // a racer's orders for turn Entry.Turn (a later one replaces an earlier one)
	EntrySet      = "set"      // a host's setting for turn Entry.Turn (KEY=VALUE)
	EntryResolve  = "resolve"  // the host resolved turn Entry.Turn
	EntryReady    = "ready"    // a racer is done with turn Entry.Turn (Text "yes"), or not after all ("no")
	// EntryStart: the host started the race (turn 1). It sets the race up,
	// as a first order would, and does nothing more: the entrants are
	// fixed from it on. A race that takes its racers by invite starts so.
	EntryStart = "start"
)

// Entry is one line of a race's append-only log. Every entry names the turn
// it is for (0 for the entrant entries before the start) and may carry the
// client's key: a request repeated with the same key stores nothing more.
type Entry struct {
	Seq      int       `json:"seq"` // from 1, no gaps
	Kind     string    `json:"kind"`
	Turn     int       `json:"turn"`
	Seat     int       `json:"seat"`           // for orders; -1 otherwise
	Text     string    `json:"text,omitempty"` // the orders, KEY=VALUE for a setting, JSON for entrants and schedules
	InWindow bool      `json:"in_window,omitempty"`
	At       time.Time `json:"at"`
	Key      string    `json:"key,omitempty"` // the client's idempotency key, unique in the race
	// Hash is the head of the race's hash chain after this entry: the
	// SHA-256 of the hash before it, the entry, and the turn it resolved.
	Hash string `json:"hash"`
}

// PublicLen is the length of a log's public part: every entry up to the
// first order of the turn still open (its orders are secret until it is
// resolved).
func PublicLen(log []Entry) int {
	n, secret := 0, false
	for i, e := range log {
		switch e.Kind {
		case EntryOrder:
			secret = true
		case EntryResolve:
			secret = false
		}
		if !secret {
			n = i + 1
		}
	}
	return n
}

// IsEntrant says whether the entry changes the entrants (before the start).
func (e Entry) IsEntrant() bool {
	return e.Kind == EntryJoin || e.Kind == EntryFix || e.Kind == EntryWithdraw
}

// TurnRecord is what is kept of a resolved turn, beside its resolve entry: the
// state hash, the dice rolled, the dice stream's state after the turn, a
// snapshot of the state (JSON, whose SHA-256 is Hash) and the version of the
// rules that played it. A load resumes from the last one; verify replays the
// race and checks every record against the replay.
type TurnRecord struct {
	Turn      int         `json:"turn"`
	Hash      string      `json:"hash"`
	Rolls     []dice.Roll `json:"rolls"`
	DiceState []byte      `json:"dice_state"`
	State     []byte      `json:"state"` // JSON snapshot of the state after the turn
	Story     []byte      `json:"story"` // JSON of the turn's Story: orders, defaults, events
	At        time.Time   `json:"at"`
	Rules     int         `json:"rules"` // the ruleset's version that resolved the turn
	// Given is the seal of a record given without its secret parts (an
	// export before the end); "" for a whole record.
	Given string `json:"-"`
}

// Schedule is the host's clock for one turn: its deadline and the bonus
// window (orders sent while it is open earn a bonus in games that have one).
type Schedule struct {
	Deadline    *time.Time `json:"deadline,omitempty"`
	WindowOpen  *time.Time `json:"window_open,omitempty"`
	WindowClose *time.Time `json:"window_close,omitempty"`
}

// InWindow says whether the bonus window is open at t (open inclusive, close exclusive).
func (s Schedule) InWindow(t time.Time) bool {
	return s.WindowOpen != nil && s.WindowClose != nil && !t.Before(*s.WindowOpen) && t.Before(*s.WindowClose)
}

// Empty says whether nothing is scheduled.
func (s Schedule) Empty() bool {
	return s.Deadline == nil && s.WindowOpen == nil && s.WindowClose == nil
}

// ParseSchedule reads a schedule entry's text.
func ParseSchedule(text string) (Schedule, error) {
	var s Schedule
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	err := dec.Decode(&s)
	if err == nil && (!strings.HasPrefix(strings.TrimSpace(text), "{") || dec.Decode(&json.RawMessage{}) != io.EOF) {
		err = errors.New("one JSON object, and nothing after it")
	}
	if err != nil {
		return Schedule{}, fmt.Errorf("a schedule entry holds {\"deadline\", \"window_open\", \"window_close\"}: %v", err)
	}
	if (s.WindowOpen == nil) != (s.WindowClose == nil) {
		return Schedule{}, fmt.Errorf("a bonus window needs both its opening and its closing time")
	}
	if s.WindowOpen != nil && !s.WindowClose.After(*s.WindowOpen) {
		return Schedule{}, fmt.Errorf("the bonus window closes (%s) before it opens (%s)", s.WindowClose.UTC().Format(time.RFC3339), s.WindowOpen.UTC().Format(time.RFC3339))
	}
	return s, nil
}

// Text is the schedule as a schedule entry holds it.
func (s Schedule) Text() string {
	b, _ := json.Marshal(s) // a struct of times always marshals
	return string(b)
}

// MaxName is the longest name (of a player or a racer) in characters.
const MaxName = 64

// CheckName says what is wrong with a player's or racer's name: names are
// printable UTF-8 of 1 to MaxName characters, with no leading or trailing space.
func CheckName(what, name string) error {
	switch {
	case !utf8.ValidString(name):
		return fmt.Errorf("%s %q is not valid UTF-8", what, name)
	case strings.TrimSpace(name) == "":
		return fmt.Errorf("%s is empty; give a name", what)
	case utf8.RuneCountInString(name) > MaxName:
		return fmt.Errorf("%s is %d characters; a name is at most %d", what, utf8.RuneCountInString(name), MaxName)
	case strings.TrimSpace(name) != name:
		return fmt.Errorf("%s %q starts or ends with a space", what, name)
	}
	for _, r := range name {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("%s %q holds the unprintable character %U; names are printable text", what, name, r)
		}
	}
	return nil
}

// CheckEntrant checks the names of an entrant.
func CheckEntrant(e Entrant) error {
	if err := CheckName("the player's name", e.Player); err != nil {
		return err
	}
	for _, r := range e.Racers {
		if err := CheckName("a racer's name", r); err != nil {
			return err
		}
	}
	for k, v := range e.Options {
		if len(k) > MaxName || len(v) > 4096 || !utf8.ValidString(k) || !utf8.ValidString(v) {
			return fmt.Errorf("the choice %.64q is too long or not UTF-8", k)
		}
	}
	return nil
}

// EntrantText is an entrant as a join or fix entry holds it.
func EntrantText(e Entrant) string {
	b, _ := json.Marshal(e) // strings and maps of strings always marshal
	return string(b)
}

// ApplyEntrant applies a join, fix or withdraw entry to a list of entrants
// and returns the new list (es is not changed).
func ApplyEntrant(es []Entrant, e Entry) ([]Entrant, error) {
	find := func(player string) int {
		return slices.IndexFunc(es, func(x Entrant) bool { return strings.EqualFold(x.Player, player) })
	}
	switch e.Kind {
	case EntryJoin, EntryFix:
		var x Entrant
		if err := json.Unmarshal([]byte(e.Text), &x); err != nil {
			return nil, fmt.Errorf("reading the entrant: %v", err)
		}
		if err := CheckEntrant(x); err != nil {
			return nil, err
		}
		i := find(x.Player)
		if e.Kind == EntryJoin {
			if i >= 0 {
				return nil, fmt.Errorf("%s has joined already; change their entry instead ('pitwall race fix'), or give another player's name", es[i].Player)
			}
			return append(slices.Clone(es), x), nil
		}
		if i < 0 {
			return nil, fmt.Errorf("no entrant %q to fix; entrants: %s", x.Player, players(es))
		}
		out := slices.Clone(es)
		out[i] = x
		return out, nil
	case EntryWithdraw:
		i := find(e.Text)
		if i < 0 {
			return nil, fmt.Errorf("no entrant %q to remove; entrants: %s", e.Text, players(es))
		}
		return slices.Delete(slices.Clone(es), i, i+1), nil
	}
	return nil, fmt.Errorf("a %q entry does not change the entrants", e.Kind)
}

func players(es []Entrant) string {
	if len(es) == 0 {
		return "none yet"
	}
	var ps []string
	for _, e := range es {
		ps = append(ps, e.Player)
	}
	return strings.Join(ps, ", ")
}

// The hash chain. Every entry's Hash is the SHA-256 of the hash before it
// and of the entry (with the record of the turn a resolve entry resolved),
// in a fixed encoding; the first entry's "hash before" is the genesis hash,
// the SHA-256 of the race's definition with the seed's commitment (not the
// seed). Anyone who saw a head can detect a rewrite of anything before it.

// chainTime is the fixed text of a time in the chain: UTC, nanoseconds.
func chainTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000000000Z") }

// Genesis is the hash the chain starts from: the race's definition.
func Genesis(r *Race) string {
	return GenesisOf(r, r.Seed.Commitment(), OptionsCommitment(r.Seed, r.Config.Options))
}

// OptionsCommitment seals a race's options with its seed: some are secret
// until the end (nascar's sandbags, where the host placed them), so the chain
// covers this rather than the options, and an export before the end gives
// this in their place. Once the seed is revealed anyone can recompute it.
func OptionsCommitment(seed dice.Seed, options map[string]string) string {
	return sum(struct {
		Seed    string            `json:"seed"`
		Options map[string]string `json:"options"`
	}{seed.Hex(), options})
}

// GenesisOf is the genesis hash of a race from its commitments, for one
// whose seed is not known yet.
func GenesisOf(r *Race, commitment, options string) string {
	def := struct {
		V          string    `json:"v"`
		ID         string    `json:"id"`
		Ruleset    string    `json:"ruleset"`
		Rules      int       `json:"rules"`
		Track      string    `json:"track"`
		Laps       int       `json:"laps"`
		Options    string    `json:"options"`
		Entrants   []Entrant `json:"entrants"`
		Commitment string    `json:"commitment"`
		Created    string    `json:"created"`
	}{"pitwall-race-1", r.ID, r.Ruleset, r.Rules, r.Config.Track, r.Config.Laps, options, r.Entrants, commitment, chainTime(r.Created)}
	return sum(def)
}

// Seal is a turn record's secret parts sealed with the race's seed: the
// state hash, the snapshot and the dice stream after the turn. While the race
// runs they would tell what is hidden (nascar's sandbags, which a plain
// digest of the state lets anyone guess and check) and every roll to come;
// the chain covers this keyed digest, so an export before the end gives it
// in their place, and once the seed is revealed anyone can recompute it.
// A record given without its secret parts carries its seal in Given.
func (t *TurnRecord) Seal(seed dice.Seed) string {
	if t.Given != "" {
		return t.Given
	}
	return sum(struct {
		Seed  string `json:"seed"`
		Hash  string `json:"hash"`
		State string `json:"state_sha256"`
		Dice  string `json:"dice_state_sha256"`
	}{seed.Hex(), t.Hash, hexSum(t.State), hexSum(t.DiceState)})
}

func hexSum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

// ChainNext is the hash after e, given the hash before it; t is the record of
// the turn a resolve entry resolved (nil for other entries), sealed with the
// race's seed.
func ChainNext(prev string, e Entry, t *TurnRecord, seed dice.Seed) string {
	type rec struct {
		Turn  int         `json:"turn"`
		Rolls []dice.Roll `json:"rolls"`
		Story string      `json:"story_sha256"`
		At    string      `json:"at"`
		Rules int         `json:"rules"`
		Seal  string      `json:"seal"`
	}
	link := struct {
		Prev     string `json:"prev"`
		Seq      int    `json:"seq"`
		Kind     string `json:"kind"`
		Turn     int    `json:"turn"`
		Seat     int    `json:"seat"`
		Text     string `json:"text"`
		InWindow bool   `json:"in_window"`
		At       string `json:"at"`
		Key      string `json:"key"`
		Record   *rec   `json:"record"`
	}{prev, e.Seq, e.Kind, e.Turn, e.Seat, e.Text, e.InWindow, chainTime(e.At), e.Key, nil}
	if t != nil {
		link.Record = &rec{t.Turn, t.Rolls, hexSum(t.Story), chainTime(t.At), t.Rules, t.Seal(seed)}
	}
	return sum(link)
}

func sum(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		// Only strings, numbers and slices of them: Marshal cannot fail.
		panic("race: hashing the chain: " + err.Error())
	}
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
