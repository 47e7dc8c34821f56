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
