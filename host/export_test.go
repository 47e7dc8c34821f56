package host

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
	_ "pitwall/rules/nascar"
)

func exportOf(t testing.TB, f *fixture) (Export, []byte) {
	t.Helper()
	x, err := f.h.Export(context.Background(), "r1")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.MarshalIndent(x, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return x, b
}

func reread(t *testing.T, b []byte) Export {
	t.Helper()
	x, err := ReadExport(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// A finished race's export verifies without the database, every turn
// replayed from its revealed seed; a changed byte fails it.
func TestExportOfAFinishedRace(t *testing.T) {
	f, head := played(t)
	x, b := exportOf(t, f)
	if !x.Over || x.Race.Seed == "" || len(x.Log) != x.LogEntries || x.Format != ExportFormat {
		t.Fatalf("the export of a finished race: over %v, seed %q, %d of %d entries", x.Over, x.Race.Seed, len(x.Log), x.LogEntries)
	}
	rep := VerifyExport(reread(t, b), head)
	if !rep.OK || !rep.Replayed || rep.Turns != len(x.Turns) || rep.HeadEntry != 5 || rep.Seed != x.Race.Seed {
		t.Fatalf("the export, read back: %+v", rep)
	}
	for _, tc := range []struct{ from, to, want string }{
		{`"text": "Accelerate"`, `"text": "Whip"`, "sealed"},
		{`"result": 3`, `"result": 4`, ""},
		{`"seed": "`, `"seed": "0`, "seed"},
		{`"commitment": "`, `"commitment": "f`, ""},
		{`"player": "Livia"`, `"player": "Livio"`, "sealed"},
	} {
		if !bytes.Contains(b, []byte(tc.from)) {
			t.Fatalf("the export has no %s", tc.from)
		}
		changed := bytes.Replace(b, []byte(tc.from), []byte(tc.to), 1)
		x, err := ReadExport(bytes.NewReader(changed))
		if err != nil {
			t.Fatal(err)
		}
		if rep := VerifyExport(x, ""); rep.OK || !strings.Contains(strings.Join(rep.Problems, ";"), tc.want) {
			t.Errorf("%s changed to %s: %+v", tc.from, tc.to, rep.Problems)
		}
	}
}

// A second record of a turn put before the real one (a reader sees it
// first) fails, and a changed option is one problem, not a broken chain.
func TestExportForgedRecordAndOption(t *testing.T) {
	f, _ := played(t)
	x, _ := exportOf(t, f)
	fake := x.Turns[0]
	fake.Rolls = append([]dice.Roll(nil), fake.Rolls...)
	for i := range fake.Rolls {
		fake.Rolls[i].Result = 1
	}
	forged := x
	forged.Turns = append([]ExportedTurn{fake}, x.Turns...)
	if rep := VerifyExport(forged, ""); rep.OK || !strings.Contains(strings.Join(rep.Problems, ";"), "turn 1 has two records") {
		t.Fatalf("a forged first record: %+v", rep.Problems)
	}
	opt := x
	// An option the race plays the same with (ludi's default, given), so
	// the commitment is all that differs.
	opt.Race.Config.Options = map[string]string{"watch-crash": "minus-2"}
	if rep := VerifyExport(opt, ""); rep.OK || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "options commitment") {
		t.Fatalf("a changed option: %q", rep.Problems)
	}
}

// Before the end: no seed, and the log stops before the first order of the
// open turn, which is secret; the chain still verifies.
func TestExportMidRace(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	f.race(t, 5)
	if _, err := f.h.Submit(ctx, "r1", 0, "Accelerate", Req{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.h.Resolve(ctx, "r1", Req{}); err != nil {
		t.Fatal(err)
	}
	p, _ := f.h.Load(ctx, "r1")
	posted := p.PublicHead
	if _, err := f.h.Submit(ctx, "r1", 1, "Whip", Req{}); err != nil {
		t.Fatal(err)
	}
	x, b := exportOf(t, f)
	if x.Over || x.Race.Seed != "" || len(x.Log) != 2 || x.LogEntries != 3 || x.ChainHead != posted {
		t.Fatalf("mid-race: over %v seed %q, %d of %d entries, head %.12s (posted %.12s)", x.Over, x.Race.Seed, len(x.Log), x.LogEntries, x.ChainHead, posted)
	}
	if bytes.Contains(b, []byte("Whip")) {
		t.Fatal("the export shows an order of the open turn")
	}
	rep := VerifyExport(reread(t, b), posted)
	if !rep.OK || rep.Replayed || rep.HeadEntry != 2 {
		t.Fatalf("a mid-race export: %+v", rep)
	}
	changed := bytes.Replace(b, []byte(`"text": "Accelerate"`), []byte(`"text": "Brake"`), 1)
	if rep := VerifyExport(reread(t, changed), ""); rep.OK {
		t.Fatal("a changed order passed")
	}
}

func TestReadExportRefuses(t *testing.T) {
	for _, doc := range []string{``, `{`, `[]`, `{"format":"other/1"}`, `{"format":"pitwall-race-export/1"}`, `{"format":"pitwall-race-export/1","race":{"id":"x","ruleset":"ludi"},"extra":1}`} {
		if _, err := ReadExport(strings.NewReader(doc)); !IsBadInput(err) {
			t.Errorf("%q: %v", doc, err)
		}
	}
}

// A nascar race's export before the end holds no state, no dice stream and
// no options: the sandbags stay hidden, the rolls to come unknown.
func TestExportKeepsSecrets(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	s := dice.SeedFromInt(3)
	es := []race.Entrant{{Player: "A", Racers: []string{"Intimidator"}}, {Player: "B", Racers: []string{"Jaws"}}}
	if _, err := f.h.NewRace(ctx, "nascar", "r1", race.Config{Track: "oval", Options: map[string]string{"sandbags": "none"}}, es, &s); err != nil {
		t.Fatal(err)
	}
	for turn := 1; turn <= 3; turn++ {
		if _, err := f.h.Resolve(ctx, "r1", Req{Turn: turn}); err != nil {
			t.Fatal(err)
		}
	}
	x, b := exportOf(t, f)
	secrets := []string{`"sandbags`, `"dice_state"`, `"state"`, `"options"`, s.Hex()}
	recs, _ := f.h.Store.Turns(ctx, "r1")
	for _, r := range recs {
		secrets = append(secrets, r.Hash) // a state's hash lets anyone guess and check what it hides
	}
	for _, secret := range secrets {
		if bytes.Contains(b, []byte(secret)) {
			t.Errorf("the export before the end holds %s", secret)
		}
	}
	if rep := VerifyExport(reread(t, b), ""); !rep.OK || rep.Replayed || rep.Entries != 3 || len(x.Turns) != 3 {
		t.Fatalf("%+v", rep)
	}
	// A changed seal breaks the chain.
	changed := bytes.Replace(b, []byte(`"seal": "`), []byte(`"seal": "0`), 1)
	if rep := VerifyExport(reread(t, changed), ""); rep.OK {
		t.Fatal("a changed seal passed")
	}
}

// Any change to a real export is refused or verified, never a panic or a hang.
func FuzzVerifyExport(f *testing.F) {
	g, _ := played(f)
	_, over := exportOf(f, g)
	f.Add(over, uint16(0), byte('x'))
	f.Add([]byte(`{"format":"pitwall-race-export/1","race":{"id":"r","ruleset":"ludi"},"log":[{"seq":1,"kind":"resolve","turn":1}],"turns":[]}`), uint16(5), byte('2'))
	f.Fuzz(func(t *testing.T, doc []byte, at uint16, c byte) {
		if len(doc) > 0 {
			doc = append([]byte(nil), doc...)
			doc[int(at)%len(doc)] = c
		}
		x, err := ReadExport(bytes.NewReader(doc))
		if err != nil {
			if !IsBadInput(err) {
				t.Fatalf("not bad input: %v", err)
			}
			return
		}
		VerifyExport(x, "")
	})
}
