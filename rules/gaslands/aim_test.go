package gaslands

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
)

// Hand-drawn shots on Luigi Raceway's top straight; the warp pipe is a 50 mm
// square at (300, 800), a mushroom stands at (150, 560).
func TestAim(t *testing.T) {
	for _, tc := range []struct {
		name   string
		karts  []string
		item   string
		cover  bool
		reason string
	}{
		{"open road", []string{"A car 500 700 180 1 0", "B car 350 700 180 1 0"}, GreenShell, false, ""},
		// The pipe stands squarely between: every line from A's centre to B's centre and corners crosses it.
		{"behind the pipe", []string{"A car 200 800 0 1 0", "B car 400 800 0 1 0"}, GreenShell, false, "no line of sight"},
		// A red shell homes in round the pipe.
		{"red shell round the pipe", []string{"A car 200 800 0 1 0", "B car 400 800 0 1 0"}, RedShell, false, ""},
		// The pipe hides B's centre but not its lower corners: a line of sight, not in cover (an open line exists).
		{"half hidden", []string{"A car 200 785 0 1 0", "B car 400 760 0 1 0"}, GreenShell, false, ""},
		// A kart squarely between: every line crosses it: cover.
		{"a kart in the way", []string{"A car 500 700 180 1 0", "B car 300 700 180 1 0", "C truck 400 700 180 1 0"}, GreenShell, true, ""},
		// A kart beside the line does not cover.
		{"a kart beside", []string{"A car 500 700 180 1 0", "B car 300 700 180 1 0", "C truck 400 640 180 1 0"}, GreenShell, false, ""},
		// The mushroom, destructible, covers; it does not block.
		{"behind a mushroom", []string{"A car 150 450 90 1 0", "B car 150 660 90 1 0"}, GreenShell, true, ""},
		{"out of range", []string{"A car 600 700 180 1 0", "B car 300 700 180 1 0"}, GreenShell, false, "out of range"},
		// Range runs to the nearest point: B's rear corner is within 240 mm though its centre is not.
		{"edge of range", []string{"A car 600 700 180 1 0", "B car 335 700 0 1 0"}, GreenShell, false, ""},
	} {
		s := stage(t, tc.karts...)
		a := Aim(s, 0, 1, tc.item)
		if a.Cover != tc.cover || (tc.reason == "") != (a.Reason == "") || !strings.Contains(a.Reason, tc.reason) {
			t.Errorf("%s: %+v, want cover %v, reason %q", tc.name, a, tc.cover, tc.reason)
		}
	}
}

// A shell in cover rolls 4 dice, not 5.
func TestShellInCover(t *testing.T) {
	s := stage(t, "A car 500 700 180 1 0", "B car 230 700 180 1 0", "C truck 250 700 180 1 0")
	s.Karts[0].Item = GreenShell
	// A's short straight ends with its centre at 365; B at 230 is 135 away, behind C.
	next, ev := playOrder(t, s, "short shell B", "d6=4", "d6=4", "d6=4", "d6=4", "d6=1")
	want(t, next.Karts[1].Hazards == 4, "4 hits from 4 dice, the one evade die misses")
	found := false
	for _, e := range ev {
		found = found || strings.Contains(e.Text, "in cover (one die fewer)")
	}
	want(t, found, "the post says the shell was in cover")
}

