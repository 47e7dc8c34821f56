package store

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"pitwall/dice"
	"pitwall/race"
)

// What every store checks and encodes alike, so that a race one store takes
// another takes too, and comes back the same.

// MaxID is the longest race id a store keeps (the host allows 64).
const MaxID = 255

// CheckTime refuses a time finer than a microsecond: every store keeps
// times to the microsecond, so it would come back different, and an
// entry's time is in the race's hash chain.
func CheckTime(what string, t time.Time) error {
	if t.Nanosecond()%1000 != 0 {
		return fmt.Errorf("%s %s is finer than a microsecond; the store keeps times to the microsecond", what, t.Format(time.RFC3339Nano))
	}
	return nil
}

// CheckText refuses text that not every store can keep as it is: a NUL
// byte, or bytes that are not UTF-8.
func CheckText(what, s string) error {
	if strings.IndexByte(s, 0) >= 0 {
		return fmt.Errorf("%s holds a NUL byte", what)
	}
	if !utf8.ValidString(s) {
		return fmt.Errorf("%s is not UTF-8 text", what)
	}
	return nil
}

// EncodeNew checks a race to create and encodes its configuration and
// entrants as they are stored.
func EncodeNew(r *race.Race) (cfg, ents []byte, err error) {
	switch {
	case r == nil:
		return nil, nil, errors.New("creating a race: no race given")
	case r.ID == "":
		return nil, nil, errors.New("creating a race: the race has no ID")
	case len(r.ID) > MaxID:
		return nil, nil, fmt.Errorf("creating a race: its ID is %d bytes; a store keeps at most %d", len(r.ID), MaxID)
	}
	fail := func(err error) ([]byte, []byte, error) {
		return nil, nil, fmt.Errorf("creating race %q: %w", r.ID, err)
	}
	if len(r.Log) != 0 {
		return fail(fmt.Errorf("a new race's log must be empty, it has %d entries; append them after creating it", len(r.Log)))
	}
	if err := errors.Join(CheckText("its ID", r.ID), CheckText("its ruleset", r.Ruleset), CheckTime("its creation time", r.Created)); err != nil {
		return fail(err)
	}
	if cfg, err = json.Marshal(r.Config); err != nil {
		return fail(fmt.Errorf("encoding its configuration: %w", err))
	}
	if ents, err = json.Marshal(r.Entrants); err != nil {
		return fail(fmt.Errorf("encoding its entrants: %w", err))
	}
	return cfg, ents, nil
}

// EncodeAppend checks an entry to append to race id, and the turn saved
// with it, and encodes the turn's rolls as they are stored ("" without a
// turn).
func EncodeAppend(id string, e race.Entry, turn *SavedTurn) (rolls string, err error) {
	if e.Seq > math.MaxInt32 || e.Turn > math.MaxInt32 || e.Turn < math.MinInt32 || e.Seat > math.MaxInt32 || e.Seat < math.MinInt32 {
		return "", fmt.Errorf("race %q: appending entry %d: its numbers are beyond what a store keeps", id, e.Seq)
	}
	if err := errors.Join(CheckText("its text", e.Text), CheckText("its key", e.Key), CheckText("its kind", e.Kind), CheckTime("its time", e.At)); err != nil {
		return "", fmt.Errorf("race %q: appending entry %d: %w", id, e.Seq, err)
	}
	if turn == nil {
		return "", nil
	}
	if e.Kind != race.EntryResolve {
		return "", fmt.Errorf("race %q: appending entry %d: a saved turn goes with a %q entry, not %q", id, e.Seq, race.EntryResolve, e.Kind)
	}
	if turn.Turn != e.Turn {
		return "", fmt.Errorf("race %q: appending entry %d: it resolves turn %d but the saved turn is turn %d", id, e.Seq, e.Turn, turn.Turn)
	}
	if turn.State != nil && !json.Valid(turn.State) || turn.Story != nil && !json.Valid(turn.Story) {
		return "", fmt.Errorf("race %q: saving turn %d: the state snapshot or the story is not valid JSON", id, turn.Turn)
	}
	if err := CheckTime("its time", turn.At); err != nil {
		return "", fmt.Errorf("race %q: saving turn %d: %w", id, turn.Turn, err)
	}
	b, err := json.Marshal(turn.Rolls)
	if err != nil {
		return "", fmt.Errorf("race %q: saving turn %d: encoding the rolls: %w", id, turn.Turn, err)
	}
	return string(b), nil
}

// DecodeRace fills r's configuration, entrants and seed from what is
// stored, and checks the seed against the commitment published when the
// race began.
func DecodeRace(r *race.Race, cfg, ents, seed, commitment string) error {
	if err := json.Unmarshal([]byte(cfg), &r.Config); err != nil {
		return fmt.Errorf("decoding the configuration: %w", err)
	}
	if err := json.Unmarshal([]byte(ents), &r.Entrants); err != nil {
		return fmt.Errorf("decoding the entrants: %w", err)
	}
	var err error
	if r.Seed, err = dice.ParseSeed(seed); err != nil {
		return fmt.Errorf("reading the seed: %w", err)
	}
	// A seed that does not match the commitment would make every audit of
	// the race fail, so say so here.
	if r.Seed.Commitment() != commitment {
		return fmt.Errorf("the stored seed does not match the race's commitment %s; the database has been altered", commitment)
	}
	return nil
}

// TrackOf is the track of a stored configuration, for a race list.
func TrackOf(id, cfg string) (string, error) {
	var c race.Config
	if err := json.Unmarshal([]byte(cfg), &c); err != nil {
		return "", fmt.Errorf("race %q: decoding the configuration: %w", id, err)
	}
	return c.Track, nil
}

