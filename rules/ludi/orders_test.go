package ludi

import (
	"errors"
	"strings"
	"testing"

	"pitwall/race"
)

func TestParseOrders(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Accelerate", "Accelerate"},
		{"  accelerate ", "Accelerate"},
		{"A", "Accelerate"},
		{"shake reins", "Accelerate"},
		{"Left", "Left 1"},
		{"left minor", "Left 1"},
		{"LEFT   medium", "Left 2"},
		{"l3", "Left 3"},
		{"right major", "Right 3"},
		{"R2", "Right 2"},
		{"whip", "Whip"},
		{"pull reins", "Brake"},
		{"crash left", "Crash Left"},
		{"CR", "Crash Right"},
		{"lacerate left", "Lacerate Left"},
		{"LR", "Lacerate Right"},
		{"control", "Control"},
		{"watch", "Watch"},
		{"hold", "Hold"},
		{"hang on", "Hang On"},
		{"roll away", "Roll Away"},
		{"Accelerate, Left 1 else Brake", "Accelerate, Left 1 else Brake"},
		{"a; l2 else r1; w else watch", "Accelerate, Left 2 else Right 1, Whip else Watch"},
		{"Accelerate\nWhip ELSE control", "Accelerate, Whip else Control"},
		{"A,,W else B", "Accelerate, Whip else Brake"},
		{"Accelerate, bonus move", "Accelerate, bonus move"},
		{"Watch, Bonus  Initiative", "Watch, bonus initiative"},
	} {
		o, err := ParseOrders(tc.in)
		if err != nil {
			t.Errorf("ParseOrders(%q): %v", tc.in, err)
			continue
		}
		if o.String() != tc.want {
			t.Errorf("ParseOrders(%q) = %q, want %q", tc.in, o, tc.want)
		}
		// The canonical text reads back to itself.
		if back, err := ParseOrders(o.String()); err != nil || back.String() != o.String() {
			t.Errorf("canonical %q does not read back: %v %v", o, back, err)
		}
	}
}

func TestParseOrdersRefuses(t *testing.T) {
	for _, tc := range []struct{ in, says string }{
		{"", "no orders"},
		{"   ", "no orders"},
		{"fly", `"fly" is not an order`},
		{"Accelerate else Brake", "first order takes no contingency"},
		{"Accelerate, Whip else Whip", "Whip cannot be a contingency"},
		{"Accelerate, Whip else Left 2", "Left 2 cannot be a contingency"},
		{"Accelerate, Whip else", "is not an order"},
		{"A, A, A, A", "4 orders given"},
		{"bonus move", "a bonus alone"},
		{"A, bonus speed", "the bonus is 'bonus move'"},
		{"A, bonus move, bonus move", "chosen twice"},
		{"bonus move, A", "the bonus comes after"},
		{"Crash", `"Crash" is not an order`},
	} {
		_, err := ParseOrders(tc.in)
		var oe *race.OrderError
		if !errors.As(err, &oe) || oe.Kind != race.Invalid {
			t.Errorf("ParseOrders(%q): %v, want an Invalid order error", tc.in, err)
			continue
		}
		if !strings.Contains(err.Error(), tc.says) {
			t.Errorf("ParseOrders(%q) says %q, want it to say %q", tc.in, err, tc.says)
		}
	}
}

func FuzzParseOrders(f *testing.F) {
	for _, s := range []string{"Accelerate", "a, l1 else b, w else c, bonus move", "crash left", "\x00", "else else", "bonus"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		o, err := ParseOrders(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") && !strings.Contains(s, "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if len(o.Steps) < 1 || len(o.Steps) > 3 {
			t.Fatalf("%q gave %d steps", s, len(o.Steps))
		}
		back, err := ParseOrders(o.String())
		if err != nil || back.String() != o.String() {
			t.Fatalf("%q: canonical %q does not read back (%v)", s, o, err)
		}
	})
}

