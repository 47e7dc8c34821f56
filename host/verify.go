package host

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"

	"pitwall/race"
	"pitwall/store"
)

// Report is what verify found.
type Report struct {
	Race       string   `json:"race"`
	OK         bool     `json:"ok"`
	Turns      int      `json:"turns"`
	Rolls      int      `json:"rolls"`
	Entries    int      `json:"entries"`
	Commitment string   `json:"commitment"`
	Seed       string   `json:"seed,omitempty"` // revealed once the race is over
	Over       bool     `json:"over"`
	ChainHead  string   `json:"chain_head"`
	Replayed   bool     `json:"replayed"`             // the turns were replayed (an export before the end has no seed)
	Head       string   `json:"head,omitempty"`       // the head checked, as given
	HeadEntry  int      `json:"head_entry,omitempty"` // the entry it is the head after
	Problems   []string `json:"problems,omitempty"`
}

func (r *Report) problem(format string, a ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, a...))
}

// Verify checks a race from its first entry: the hash chain from the race's
// definition through every entry and turn record; the seed against the
// commitment; and a replay of every turn against its record (state hash,
// snapshot, rolls, dice stream and story). head, when given, is a chain head
// once published (in a post): it must be on the chain, or the log was
// rewritten after it was published. A failed check is a problem in the
// report, not an error; an error means the race could not be read at all.
func (h *Host) Verify(ctx context.Context, id, head string) (Report, error) {
	rep := Report{Race: id, Head: head}
	r, err := h.Store.Load(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return rep, bad(err)
	}
	if err != nil {
		rep.problem("the race cannot be read: %v", err)
		return rep, nil
	}
	saved, err := h.Store.Turns(ctx, id)
	if err != nil {
		rep.problem("the turn records cannot be read: %v", err)
		return rep, nil
	}
	sums, err := h.Store.List(ctx, store.Page{})
	if err != nil {
		return rep, err
	}
	for _, s := range sums {
		if s.ID == id {
			rep.Commitment = s.Commitment
		}
	}
	if rep.Commitment != r.Seed.Commitment() {
		rep.problem("the seed does not match the published commitment %s", rep.Commitment)
	}
	VerifyLog(r, saved, &rep)
	return rep, nil
}

// VerifyLog checks a race's log and turn records (as a store or an export
// holds them) into rep.
func VerifyLog(r *race.Race, saved []race.TurnRecord, rep *Report) {
	rep.Entries = len(r.Log)
	records := recordsByTurn(saved, rep)
	checkChain(r, race.Genesis(r), records, rep)

	rs, err := race.Lookup(r.Ruleset)
	if err != nil {
		rep.problem("%v", err)
		return
	}
	rep.Replayed = true
	replayAll(rs, r, records, rep)
	rep.OK = len(rep.Problems) == 0
}

// recordsByTurn indexes the turn records; a turn with two is a problem (a
// reader would see one, the chain and the replay the other).
func recordsByTurn(saved []race.TurnRecord, rep *Report) map[int]*race.TurnRecord {
	records := map[int]*race.TurnRecord{}
	for i := range saved {
		if records[saved[i].Turn] != nil {
			rep.problem("turn %d has two records", saved[i].Turn)
		}
		records[saved[i].Turn] = &saved[i]
	}
	return records
}

// checkChain recomputes every link of the chain and looks for the head given.
func checkChain(r *race.Race, genesis string, records map[int]*race.TurnRecord, rep *Report) {
	prev := genesis
	onChain := rep.Head == "" || rep.Head == prev
	broken := false
	resolved := map[int]bool{}
	for i, e := range r.Log {
		if e.Seq != i+1 {
			rep.problem("the log skips from entry %d to %d", i, e.Seq)
			return
		}
		var rec *race.TurnRecord
		if e.Kind == race.EntryResolve {
			rec = records[e.Turn]
			resolved[e.Turn] = true
			if rec == nil {
				rep.problem("entry %d resolves turn %d, which has no record", e.Seq, e.Turn)
			}
		}
		want := race.ChainNext(prev, e, rec, r.Seed)
		if e.Hash != want && !broken {
			// One break is reported once: the links after it follow the stored hashes.
			rep.problem("entry %d is not what its hash %.12s sealed (found %.12s): the log or a turn record was edited, or an entry inserted, removed or moved, at or before it", e.Seq, e.Hash, want)
			broken = true
		}
		if rep.Head != "" && e.Hash == rep.Head {
			onChain, rep.HeadEntry = true, e.Seq
		}
		prev = e.Hash
	}
	rep.ChainHead = prev
	for t := range records {
		if !resolved[t] {
			rep.problem("turn %d has a record but no resolve entry", t)
		}
	}
	if !onChain {
		rep.problem("the published head %.12s is not on this race's chain: what was published has since been rewritten or removed", rep.Head)
	}
}

