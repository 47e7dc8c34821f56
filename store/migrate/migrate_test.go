package migrate

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoad(t *testing.T) {
	ms, err := Load(fstest.MapFS{
		"0002_second.sql":    {Data: []byte("B")},
		"0001_first.sql":     {Data: []byte("A")},
		"README":             {Data: []byte("not a migration")},
		"0003_Upper.sql":     {Data: []byte("not a migration either")},
		"0003_dir.sql/x.sql": {Data: []byte("a directory is not a migration")},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []Migration{{1, "0001_first.sql", "A"}, {2, "0002_second.sql", "B"}}
	if len(ms) != len(want) {
		t.Fatalf("Load = %+v, want %+v", ms, want)
	}
	for i := range want {
		if ms[i] != want[i] {
			t.Errorf("migration %d = %+v, want %+v", i, ms[i], want[i])
		}
	}
}

func TestLoadRefusesBadSets(t *testing.T) {
	for name, fsys := range map[string]fstest.MapFS{
		"none": {},
		"gap": {
			"0001_a.sql": {Data: []byte(`SELECT 1;`)},
			"0003_c.sql": {Data: []byte(`SELECT 1;`)},
		},
		"repeat": {
			"0001_a.sql":    {Data: []byte(`SELECT 1;`)},
			"001_again.sql": {Data: []byte(`SELECT 1;`)},
		},
		"from zero": {
			"0000_a.sql": {Data: []byte(`SELECT 1;`)},
		},
	} {
		t.Run(name, func(t *testing.T) {
			if ms, err := Load(fsys); err == nil {
				t.Errorf("Load accepted %+v", ms)
			}
		})
	}
}

// fakeTx records what Run asks of the database.
type fakeTx struct {
	version  int
	prepared bool
	applied  []string
	recorded []int
	fail     string // the migration whose Apply fails
}

func (f *fakeTx) Prepare(context.Context) error { f.prepared = true; return nil }

func (f *fakeTx) Version(context.Context) (int, error) {
	if !f.prepared {
		return 0, errors.New("schema_migrations read before it was prepared")
	}
	return f.version, nil
}

func (f *fakeTx) Apply(_ context.Context, m Migration) error {
	if m.Name == f.fail {
		return errors.New("syntax error")
	}
	f.applied = append(f.applied, m.SQL)
	return nil
}

func (f *fakeTx) Record(_ context.Context, m Migration) error {
	f.recorded = append(f.recorded, m.Version)
	return nil
}

var three = []Migration{{1, "0001_a.sql", "A"}, {2, "0002_b.sql", "B"}, {3, "0003_c.sql", "C"}}

func TestRunAppliesOnlyMissing(t *testing.T) {
	for version, want := range map[int]string{0: "ABC", 1: "BC", 2: "C", 3: ""} {
		tx := &fakeTx{version: version}
		if err := Run(context.Background(), tx, three); err != nil {
			t.Fatalf("from version %d: %v", version, err)
		}
		if got := strings.Join(tx.applied, ""); got != want {
			t.Errorf("from version %d applied %q, want %q", version, got, want)
		}
		if len(tx.recorded) != len(want) || len(want) > 0 && tx.recorded[0] != version+1 {
			t.Errorf("from version %d recorded %v", version, tx.recorded)
		}
	}
}

func TestRunRefusesNewerSchema(t *testing.T) {
	tx := &fakeTx{version: 5}
	err := Run(context.Background(), tx, three)
	if err == nil || !strings.Contains(err.Error(), "version 5") || !strings.Contains(err.Error(), "up to version 3") {
		t.Fatalf("Run on a newer schema: error = %v", err)
	}
	if len(tx.applied) != 0 {
		t.Errorf("applied %v", tx.applied)
	}
}

func TestRunStopsAtAFailure(t *testing.T) {
	tx := &fakeTx{fail: "0002_b.sql"}
	err := Run(context.Background(), tx, three)
	if err == nil || !strings.Contains(err.Error(), "0002_b.sql") {
		t.Fatalf("error = %v, want one naming 0002_b.sql", err)
	}
	if got := strings.Join(tx.applied, ""); got != "A" {
		t.Errorf("applied %q, want only A before the failure", got)
	}
}
