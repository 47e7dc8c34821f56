package yamlfile

import (
	"strings"
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