// replayAll replays the race from its setup and holds every turn to its record.
func replayAll(rs race.Ruleset, r *race.Race, records map[int]*race.TurnRecord, rep *Report) {
	p := race.Begin(rs, r)
	// As a load does: entries that came under other rules than these, and
	// that these refuse, were voided when the turn was resolved.
	p.Lenient = r.Rules != rs.Game().Version
	skipping := 0 // a turn this build's rules cannot replay: taken from its record
	for _, e := range r.Log {
		if skipping > 0 && e.Turn == skipping {
			if e.Kind != race.EntryResolve {
				p.Pass(e)
				continue
			}
			rep.Turns++
			if err := p.Adopt(e, records[e.Turn]); err != nil {
				rep.problem("turn %d: %v", e.Turn, err)
				return
			}
			skipping = 0
			p.Lenient = records[e.Turn].Rules != rs.Game().Version
			continue
		}
		if err := p.Apply(e); err != nil {
			rec := records[e.Turn]
			if rec != nil && rec.Rules != rs.Game().Version && (e.Kind == race.EntryOrder || e.Kind == race.EntrySet) {
				rep.problem("entry %d (%s, turn %d) is refused by %s rules version %d: %v (turn %d was played under version %d: verify it with a pitwall of version %d)",
					e.Seq, e.Kind, e.Turn, rs.Game().ID, rs.Game().Version, err, e.Turn, rec.Rules, rec.Rules)
				skipping = e.Turn
				p.Pass(e)
				continue
			}
			rep.problem("entry %d (%s, turn %d) does not replay: %v", e.Seq, e.Kind, e.Turn, err)
			return
		}
		if e.Kind != race.EntryResolve {
			continue
		}
		got := p.Turns[len(p.Turns)-1]
		rep.Turns++
		if rec := records[e.Turn]; rec != nil {
			p.Lenient = rec.Rules != rs.Game().Version
		}
		rep.Rolls += len(got.Rolls)
		rec := records[e.Turn]
		if rec == nil {
			continue
		}
		if diffs := compareTurn(got, rec); len(diffs) > 0 {
			why := ""
			if rec.Rules != rs.Game().Version {
				why = fmt.Sprintf(" (it was played under %s rules version %d; this pitwall plays version %d: verify it with a pitwall of version %d)", rs.Game().ID, rec.Rules, rs.Game().Version, rec.Rules)
			}
			for _, d := range diffs {
				rep.problem("turn %d: %s%s", e.Turn, d, why)
			}
			// Go on from the record, so one difference is reported once.
			s, err := rs.DecodeState(rec.State)
			if err != nil {
				rep.problem("turn %d: the snapshot does not decode: %v", e.Turn, err)
				return
			}
			if err := p.Reseat(s, rec.DiceState); err != nil {
				rep.problem("turn %d: the recorded dice stream cannot be read: %v", e.Turn, err)
				return
			}
		}
	}
	if p.Started {
		rep.Over = p.State.Over()
	}
	if rep.Over {
		rep.Seed = r.Seed.Hex()
	}
}

// compareTurn lists how a replayed turn differs from its record.
func compareTurn(got race.Turn, rec *race.TurnRecord) []string {
	var d []string
	if got.Hash != rec.Hash {
		d = append(d, fmt.Sprintf("the replayed state hash %.12s differs from the recorded %.12s", got.Hash, rec.Hash))
	}
	if sum := sha256.Sum256(rec.State); hex.EncodeToString(sum[:]) != rec.Hash {
		d = append(d, "the stored snapshot is not the state its hash names")
	}
	if !bytes.Equal(got.DiceState, rec.DiceState) {
		d = append(d, "the dice stream after the turn differs from the recorded one")
	}
	if len(got.Rolls) != len(rec.Rolls) {
		d = append(d, fmt.Sprintf("%d rolls replayed, %d recorded", len(got.Rolls), len(rec.Rolls)))
	} else {
		for j := range got.Rolls {
			if got.Rolls[j] != rec.Rolls[j] {
				d = append(d, fmt.Sprintf("roll %d: replayed %s, recorded %s", j+1, got.Rolls[j], rec.Rolls[j]))
				break
			}
		}
	}
	if rec.Story != nil {
		story, err := json.Marshal(race.Story{Orders: got.Orders, Defaulted: got.Defaulted, Events: got.Events})
		if err != nil || !bytes.Equal(story, rec.Story) {
			d = append(d, "the story told differs from the recorded one")
		}
	}
	return d
}
