package main

import (
	"fmt"
	"io"
	"time"
)

// progressLine is a line of progress on standard error, drawn over itself
// (a carriage return, the text, the rest of the line cleared), on a
// terminal only: a log or a pipe gets none of it, only the command's
// answer. It is drawn at most ten times a second, and always when final.
type progressLine struct {
	w     io.Writer
	on    bool
	now   func() time.Time // nil: time.Now
	last  time.Time
	drawn bool
}

// progress is a progress line for this run: shown when standard error is
// a terminal.
func (a *app) progress() *progressLine { return &progressLine{w: a.stderr, on: a.tty} }

// show draws the line; final draws it however soon after the last.
func (p *progressLine) show(final bool, format string, args ...any) {
	if !p.on {
		return
	}
	now := time.Now()
	if p.now != nil {
		now = p.now()
	}
	if p.drawn && !final && now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.drawn = now, true
	fmt.Fprintf(p.w, "\r"+format+"\033[K", args...)
}

// end finishes the line drawn, if any, so that what follows starts a line.
func (p *progressLine) end() {
	if p.drawn {
		fmt.Fprintln(p.w)
		p.drawn = false
	}
}
