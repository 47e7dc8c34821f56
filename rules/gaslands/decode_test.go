package gaslands

import (
	"regexp"
	"testing"

	"pitwall/race/racetest"
)

// storedStates are the stored states of a one-lap, 3-kart bot race on Bowser Castle: the start,
// activation 5, and the one before the end.
func storedStates(t testing.TB) [][]byte {
	_, p := botRaceLaps(t, 3, 3, "bowser-castle", 1)
	return racetest.StoredStates(t, p)
}

// A stored state the game could not have made is refused when read, not
// left to panic in a prompt, a post or a turn (each of these did).
func TestDecodeStateRefusesDamage(t *testing.T) {
	good := storedStates(t)[2]
	// first is the first text in the state that re matches: the bot race
	// that makes the state is free to change with the bots.
	first := func(re string) string {
		m := regexp.MustCompile(re).Find(good)
		if m == nil {
			t.Fatalf("%s is not in the state to damage", re)
		}
		return string(m)
	}
	// the lists of obstructions gone and bills in flight go after "active";
	// the state has neither
	active := first(`"active":-?\d+`)
	if regexp.MustCompile(`"gone"|"bills"`).Match(good) {
		t.Fatal("the state to damage already has obstructions gone or bills in flight")
	}
	racetest.Refused(t, Ruleset{}, good, [][3]string{
		{`"track":"bowser-castle"`, `"track":"rainbow-road"`, `unknown track "rainbow-road"`},
		{`"laps":1`, `"laps":0`, "0 laps"},
		{`"seat":0`, `"seat":7`, "kart 1 sits in seat 7"},
		{`{"name":"short","length":75}`, `{"name":"short","length":1e300}`, "template short: measures are 0 to 1000"},
		{`{"name":"short","length":75}`, `{"name":"medium","length":75}`, `template "medium": written otherwise, or twice`},
		{`"slide":45`, `"slide":-1`, "slide is 0 to 300 mm"},
		{`"gentle":[84,`, `"gentle":[1,`, `chart row gentle, gear 1: '\x01' is not one of T, P, H, X`},
		{`"weight":2`, `"weight":0`, "the weight class 0"},
		{first(`"gear":\d+`), `"gear":9`, "is in gear 9 of"},
		{first(`"hazards":\d+`), `"hazards":1000000000`, "1000000000 hazard tokens"},
		{first(`"Heading":[-0-9.e]+`), `"Heading":1e300`, "Kart0 stands at"},
		{`"Length":60`, `"Length":1e300`, "Kart0 stands at"},
		{first(`"gate":\d+`), `"gate":99`, "Kart0 is due at gate 99"},
		{`"collide":`, `"item":"banana","collide":`, `unknown item "banana"`},
		{`"collide":"evade"`, `"collide":"swerve"`, `would "swerve" in a collision`},
		{`"active":0`, `"active":3`, "the active kart is seat 3"},
		{first(`"phase":\d+`), `"phase":0`, "gear phase 0"},
		{active, active + `,"gone":[3,3]`, "obstructions [3 3] gone"},
		{active, active + `,"bills":[{"owner":9,"pos":{"Centre":{"X":1,"Y":1},"Heading":0,"Length":50,"Width":30},"moves":0}]`, "a Bullet Bill of seat 9"},
		{first(`"last":\{"seat":\d+`), `"last":{"seat":-2`, "the last activation was seat -2"},
		{first(`"outline":\[\{"X":[-0-9.e]+`), `"outline":[{"X":1e100`, "far off the table"},
	})
}

// DecodeState on arbitrary changes to real states refuses them or gives a
// state that prompts, stands and plays a turn; it never panics.
func TestDecodeStateMutations(t *testing.T) {
	racetest.DecodeMutations(t, Ruleset{}, storedStates(t))
}

func FuzzDecodeState(f *testing.F) { racetest.FuzzDecode(f, Ruleset{}, storedStates(f)) }
