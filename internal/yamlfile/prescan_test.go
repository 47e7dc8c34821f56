package yamlfile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// What go-yaml itself makes of src: the deepest nesting of its flow tokens,
// whether it has an alias, and (when it parses) the deepest nesting of its
// tree, the most keys of a block mapping and the documents. lexed is false
// when go-yaml's scanner refuses src: then no parser runs on it.
type goYAMLView struct {
	lexed, parsed        bool
	flowDepth, treeDepth int
	alias                bool
	keys, docs           int
}

func viewOf(src []byte) goYAMLView {
	var v goYAMLView
	tokens := lexer.Tokenize(string(src))
	if tokens.InvalidToken() != nil {
		return v
	}
	v.lexed = true
	d := 0
	for _, tk := range tokens {
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			d++
			v.flowDepth = max(v.flowDepth, d)
		case token.SequenceEndType, token.MappingEndType:
			d = max(d-1, 0)
		case token.AliasType:
			v.alias = true
		}
	}
	f, err := func() (f *ast.File, err error) {
		defer func() {
			if recover() != nil {
				f = nil
			}
		}()
		return parser.ParseBytes(src, 0)
	}()
	if err != nil || f == nil {
		return v
	}
	v.parsed = true
	v.docs = len(f.Docs)
	for _, doc := range f.Docs {
		if doc != nil {
			w := &treeWalker{view: &v}
			ast.Walk(w, doc)
		}
	}
	return v
}

type treeWalker struct {
	view  *goYAMLView
	depth int
}

func (w *treeWalker) Visit(n ast.Node) ast.Visitor {
	if n == nil {
		return nil
	}
	d := w.depth
	switch m := n.(type) {
	case *ast.SequenceNode, *ast.MappingValueNode:
		d++
	case *ast.MappingNode:
		if !m.IsFlowStyle {
			w.view.keys = max(w.view.keys, len(m.Values))
		}
	}
	w.view.treeDepth = max(w.view.treeDepth, d)
	return &treeWalker{view: w.view, depth: d}
}

// The scan must never count less than go-yaml builds: with small limits,
// whatever it accepts go-yaml must nest, key and split no further, and hold
// no alias. And no input may make it, or Decode, panic.
func FuzzPrescan(f *testing.F) {
	for _, s := range prescanSeeds() {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		const depth, keys, empty = 4, 3, 2
		deepest, err := prescan(src, limits{depth: depth, keys: keys, empty: empty})
		if err != nil {
			msg := err.Error()
			if !strings.HasPrefix(msg, "line ") || strings.Contains(msg, "\n") {
				t.Fatalf("%q: the error does not name a line: %q", src, msg)
			}
		}
		var v any
		_ = Decode("f.yaml", src, &v)
		if err != nil {
			return
		}
		g := viewOf(src)
		if !g.lexed {
			return
		}
		if g.alias {
			t.Fatalf("%q: accepted, and go-yaml reads an alias", src)
		}
		if g.flowDepth > deepest {
			t.Fatalf("%q: the scan saw depth %d, go-yaml's flow tokens nest %d", src, deepest, g.flowDepth)
		}
		if !g.parsed {
			return
		}
		if g.treeDepth > deepest {
			t.Fatalf("%q: the scan saw depth %d, go-yaml's tree nests %d", src, deepest, g.treeDepth)
		}
		if g.keys > keys {
			t.Fatalf("%q: accepted, and go-yaml reads a block mapping of %d keys", src, g.keys)
		}
		if g.docs > 1 {
			t.Fatalf("%q: accepted, and go-yaml reads %d documents", src, g.docs)
		}
	})
}

func prescanSeeds() []string {
	seeds := []string{
		"a: 1\nb: [1, 2]\nc: {d: e}\n",
		"- - - x\n",
		"a:\n  b:\n    c:\n      d: 1\n",
		"a:\n- x\n- y\nb: 2\n",
		"- a: 1\n  b: 2\n- c: 3\n",
		"x: [\"\tx\"],[\"\tx\"],[\n",
		"a: 'it''s [' \nb: \"\\\" [\"\n",
		"a: |\n  [[[[\n  'x\nb: [[\n",
		"a: >-\n   text\n  more\nb: 1\n",
		"a: foo\n  'bar\nb: [[[[\n",
		"a: foo\n  - bar\n  [[[\n",
		"? [a]\n: b\n",
		"<<: {a: 1}\n",
		"&a [1, 2]\n",
		"a: *b\n",
		"!tag [[ x\n",
		"a: !t,[ [\n",
		"--- \na: 1\n...\n",
		"a: 1\n---\nb: 2\n",
		"\"\\x\"]]\" [\n",
		"\"\\u\"]]]\" [\n",
		"{a: b:'x', [[\n",
		"# c [[[\n[a, #b\n c]\n",
		"a:\tb\n\t- x\n",
		"a: \"x\n  y\" [[\n",
		"a: |2\n   x\n  y\n",
		"key: value\r\nlist:\r\n  - [a, b]\r\n",
	}
	for _, dir := range shippedDirs {
		files, _ := filepath.Glob(filepath.Join("..", "..", dir, "*.yaml"))
		for _, f := range files {
			if b, err := os.ReadFile(f); err == nil {
				seeds = append(seeds, string(b))
			}
		}
	}
	return seeds
}

