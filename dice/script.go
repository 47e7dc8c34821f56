package dice

import (
	"fmt"
	"strconv"
	"strings"
)

// Script is a Source that plays back results written in advance, so a rule can
// be tested at the exact roll its text names: 'the next d20 is 14'.
//
// Each step names a die and a result, as "d20=14" or "fast=6". A roll of
// another die than the next step names, a result the die cannot show, or a
// roll past the end of the script is recorded in Err and the lowest face is
// returned; the test then fails on Err.
type Script struct {
	steps []step
	next  int
	err   error
}

type step struct {
	die    string
	result int
}

// NewScript reads steps such as "d20=14". A malformed step is returned as an error.
func NewScript(steps ...string) (*Script, error) {
	s := &Script{}
	for _, text := range steps {
		name, val, ok := strings.Cut(strings.TrimSpace(text), "=")
		n, err := strconv.Atoi(strings.TrimSpace(val))
		if !ok || err != nil || name == "" {
			return nil, fmt.Errorf("a scripted roll is DIE=RESULT, such as d20=14; got %q", text)
		}
		s.steps = append(s.steps, step{strings.TrimSpace(name), n})
	}
	return s, nil
}

// Face implements Source.
func (s *Script) Face(d Die) int {
	if s.err != nil {
		return 0
	}
	if s.next >= len(s.steps) {
		s.err = fmt.Errorf("roll %d of %s: the script has only %d steps", s.next+1, d.Name, len(s.steps))
		return 0
	}
	st := s.steps[s.next]
	s.next++
	if st.die != d.Name {
		s.err = fmt.Errorf("roll %d: the script expected %s, the rules rolled %s", s.next, st.die, d.Name)
		return 0
	}
	for i, f := range d.Faces {
		if f == st.result {
			return i
		}
	}
	s.err = fmt.Errorf("roll %d: %s has no face %d", s.next, d.Name, st.result)
	return 0
}

// Err is the first mismatch, or nil.
func (s *Script) Err() error { return s.err }

// Left is the number of steps not yet rolled.
func (s *Script) Left() int { return len(s.steps) - s.next }