// The gear phases: every kart in the phase's gear or higher, from pole
// round the seats; pole moves on with each round (the text).
func TestActivationOrder(t *testing.T) {
	s := stage(t, "A car 300 170 0 1 0", "B car 300 120 0 3 0", "C car 200 170 0 2 0")
	s.Active, s.Round, s.Phase, s.Next, s.Pole = -1, 1, 1, 0, 0
	var got []string
	for len(got) < 12 {
		s.advance()
		got = append(got, s.Karts[s.Active].Name+string(rune('0'+s.Phase)))
	}
	want := "A1 B1 C1 B2 C2 B3 B1 C1 A1 B2 C2 B3"
	if strings.Join(got, " ") != want {
		t.Errorf("activations %s, want %s", strings.Join(got, " "), want)
	}
	if s.Pole != 1 || s.Round != 2 {
		t.Errorf("pole %d round %d, want pole 1 in round 2", s.Pole, s.Round)
	}
	// A kart that shifts up mid-round activates in the higher phases too.
	s = stage(t, "A car 300 170 0 1 0", "B car 300 120 0 1 0")
	s.Active = -1
	s.advance()
	s.Karts[0].Gear = 2
	s.advance() // B in phase 1
	s.advance()
	if s.Active != 0 || s.Phase != 2 {
		t.Errorf("after A shifted to gear 2: active %d in phase %d, want A in phase 2", s.Active, s.Phase)
	}
}

// A move along a template keeps the kart's rear on the template's path, and
// ends where Template.Move puts it; a spin never moves the centre.
func TestMotionProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 300; i++ {
		k := Rect{Centre: Vec{rng.Float64()*1000 - 500, rng.Float64()*1000 - 500}, Heading: rng.Float64() * 2 * math.Pi, Length: KartLength, Width: KartWidth}
		for _, tm := range Templates {
			for _, left := range []bool{false, true} {
				m := templateMotion(tm, left, k)
				end := m.At(m.Len)
				if want := tm.Move(k, left); !end.Centre.Near(want.Centre, 1e-6) || !sameAngle(end.Heading, want.Heading) {
					t.Fatalf("%s: the motion ends at %+v, Move at %+v", tm.Name, end, want)
				}
				if tm.Radius == 0 {
					continue
				}
				// The arc's centre is Radius to the side of the template's start.
				front := k.Centre.Add(heading(k.Heading).Scale(k.Length / 2))
				side := math.Pi / 2
				if !left {
					side = -side
				}
				c := front.Add(heading(k.Heading + side).Scale(tm.Radius))
				for u := k.Length; u <= m.Len; u += 7 {
					r := m.At(u)
					rear := r.Centre.Sub(heading(r.Heading).Scale(r.Length / 2))
					if d := rear.Sub(c).Len(); math.Abs(d-tm.Radius) > 1e-6 {
						t.Fatalf("%s: the rear is %.3f from the arc's centre, not %v", tm.Name, d, tm.Radius)
					}
				}
			}
		}
	}
	s := stage(t, "A car 300 170 0 1 0")
	next, _ := playOrder(t, s, "short skid 1 spin left 90", "d6=6")
	end := templateMotion(mustT("short"), false, s.Karts[0].Pos)
	want(t, next.Karts[0].Pos.Centre.Near(end.At(end.Len).Centre, 1e-9), "the spin turned the kart about its centre")
}

func TestParseOrder(t *testing.T) {
	m := DefaultManeuvers()
	for _, tc := range []struct{ in, canon string }{
		{"medium", "medium"},
		{"Gentle LEFT", "gentle left"},
		{"gentle left, skid 2, push, shift up, spin right 45, boost turn left, shell Luigi, smash", "gentle left skid 2 push shift up spin right 45 boost turn left shell luigi smash"},
		{"turn right evade skid 3 shift down 2", "turn right skid 3 shift down 2 evade"},
		{"long skid 1 spin left", "long skid 1 spin left 90"},
		{"swerve right bill boost medium", "swerve right boost medium bill"},
		{"short skid 0", "short"},
	} {
		o, err := Parse(tc.in, m)
		if err != nil || o.String() != tc.canon {
			t.Errorf("%q: %q, %v; want %q", tc.in, o.String(), err, tc.canon)
		}
	}
	for _, tc := range []struct{ in, want string }{
		{"", "starts with a template"},
		{"loop", "no template \"loop\""},
		{"gentle", "needs a side"},
		{"medium left", "has no side"},
		{"medium skid", "skid needs a number"},
		{"medium skid 7", "0 to 6"},
		{"medium push", "roll some first"},
		{"medium skid 1 shift sideways", "shift up"},
		{"medium skid 1 shift up 3", "1 skid die and a trivial template's free SHIFT give at most 2"},
		{"long shift down 2", "0 skid dice and a trivial template's free SHIFT give at most 1"},
		{"medium skid 1 spin left 120", "1 to 90"},
		{"medium boost hairpin", "medium, gentle, turn"},
		{"medium boost turn", "needs a side"},
		{"medium shell", "names its target"},
		{"medium shell a bill", "one item"},
		{"medium smash evade", "given twice"},
		{"medium skid 1 skid 2", "given twice"},
		{"medium faster", "not part of an order"},
	} {
		_, err := Parse(tc.in, m)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want %q", tc.in, err, tc.want)
		}
	}
}

