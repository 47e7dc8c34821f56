package race

import (
	"strings"
	"testing"
)

func TestFindCheck(t *testing.T) {
	cs := []Check{{Name: "pass", Flags: []Flag{{Name: "momentum", Values: "0..", Need: true}, {Name: "defensive", Bool: true}}}, {Name: "item"}}
	if c, err := FindCheck("g", cs, "pass", map[string]string{"momentum": "2", "defensive": "true"}); err != nil || c.Name != "pass" {
		t.Fatalf("a good check: %v %v", c, err)
	}
	for _, tc := range []struct {
		name string
		args map[string]string
		says string
	}{
		{"drift", nil, `unknown g check "drift"; checks: pass, item`},
		{"pass", map[string]string{"momentum": "1", "lane": "2"}, "pass has no flag --lane; flags: --momentum, --defensive"},
		{"pass", nil, "pass needs --momentum (0..)"},
		{"item", map[string]string{"boost": "1"}, "item has no flag --boost; it takes no flags"},
		{"pass", map[string]string{"momentum": "1", "defensive": "yes"}, `--defensive is a switch and takes no value; got "yes"`},
	} {
		if _, err := FindCheck("g", cs, tc.name, tc.args); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s %v: %v, want %q", tc.name, tc.args, err, tc.says)
		}
	}
}
