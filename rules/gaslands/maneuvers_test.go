package gaslands

import (
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
)

// The shipped maneuvers file reads: a race is set up with it, and a file that
// does not read would make every gaslands race refuse to start.
func TestDefaultManeuvers(t *testing.T) {
	m, err := LoadDefaultManeuvers()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Templates) == 0 || len(m.Chart) == 0 || m.Slide <= 0 {
		t.Fatalf("%d templates, %d chart rows, slide %v", len(m.Templates), len(m.Chart), m.Slide)
	}
	// Each call is a copy of its own: a race that changes its templates
	// changes no other race's.
	m.Templates[0].Length = -1
	m.Chart["short"] = [MaxGear]Class{}
	again := DefaultManeuvers()
	if again.Templates[0].Length == -1 || again.Chart["short"] == ([MaxGear]Class{}) {
		t.Fatal("a change to one copy of the defaults reached another")
	}
}

// The default chart, cell by cell as data/maneuvers.yaml writes it.
func TestDefaultChart(t *testing.T) {
	m := DefaultManeuvers()
	want := map[string]string{
		"short":   "TTPXXX",
		"medium":  "PTTPXX",
		"long":    "XPTTTT",
		"veer":    "TTTPPH",
		"gentle":  "TPPHHX",
		"turn":    "PPHHXX",
		"hairpin": "PHXXXX",
		"swerve":  "PPPHHH",
	}
	if len(m.Chart) != len(want) {
		t.Fatalf("%d chart rows, want %d", len(m.Chart), len(want))
	}
	for name, row := range want {
		for g := 1; g <= MaxGear; g++ {
			if got := m.Class(name, g); got != Class(row[g-1]) {
				t.Errorf("%s in gear %d: %s, want %s", name, g, got, Class(row[g-1]))
			}
		}
	}
	if m.Slide != 45 {
		t.Errorf("slide %v, want 45", m.Slide)
	}
	if m.Class("loop", 1) != NotPermitted || m.Class("short", 0) != NotPermitted || m.Class("short", 7) != NotPermitted {
		t.Error("an unknown template or gear is not permitted")
	}
	if got := strings.Join(m.Allowed(6), " "); got != "long veer swerve" {
		t.Errorf("gear 6 allows %q", got)
	}
}

func TestManeuverOptions(t *testing.T) {
	for _, tc := range []struct {
		key, value, err string
		check           func(m Maneuvers) bool
	}{
		{"chart.hairpin", "P P H X X X", "", func(m Maneuvers) bool { return m.Class("hairpin", 3) == Hazardous }},
		{"chart.hairpin", "p p h x x x", "", func(m Maneuvers) bool { return m.Class("hairpin", 2) == Permitted }},
		{"template.long", "straight 200", "", func(m Maneuvers) bool { t, _ := m.Template("long"); return t.Length == 200 }},
		{"template.hard", "arc 60 120", "", func(m Maneuvers) bool {
			_, err := m.Template("hard")
			return err == nil && m.Class("hard", 1) == NotPermitted
		}},
		{"template.wiggle", "swerve 100 40", "", func(m Maneuvers) bool { t, _ := m.Template("wiggle"); return t.Shift == 40 }},
		{"slide", "30", "", func(m Maneuvers) bool { return m.Slide == 30 }},
		{"chart.hairpin", "P P H X X", "six classes", nil},
		{"chart.hairpin", "P P H X X Q", "gear 6", nil},
		{"chart.loop", "P P P P P P", "no template", nil},
		{"chart.short", "X X X X X X", "", nil},
		{"template.long", "straight", "a template is", nil},
		{"template.long", "arc 5 90", "10 mm or more", nil},
		{"template.long", "arc 100 270", "1 to 180 degrees", nil},
		{"template.long", "curve 1 2", "a template is", nil},
		{"slide", "-4", "0 to 300", nil},
		{"slide", "x", "0 to 300", nil},
		{"templates", "short,long,short", "short twice", nil},
		{"templates", "short,warp", "no template \"warp\"", nil},
	} {
		m := DefaultManeuvers()
		ok, err := m.Apply(tc.key, tc.value)
		if !ok {
			t.Errorf("%s: not an option", tc.key)
			continue
		}
		switch {
		case tc.err == "" && tc.check == nil: // "chart.short X..." leaves gear 1 with templates still: no error
			if err != nil {
				t.Errorf("%s=%s: %v", tc.key, tc.value, err)
			}
		case tc.err == "":
			if err != nil || !tc.check(m) {
				t.Errorf("%s=%s: %v, %+v", tc.key, tc.value, err, m)
			}
		case err == nil || !strings.Contains(err.Error(), tc.err):
			t.Errorf("%s=%s: got %v, want an error with %q", tc.key, tc.value, err, tc.err)
		}
	}
	m := DefaultManeuvers()
	if ok, _ := m.Apply("laps", "3"); ok {
		t.Error("laps is no maneuver option")
	}
	// A gear left with no template is refused.
	for _, name := range []string{"long", "veer", "swerve"} {
		_, err := m.Apply("chart."+name, "P P P P P X")
		if name == "swerve" && (err == nil || !strings.Contains(err.Error(), "gear 6 permits no template")) {
			t.Errorf("emptying gear 6: %v", err)
		}
	}
	// The defaults are not changed by a race's options.
	if DefaultManeuvers().Class("long", 6) != Trivial {
		t.Error("a race's options leaked into the defaults")
	}
}