// Orders the kart cannot give now are refused with the reason; a refused order changes nothing.
func TestOrderLegality(t *testing.T) {
	s := stage(t, "Mario car 300 170 0 5 0", "Luigi bike 200 170 0 1 0")
	before, _ := race.Hash(s)
	for _, tc := range []struct {
		seat    int
		in, why string
	}{
		{0, "short", "not permitted in gear 5; gear 5 permits long, veer, gentle, swerve"},
		{0, "long skid 4", "Handling is 3"},
		{0, "long skid 2 shift up 2", "top gear of 5"},
		{0, "swerve left shift down", "takes SHIFT results: roll skid dice"},
		{0, "swerve left skid 1 shift down 2", "1 skid die can give at most 1: the swerve is not trivial in gear 5"},
		{0, "long shell Luigi", "holds no shell"},
		{0, "long bill", "holds no Bullet Bill"},
		{1, "short", "it is Mario's activation"},
		{7, "short", "no seat 7"},
	} {
		_, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: tc.seat, Text: tc.in})
		if err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%q: got %v, want %q", tc.in, err, tc.why)
		}
	}
	s.Karts[0].Item = GreenShell
	for _, tc := range []struct{ in, why string }{
		{"long shell Mario", "at itself"},
		{"long shell Wario", "no kart called"},
	} {
		if _, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: 0, Text: tc.in}); err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("%q: got %v, want %q", tc.in, err, tc.why)
		}
	}
	// Seats are numbered from 1, as racers see them: seat 1 is Mario himself.
	if _, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: 0, Text: "long shell 1"}); err == nil || !strings.Contains(err.Error(), "at itself") {
		t.Errorf("a shell at seat 1, the thrower's own: %v", err)
	}
	o, err := (Ruleset{}).ParseOrder(s, race.Submission{Seat: 0, Text: "long shell 2"})
	if err != nil || s.kartByName(o.(Order).Shell) != 1 {
		t.Errorf("a target by seat number: %v %v", o, err)
	}
	s.Karts[0].Item = ""
	if after, _ := race.Hash(s); after != before {
		t.Error("checking orders changed the state")
	}
}

