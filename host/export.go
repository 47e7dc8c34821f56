package host

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"io"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// ExportFormat names the export's format and its version (docs/export.md).
const ExportFormat = "pitwall-race-export/1"

// Export is a race as anyone may check it without the host's database: its
// definition, the public part of its log (every entry up to the first order
// of the turn still open, whose orders are secret), the record of every
// resolved turn, and the seed once the race is over.
type Export struct {
	Format     string         `json:"format"`
	Race       ExportedRace   `json:"race"`
	Log        []race.Entry   `json:"log"`
	Turns      []ExportedTurn `json:"turns"`
	ChainHead  string         `json:"chain_head"` // the hash of the last entry given
	Over       bool           `json:"over"`
	Exported   time.Time      `json:"exported"`
	LogEntries int            `json:"log_entries"` // in the whole log when exported, secret ones included
}

// ExportedRace is a race's definition. Its options (some are secret, such
// as sandbags a host placed) and its seed are given once the race is over;
// before, their commitments stand for them.
type ExportedRace struct {
	ID                string         `json:"id"`
	Ruleset           string         `json:"ruleset"`
	Rules             int            `json:"rules"`
	Config            race.Config    `json:"config"`
	Entrants          []race.Entrant `json:"entrants"`
	Created           time.Time      `json:"created"`
	Commitment        string         `json:"commitment"`
	OptionsCommitment string         `json:"options_commitment"`
	Seed              string         `json:"seed,omitempty"`
}

// ExportedTurn is a turn record with its state and story as the JSON the
// chain hashes (compact) and its dice state in hex. Before the race is over
// the state, its hash and the dice state are secret (what is hidden, and
// every roll to come): their seal stands for them (race.TurnRecord.Seal).
type ExportedTurn struct {
	Turn      int             `json:"turn"`
	Hash      string          `json:"hash,omitempty"`
	Rolls     []dice.Roll     `json:"rolls"`
	DiceState string          `json:"dice_state,omitempty"`
	State     json.RawMessage `json:"state,omitempty"`
	Story     json.RawMessage `json:"story,omitempty"`
	At        time.Time       `json:"at"`
	Rules     int             `json:"rules"`
	Seal      string          `json:"seal,omitempty"`
}

// Export gives race id as anyone may check it (see Export).
func (h *Host) Export(ctx context.Context, id string) (Export, error) {
	r, err := h.Store.Load(ctx, id)
	if err != nil {
		return Export{}, err // an unknown race is bad input (IsBadInput); a failing store is not
	}
	saved, err := h.Store.Turns(ctx, id)
	if err != nil {
		return Export{}, err
	}
	rs, err := rulesetOf(r)
	if err != nil {
		return Export{}, err
	}
	// Read from the records, not a replay: a race that no longer replays
	// (rewritten behind the host's back) can still be exported and shown up.
	n := race.PublicLen(r.Log)
	x := Export{Format: ExportFormat, Log: r.Log[:n], ChainHead: race.Genesis(r), Exported: h.Now(), LogEntries: len(r.Log),
		Turns: []ExportedTurn{},
		Race: ExportedRace{ID: r.ID, Ruleset: r.Ruleset, Rules: r.Rules, Config: race.Config{Track: r.Config.Track, Laps: r.Config.Laps},
			Entrants: r.Entrants, Created: r.Created, Commitment: r.Seed.Commitment(), OptionsCommitment: race.OptionsCommitment(r.Seed, r.Config.Options)}}
	if n > 0 {
		x.ChainHead = r.Log[n-1].Hash
	} else {
		x.Log = []race.Entry{}
	}
	if k := len(saved); k > 0 {
		if s, err := rs.DecodeState(saved[k-1].State); err == nil {
			x.Over = s.Over()
		}
	}
	if x.Over {
		x.Race.Seed, x.Race.Config = r.Seed.Hex(), r.Config
	}
	for _, t := range saved {
		et := ExportedTurn{Turn: t.Turn, Rolls: t.Rolls, Story: t.Story, At: t.At, Rules: t.Rules}
		if x.Over {
			et.Hash, et.State, et.DiceState = t.Hash, t.State, hex.EncodeToString(t.DiceState)
		} else {
			et.Seal = t.Seal(r.Seed)
		}
		x.Turns = append(x.Turns, et)
	}
	return x, nil
}