// CheckGapless says whether log, read from entry from on, runs without a
// gap. Append keeps a log gapless; a gap means the database was edited
// behind the store's back, and a replay would be wrong.
func CheckGapless(log []race.Entry, from int) error {
	for i, e := range log {
		if e.Seq != from+i {
			return fmt.Errorf("the log skips from entry %d to %d", from+i-1, e.Seq)
		}
	}
	return nil
}

// CheckAccess checks the access and links of race id before they are
// stored (a nil a: links alone).
func CheckAccess(id string, a *Access, ts []Token) error {
	if a != nil {
		if a.Race != id {
			return fmt.Errorf("race %q: its access names race %q", id, a.Race)
		}
		switch a.ResolveWhen {
		case ResolveAtDeadline, ResolveWhenReady, ResolveWhenAllIn:
		default:
			return fmt.Errorf("race %q: resolve_when is one of deadline, ready, all_in; not %q", id, a.ResolveWhen)
		}
		if err := CheckTime("its access's creation", a.Created); err != nil {
			return fmt.Errorf("race %q: %w", id, err)
		}
	}
	for _, t := range ts {
		if err := checkToken(id, t); err != nil {
			return fmt.Errorf("race %q: a link: %w", id, err)
		}
	}
	return nil
}

// CheckControl refuses a control a store must not keep: an unknown kind, a
// seat where none belongs (or none where one does), a value its kind does
// not take, text not every store keeps, a time finer than a microsecond.
func CheckControl(c Control) error {
	fail := func(format string, args ...any) error {
		return fmt.Errorf("race %q: a control: "+format, append([]any{c.Race}, args...)...)
	}
	values := map[string][]string{ControlSeat: {ControlBot, ControlPerson, ControlRemoved}, ControlHost: {ControlBot, ControlPerson},
		ControlClock: {ControlPaused, ControlRunning}}
	switch {
	case c.Race == "":
		return errors.New("a control names no race")
	case c.Kind != ControlSeat && c.Kind != ControlHost && c.Kind != ControlSchedule && c.Kind != ControlClock:
		return fail("no kind %q; one of seat, host, schedule, clock", c.Kind)
	case (c.Kind == ControlSeat) != (c.Seat >= 0) || c.Seat < -1:
		return fail("a %s control with seat %d: a seat's control names its seat (from 0), any other -1", c.Kind, c.Seat)
	case values[c.Kind] != nil && !slices.Contains(values[c.Kind], c.Value) && !(c.Kind == ControlSeat && namedBot(c.Value)):
		if c.Kind == ControlSeat {
			return fail("a seat control is %s, or bot:NAME for a bot of a name in lower-case letters; not %q", strings.Join(values[c.Kind], " or "), c.Value)
		}
		return fail("a %s control is %s; not %q", c.Kind, strings.Join(values[c.Kind], " or "), c.Value)
	}
	for what, text := range map[string]string{"its value": c.Value, "its key": c.Key} {
		if err := CheckText(what, text); err != nil {
			return fail("%w", err)
		}
	}
	if err := CheckTime("its time", c.At); err != nil {
		return fail("%w", err)
	}
	return nil
}

// namedBot says whether a seat control's value hands the seat to a bot by
// name: "bot:" and the name, one to 16 lower-case letters (package bot's).
func namedBot(value string) bool {
	name, ok := BotOf(value)
	return ok && value != ControlBot && len(name) <= 16 && strings.Trim(name, "abcdefghijklmnopqrstuvwxyz") == ""
}

// CheckNewAccess is CheckAccess for a race to create with its access and
// links; a nil race is left for EncodeNew to refuse.
func CheckNewAccess(r *race.Race, a Access, ts []Token) error {
	if r == nil {
		return nil
	}
	return CheckAccess(r.ID, &a, ts)
}

func checkToken(id string, t Token) error {
	b, err := hex.DecodeString(t.Hash)
	switch {
	case t.Race != id:
		return fmt.Errorf("it names race %q", t.Race)
	case err != nil || len(b) != 32 || strings.ToLower(t.Hash) != t.Hash:
		return errors.New("its hash is not a SHA-256 in 64 lower-case hex digits")
	case t.Role != RoleHost && t.Role != RoleSeat && t.Role != RoleSpectator && t.Role != RoleInvite:
		return fmt.Errorf("no role %q; a link is a host's, a seat's, a spectator's or an invite", t.Role)
	case t.Seat < -1 || t.Role != RoleSeat && (t.Seat >= 0 || t.Racer != ""):
		return fmt.Errorf("a %s link with seat %d and racer %q: only a seat's link names its seat (from 0) or racer; any other names seat -1", t.Role, t.Seat, t.Racer)
	case t.Role == RoleSeat && (t.Seat >= 0) == (t.Racer != ""):
		return fmt.Errorf("a seat's link with seat %d and racer %q: it names its seat (from 0) or, made before the start, its racer (seat -1); one of them", t.Seat, t.Racer)
	case t.Racer != "" && race.CheckName("its racer", t.Racer) != nil:
		return race.CheckName("its racer", t.Racer)
	case t.Revoked != nil:
		return errors.New("a new link is not revoked")
	}
	return CheckTime("its creation", t.Created)
}

// DecodeRolls fills t's rolls from what is stored.
func DecodeRolls(t *SavedTurn, rolls string) error {
	if err := json.Unmarshal([]byte(rolls), &t.Rolls); err != nil {
		return fmt.Errorf("turn %d: decoding the rolls: %w", t.Turn, err)
	}
	return nil
}
