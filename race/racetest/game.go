package racetest

import (
	"maps"
	"strconv"
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/host"
	"pitwall/race"
	"pitwall/render"
)

// CheckGame holds a game's descriptor to its ruleset: what the descriptor
// offers, Setup takes, and what it refuses, Setup refuses too, so a form
// built from the descriptor never offers a value the race will not take.
// It sets up the demo race on every track, then the demo with each value
// of each choice the first entrants make (every value accepted by
// CheckEntrant and by Setup), with a value no field has, and with a choice
// the game does not have (both refused by both).
func CheckGame(t *testing.T, rs race.Ruleset) {
	t.Helper()
	g := rs.Game()
	switch {
	case g.ID == "" || g.Name == "" || g.Version < 1:
		t.Fatalf("descriptor: id %q, name %q, version %d: none may be empty", g.ID, g.Name, g.Version)
	case len(g.Tracks) == 0:
		t.Fatalf("%s: no tracks", g.ID)
	case g.Racers.Min < 1 || g.Racers.Max < g.Racers.Min:
		t.Fatalf("%s: racers per entrant %d..%d", g.ID, g.Racers.Min, g.Racers.Max)
	case g.Words.Racer == "" || g.Words.Racers == "" || g.Words.Turn == "" || g.Words.Start == "" || g.Words.Default == "":
		t.Fatalf("%s: words left empty: %+v", g.ID, g.Words)
	case len(g.Demo.Entrants) < 2:
		t.Fatalf("%s: a demo needs at least two entrants, has %d", g.ID, len(g.Demo.Entrants))
	}
	grid := func(track string, es []race.Entrant) (race.State, error) {
		return rs.Setup(race.Config{Track: track, Laps: g.Demo.Laps}, es, dice.New(dice.SeedFromInt(1)))
	}
	setup := func(track string, es []race.Entrant) error {
		_, err := grid(track, es)
		return err
	}
	for _, tr := range g.Tracks {
		if tr.ID == "" || tr.Name == "" || tr.Seats < 1 {
			t.Errorf("%s: track %+v: id, name and seats must be set", g.ID, tr)
		}
		n := min(len(g.Demo.Entrants), tr.Seats)
		s, err := grid(tr.ID, g.Demo.Entrants[:n])
		if err != nil {
			t.Errorf("%s: the demo on %s: %v", g.ID, tr.ID, err)
			continue
		}
		checkPresenter(t, g.ID+" on "+tr.ID, s)
	}
	for i, e := range g.Demo.Entrants {
		if err := g.CheckEntrant(e); err != nil {
			t.Errorf("%s: demo entrant %d: %v", g.ID, i, err)
		}
	}
	track := g.Tracks[0].ID
	try := func(what string, e race.Entrant, want bool) {
		t.Helper()
		es := append([]race.Entrant{e}, g.Demo.Entrants[1:]...)
		cerr, serr := g.CheckEntrant(e), setup(track, es)
		if (cerr == nil) != want || (serr == nil) != want {
			t.Errorf("%s: %s (options %v): want accepted %v; CheckEntrant says %v, Setup says %v", g.ID, what, e.Options, want, cerr, serr)
		}
	}
	first := g.Demo.Entrants[0]
	with := func(k, v string) race.Entrant {
		e := first
		e.Options = maps.Clone(first.Options)
		if e.Options == nil {
			e.Options = map[string]string{}
		}
		e.Options[k] = v
		return e
	}
	for _, f := range g.Entrant {
		if f.Help == "" {
			t.Errorf("%s: entrant field %s has no help", g.ID, f.Name)
		}
		donor, ok := demoWith(g, f)
		if !ok {
			continue // a family (package.NAME) or a field no demo entrant uses
		}
		switch f.Type {
		case race.Choice:
			for _, v := range f.Values {
				e := with(f.Name, v)
				for _, w := range f.With {
					e.Options[w] = donor.Options[w]
				}
				try(f.Name+"="+v, e, true)
			}
		case race.Choices:
			try(f.Name+" of its first values", with(f.Name, strings.Join(f.Values[:f.Count], ",")), true)
			try(f.Name+" of one value too many", with(f.Name, strings.Join(f.Values[:f.Count+1], ",")), false)
		case race.Int:
			try(f.Name+" at its most", with(f.Name, strconv.Itoa(f.Max)), true)
			try(f.Name+" above its most", with(f.Name, strconv.Itoa(f.Max+1)), false)
			try(f.Name+" below its least", with(f.Name, strconv.Itoa(f.Min-1)), false)
		}
		if f.Type != race.Text && !f.Open {
			e := with(f.Name, "no-such-value")
			for _, w := range f.With {
				e.Options[w] = donor.Options[w]
			}
			try(f.Name+" of no value the field has", e, false)
		}
	}
	try("a choice the game does not have", with("no-such-choice", "x"), false)
	checkOptions(t, rs)
	checkSettings(t, rs)
}

