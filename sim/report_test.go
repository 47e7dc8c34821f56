package sim_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"pitwall/sim"
)

func rate(v string, wins, finishes, n int) sim.Rate {
	r := sim.Rate{Value: v, Racers: n, Wins: wins, Finishes: finishes, WinRate: float64(wins) / float64(n), FinishRate: float64(finishes) / float64(n)}
	r.WinCI[0], r.WinCI[1] = sim.Wilson(wins, n, sim.Z95)
	r.FinishCI[0], r.FinishCI[1] = sim.Wilson(finishes, n, sim.Z95)
	return r
}

// The findings say what the numbers say: intervals apart or not, rates
// above or below the even share, the turns, the causes.
func TestFindings(t *testing.T) {
	st := sim.Stats{
		Setup:     sim.Settings{Seats: 4, MaxTurns: 100},
		RacesOver: 400, RacesNotOver: 5, EvenShare: 0.25,
		Turns:  sim.Turns{Mean: 20.5, Min: 12, P25: 18, P75: 23, Max: 40},
		Groups: []string{"kart", "start"},
		By: map[string][]sim.Rate{
			"kart":  {rate("heavy", 160, 400, 400), rate("light", 60, 300, 400)},
			"start": {rate("1", 110, 400, 400), rate("2", 95, 400, 400)},
		},
		DNF: []sim.Cause{{Cause: "wrecked", Racers: 100, Rate: 100.0 / 1600, CI: [2]float64{0.05, 0.07}}},
	}
	text := strings.Join(sim.Findings(st), "\n")
	for _, want := range []string{
		"By kart, heavy wins 40.0% (35.3–44.9%) vs light 15.0% (11.8–18.8%): the intervals do not overlap",
		"By kart, above the even share of 25.0%, interval and all: heavy 40.0%",
		"By kart, below the even share of 25.0%, interval and all: light 15.0%",
		"heavy finishes 100.0% (99.0–100.0%) of its races and light only 75.0%",
		"By place on the grid, no value's win rate stands apart: the best, place 1 at 27.5%",
		"20.5 turns on average; half took 18 to 23, and they ranged from 12 to 40",
		`6.2% of racers did not finish (100 of 1600); the commonest cause, "wrecked"`,
		"5 of 405 races (1.2%) had not ended after 100 turns",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the findings lack %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "By place on the grid, above") {
		t.Errorf("a grid place with an interval over the even share:\n%s", text)
	}
	st.RacesOver = 0
	if f := sim.Findings(st); len(f) != 1 || !strings.Contains(f[0], "No race ended within 100 turns") {
		t.Errorf("no race over: %v", f)
	}
}

// Charts draws PNG and SVG of every group and of the turns; the report
// links them, and without charts links none.
func TestChartsAndReport(t *testing.T) {
	spec := small("ludi", 6)
	spec.Versus = "heuristic"
	r, err := sim.Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	charts, err := sim.Charts(r)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, c := range charts {
		names[c.Name] = true
		if !bytes.HasPrefix(c.PNG, []byte("\x89PNG")) || !bytes.Contains(c.SVG, []byte("<svg")) || !strings.Contains(c.Title, "ludi") {
			t.Errorf("%s: %d PNG bytes, %d SVG bytes, title %q", c.Name, len(c.PNG), len(c.SVG), c.Title)
		}
	}
	for _, n := range []string{"win-package", "win-extras", "win-start", "win-bot", "turns"} {
		if !names[n] {
			t.Errorf("no chart %s in %v", n, names)
		}
	}
	var b strings.Builder
	if err := sim.Report(&b, r, "pitwall sim ludi", "out/charts", charts); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{"Made by `pitwall sim ludi`", "![ludi: win rate by package", "(out/charts/win-package.png)", "(out/charts/turns.svg)", "## By bot", "heuristic (--versus)", "## Turns per race"} {
		if !strings.Contains(md, want) {
			t.Errorf("the report lacks %q:\n%s", want, md)
		}
	}
	b.Reset()
	if err := sim.Report(&b, r, "pitwall sim ludi", "", nil); err != nil || strings.Contains(b.String(), "![") {
		t.Errorf("a report without charts: %v\n%s", err, b.String())
	}
}
