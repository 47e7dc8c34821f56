package gaslands

import (
	"math/rand/v2"
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
	racetest.Refused(t, Ruleset{}, good, [][3]string{
		{`"track":"bowser-castle"`, `"track":"rainbow-road"`, `unknown track "rainbow-road"`},
		{`"laps":1`, `"laps":0`, "0 laps"},
		{`"seat":0`, `"seat":7`, "kart 1 sits in seat 7"},
		{`{"name":"short","length":75}`, `{"name":"short","length":1e300}`, "template short: measures are 0 to 1000"},
		{`{"name":"short","length":75}`, `{"name":"medium","length":75}`, `template "medium": written otherwise, or twice`},
		{`"slide":45`, `"slide":-1`, "slide is 0 to 300 mm"},
		{`"gentle":[84,`, `"gentle":[1,`, `chart row gentle, gear 1: '\x01' is not one of T, P, H, X`},
		{`"weight":2`, `"weight":0`, "the weight class 0"},
		{`"max_gear":4,"gear":4`, `"max_gear":4,"gear":5`, "Kart0 is in gear 5 of 4"},
		{`"hazards":1`, `"hazards":1000000000`, "1000000000 hazard tokens"},
		{`"Heading":-4.440892098500626e-16`, `"Heading":1e300`, "Kart0 stands at"},
		{`"Length":60`, `"Length":1e300`, "Kart0 stands at"},
		{`"gate":1`, `"gate":99`, "Kart0 is due at gate 99"},
		{`"item":"green-shell"`, `"item":"banana"`, `unknown item "banana"`},
		{`"collide":"evade"`, `"collide":"swerve"`, `would "swerve" in a collision`},
		{`"active":1`, `"active":3`, "the active kart is seat 3"},
		{`"phase":3`, `"phase":0`, "gear phase 0"},
		{`"gone":[4]`, `"gone":[4,4]`, "obstructions [4 4] gone"},
		{`"gone":[4]`, `"gone":[4],"bills":[{"owner":9,"pos":{"Centre":{"X":1,"Y":1},"Heading":0,"Length":50,"Width":30},"moves":0}]`, "a Bullet Bill of seat 9"},
		{`"last":{"seat":0`, `"last":{"seat":-2`, "the last activation was seat -2"},
		{`"outline":[{"X":675.3929538544827`, `"outline":[{"X":1e100`, "far off the table"},
	})
}

// DecodeState on arbitrary changes to real states refuses them or gives a
// state that prompts, stands and plays a turn; it never panics.
func TestDecodeStateMutations(t *testing.T) {
	for i, b := range storedStates(t) {
		racetest.DecodeSurvives(t, Ruleset{}, b, 300, rand.New(rand.NewPCG(uint64(i), 11)))
	}
}

func FuzzDecodeState(f *testing.F) { racetest.FuzzDecode(f, Ruleset{}, storedStates(f)) }