// checkPresenter holds a grid to what the host asks to draw and post it:
// a picture with a size and a background named, a status board with a row
// per seat, and a grid note.
func checkPresenter(t *testing.T, what string, s race.State) {
	t.Helper()
	p, ok := s.(host.Presenter)
	if !ok {
		t.Fatalf("%s: the state (%T) is not a host.Presenter: the host cannot draw or post it", what, s)
	}
	w, h := p.Picture()
	header, rows := p.Board()
	switch {
	case w < 1 || h < 1:
		t.Errorf("%s: a picture of %gx%g", what, w, h)
	case p.BackgroundKey() == "":
		t.Errorf("%s: the background has no key, so every background would share one", what)
	case len(header) == 0 || len(rows) != len(s.Seats()):
		t.Errorf("%s: a status board of %d columns and %d rows for %d seats", what, len(header), len(rows), len(s.Seats()))
	case p.GridNote() == "":
		t.Errorf("%s: no grid note", what)
	}
	c := render.NewSVG(w, h)
	render.DrawScene(c, p, "grid")
	var b strings.Builder
	if _, err := c.WriteTo(&b); err != nil || !strings.Contains(b.String(), "grid") {
		t.Errorf("%s: the grid's picture does not carry its title (err %v)", what, err)
	}
}

// checkOptions sets the demo up with each value of each race option.
func checkOptions(t *testing.T, rs race.Ruleset) {
	t.Helper()
	g := rs.Game()
	checkFields(t, g.ID+": option", g.Options, func(k, v string) error {
		cfg := race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps, Options: map[string]string{k: v}}
		_, err := rs.Setup(cfg, g.Demo.Entrants, dice.New(dice.SeedFromInt(1)))
		return err
	})
}

// checkSettings sets each value of each turn setting on the demo's grid.
func checkSettings(t *testing.T, rs race.Ruleset) {
	t.Helper()
	g := rs.Game()
	s, err := rs.Setup(race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps}, g.Demo.Entrants, dice.New(dice.SeedFromInt(1)))
	if err != nil {
		t.Fatalf("%s: the demo: %v", g.ID, err)
	}
	set := func(k, v string) error { _, err := rs.Set(s, k, v); return err }
	checkFields(t, g.ID+": setting", g.Settings, set)
	if set("no-such-setting", "1") == nil {
		t.Errorf("%s: a setting the game does not have is taken", g.ID)
	}
}

// checkFields tries each value each field offers (accepted), and values it
// does not offer (refused).
func checkFields(t *testing.T, what string, fs []race.Field, apply func(k, v string) error) {
	t.Helper()
	try := func(k, v string, want bool) {
		t.Helper()
		if err := apply(k, v); (err == nil) != want {
			t.Errorf("%s %s=%s: want accepted %v; got %v", what, k, v, want, err)
		}
	}
	for _, f := range fs {
		if f.Help == "" {
			t.Errorf("%s %s has no help", what, f.Name)
		}
		switch f.Type {
		case race.Choice:
			for _, v := range f.Values {
				try(f.Name, v, true)
			}
			try(f.Name, "no-such-value", false)
		case race.Int:
			try(f.Name, strconv.Itoa(f.Min), true)
			try(f.Name, strconv.Itoa(f.Max), true)
			try(f.Name, strconv.Itoa(f.Max+1), false)
			try(f.Name, strconv.Itoa(f.Min-1), false)
		}
	}
}

// demoWith is a demo entrant that makes the choice f.
func demoWith(g *race.Game, f race.Field) (race.Entrant, bool) {
	for _, e := range g.Demo.Entrants {
		if _, ok := e.Options[f.Name]; ok {
			return e, true
		}
	}
	return race.Entrant{}, false
}
