package storetest

import (
	"slices"
	"strings"
	"testing"

	"pitwall/store"
)

// CheckCopyColumns compares a store's schema (its tables' columns) with
// the columns its copy carries, table by table (each a comma-separated
// list), less what store.CopyLeaves names: a table or column a migration
// adds fails it until the copy carries it or says why not.
func CheckCopyColumns(t *testing.T, schema map[string][]string, copied map[string]string) {
	t.Helper()
	if len(schema) == 0 {
		t.Fatal("the schema has no tables")
	}
	for table, columns := range schema {
		if _, left := store.CopyLeaves[table]; left {
			continue
		}
		list, ok := copied[table]
		if !ok {
			t.Errorf("table %s is neither copied nor named in store.CopyLeaves", table)
			continue
		}
		var want []string
		for _, c := range columns {
			if _, left := store.CopyLeaves[table+"."+c]; !left {
				want = append(want, c)
			}
		}
		got := strings.Split(list, ", ")
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("table %s: the copy carries %v; the schema has %v (less what store.CopyLeaves names)", table, got, want)
		}
	}
	for table := range copied {
		if schema[table] == nil {
			t.Errorf("the copy carries table %s, which the schema does not have", table)
		}
	}
}