var shippedDirs = []string{"rules/ludi/tracks", "rules/rtd/courses", "rules/party/boards", "rules/gaslands/tracks", "rules/gaslands/data"}

// The depth limit is far above what pitwall's own files need, and the
// number the error gives is theirs.
func TestShippedFilesDepth(t *testing.T) {
	deepest, n := 0, 0
	for _, dir := range shippedDirs {
		files, err := filepath.Glob(filepath.Join("..", "..", dir, "*.yaml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no files in %s", dir)
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			d, err := prescan(b, fileLimits)
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			if g := viewOf(b); g.treeDepth > d || g.flowDepth > d {
				t.Errorf("%s: the scan saw depth %d, go-yaml %d and %d", f, d, g.treeDepth, g.flowDepth)
			}
			deepest = max(deepest, d)
			n++
		}
	}
	if deepest != shippedDepth {
		t.Errorf("pitwall's %d files nest at most %d deep; the error says %d", n, deepest, shippedDepth)
	}
	if MaxDepth < 4*deepest {
		t.Errorf("the limit %d is not far above the %d the files need", MaxDepth, deepest)
	}
}

func TestPrescanCounts(t *testing.T) {
	for _, tc := range []struct {
		src   string
		depth int
	}{
		{"a: 1\n", 1},
		{"a: [1, [2]]\n", 3},
		{"- - - x\n", 3},
		{"a:\n  b:\n    c: 1\n", 3},
		{"a:\n- x\n", 2},
		{"a:\n- x\nb:\n  c: 1\n", 2},
		{"a: |\n  [[[[[[\n", 1},
		{"a: '[[[[[['\n", 1},
		{"a: \"[[\\\"[[[[\"\n", 1},
		{"# [[[[[[\na: 1\n", 1},
		{"a: b [[[[[[\n", 1},
		{"a: [{b: c}, [d: e]]\n", 4},
		{"a: {b: c: d}\n", 2},    // "c: d" is a plain scalar
		{"a: {b: !t c: d}\n", 3}, // after a tag it is a pair
		{"0: !\n0: !\n0: 1\n", 3},
		{"0:\n-\n0:\n-\n", 4},
	} {
		d, err := prescan([]byte(tc.src), fileLimits)
		if err != nil || d != tc.depth {
			t.Errorf("%q: depth %d, %v; want %d", tc.src, d, err, tc.depth)
		}
		if g := viewOf([]byte(tc.src)); g.lexed && (g.flowDepth > d || g.treeDepth > d) {
			t.Errorf("%q: go-yaml nests %d and %d, the scan saw %d", tc.src, g.flowDepth, g.treeDepth, d)
		}
	}
}

// bytes.Repeat, for the cases below
func rep(s string, n int) string { return string(bytes.Repeat([]byte(s), n)) }