func TestParseManeuversErrors(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"templates: []\nslide: 45\nchart: {}", "no templates"},
		{"templates: [{name: short, length: 75}]\nslide: 45\nchart: {}", "short has no row"},
		{"templates: [{name: short, length: 75}]\nslide: 45\nchart: {short: T T T T T T, long: T T T T T T}", "chart row long: no such template"},
		{"templates: [{name: left, length: 75}]\nchart: {}", "one-word name"},
		{"templates: [{name: s, length: 75}]\nslide: 400\nchart: {s: T T T T T T}", "slide is 0 to 300"},
		{"templates: [{name: s, length: 75, radius: 20, degrees: 30}]\nchart: {s: T T T T T T}", "an arc has a radius"},
		{"templatez: []", "unknown field"},
	} {
		_, err := ParseManeuvers("m.yaml", []byte(tc.src))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.src, err, tc.want)
		}
	}
}

// A maneuvers file as race options gives the race the same maneuvers.
func TestManeuversAsOptions(t *testing.T) {
	src := "templates:\n  - {name: short, length: 60}\n  - {name: long, length: 200}\n  - {name: curve, radius: 100, degrees: 60}\n  - {name: jink, length: 90, shift: 25}\nslide: 30\nchart:\n  short: T T X X X X\n  long: X P P T T T\n  curve: P P H H X X\n  jink: P P P H H H\n"
	m, err := ParseManeuvers("m.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	st, err := (Ruleset{}).Setup(race.Config{Options: m.Options()}, []race.Entrant{{Player: "a", Racers: []string{"A"}}, {Player: "b", Racers: []string{"B"}}}, dice.New(dice.SeedFromInt(1)))
	if err != nil {
		t.Fatal(err)
	}
	got := st.(*State).M
	for _, tm := range m.Templates {
		g, err := got.Template(tm.Name)
		if err != nil || g != tm || got.Chart[tm.Name] != m.Chart[tm.Name] {
			t.Errorf("%s: %+v %v, chart %v; want %+v, %v", tm.Name, g, err, got.Chart[tm.Name], tm, m.Chart[tm.Name])
		}
	}
	if got.Slide != 30 {
		t.Errorf("slide %v", got.Slide)
	}
	if names := strings.Join(templateNames(got), " "); names != "short long curve jink" {
		t.Errorf("the race's templates are %q; the file's alone, in its order, are wanted", names)
	}
}
