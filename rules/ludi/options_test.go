package ludi

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

func setupWith(options map[string]string) (race.State, error) {
	g := Ruleset{}.Game()
	return Ruleset{}.Setup(race.Config{Track: "circus-maximus", Options: options}, g.Demo.Entrants, dice.New(dice.SeedFromInt(1)))
}

// A race option's value that is not one of its values, or an option ludi
// does not have, is refused with what would be right.
func TestOptionsRefused(t *testing.T) {
	for _, c := range []struct {
		options map[string]string
		want    string
	}{
		{map[string]string{"watch-crash": "sometimes"}, `watch-crash is one of minus-2, none; got "sometimes"`},
		{map[string]string{"endurance-pace": "slow"}, `endurance-pace is one of cap, space, none; got "slow"`},
		{map[string]string{"lacerate-skill": ""}, `lacerate-skill is one of attacker, difference; got ""`},
		{map[string]string{"slip-lane": "1"}, `slip-lane is one of check, start; got "1"`},
		{map[string]string{"wreck-finish": "yes"}, `wreck-finish is one of out, place; got "yes"`},
		{map[string]string{"control-wheels": "true"}, `control-wheels is one of slip, none; got "true"`},
		{map[string]string{"colour": "red"}, `unknown race option "colour"; ludi options: package.NAME=a,b,c, watch-crash=minus-2|none`},
		{map[string]string{"package.": "skill,size,speed"}, `unknown race option "package."`},
	} {
		_, err := setupWith(c.options)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("options %v: got %v; want an error with %q", c.options, err, c.want)
		}
	}
}

// Options not given take their defaults; a value is read whatever its case.
func TestOptionsDefaults(t *testing.T) {
	st, err := setupWith(map[string]string{"wreck-finish": " PLACE ", "package.political": "skill,quality,size"})
	if err != nil {
		t.Fatal(err)
	}
	got := st.(*State).Rules
	want := Rules{WatchCrash: "minus-2", EndurancePace: "cap", LacerateSkill: "attacker", SlipLane: "check", WreckFinish: "place", ControlWheels: "slip"}
	if got != want {
		t.Errorf("rules %+v; want %+v", got, want)
	}
	for _, o := range ruleOptions {
		if !strings.Contains(o.field.Help, o.field.Default) {
			t.Errorf("%s: the help does not name the default %q", o.field.Name, o.field.Default)
		}
		for _, v := range o.field.Values {
			if !regexp.MustCompile(`\b` + regexp.QuoteMeta(v) + `\b`).MatchString(o.field.Help) {
				t.Errorf("%s: the help does not say what %q does", o.field.Name, v)
			}
		}
	}
}

// A state stored before the options existed has no rules: read back, it
// plays by the defaults.
func TestOldStateTakesDefaults(t *testing.T) {
	b := storedStates(t)[1]
	old := regexp.MustCompile(`,?"rules":\{[^}]*\}`).ReplaceAll(b, nil)
	if bytes.Equal(old, b) {
		t.Fatal("the stored state has no rules to take out")
	}
	st, err := Ruleset{}.DecodeState(old)
	if err != nil {
		t.Fatal(err)
	}
	var want Rules
	want.fill()
	if got := st.(*State).Rules; got != want {
		t.Errorf("rules %+v; want the defaults %+v", got, want)
	}
}

// The text calls the Political package's chariots its least durable part:
// the package gives no Size, so a Political team can take both extras in it.
func TestPoliticalPackage(t *testing.T) {
	team, err := BuildTeam("political", []string{"size", "size"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := Team{Skill: 1, Constitution: 1, Speed: 1, Size: 2}
	if team != want {
		t.Errorf("political with size, size: %+v; want %+v", team, want)
	}
}

// The bots play whole races under every value of every option, and each
// replays the same.
func TestBotRacesUnderOptions(t *testing.T) {
	seed := uint64(100)
	for _, o := range ruleOptions {
		for _, v := range o.field.Values {
			if v == o.field.Default {
				continue
			}
			seed++
			cfg := race.Config{Track: "circus-maximus", Options: map[string]string{o.field.Name: v}}
			r, live := botRaceWith(t, seed, 8, cfg)
			racetest.SameReplay(t, Ruleset{}, r, live)
			if got := *o.at(&live.State.(*State).Rules); got != v {
				t.Errorf("%s=%s: the race played with %q", o.field.Name, v, got)
			}
			t.Logf("%s=%s: %d turns, %d finished", o.field.Name, v, len(live.Turns), len(live.State.(*State).Finish))
			if !live.State.Over() {
				t.Errorf("%s=%s: the bot race did not end", o.field.Name, v)
			}
		}
	}
}
