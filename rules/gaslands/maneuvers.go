package gaslands

import (
	"embed"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"pitwall/internal/shipped"
	"pitwall/internal/yamlfile"
)

// Class is what the gear chart says of a template in one gear.
type Class byte

// The chart's classes, as the data file writes them.
const (
	Trivial      Class = 'T' // the kart may discard one hazard token
	Permitted    Class = 'P'
	Hazardous    Class = 'H' // the kart gains one hazard token
	NotPermitted Class = 'X'
)

func (c Class) String() string {
	switch c {
	case Trivial:
		return "trivial"
	case Permitted:
		return "permitted"
	case Hazardous:
		return "hazardous"
	case NotPermitted:
		return "not permitted"
	}
	return fmt.Sprintf("Class(%q)", byte(c))
}

// MaxGear is the highest gear of the game.
const MaxGear = 6

// Maneuvers are a race's templates, its slide and its gear chart: the
// defaults from data/maneuvers.yaml, or a host's own through race options.
type Maneuvers struct {
	Templates []Template                `json:"templates"`
	Slide     float64                   `json:"slide"`
	Chart     map[string][MaxGear]Class `json:"chart"`
}

//go:embed data/maneuvers.yaml
var dataFiles embed.FS

// shippedManeuvers is data/maneuvers.yaml, read once.
var shippedManeuvers = shipped.New(dataFiles, "data", "maneuvers.yaml", "gaslands", "maneuvers file", ParseManeuvers, nil)

// LoadDefaultManeuvers is a copy of the defaults, read from data/maneuvers.yaml.
func LoadDefaultManeuvers() (Maneuvers, error) {
	ms, err := shippedManeuvers.All()
	if err != nil {
		return Maneuvers{}, err
	}
	return ms[0].clone(), nil
}

// DefaultManeuvers is a copy of the defaults; none at all should the shipped
// file not read (a build's bug, which TestDefaultManeuvers catches; a race
// set up then says so, from LoadDefaultManeuvers).
func DefaultManeuvers() Maneuvers {
	m, _ := LoadDefaultManeuvers()
	return m
}

func (m Maneuvers) clone() Maneuvers {
	c := Maneuvers{Templates: append([]Template(nil), m.Templates...), Slide: m.Slide, Chart: map[string][MaxGear]Class{}}
	for k, v := range m.Chart {
		c.Chart[k] = v
	}
	return c
}

