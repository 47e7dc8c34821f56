package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// A progress line is drawn over itself on a terminal, the final state
// always, at most ten times a second otherwise, and ended with a newline;
// off a terminal it writes nothing.
func TestProgressLine(t *testing.T) {
	var b bytes.Buffer
	at := time.Unix(0, 0)
	p := &progressLine{w: &b, on: true, now: func() time.Time { return at }}
	p.show(false, "%d of %d", 1, 4)
	at = at.Add(99 * time.Millisecond)
	p.show(false, "%d of %d", 2, 4) // under a tenth of a second after: skipped
	at = at.Add(time.Millisecond)
	p.show(false, "%d of %d", 3, 4) // a tenth after: drawn
	p.show(true, "%d of %d", 4, 4)  // at once, but final: drawn
	p.end()
	p.end() // once ended, nothing more
	if want := "\r1 of 4\033[K\r3 of 4\033[K\r4 of 4\033[K\n"; b.String() != want {
		t.Errorf("on a terminal: %q, want %q", b.String(), want)
	}

	b.Reset()
	off := &progressLine{w: &b}
	off.show(true, "%d of %d", 3, 3)
	off.end()
	if b.Len() != 0 {
		t.Errorf("off a terminal: %q, want nothing", b.String())
	}
}

// Off a terminal, bench serve's standard error holds what it measures on,
// and no progress drawn over itself.
func TestBenchServeQuietOffATerminal(t *testing.T) {
	code, _, errs := jsonOf(t, "bench", "serve", "--races", "2", "--racers", "2", "--turns", "1")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(errs, "\r") || strings.Contains(errs, "orders answered") {
		t.Errorf("bench serve's stderr off a terminal: %q", errs)
	}
}
