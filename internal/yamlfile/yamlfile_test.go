package yamlfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestDecodeAndLine(t *testing.T) {
	var v struct {
		Name  string `yaml:"name"`
		Items []struct {
			Size int `yaml:"size"`
		} `yaml:"items"`
	}
	src := []byte("name: x\nitems:\n  - size: 1\n  - size: 2\n")
	if err := Decode("f.yaml", src, &v); err != nil || len(v.Items) != 2 {
		t.Fatalf("%v %+v", err, v)
	}
	if l := Line(src, "$.items[1].size"); l != 4 {
		t.Errorf("line of items[1].size = %d, want 4", l)
	}
	if l := Line(src, "$.nothing"); l != 0 {
		t.Errorf("a missing path: line %d", l)
	}
	for _, bad := range []string{"name: x\ncolour: red\n", "name: [1, 2\n", "items: 3\n"} {
		err := Decode("f.yaml", []byte(bad), &v)
		if err == nil || !strings.HasPrefix(err.Error(), "f.yaml: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: %v", bad, err)
		}
	}
}

// go-yaml panics on an unknown tag on a list field (its issue 735); Decode
// must return an error instead. The input is the one the course fuzzer found.
func TestDecodeSurvivesTheLibrarysPanic(t *testing.T) {
	var v struct {
		Segments []struct {
			Paths []struct {
				Name string `yaml:"name"`
			} `yaml:"paths"`
		} `yaml:"segments"`
	}
	src := []byte(" \n\nsegments:\n  -\n\n    dash-panels: true\n\n\n\n    narrow: 0\n  - narrow: true\n  - paths:\n      ! 000000\n000000008: 0")
	err := Decode("f.yaml", src, &v)
	if err == nil || !strings.HasPrefix(err.Error(), "f.yaml: ") {
		t.Fatalf("got %v, want an error naming the file", err)
	}
}

// Nested aliases would expand a few hundred bytes to gigabytes: refused, at
// once, with the line; so is a file far larger than any pitwall reads.
func TestAliasesAndSizeRefused(t *testing.T) {
	var b strings.Builder
	b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x]\n")
	for i := 1; i <= 11; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	var v map[string]any
	err := Decode("bomb.yaml", []byte(b.String()), &v)
	if err == nil || !strings.Contains(err.Error(), "bomb.yaml: line 2: aliases") {
		t.Fatalf("got %v", err)
	}
	big := []byte("x: " + strings.Repeat("y", MaxSize) + "\n")
	if err := Decode("big.yaml", big, &v); err == nil || !strings.Contains(err.Error(), "at most") {
		t.Fatalf("a big file: %v", err)
	}
	// Anchors alone, without aliases, are harmless and read.
	if err := Decode("ok.yaml", []byte("a: &x 1\n"), &v); err != nil {
		t.Fatal(err)
	}
}

// ReadFile reads at most MaxSize bytes: a larger file is refused without
// being read whole, and a device or a named pipe without being opened (the
// open of a pipe would wait for ever).
func TestReadFileIsBounded(t *testing.T) {
	dir := t.TempDir()
	ok := dir + "/ok.yaml"
	if err := os.WriteFile(ok, []byte(strings.Repeat("a", MaxSize)), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(ok); err != nil || len(b) != MaxSize {
		t.Fatalf("a file of MaxSize bytes: %d, %v", len(b), err)
	}
	big := dir + "/big.yaml"
	if err := os.WriteFile(big, []byte(strings.Repeat("a", MaxSize+1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(big); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("a file one byte over: %v", err)
	}
	if _, err := ReadFile(dir + "/none.yaml"); err == nil {
		t.Fatal("a missing file was read")
	}
	fifo := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for path, what := range map[string]string{fifo: "named pipe", "/dev/zero": "character device", dir: "directory"} {
		if _, err := os.Stat(path); err != nil {
			continue // no /dev/zero here
		}
		if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), what) {
			t.Errorf("%s: %v; want it refused as a %s", path, err, what)
		}
	}
}

// A validation error names the file and, when its path is found, the line;
// another error keeps the file's name and wraps the error.
func TestLocated(t *testing.T) {
	src := []byte("id: ring\nspaces:\n  - id: a\n    type: moon\n")
	for _, tc := range []struct {
		err  error
		want string
	}{
		{Bad("$.spaces[0].type", "type %q is not a space type", "moon"), `ring.yaml:4: type "moon" is not a space type`},
		{Bad("$.nowhere", "no such"), "ring.yaml: no such"},
		{errors.New("plain"), "ring.yaml: plain"},
	} {
		if got := Located("ring.yaml", src, tc.err).Error(); got != tc.want {
			t.Errorf("Located(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
	plain := errors.New("plain")
	if !errors.Is(Located("f", src, plain), plain) {
		t.Error("a plain error is not wrapped")
	}
}

func TestDecodeChecked(t *testing.T) {
	type ring struct {
		ID     string `yaml:"id"`
		Spaces []struct {
			Type string `yaml:"type"`
		} `yaml:"spaces"`
	}
	src := []byte("id: ring\nspaces:\n  - type: moon\n")
	checked := 0
	moon := func(r *ring) error {
		checked++
		if r.Spaces[0].Type != "blue" {
			return Bad("$.spaces[0].type", "type %q is not a space type", r.Spaces[0].Type)
		}
		return nil
	}
	if _, err := DecodeChecked("ring.yaml", src, moon); err == nil || err.Error() != `ring.yaml:3: type "moon" is not a space type` {
		t.Errorf("a check's error: got %v", err)
	}
	if _, err := DecodeChecked("ring.yaml", []byte("id: [\n"), moon); err == nil || checked != 1 {
		t.Errorf("a file that does not decode: got %v, checked %d times (want 1: not checked)", err, checked)
	}
	r, err := DecodeChecked("ring.yaml", []byte("id: ring\nspaces:\n  - type: blue\n"), moon)
	if err != nil || r.ID != "ring" || len(r.Spaces) != 1 {
		t.Errorf("a good file: got %+v, %v", r, err)
	}
}
