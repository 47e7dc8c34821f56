// Package yamlfile reads the YAML files people write for pitwall (tracks,
// courses, entrants) strictly, with errors that name the file and the line.
package yamlfile

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Decode reads src into v: unknown fields and wrong types are errors, given
// on one line as "NAME: [line:col] what is wrong".
func Decode(name string, src []byte, v any) (err error) {
	// go-yaml can panic on some malformed input (an unknown tag on a list
	// field: goccy/go-yaml issue 735, open); a user's file must get an error.
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: the YAML could not be read (check its tags '!' and indentation): %v", name, r)
		}
	}()
	if len(src) > MaxSize {
		return fmt.Errorf("%s: the file is %d bytes; pitwall reads files of at most %d", name, len(src), MaxSize)
	}
	if line := aliasLine(src); line > 0 {
		// An alias copies what its anchor names; nested, a few hundred bytes
		// expand to gigabytes. Nothing pitwall reads needs them.
		return fmt.Errorf("%s: line %d: aliases (*name) are not read; write the value out where it is wanted", name, line)
	}
	dec := yaml.NewDecoder(bytes.NewReader(src), yaml.Strict(), yaml.DisallowUnknownField())
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %s", name, strings.Join(strings.Fields(yaml.FormatError(err, false, false)), " "))
	}
	return nil
}

// MaxSize is the largest file Decode reads: far more than any track, board
// or entrants file needs.
const MaxSize = 1 << 20

// aliasLine is the line of the first alias in src, 0 when there is none (or
// src does not parse: then Decode says what is wrong).
func aliasLine(src []byte) (line int) {
	defer func() {
		if recover() != nil {
			line = 0
		}
	}()
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		return 0
	}
	var v aliasFinder
	for _, d := range f.Docs {
		if d != nil {
			ast.Walk(&v, d)
		}
	}
	return v.line
}

type aliasFinder struct{ line int }

func (a *aliasFinder) Visit(n ast.Node) ast.Visitor {
	if a.line > 0 {
		return nil
	}
	if al, ok := n.(*ast.AliasNode); ok {
		a.line = 1
		if t := al.GetToken(); t != nil && t.Position != nil {
			a.line = t.Position.Line
		}
		return nil
	}
	return a
}

// Line finds the line of a YAML path, such as $.segments[2].shape, in src,
// for errors found after decoding; 0 when it cannot.
func Line(src []byte, path string) (line int) {
	defer func() {
		if recover() != nil {
			line = 0 // the parser failed on it: no line to give
		}
	}()
	f, err := parser.ParseBytes(src, 0)
	if err != nil {
		return 0
	}
	p, err := yaml.PathString(path)
	if err != nil {
		return 0
	}
	n, err := p.FilterFile(f)
	if err != nil || n == nil || n.GetToken() == nil {
		return 0
	}
	return n.GetToken().Position.Line
}
