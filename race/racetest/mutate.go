package racetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"pitwall/dice"
	"pitwall/race"
)

// Mutate changes a JSON document in n places, drawn from rng: a value
// replaced by an edge number (-1, 0, a huge one), a string from elsewhere in
// the document, another type or null; a key or list element removed; a list
// element repeated or two swapped. It returns the new document and what was
// done, for a failure's message.
func Mutate(doc []byte, n int, rng *rand.Rand) ([]byte, string, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var root any
	if err := dec.Decode(&root); err != nil {
		return nil, "", err
	}
	var done []string
	for range n {
		var nodes []node
		var strs []string
		walk(&root, "$", &nodes, &strs)
		nd := nodes[rng.IntN(len(nodes))]
		done = append(done, nd.mutate(rng, strs))
	}
	out, err := json.Marshal(root)
	return out, fmt.Sprint(done), err
}

// node is a place in the document: how to read, replace and remove it.
type node struct {
	path   string
	get    func() any
	set    func(any)
	remove func() // nil for the root
	list   *[]any // the list the node is, if it is one
}

func walk(v *any, path string, nodes *[]node, strs *[]string) {
	*nodes = append(*nodes, node{path: path, get: func() any { return *v }, set: func(x any) { *v = x }})
	walkIn(*v, path, nodes, strs, func(x any) { *v = x })
}

func walkIn(v any, path string, nodes *[]node, strs *[]string, set func(any)) {
	switch x := v.(type) {
	case string:
		*strs = append(*strs, x)
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys) // the same document and rng give the same mutation
		for _, k := range keys {
			p := path + "." + k
			*nodes = append(*nodes, node{path: p, get: func() any { return x[k] }, set: func(y any) { x[k] = y },
				remove: func() { delete(x, k) }})
			walkIn(x[k], p, nodes, strs, func(y any) { x[k] = y })
		}
	case []any:
		list := x
		lp := &list
		(*nodes)[len(*nodes)-1].list = lp
		for i := range x {
			p := fmt.Sprintf("%s[%d]", path, i)
			*nodes = append(*nodes, node{path: p, get: func() any { return (*lp)[i] }, set: func(y any) { (*lp)[i] = y },
				remove: func() { *lp = slices.Delete(*lp, i, i+1); set(*lp) }})
			walkIn(x[i], p, nodes, strs, func(y any) { (*lp)[i] = y })
		}
	}
}

var edges = []any{json.Number("-1"), json.Number("0"), json.Number("1"), json.Number("2"), json.Number("7"), json.Number("13"),
	json.Number("99"), json.Number("-100000"), json.Number("1000000000"), json.Number("9007199254740993"),
	json.Number("1.5"), json.Number("1e300"), "", "x", true, false, nil, []any{}, map[string]any{}}

func (n node) mutate(rng *rand.Rand, strs []string) string {
	switch k := rng.IntN(10); {
	case k < 5:
		v := edges[rng.IntN(len(edges))]
		if num, ok := n.get().(json.Number); ok && rng.IntN(2) == 0 {
			if i, err := num.Int64(); err == nil {
				v = json.Number(fmt.Sprint(i + int64(rng.IntN(5)) - 2)) // a near miss: one past the end
			}
		}
		n.set(v)
		return fmt.Sprintf("%s=%v", n.path, v)
	case k < 7 && len(strs) > 0:
		v := strs[rng.IntN(len(strs))]
		n.set(v)
		return fmt.Sprintf("%s=%q", n.path, v)
	case k < 8 && n.remove != nil:
		n.remove()
		return n.path + " removed"
	case n.list != nil && len(*n.list) > 0:
		l := *n.list
		i, j := rng.IntN(len(l)), rng.IntN(len(l))
		if rng.IntN(2) == 0 {
			l = append(l, l[i])
			n.set(l)
			return fmt.Sprintf("%s[%d] repeated", n.path, i)
		}
		l[i], l[j] = l[j], l[i]
		return fmt.Sprintf("%s[%d] and [%d] swapped", n.path, i, j)
	}
	n.set(nil)
	return n.path + "=null"
}

// DecodeSurvives decodes a mutated copy of a stored state for each of
// rounds draws from rng: DecodeState must refuse it or accept it, never
// panic, and a state it accepts must give its prompts, standings and seats
// without panicking (a host reads them for the next post).
func DecodeSurvives(t testing.TB, rs race.Ruleset, doc []byte, rounds int, rng *rand.Rand) {
	t.Helper()
	for range rounds {
		b, what, err := Mutate(doc, 1+rng.IntN(3), rng)
		if err != nil {
			t.Fatal(err)
		}
		if msg := decodeUse(rs, b); msg != "" {
			t.Fatalf("%s: a state with %s: %s", rs.Game().ID, what, msg)
		}
	}
}

// DecodeMutations runs DecodeSurvives for 300 rounds on each of the stored
// states, each with its own fixed stream: what the games' decode tests run.
func DecodeMutations(t testing.TB, rs race.Ruleset, states [][]byte) {
	t.Helper()
	for i, doc := range states {
		DecodeSurvives(t, rs, doc, 300, rand.New(rand.NewPCG(uint64(i), 11)))
	}
}