// pathological are files go-yaml's parser costs far more than linear
// memory or time on (measured before the scan: a 160 KB file of brackets
// took 35 s and 15.7 GB), each about 160 KB, with the error each gets and
// the line it names.
func pathological() []struct {
	name, src, want string
	line            int
} {
	const n = 160_000
	deepIndent := func(item string) string {
		var b strings.Builder
		b.WriteString("entrants:\n")
		for i := 0; b.Len() < n; i++ {
			b.WriteString(strings.Repeat(" ", i+2) + item + "\n")
		}
		return b.String()
	}
	var keys, docs strings.Builder
	for i := 0; keys.Len() < n; i++ {
		fmt.Fprintf(&keys, "k%d: 1\n", i)
	}
	for docs.Len() < n {
		docs.WriteString("---\na: 1\n")
	}
	depth := "nesting deeper than 32 levels"
	return []struct {
		name, src, want string
		line            int
	}{
		{"flow sequences", "entrants: " + rep("[", n/2) + rep("]", n/2) + "\n", depth, 1},
		{"flow mappings", "entrants:\n  - " + rep("{a: ", n/4) + "1" + rep("}", n/4) + "\n", depth, 2},
		{"unclosed brackets", "entrants: " + rep("[", n) + "\n", depth, 1},
		{"block mappings", deepIndent("a:"), depth, 33},
		{"block sequences", deepIndent("-"), depth, 33},
		{"compact sequences", "entrants:\n  " + rep("- ", n/2) + "x\n", depth, 2},
		// go-yaml's parser nests these without any indentation
		{"a tag ending each line", rep("0: !\n", n/5), depth, 33},
		{"sequences under keys at one column", rep("0:\n-\n", n/5), depth, 33},
		// go-yaml's scanner skips the ']' after a quoted string with a tab,
		// and reads to the line's end for every tab in one
		{"quoted tabs", "entrants: " + rep("[\"\tx\"],", n/8) + "x" + rep("]", n/8) + "\n", "a tab inside a double-quoted string", 1},
		{"a quoted string of tabs", "entrants:\n  - player: \"" + rep("\t", n) + "x\"\n", "a tab inside a double-quoted string", 2},
		// and counts the '<' from each one on
		{"a run of '<'", "entrants:\n  - player: " + rep("<", n) + "\n", "more than 64 '<' in a row", 2},
		{"keys", keys.String(), "more than 256 keys in one mapping", 257},
		{"documents", docs.String(), "a second YAML document", 3},
		{"empty values", "entrants:\n" + rep("- \n", n/3), "more than 1024 empty values", 1027},
		{"empty flow values", "entrants: [{" + rep("a, ", n/3) + "}]\n", "more than 1024 empty values", 1},
	}
}

func TestPathologicalFilesRefused(t *testing.T) {
	for _, tc := range pathological() {
		var v struct {
			Entrants []map[string]any `yaml:"entrants"`
		}
		err := Decode("entrants.yaml", []byte(tc.src), &v)
		want := fmt.Sprintf("entrants.yaml: line %d: %s", tc.line, tc.want)
		if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want %q...", tc.name, err, want)
		}
	}
}

// The refusals cost memory linear in the file, and little: every
// pathological file is refused having allocated less than 64 times its
// size (bytes, not time).
func TestPathologicalFilesCostLinearMemory(t *testing.T) {
	for _, tc := range pathological() {
		src := []byte(tc.src)
		var v struct {
			Entrants []map[string]any `yaml:"entrants"`
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		err := Decode("entrants.yaml", src, &v)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: read", tc.name)
		}
		if used := after.TotalAlloc - before.TotalAlloc; used > 64*uint64(len(src)) {
			t.Errorf("%s: %d bytes allocated for a file of %d, over 64 times its size", tc.name, used, len(src))
		}
	}
}

// limitsFile nests depth levels deep, lists empties values left out, and
// holds keys keys at the top.
func limitsFile(depth, empties, keys int) []byte {
	var b strings.Builder
	b.WriteString("a:\n")
	for i := 1; i < depth-1; i++ {
		fmt.Fprintf(&b, "%sk:\n", strings.Repeat(" ", 2*i))
	}
	fmt.Fprintf(&b, "%sk: x\n", strings.Repeat(" ", 2*depth-2))
	b.WriteString("list:\n" + rep("  -\n", empties))
	for i := 2; i < keys; i++ {
		fmt.Fprintf(&b, "k%d: %d\n", i, i)
	}
	return []byte(b.String())
}

// A file at every limit at once is read; one more of any is refused, for
// that limit.
func TestFilesAtTheLimitsAreRead(t *testing.T) {
	src := limitsFile(MaxDepth, MaxEmpty, MaxKeys)
	if d, err := prescan(src, fileLimits); err != nil || d != MaxDepth {
		t.Fatalf("depth %d, %v", d, err)
	}
	var v any
	if err := Decode("limits.yaml", src, &v); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		src  []byte
		want string
	}{
		{limitsFile(MaxDepth+1, MaxEmpty, MaxKeys), fmt.Sprintf("nesting deeper than %d levels", MaxDepth)},
		{limitsFile(MaxDepth, MaxEmpty+1, MaxKeys), fmt.Sprintf("more than %d empty values", MaxEmpty)},
		{limitsFile(MaxDepth, MaxEmpty, MaxKeys+1), fmt.Sprintf("more than %d keys in one mapping", MaxKeys)},
	} {
		if err := Decode("limits.yaml", tc.src, &v); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("one more: %v; want %q", err, tc.want)
		}
	}
}

// Lines are the file's own, '\r\n' or '\n' alike.
func TestPrescanLines(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		src := strings.ReplaceAll("a: 1 # c\nb: |\n  text\nc: \"x\n  y\"\nd: *e\n", "\n", nl)
		_, err := prescan([]byte(src), fileLimits)
		if err == nil || !strings.HasPrefix(err.Error(), "line 6: aliases") {
			t.Errorf("%q: %v", nl, err)
		}
	}
}
