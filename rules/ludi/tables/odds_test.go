package tables

import (
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"testing"

	"pitwall/race"
)

// rat is a fraction for the expected odds: "7/8", "0.28".
func rat(s string) *big.Rat {
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		panic("bad fraction " + s)
	}
	return r
}

func TestOddsExact(t *testing.T) {
	tests := []struct {
		name  string
		check string
		args  map[string]string
		want  map[string]string // outcome: exact fraction; absent outcomes must be 0
	}{
		// The rolls after the first five: one cell each, read off the tables.
		{"crash overtaking 1 2 chariot", "crash", map[string]string{"mode": "overtaking", "skill": "1", "size": "2", "target": "chariot"},
			map[string]string{"hit": "10/20", "none": "10/20"}},
		{"crash adjacent 0 0 horses", "crash", map[string]string{"mode": "Adjacent", "skill": "0", "size": "0", "target": "horses"},
			map[string]string{"hit": "6/20", "none": "14/20"}},
		{"crash adjacent 2 2 chariot", "crash", map[string]string{"mode": "adjacent", "skill": "2", "size": "2", "target": "chariot"},
			map[string]string{"hit": "16/20", "none": "4/20"}},
		{"crash overtaking 0 0 horses", "crash", map[string]string{"mode": "overtaking", "skill": "0", "size": "0", "target": "HORSES"},
			map[string]string{"hit": "4/20", "none": "16/20"}},
		{"crash damage 4 2", "crash-damage", map[string]string{"combo": "4", "defender": "2"},
			map[string]string{"self_damage": "8/20", "none": "12/20"}},
		{"crash damage 0 0", "crash-damage", map[string]string{"combo": "0", "defender": "0"},
			map[string]string{"self_damage": "12/20", "none": "8/20"}},
		{"crash damage 6 0", "crash-damage", map[string]string{"combo": "6", "defender": "0"},
			map[string]string{"none": "1"}},
		{"slip 1", "slip", map[string]string{"value": "1"}, map[string]string{"damage": "5/20", "none": "15/20"}},
		// Control at FAST takes 1 off: 17-20 read 16-20.
		{"slip 1 wheels 1", "slip", map[string]string{"value": "1", "wheels": "1"}, map[string]string{"damage": "4/20", "none": "16/20"}},
		{"slip 1 wheels 2", "slip", map[string]string{"value": "1", "wheels": "2"}, map[string]string{"damage": "3/20", "none": "17/20"}},
		// A watching defender takes 2 off: 13-20 read 11-20.
		{"crash overtaking 1 2 chariot watched", "crash", map[string]string{"mode": "overtaking", "skill": "1", "size": "2", "target": "chariot", "watch": "true"},
			map[string]string{"hit": "8/20", "none": "12/20"}},
		{"fall 0", "fall", map[string]string{"constitution": "0"}, map[string]string{"hurt": "7/20", "none": "13/20"}},
		{"fall 2", "fall", map[string]string{"constitution": "2"}, map[string]string{"hurt": "3/20", "none": "17/20"}},
		{"slip start 3", "slip-start", map[string]string{"spaces": "3"}, map[string]string{"1": "1/3", "2": "1/3", "3": "1/3"}},
		{"slip start 4", "slip-start", map[string]string{"spaces": "4"}, map[string]string{"1": "1/4", "2": "1/4", "3": "1/4", "4": "1/4"}},
		{"slip start 5", "slip-start", map[string]string{"spaces": "5"}, map[string]string{"1": "1/5", "2": "1/5", "3": "1/5", "4": "1/5", "5": "1/5"}},
		{"slip start 7", "slip-start", map[string]string{"spaces": "7"},
			map[string]string{"1": "1/7", "2": "1/7", "3": "1/7", "4": "1/7", "5": "1/7", "6": "1/7", "7": "1/7"}},

		// Speed: the gear dice.
		{"speed low", "speed", map[string]string{"level": "low"}, map[string]string{"2": "1/6", "3": "2/6", "4": "3/6"}},
		{"speed fast", "speed", map[string]string{"level": "fast"}, map[string]string{"4": "1/8", "5": "1/8", "6": "2/8", "7": "2/8", "8": "2/8"}},
		{"speed max", "speed", map[string]string{"level": "MAX"}, map[string]string{"7": "1/6", "8": "1/6", "9": "1/6", "10": "1/6", "11": "1/6", "12": "1/6"}},

		// Corner, inside lane.
		{"corner 1 fast 0", "corner", map[string]string{"lane": "1", "level": "fast", "skill": "0"},
			map[string]string{"slip": "1/8", "naufragia": "7/8"}},
		{"corner 1 low 0", "corner", map[string]string{"lane": "1", "level": "low", "skill": "0"},
			map[string]string{"none": "1/2", "slip": "1/2"}},
		// LOW has no control modifier.
		{"corner 1 low 0 control", "corner", map[string]string{"lane": "1", "level": "low", "skill": "0", "control": "true"},
			map[string]string{"none": "1/2", "slip": "1/2"}},
		// Skill 2 at FAST: 4 none, 5-6 slip, 7-8 naufragia.
		{"corner 1 fast 2", "corner", map[string]string{"lane": "1", "level": "fast", "skill": "2"},
			map[string]string{"none": "1/8", "slip": "3/8", "naufragia": "4/8"}},
		// With Control, each face less 1: 4->3 reads 4 (none), 5->4 (none), 6,6->5 (slip), 7,7->6 (slip), 8,8->7 (naufragia).
		{"corner 1 fast 2 control", "corner", map[string]string{"lane": "1", "level": "fast", "skill": "2", "control": "true"},
			map[string]string{"none": "2/8", "slip": "4/8", "naufragia": "2/8"}},
		{"corner 1 fast 2 control=false", "corner", map[string]string{"lane": "1", "level": "fast", "skill": "2", "control": "false"},
			map[string]string{"none": "1/8", "slip": "3/8", "naufragia": "4/8"}},
		// MAX less 2: 7,7,8,8 -> read as 7 (slip), 9,9 -> 7, 10,10 -> 8 (slip), 11,11 -> 9, 12,12 -> 10 (naufragia).
		{"corner 1 max 2 control", "corner", map[string]string{"lane": "1", "level": "max", "skill": "2", "control": "true"},
			map[string]string{"slip": "8/12", "naufragia": "4/12"}},
		{"corner 1 max 0", "corner", map[string]string{"lane": "1", "level": "max", "skill": "0"},
			map[string]string{"naufragia": "1"}},
		{"corner 2 max 1", "corner", map[string]string{"lane": "2", "level": "max", "skill": "1"},
			map[string]string{"none": "1/6", "slip": "1/2", "naufragia": "1/3"}},
		{"corner 2 max 1 control", "corner", map[string]string{"lane": "2", "level": "max", "skill": "1", "control": "true"},
			// 5,5,6,6,7,7 -> 7 none (6/12); 8,8 slip; 9,9 slip; 10,10 slip (6/12)
			map[string]string{"none": "1/2", "slip": "1/2"}},
		{"corner 4 max 2", "corner", map[string]string{"lane": "4", "level": "max", "skill": "2"},
			map[string]string{"none": "5/6", "slip": "1/6"}},
		{"corner 5 max 0", "corner", map[string]string{"lane": "5", "level": "max", "skill": "0"}, map[string]string{"none": "1"}},
		{"corner 6 max 0", "corner", map[string]string{"lane": "6", "level": "max", "skill": "0"}, map[string]string{"none": "1"}},

		// Whip: roll 1 and roll 2 independent.
		{"whip 0", "whip", map[string]string{"endurance": "0"},
			map[string]string{"success_damage": "1/4", "success": "1/4", "damage": "1/4", "none": "1/4"}},
		{"whip 1", "whip", map[string]string{"endurance": "1"},
			map[string]string{"success_damage": "0.3", "success": "0.3", "damage": "0.2", "none": "0.2"}},
		{"whip 2", "whip", map[string]string{"endurance": "2"}, // success 0.7 x damage 0.4
			map[string]string{"success_damage": "0.28", "success": "0.42", "damage": "0.12", "none": "0.18"}},

		// Lacerate; Watch takes 2 from the roll.
		{"lacerate 0 0", "lacerate", map[string]string{"skill": "0", "constitution": "0"}, map[string]string{"stun": "0.4", "none": "0.6"}},
		{"lacerate 0 0 watch", "lacerate", map[string]string{"skill": "0", "constitution": "0", "watch": "true"}, map[string]string{"stun": "0.3", "none": "0.7"}},
		{"lacerate 0 2", "lacerate", map[string]string{"skill": "0", "constitution": "2"}, map[string]string{"stun": "0.1", "none": "0.9"}},
		{"lacerate 0 2 watch", "lacerate", map[string]string{"skill": "0", "constitution": "2", "watch": "true"}, map[string]string{"none": "1"}},
		{"lacerate 2 0 watch", "lacerate", map[string]string{"skill": "2", "constitution": "0", "watch": ""}, map[string]string{"stun": "0.6", "none": "0.4"}},
		{"lacerate 1 0", "lacerate", map[string]string{"skill": "1", "constitution": "0"}, map[string]string{"stun": "0.55", "none": "0.45"}},

		// Wall.
		{"wall 0", "wall", map[string]string{"skill": "0"}, map[string]string{"damage": "0.35", "none": "0.65"}},
		{"wall 1", "wall", map[string]string{"skill": "1"}, map[string]string{"damage": "0.25", "none": "0.75"}},
		{"wall 2", "wall", map[string]string{"skill": "2"}, map[string]string{"damage": "0.15", "none": "0.85"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			exact, err := exactOdds(tc.check, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Odds(tc.check, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			for k, p := range exact {
				w := new(big.Rat)
				if s, ok := tc.want[k]; ok {
					w = rat(s)
				}
				if p.Cmp(w) != 0 {
					t.Errorf("%s: %s, want %s", k, p.RatString(), w.RatString())
				}
				wf, _ := w.Float64()
				if math.Abs(got[k]-wf) > 1e-15 {
					t.Errorf("%s: float %v, want %v", k, got[k], wf)
				}
			}
			for k := range tc.want {
				if _, ok := exact[k]; !ok {
					t.Errorf("outcome %s missing", k)
				}
			}
		})
	}
}

// validArgs is every valid flag set of every check.
func validArgs() map[string][]map[string]string {
	out := map[string][]map[string]string{}
	for _, l := range []string{"low", "fast", "max"} {
		out["speed"] = append(out["speed"], map[string]string{"level": l})
		for lane := 1; lane <= 6; lane++ {
			for s := range 3 {
				for _, c := range []string{"", "true", "false"} {
					a := map[string]string{"lane": strconv.Itoa(lane), "level": l, "skill": strconv.Itoa(s)}
					if c != "" {
						a["control"] = c
					}
					out["corner"] = append(out["corner"], a)
				}
			}
		}
	}
	for n := 3; n <= 7; n++ {
		out["slip-start"] = append(out["slip-start"], map[string]string{"spaces": strconv.Itoa(n)})
	}
	for combo := range 7 {
		for d := range 3 {
			out["crash-damage"] = append(out["crash-damage"], map[string]string{"combo": strconv.Itoa(combo), "defender": strconv.Itoa(d)})
		}
	}
	for _, m := range []string{"adjacent", "overtaking"} {
		for sk := range 3 {
			for sz := range 3 {
				for _, tg := range []string{"horses", "chariot"} {
					out["crash"] = append(out["crash"], map[string]string{"mode": m, "skill": strconv.Itoa(sk), "size": strconv.Itoa(sz), "target": tg})
				}
			}
		}
	}
	for v := range 3 {
		out["slip"] = append(out["slip"], map[string]string{"value": strconv.Itoa(v)})
		out["fall"] = append(out["fall"], map[string]string{"constitution": strconv.Itoa(v)})
		out["whip"] = append(out["whip"], map[string]string{"endurance": strconv.Itoa(v)})
		out["wall"] = append(out["wall"], map[string]string{"skill": strconv.Itoa(v)})
		for c := range 3 {
			for _, w := range []string{"", "true"} {
				a := map[string]string{"skill": strconv.Itoa(v), "constitution": strconv.Itoa(c)}
				if w != "" {
					a["watch"] = w
				}
				out["lacerate"] = append(out["lacerate"], a)
			}
		}
	}
	return out
}

func TestOddsSumToOne(t *testing.T) {
	checks := Checks()
	for name, sets := range validArgs() {
		i := slices.IndexFunc(checks, func(c race.Check) bool { return c.Name == name })
		if i < 0 {
			t.Fatalf("Checks() has no %s", name)
		}
		for _, args := range sets {
			exact, err := exactOdds(name, args)
			if err != nil {
				t.Fatalf("%s %v: %v", name, args, err)
			}
			sum := new(big.Rat)
			for k, p := range exact {
				if !slices.Contains(checks[i].Outcomes, k) {
					t.Errorf("%s %v: outcome %q not in Checks()", name, args, k)
				}
				if p.Sign() < 0 {
					t.Errorf("%s %v: %s < 0", name, args, k)
				}
				sum.Add(sum, p)
			}
			if sum.Cmp(big.NewRat(1, 1)) != 0 {
				t.Errorf("%s %v: exact sum %s", name, args, sum.RatString())
			}
			got, _ := Odds(name, args)
			f := 0.0
			for _, p := range got {
				f += p
			}
			if math.Abs(f-1) > 1e-12 {
				t.Errorf("%s %v: sum %v", name, args, f)
			}
		}
	}
}

func TestChecks(t *testing.T) {
	want := map[string]struct {
		flags    string // name:values, ! = required, ? = bool
		outcomes string
	}{
		"speed":        {"!level:low|fast|max", "2 3 4 5 6 7 8 9 10 11 12"},
		"corner":       {"!lane:1..6 !level:low|fast|max !skill:0..2 ?control:true|false", "none slip naufragia"},
		"whip":         {"!endurance:0..2", "success_damage success damage none"},
		"lacerate":     {"!skill:0..2 !constitution:0..2 ?watch:true|false", "stun none"},
		"wall":         {"!skill:0..2", "damage none"},
		"crash":        {"!mode:adjacent|overtaking !skill:0..2 !size:0..2 (the defender's) !target:horses|chariot ?watch:true|false", "hit none"},
		"crash-damage": {"!combo:0..6 (the attacker's Skill + Size) !defender:0..2 (the defender's Size/Endurance)", "self_damage none"},
		"slip":         {"!value:0..2 (the chariot's Size, or the horses' Endurance) wheels:0..2 (Control's modifier at the level: 1 at FAST, 2 at MAX; 0 without)", "damage none"},
		"slip-start":   {"!spaces:3..7 (the lane's spaces in the corner)", "1 2 3 4 5 6 7"},
		"fall":         {"!constitution:0..2", "hurt none"},
	}
	var names []string
	for _, c := range Checks() {
		names = append(names, c.Name)
		w, ok := want[c.Name]
		if !ok {
			t.Errorf("unexpected check %s", c.Name)
			continue
		}
		var flags []string
		for _, f := range c.Flags {
			mark := "!"
			if f.Bool {
				mark = "?"
				if f.Need {
					t.Errorf("%s --%s is a required switch", c.Name, f.Name)
				}
			} else if !f.Need {
				mark = ""
			}
			flags = append(flags, mark+f.Name+":"+f.Values)
		}
		if strings.Join(flags, " ") != w.flags {
			t.Errorf("%s flags %q, want %q", c.Name, strings.Join(flags, " "), w.flags)
		}
		if strings.Join(c.Outcomes, " ") != w.outcomes {
			t.Errorf("%s outcomes %q, want %q", c.Name, c.Outcomes, w.outcomes)
		}
		if c.Help == "" {
			t.Errorf("%s has no help", c.Name)
		}
	}
	if strings.Join(names, " ") != "speed corner whip lacerate wall crash crash-damage slip slip-start fall" {
		t.Errorf("checks %v", names)
	}
}

func TestOddsErrors(t *testing.T) {
	corner := func(kv ...string) map[string]string {
		a := map[string]string{"lane": "1", "level": "fast", "skill": "0"}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] == "<unset>" {
				delete(a, kv[i])
			} else {
				a[kv[i]] = kv[i+1]
			}
		}
		return a
	}
	tests := []struct {
		name  string
		check string
		args  map[string]string
		want  []string // each must appear in the message
	}{
		{"unknown check", "hang-on", nil, []string{`"hang-on"`, "speed, corner, whip, lacerate, wall, crash, crash-damage, slip, slip-start, fall"}},
		{"empty check", "", nil, []string{`""`, "speed, corner, whip, lacerate, wall"}},
		{"bad mode", "crash", map[string]string{"mode": "sideways", "skill": "1", "size": "1", "target": "horses"}, []string{`--mode is adjacent or overtaking; got "sideways"`}},
		{"bad target", "crash", map[string]string{"mode": "adjacent", "skill": "1", "size": "1", "target": "auriga"}, []string{`--target is horses or chariot; got "auriga"`}},
		{"missing target", "crash", map[string]string{"mode": "adjacent", "skill": "1", "size": "1"}, []string{"--target", "horses|chariot"}},
		{"size 3", "crash", map[string]string{"mode": "adjacent", "skill": "1", "size": "3", "target": "horses"}, []string{"--size", "0 to 2"}},
		{"combo 7", "crash-damage", map[string]string{"combo": "7", "defender": "1"}, []string{"--combo", "0 to 6"}},
		{"missing defender", "crash-damage", map[string]string{"combo": "1"}, []string{"--defender", "0..2"}},
		{"slip value 3", "slip", map[string]string{"value": "3"}, []string{"--value", "0 to 2"}},
		{"slip start 2", "slip-start", map[string]string{"spaces": "2"}, []string{"--spaces", "3 to 7"}},
		{"slip start 8", "slip-start", map[string]string{"spaces": "8"}, []string{"--spaces", "3 to 7"}},
		{"missing constitution for a fall", "fall", nil, []string{"--constitution", "0..2"}},
		{"check case", "Speed", map[string]string{"level": "low"}, []string{`"Speed"`, "speed, corner"}},
		{"missing level", "speed", nil, []string{"--level", "low|fast|max"}},
		{"missing level, empty map", "speed", map[string]string{}, []string{"--level", "low|fast|max"}},
		{"bad level", "speed", map[string]string{"level": "sideways"}, []string{`--level must be one of low, fast, max; got "sideways"`}},
		{"empty level", "speed", map[string]string{"level": ""}, []string{"--level", "low, fast, max", `""`}},
		{"stop speed", "speed", map[string]string{"level": "stop"}, []string{"--level stop", "no die", "low, fast or max"}},
		{"stop corner", "corner", corner("level", "STOP"), []string{"--level stop", "no die"}},
		{"unknown flag", "speed", map[string]string{"level": "low", "gear": "3"}, []string{`"--gear"`, "--level"}},
		{"flag of another check", "wall", map[string]string{"skill": "1", "watch": "true"}, []string{`"--watch"`, "--skill"}},
		{"empty flag name", "whip", map[string]string{"endurance": "1", "": "x"}, []string{`"--"`, "--endurance"}},
		{"missing lane", "corner", corner("lane", "<unset>"), []string{"--lane", "1..6"}},
		{"missing skill", "corner", corner("skill", "<unset>"), []string{"--skill", "0..2"}},
		{"missing corner level", "corner", corner("level", "<unset>"), []string{"--level", "low|fast|max"}},
		{"lane 0", "corner", corner("lane", "0"), []string{"--lane", "1 to 6", `"0"`}},
		{"lane 7", "corner", corner("lane", "7"), []string{"--lane", "1 to 6", `"7"`}},
		{"lane word", "corner", corner("lane", "inside"), []string{"--lane", "1 to 6", `"inside"`}},
		{"lane float", "corner", corner("lane", "1.5"), []string{"--lane", "1 to 6"}},
		{"lane huge", "corner", corner("lane", "99999999999999999999999"), []string{"--lane", "1 to 6"}},
		{"skill 3", "corner", corner("skill", "3"), []string{"--skill", "0 to 2", `"3"`}},
		{"skill -1", "wall", map[string]string{"skill": "-1"}, []string{"--skill", "0 to 2"}},
		{"bad control", "corner", corner("control", "yes"), []string{"--control", "true or false", `"yes"`}},
		{"missing endurance", "whip", nil, []string{"--endurance", "0..2"}},
		{"endurance 3", "whip", map[string]string{"endurance": "3"}, []string{"--endurance", "0 to 2"}},
		{"endurance word", "whip", map[string]string{"endurance": "two"}, []string{"--endurance", "0 to 2", `"two"`}},
		{"missing constitution", "lacerate", map[string]string{"skill": "1"}, []string{"--constitution", "0..2"}},
		{"constitution 5", "lacerate", map[string]string{"skill": "1", "constitution": "5"}, []string{"--constitution", "0 to 2"}},
		{"bad watch", "lacerate", map[string]string{"skill": "1", "constitution": "1", "watch": "maybe"}, []string{"--watch", "true or false"}},
		{"missing wall skill", "wall", nil, []string{"--skill", "0..2"}},
		{"wheels 3", "slip", map[string]string{"value": "1", "wheels": "3"}, []string{"--wheels", "0 to 2", `"3"`}},
		{"bad crash watch", "crash", map[string]string{"mode": "adjacent", "skill": "1", "size": "1", "target": "horses", "watch": "often"}, []string{"--watch", "true or false"}},
		{"newline value", "wall", map[string]string{"skill": "1\n2"}, []string{"--skill", `"1\n2"`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Odds(tc.check, tc.args)
			if err == nil {
				t.Fatalf("accepted: %v", got)
			}
			if got != nil {
				t.Errorf("odds with an error: %v", got)
			}
			msg := err.Error()
			if strings.Contains(msg, "\n") {
				t.Errorf("message is not one line: %q", msg)
			}
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("message %q does not contain %q", msg, w)
				}
			}
		})
	}
}