// decodeUse decodes b and uses the state; it returns what panicked, if anything.
func decodeUse(rs race.Ruleset, b []byte) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	s, err := rs.DecodeState(b)
	if err != nil {
		return ""
	}
	s.Turn()
	s.Over()
	s.Seats()
	rs.Standings(s)
	if _, err := race.Hash(s); err != nil {
		return err.Error()
	}
	// The search bot's side, on seats in the race and out of it (the
	// planner's candidates cost: one seat in the race, and the edges).
	if sr, ok := rs.(race.Searcher); ok {
		n := len(s.Seats())
		for seat := -1; seat <= n; seat++ {
			sr.Score(s, seat)
		}
		rng := rand.New(rand.NewPCG(uint64(len(b)), 5))
		for _, seat := range []int{-1, 0, n} {
			for _, c := range sr.Candidates(s, seat, false, rng) {
				if c == "" {
					return fmt.Sprintf("seat %d: an empty candidate", seat)
				}
			}
		}
	}
	if s.Over() {
		return ""
	}
	// The turn goes on, every seat on its default order.
	orders := map[int]race.Order{}
	for _, pr := range rs.Prompts(s) {
		orders[pr.Seat] = rs.DefaultOrder(s, pr.Seat)
		_ = orders[pr.Seat].String()
	}
	d := dice.New(dice.SeedFromInt(uint64(len(b))))
	next, _, err := rs.Resolve(s, orders, d, time.Date(2027, 1, 1, 12, 0, 0, 0, time.UTC))
	if err == nil {
		rs.Prompts(next)
		rs.Standings(next)
	}
	return ""
}

// Refused checks that DecodeState refuses each damaged copy of a good stored
// state with an error that says what is wrong, and does not panic. Each
// damage is {old, new, want}: old replaced by new, once, and the words the
// error must hold.
func Refused(t testing.TB, rs race.Ruleset, good []byte, damages [][3]string) {
	t.Helper()
	if _, err := rs.DecodeState(good); err != nil {
		t.Fatalf("the good state: %v", err)
	}
	for _, dm := range damages {
		d := struct{ Old, New, Want string }{dm[0], dm[1], dm[2]}
		if !bytes.Contains(good, []byte(d.Old)) {
			t.Errorf("%q is not in the state to damage", d.Old)
			continue
		}
		bad := bytes.Replace(good, []byte(d.Old), []byte(d.New), 1)
		var err error
		func() {
			defer func() {
				if r := recover(); r != nil {
					err = fmt.Errorf("panic: %v", r)
				}
			}()
			_, err = rs.DecodeState(bad)
		}()
		if err == nil || !bytes.Contains([]byte(err.Error()), []byte(d.Want)) {
			t.Errorf("%s with %s: got %v, want an error saying %q", d.Old, d.New, err, d.Want)
		}
	}
}

// Edited checks a game's parser of a data file (a track, a course) against
// edits of a good file, name's text: parse accepts good, and for each edit
// {old, new, says}, good with old replaced by new, once, is refused with an
// error on one line holding says, or accepted where says is "". An old that
// is not in good fails the edit: it would test nothing.
func Edited[T any](t testing.TB, parse func(name string, src []byte) (T, error), name, good string, edits [][3]string) {
	t.Helper()
	if _, err := parse(name, []byte(good)); err != nil {
		t.Fatalf("the good file: %v", err)
	}
	for _, e := range edits {
		old, new, says := e[0], e[1], e[2]
		if !strings.Contains(good, old) {
			t.Errorf("%q is not in the file to edit", old)
			continue
		}
		_, err := parse(name, []byte(strings.Replace(good, old, new, 1)))
		switch {
		case says == "" && err != nil:
			t.Errorf("%q -> %q: %v, want it accepted", old, new, err)
		case says == "":
		case err == nil || !strings.Contains(err.Error(), says):
			t.Errorf("%q -> %q: %v, want an error saying %q", old, new, err, says)
		case strings.Contains(err.Error(), "\n"):
			t.Errorf("%q -> %q: an error on more than one line: %q", old, new, err)
		}
	}
}

// StoredStates are the stored forms (JSON) of a played race's start, its
// state after turn 5 and after the turn before its last: what the games'
// decode tests damage.
func StoredStates(t testing.TB, p *race.Played) [][]byte {
	t.Helper()
	var out [][]byte
	for _, n := range []int{0, 5, len(p.Turns) - 1} {
		s := StateAt(t, p, n)
		b, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
	return out
}

// FuzzDecode fuzzes rs.DecodeState with changes to the given stored states,
// as DecodeSurvives makes them.
func FuzzDecode(f *testing.F, rs race.Ruleset, states [][]byte) {
	for i := range 8 {
		f.Add(uint64(i), uint8(i))
	}
	f.Fuzz(func(t *testing.T, seed uint64, which uint8) {
		DecodeSurvives(t, rs, states[int(which)%len(states)], 1, rand.New(rand.NewPCG(seed, 0)))
	})
}