// legalState is a small race: Marcus in lane 3, Livia alongside on his left,
// Titus two lanes out and far ahead.
func legalState(t *testing.T) *State {
	t.Helper()
	tr, err := LoadTrack("circus-maximus")
	if err != nil {
		t.Fatal(err)
	}
	team := Team{1, 1, 1, 1, 1, 1}
	s := &State{TrackID: tr.ID, T: 2, Laps: 3, Orders: 1, track: tr}
	for i, c := range []Chariot{
		{Name: "Marcus", Pos: Pos{Lane: 3, Cell: 5}},
		{Name: "Livia", Pos: Pos{Lane: 2, Cell: 5}},
		{Name: "Titus", Pos: Pos{Lane: 5, Cell: 19}},
	} {
		c.Seat, c.Team, c.Skill, c.Endurance, c.Level = i, team, 1, 1, 1
		s.Chariots = append(s.Chariots, c)
	}
	return s
}

func TestLegality(t *testing.T) {
	rs := Ruleset{}
	for _, tc := range []struct {
		name   string
		change func(s *State)
		seat   int
		orders string
		window bool
		says   string // "" = allowed
	}{
		{"crash left alongside", nil, 0, "Crash Left", false, ""},
		{"lacerate left alongside", nil, 0, "Lacerate Left", false, ""},
		{"crash right, nobody there", nil, 0, "Crash Right", false, "needs a chariot in the lane on your right"},
		{"crash left from lane 1", func(s *State) { s.Chariots[0].Pos.Lane = 1 }, 0, "Crash Left", false, "needs a lane on your left"},
		{"lacerate right from lane 6", func(s *State) { s.Chariots[0].Pos.Lane = 6 }, 0, "Lacerate Right", false, "needs a lane on your right"},
		{"crash at a chariot far behind", func(s *State) { s.Chariots[1].Pos.Cell = 0 }, 0, "Crash Left", false, "from 2 spaces behind"},
		{"crash at a chariot 2 behind", func(s *State) { s.Chariots[1].Pos.Cell = 3 }, 0, "Crash Left", false, ""},
		{"race start: standard order", func(s *State) { s.T = 1 }, 0, "Left 1", false, "not allowed at the race start"},
		{"race start: hold", func(s *State) { s.T = 1 }, 0, "Hold", false, ""},
		{"race start: whip", func(s *State) { s.T = 1 }, 0, "Whip", false, ""},
		{"hold after the start", nil, 0, "Hold", false, "Hold is not allowed now"},
		{"flipped: accelerate", func(s *State) { s.Chariots[0].Flipped = true }, 0, "Accelerate", false, "not allowed to a flipped chariot"},
		{"flipped: hang on", func(s *State) { s.Chariots[0].Flipped = true }, 0, "Hang On", false, ""},
		{"two orders wanted, one given", func(s *State) { s.Orders = 2 }, 0, "Accelerate", false, "takes 2 orders and 1 contingency order; 1 order given"},
		{"second order without contingency", func(s *State) { s.Orders = 2 }, 0, "Accelerate, Whip", false, "needs a contingency"},
		{"two orders with contingency", func(s *State) { s.Orders = 2 }, 0, "Accelerate, Whip else Brake", false, ""},
		{"bonus outside the window", nil, 0, "Watch, bonus move", false, "window was not open"},
		{"bonus inside the window", nil, 0, "Watch, bonus move", true, ""},
		{"out of the race", func(s *State) { s.Chariots[0].Out = RolledAway }, 0, "Watch", false, "out of the race"},
		{"no such seat", nil, 9, "Watch", false, "no seat 9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := legalState(t)
			if tc.change != nil {
				tc.change(s)
			}
			_, err := rs.ParseOrder(s, race.Submission{Seat: tc.seat, Text: tc.orders, InWindow: tc.window})
			if tc.says == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			var oe *race.OrderError
			if !errors.As(err, &oe) || oe.Kind != race.Illegal {
				t.Fatalf("%v, want an Illegal order error", err)
			}
			if !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("says %q, want %q", err, tc.says)
			}
		})
	}
}