// MaxExport is the largest export read: a 300-turn race's is a few MB.
const MaxExport = 64 << 20

// ReadExport reads an export: a document that is not one is bad input.
func ReadExport(rd io.Reader) (Export, error) {
	var x Export
	b, err := io.ReadAll(io.LimitReader(rd, MaxExport+1))
	if err != nil {
		return Export{}, badf("reading the export: %v", err)
	}
	if len(b) > MaxExport {
		return Export{}, badf("the export is larger than %d MiB; pitwall reads exports of at most that", MaxExport>>20)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&x); err != nil {
		return Export{}, badf("not a pitwall race export: %v", err)
	}
	if x.Format != ExportFormat {
		return Export{}, badf("not a pitwall race export: the format is %q; this pitwall reads %q", x.Format, ExportFormat)
	}
	if x.Race.ID == "" || x.Race.Ruleset == "" {
		return Export{}, badf("the export names no race or ruleset")
	}
	return x, nil
}

// VerifyExport checks an export as Verify checks a stored race: the chain
// from the definition through every entry and turn record given, and, once
// the seed is revealed, a replay of every turn against its record. Before
// the end the dice cannot be replayed: the report says so (Replayed false).
func VerifyExport(x Export, head string) Report {
	rep := Report{Race: x.Race.ID, Head: head, Commitment: x.Race.Commitment, Over: x.Over}
	r := &race.Race{ID: x.Race.ID, Ruleset: x.Race.Ruleset, Rules: x.Race.Rules, Config: x.Race.Config,
		Entrants: x.Race.Entrants, Created: x.Race.Created, Log: x.Log}
	var saved []race.TurnRecord
	for _, t := range x.Turns {
		rec := race.TurnRecord{Turn: t.Turn, Hash: t.Hash, Rolls: t.Rolls, At: t.At, Rules: t.Rules}
		if t.Story != nil {
			rec.Story = compact(t.Story)
		}
		if t.State == nil { // a race still running: its seal stands for its secret parts
			if t.Seal == "" {
				rep.problem("turn %d has neither its state nor its seal", t.Turn)
			}
			rec.Given = t.Seal
		} else {
			ds, err := hex.DecodeString(t.DiceState)
			if err != nil {
				rep.problem("turn %d: the dice state is not hex", t.Turn)
			}
			rec.DiceState, rec.State = ds, compact(t.State)
		}
		saved = append(saved, rec)
	}
	seeded := x.Race.Seed != ""
	if seeded {
		seed, err := dice.ParseSeed(x.Race.Seed)
		switch {
		case err != nil:
			rep.problem("the seed %q cannot be read: %v", x.Race.Seed, err)
			seeded = false
		case seed.Commitment() != x.Race.Commitment:
			rep.problem("the seed does not match the published commitment %s", x.Race.Commitment)
			seeded = false
		default:
			// the seed is sound: the rest is checked with it, so that wrong
			// options are one problem, not a broken chain and replay too
			r.Seed = seed
			if race.OptionsCommitment(seed, x.Race.Config.Options) != x.Race.OptionsCommitment {
				rep.problem("the race's options are not those its options commitment sealed")
			}
		}
	}
	rep.Entries = len(r.Log)
	records := recordsByTurn(saved, &rep)
	// Without the seed the chain still holds: it starts from the commitment.
	checkChain(r, race.GenesisOf(r, x.Race.Commitment, x.Race.OptionsCommitment), records, &rep)
	if rep.ChainHead != x.ChainHead {
		rep.problem("the export says its chain ends at %.12s; its entries end at %.12s", x.ChainHead, rep.ChainHead)
	}
	rs, err := race.Lookup(r.Ruleset)
	if err != nil {
		rep.problem("%v", err)
	} else if seeded {
		rep.Replayed = true
		replayAll(rs, r, records, &rep)
	}
	rep.OK = len(rep.Problems) == 0
	return rep
}

// compact is the JSON text the chain hashed: an export written with
// indentation gives it back indented.
func compact(b []byte) []byte {
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}