// ParseManeuvers reads a maneuvers file: templates, slide and chart.
func ParseManeuvers(name string, src []byte) (Maneuvers, error) {
	var f struct {
		Templates []Template        `yaml:"templates"`
		Slide     float64           `yaml:"slide"`
		Chart     map[string]string `yaml:"chart"`
	}
	if err := yamlfile.Decode(name, src, &f); err != nil {
		return Maneuvers{}, err
	}
	m := Maneuvers{Slide: f.Slide, Chart: map[string][MaxGear]Class{}}
	for _, t := range f.Templates {
		if err := m.put(t); err != nil {
			return Maneuvers{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	for k, v := range f.Chart {
		if err := m.setRow(k, v); err != nil {
			return Maneuvers{}, fmt.Errorf("%s: %w", name, err)
		}
	}
	if err := m.check(); err != nil {
		return Maneuvers{}, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}

// put adds or replaces a template, after checking its measures.
func (m *Maneuvers) put(t Template) error {
	t.Name = strings.ToLower(strings.TrimSpace(t.Name))
	bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 1000 }
	switch {
	case t.Name == "" || strings.ContainsAny(t.Name, " ,=") || t.Name == "left" || t.Name == "right":
		return fmt.Errorf("template %q: a template needs a one-word name", t.Name)
	case bad(t.Length) || bad(t.Radius) || bad(t.Degrees) || bad(t.Shift):
		return fmt.Errorf("template %s: measures are 0 to 1000 (mm or degrees)", t.Name)
	case t.Radius > 0 && (t.Degrees <= 0 || t.Degrees > 180 || t.Length != 0 || t.Shift != 0):
		return fmt.Errorf("template %s: an arc has a radius and 1 to 180 degrees, nothing else", t.Name)
	case t.Radius == 0 && (t.Degrees != 0 || t.Length < 10):
		return fmt.Errorf("template %s: a straight or swerve has a length of 10 mm or more (and a swerve a shift); an arc a radius and degrees", t.Name)
	case t.Radius > 0 && t.Radius < 10:
		return fmt.Errorf("template %s: an arc's radius is 10 mm or more", t.Name)
	}
	for i, o := range m.Templates {
		if o.Name == t.Name {
			m.Templates[i] = t
			return nil
		}
	}
	m.Templates = append(m.Templates, t)
	return nil
}

// setRow reads one chart row: six classes for gears 1 to 6, "T T P X X X".
func (m *Maneuvers) setRow(name, row string) error {
	name = strings.ToLower(strings.TrimSpace(name))
	cells := strings.Fields(strings.ToUpper(row))
	if len(cells) != MaxGear {
		return fmt.Errorf("chart row %s: six classes, one per gear (T, P, H or X), like \"T T P X X X\"; got %q", name, row)
	}
	var r [MaxGear]Class
	for i, c := range cells {
		switch Class(c[0]) {
		case Trivial, Permitted, Hazardous, NotPermitted:
			if len(c) != 1 {
				return fmt.Errorf("chart row %s, gear %d: %q is not one of T, P, H, X", name, i+1, c)
			}
			r[i] = Class(c[0])
		default:
			return fmt.Errorf("chart row %s, gear %d: %q is not one of T (trivial), P (permitted), H (hazardous), X (not permitted)", name, i+1, c)
		}
	}
	m.Chart[name] = r
	return nil
}

// valid checks maneuvers read from a stored state as a maneuvers file is
// checked: each template's measures, the chart's classes, and check.
func (m Maneuvers) valid() error {
	again := Maneuvers{Slide: m.Slide, Chart: m.Chart}
	for i, t := range m.Templates {
		if err := again.put(t); err != nil {
			return err
		}
		if len(again.Templates) != i+1 || again.Templates[i] != t {
			return fmt.Errorf("template %q: written otherwise, or twice", t.Name)
		}
	}
	for _, k := range sortedKeys(m.Chart) {
		for g, c := range m.Chart[k] {
			switch c {
			case Trivial, Permitted, Hazardous, NotPermitted:
			default:
				return fmt.Errorf("chart row %s, gear %d: %q is not one of T, P, H, X", k, g+1, byte(c))
			}
		}
	}
	return again.check()
}

// check: every template has a chart row and every row a template; each gear
// permits something.
func (m Maneuvers) check() error {
	if len(m.Templates) == 0 {
		return fmt.Errorf("no templates")
	}
	if math.IsNaN(m.Slide) || m.Slide < 0 || m.Slide > 300 {
		return fmt.Errorf("slide is 0 to 300 mm; got %v", m.Slide)
	}
	for _, t := range m.Templates {
		if _, ok := m.Chart[t.Name]; !ok {
			return fmt.Errorf("template %s has no row in the chart", t.Name)
		}
	}
	for _, k := range sortedKeys(m.Chart) {
		if _, err := m.Template(k); err != nil {
			return fmt.Errorf("chart row %s: no such template", k)
		}
	}
	for g := 1; g <= MaxGear; g++ {
		if len(m.Allowed(g)) == 0 {
			return fmt.Errorf("gear %d permits no template", g)
		}
	}
	return nil
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Template finds a template by name.
func (m Maneuvers) Template(name string) (Template, error) {
	var names []string
	for _, t := range m.Templates {
		if strings.EqualFold(strings.TrimSpace(name), t.Name) {
			return t, nil
		}
		names = append(names, t.Name)
	}
	return Template{}, fmt.Errorf("no template %q; templates: %s", name, strings.Join(names, ", "))
}

// Class is the chart's class of template name in gear g.
func (m Maneuvers) Class(name string, g int) Class {
	row, ok := m.Chart[name]
	if !ok || g < 1 || g > MaxGear {
		return NotPermitted
	}
	return row[g-1]
}

// Allowed are the templates gear g permits, in the file's order.
func (m Maneuvers) Allowed(g int) []string {
	var out []string
	for _, t := range m.Templates {
		if m.Class(t.Name, g) != NotPermitted {
			out = append(out, t.Name)
		}
	}
	return out
}

// eachSide calls f with every way of taking each named template the
// maneuvers have: a straight once, a curve to the right and to the left.
// It stops when f says false.
func (m Maneuvers) eachSide(names []string, f func(name string, tm Template, left bool) bool) {
	for _, name := range names {
		tm, err := m.Template(name)
		if err != nil {
			continue // this race has no such template
		}
		for _, left := range []bool{false, true} {
			if tm.Straight() && left {
				continue
			}
			if !f(name, tm, left) {
				return
			}
		}
	}
}

// Apply reads a race option: template.NAME=straight L | arc R DEG | swerve L
// SHIFT, chart.NAME=T T P X X X, or slide=MM. It reports false for an option
// that is none of these.
func (m *Maneuvers) Apply(key, value string) (bool, error) {
	num := func(s string) (float64, error) {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, fmt.Errorf("%q is not a number", s)
		}
		return v, nil
	}
	switch {
	case key == "templates":
		// The race's templates are these, in this order; the rest go.
		var keep []Template
		chart := map[string][MaxGear]Class{}
		for _, name := range strings.Split(value, ",") {
			t, err := m.Template(strings.TrimSpace(name))
			if err != nil {
				return true, fmt.Errorf("option templates: %v", err)
			}
			if _, twice := chart[t.Name]; twice {
				return true, fmt.Errorf("option templates names %s twice", t.Name)
			}
			keep = append(keep, t)
			chart[t.Name] = m.Chart[t.Name]
		}
		m.Templates, m.Chart = keep, chart
	case key == "slide":
		v, err := num(strings.TrimSpace(value))
		if err != nil || v < 0 || v > 300 {
			return true, fmt.Errorf("slide is the slide template's length, 0 to 300 mm; got %q", value)
		}
		m.Slide = v
	case strings.HasPrefix(key, "chart."):
		name := strings.TrimPrefix(key, "chart.")
		if _, err := m.Template(name); err != nil {
			return true, fmt.Errorf("option %s: %v", key, err)
		}
		if err := m.setRow(name, value); err != nil {
			return true, err
		}
	case strings.HasPrefix(key, "template."):
		name := strings.TrimPrefix(key, "template.")
		w := strings.Fields(strings.ToLower(value))
		usage := fmt.Errorf("option %s: a template is \"straight LENGTH\", \"arc RADIUS DEGREES\" or \"swerve LENGTH SHIFT\" (mm and degrees); got %q", key, value)
		if len(w) < 2 {
			return true, usage
		}
		var vs []float64
		for _, s := range w[1:] {
			v, err := num(s)
			if err != nil {
				return true, usage
			}
			vs = append(vs, v)
		}
		t := Template{Name: name}
		switch {
		case w[0] == "straight" && len(vs) == 1:
			t.Length = vs[0]
		case w[0] == "arc" && len(vs) == 2:
			t.Radius, t.Degrees = vs[0], vs[1]
		case w[0] == "swerve" && len(vs) == 2:
			t.Length, t.Shift = vs[0], vs[1]
		default:
			return true, usage
		}
		if _, err := m.Template(name); err != nil {
			if _, ok := m.Chart[name]; !ok {
				m.Chart[name] = [MaxGear]Class{NotPermitted, NotPermitted, NotPermitted, NotPermitted, NotPermitted, NotPermitted}
			}
		}
		if err := m.put(t); err != nil {
			return true, err
		}
	default:
		return false, nil
	}
	return true, m.check()
}

// Options are the race options that give a race these templates, slide and
// chart over the defaults: a host's maneuvers file, kept in the race.
func (m Maneuvers) Options() map[string]string {
	out := map[string]string{"slide": strconv.FormatFloat(m.Slide, 'f', -1, 64), "templates": strings.Join(templateNames(m), ",")}
	num := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	for _, t := range m.Templates {
		switch {
		case t.Radius > 0:
			out["template."+t.Name] = "arc " + num(t.Radius) + " " + num(t.Degrees)
		case t.Shift != 0:
			out["template."+t.Name] = "swerve " + num(t.Length) + " " + num(t.Shift)
		default:
			out["template."+t.Name] = "straight " + num(t.Length)
		}
		var cells []string
		for _, c := range m.Chart[t.Name] {
			cells = append(cells, string(rune(c)))
		}
		out["chart."+t.Name] = strings.Join(cells, " ")
	}
	return out
}