func TestBuildTeam(t *testing.T) {
	team, err := BuildTeam("Military", []string{"skill", "speed"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if team != (Team{Skill: 2, Constitution: 1, Endurance: 1, Speed: 1}) {
		t.Fatalf("military + skill, speed = %+v", team)
	}
	for name, chars := range Packages {
		team, err := BuildTeam(name, []string{"size", "quality"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sum := team.Skill + team.Constitution + team.Quality + team.Size + team.Speed + team.Endurance
		if sum != 5 {
			t.Fatalf("%s (%v) + 2 extras adds up to %d, want 5", name, chars, sum)
		}
	}
	// A host can change a package.
	team, err = BuildTeam("noble", []string{"size", "size"}, map[string]string{"package.noble": "speed,speed,quality"})
	if err != nil || team != (Team{Speed: 2, Quality: 1, Size: 2}) {
		t.Fatalf("changed noble: %+v, %v", team, err)
	}
	// A race's own package is read by its name in lower case: a key in
	// another case defines none, and the refusal says how to write it.
	if _, err := BuildTeam("Gladiator", []string{"skill", "speed"}, map[string]string{"package.Gladiator": "size,speed,endurance"}); err == nil ||
		!strings.Contains(err.Error(), "the race option package.Gladiator defines none, as package names are read in lower case; write package.gladiator") {
		t.Errorf("a package option not in lower case: %v", err)
	}
	for _, tc := range []struct {
		pkg    string
		extras []string
		says   string
	}{
		{"senate", []string{"skill", "speed"}, "unknown package"},
		{"military", []string{"skill"}, "two extra characteristics"},
		{"military", []string{"skill", "luck"}, "unknown characteristic"},
		{"military", []string{"skill", "skill"}, "at most 2"},
	} {
		if _, err := BuildTeam(tc.pkg, tc.extras, nil); err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("BuildTeam(%s, %v) = %v, want %q", tc.pkg, tc.extras, err, tc.says)
		}
	}
}

func TestSetupRefuses(t *testing.T) {
	ok := race.Entrant{Player: "A", Racers: []string{"Alpha"}, Options: map[string]string{"package": "noble", "extras": "skill,speed"}}
	ok2 := race.Entrant{Player: "B", Racers: []string{"Beta"}, Options: map[string]string{"package": "trader", "extras": "skill,size"}}
	for _, tc := range []struct {
		name string
		cfg  race.Config
		es   []race.Entrant
		says string
	}{
		{"unknown track", race.Config{Track: "circus-minimus"}, []race.Entrant{ok, ok2}, "unknown track"},
		{"too many laps", race.Config{Laps: 40}, []race.Entrant{ok, ok2}, "laps is 1 to 20"},
		{"one chariot", race.Config{}, []race.Entrant{ok}, "at least 2 chariots"},
		{"three aurigae", race.Config{}, []race.Entrant{{Player: "C", Racers: []string{"a", "b", "c"}}, ok}, "one or two"},
		{"same name twice", race.Config{}, []race.Entrant{ok, {Player: "D", Racers: []string{"alpha"}, Options: ok.Options}}, "name of its own"},
		{"no player", race.Config{}, []race.Entrant{ok, {Racers: []string{"x"}}}, "no player name"},
		{"a misspelt choice", race.Config{}, []race.Entrant{ok, {Player: "E", Racers: []string{"e"}, Options: map[string]string{"pakage": "noble", "extras": "skill,speed"}}}, `unknown choice "pakage"`},
	} {
		_, err := Ruleset{}.Setup(tc.cfg, tc.es, nil)
		if err == nil || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.says)
		}
	}
	_, err := Ruleset{}.Setup(race.Config{}, []race.Entrant{ok}, nil)
	if !errors.Is(err, race.ErrTooFew) {
		t.Errorf("one chariot: %v does not wrap race.ErrTooFew", err)
	}
}

func TestSettings(t *testing.T) {
	s := legalState(t)
	for _, v := range []string{"1", "2", "3"} {
		n, err := Ruleset{}.Set(s, "orders", v)
		if err != nil || n.(*State).Orders != int(v[0]-'0') {
			t.Fatalf("orders=%s: %v", v, err)
		}
	}
	for _, v := range []string{"0", "4", "two", "2x", ""} {
		if _, err := (Ruleset{}).Set(s, "orders", v); err == nil {
			t.Errorf("orders=%q accepted", v)
		}
	}
	if _, err := (Ruleset{}).Set(s, "speed", "1"); err == nil {
		t.Error("an unknown setting was accepted")
	}
	if s.Orders != 1 {
		t.Error("Set changed the state it was given")
	}
}