func TestSetup(t *testing.T) {
	es := func(names ...string) []race.Entrant {
		var out []race.Entrant
		for i, n := range names {
			out = append(out, race.Entrant{Player: "P" + string(rune('a'+i)), Racers: []string{n}})
		}
		return out
	}
	st, err := (Ruleset{}).Setup(race.Config{}, es("Mario", "Luigi"), dice.New(dice.SeedFromInt(1)))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	want(t, s.TrackID == "luigi-raceway" && s.Laps == 2 && s.Active == 0 && s.Karts[1].Vehicle == "car" && s.Karts[0].Gear == 1, "the defaults")
	for _, tc := range []struct {
		cfg  race.Config
		es   []race.Entrant
		want string
	}{
		{race.Config{Track: "nowhere"}, es("A", "B"), "unknown track \"nowhere\"; gaslands tracks: bowser-castle, luigi-raceway"},
		{race.Config{Laps: 30}, es("A", "B"), "laps is 1 to 20"},
		{race.Config{Options: map[string]string{"turbo": "1"}}, es("A", "B"), "unknown race option \"turbo\""},
		{race.Config{Options: map[string]string{"six-is-one": "maybe"}}, es("A", "B"), "true or false"},
		{race.Config{Options: map[string]string{"trivial": "maybe"}}, es("A", "B"), `trivial is one of shift, token; got "maybe"`},
		{race.Config{Options: map[string]string{"bill": "often"}}, es("A", "B"), `bill is one of gear-2, every-activation; got "often"`},
		{race.Config{Options: map[string]string{"kart-hit": "bounce"}}, es("A", "B"), `kart-hit is one of drive-on, stop; got "bounce"`},
		{race.Config{Options: map[string]string{"turbo": "1"}}, es("A", "B"), "trivial=shift|token, bill=gear-2|every-activation, kart-hit=drive-on|stop"},
		{race.Config{}, es("A", "a"), "one-word name of its own"},
		{race.Config{}, es("Dry Bones", "B"), "one-word name"},
		{race.Config{}, es("7", "B"), "not a number"},
		{race.Config{}, es("Nearest", "B"), "a word of the orders"},
		{race.Config{}, es("A"), "at least 2"},
		{race.Config{}, es("A", "B", "C", "D", "E", "F", "G", "H", "I"), "grid of 8"},
		{race.Config{}, []race.Entrant{{Player: "x", Racers: []string{"A"}, Options: map[string]string{"vehicle": "tank"}}, {Player: "y", Racers: []string{"B"}}}, "no vehicle \"tank\""},
		{race.Config{}, []race.Entrant{{Player: "x", Racers: []string{"A"}, Options: map[string]string{"perk": "x"}}, {Player: "y", Racers: []string{"B"}}}, "chooses its vehicle"},
	} {
		_, err := (Ruleset{}).Setup(tc.cfg, tc.es, dice.New(dice.SeedFromInt(1)))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: got %v, want %q", tc.cfg, err, tc.want)
		}
	}
	// A race's options reach its state, templates before the chart rows that name them.
	st, err = (Ruleset{}).Setup(race.Config{Options: map[string]string{"chart.hard": "P P P X X X", "template.hard": "arc 60 120", "six-is-one": "true"}}, es("A", "B"), dice.New(dice.SeedFromInt(1)))
	if err != nil {
		t.Fatal(err)
	}
	s = st.(*State)
	want(t, s.SixIsOne && s.M.Class("hard", 2) == Permitted, "the options are in the state")
	want(t, !s.TrivialToken && !s.BillEveryAct && !s.KartHitStops, "the readings' defaults")
	st, err = (Ruleset{}).Setup(race.Config{Options: map[string]string{"trivial": "token", "bill": "every-activation", "kart-hit": "Stop"}}, es("A", "B"), dice.New(dice.SeedFromInt(1)))
	if err != nil {
		t.Fatal(err)
	}
	s = st.(*State)
	want(t, s.TrivialToken && s.BillEveryAct && s.KartHitStops, "the readings chosen are in the state")
}

// Attacks may be measured first (the text): the prompt of a kart holding a
// shell names the karts it reaches from where it stands.
func TestPromptMeasuresShells(t *testing.T) {
	s := stage(t, "Mario car 300 170 0 2 0", "Luigi car 500 170 0 3 0", "Peach bike 900 170 0 1 0", "Toad car 400 170 0 1 0")
	s.Karts[0].Item = GreenShell
	note := (Ruleset{}).Prompts(s)[0].Note
	if !strings.Contains(note, "in reach from here: Luigi 200 mm in cover, Toad 100 mm)") {
		t.Errorf("the prompt's note: %s", note)
	}
	s.Karts[0].Item = BulletBill
	if note := (Ruleset{}).Prompts(s)[0].Note; strings.Contains(note, "in reach") {
		t.Errorf("a Bullet Bill has no reach to measure: %s", note)
	}
}