func FuzzOdds(f *testing.F) {
	f.Add("corner", uint8(0xff), "1", "fast", "2", "1", "0", "true", "x", "y")
	f.Add("speed", uint8(0x02), "", "max", "", "", "", "", "", "")
	f.Add("whip", uint8(0x08), "", "", "", "2", "", "", "", "")
	f.Add("lacerate", uint8(0x34), "", "", "2", "", "0", "true", "", "")
	f.Add("wall", uint8(0x04), "", "", "-1", "", "", "", "", "")
	f.Add("corner", uint8(0x07), "6", "stop", "9", "", "", "", "", "")
	f.Add("nope", uint8(0x80), "", "", "", "", "", "", "level", "low")
	f.Fuzz(func(t *testing.T, check string, mask uint8, lane, level, skill, endurance, constitution, sw, key, val string) {
		args := map[string]string{}
		for i, kv := range [][2]string{
			{"lane", lane}, {"level", level}, {"skill", skill}, {"endurance", endurance},
			{"constitution", constitution}, {"control", sw}, {"watch", sw}, {key, val},
		} {
			if mask&(1<<i) != 0 {
				args[kv[0]] = kv[1]
			}
		}
		got, err := Odds(check, args)
		if err != nil {
			msg := err.Error()
			if msg == "" || strings.Contains(msg, "\n") {
				t.Fatalf("bad message %q", msg)
			}
			if got != nil {
				t.Fatalf("odds with an error")
			}
			return
		}
		sum := 0.0
		for k, p := range got {
			if math.IsNaN(p) || p < 0 || p > 1 {
				t.Fatalf("%s = %v", k, p)
			}
			sum += p
		}
		if math.Abs(sum-1) > 1e-12 {
			t.Fatalf("sum %v", sum)
		}
	})
}
