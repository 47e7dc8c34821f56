// Package yamlfile reads the YAML files people write for pitwall (tracks,
// courses, entrants) strictly, with errors that name the file and the line.
package yamlfile

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/goccy/go-yaml"
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
	dec := yaml.NewDecoder(bytes.NewReader(src), yaml.Strict(), yaml.DisallowUnknownField())
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %s", name, strings.Join(strings.Fields(yaml.FormatError(err, false, false)), " "))
	}
	return nil
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
