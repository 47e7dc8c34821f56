package racetest

import (
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
)

func TestReadFiles(t *testing.T) {
	fsys := fstest.MapFS{"tracks/a.yaml": {Data: []byte("a")}, "b.yaml": {Data: []byte("bb")}}
	if got := ReadFiles(t, fsys, "b.yaml", "tracks/a.yaml"); len(got) != 2 || string(got[0]) != "bb" || string(got[1]) != "a" {
		t.Errorf("ReadFiles = %q, want [bb a] in the order asked", got)
	}
	if msg := failure(t, func(tb testing.TB) { ReadFiles(tb, fsys, "tracks/c.yaml") }); !strings.Contains(msg, "tracks/c.yaml") {
		t.Errorf("a file not there: %q, want it named", msg)
	}
}

// number is what FuzzNumbers' parser reads, with the name and text it read.
type number struct {
	name, src string
	n         int
}

// FuzzNumbers: FuzzParse hands check what parse reads, read under the name
// given, and nothing it refuses ("x").
func FuzzNumbers(f *testing.F) {
	parse := func(name string, src []byte) (number, error) {
		n, err := strconv.Atoi(string(src))
		return number{name, string(src), n}, err
	}
	FuzzParse(f, parse, "n.txt", [][]byte{[]byte("12"), []byte("x")}, func(t *testing.T, v number) {
		if v.name != "n.txt" || strconv.Itoa(v.n) != v.src {
			t.Errorf("checked %+v: read as another name, or refused", v)
		}
	})
}
