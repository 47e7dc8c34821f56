package sim_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/sim"
)

// small is a simulation quick enough for a test on every game: one lap,
// in a game of laps.
func small(id string, races int) sim.Spec {
	spec := sim.Spec{Ruleset: id, Races: races, Seed: 7}
	if rs, err := race.Lookup(id); err == nil && rs.Game().Tracks[0].Laps > 0 {
		spec.Laps = 1
	}
	return spec
}

// The results are the same for 1, 2 and 8 workers, for every game: each
// race is drawn from the seed and its index alone.
func TestSameResultsForAnyWorkers(t *testing.T) {
	for _, id := range race.IDs() {
		t.Run(id, func(t *testing.T) {
			races := 10
			if testing.Short() {
				races = 5
			}
			var first sim.Result
			for _, w := range []int{1, 2, 8} {
				spec := small(id, races)
				spec.Workers = w
				if id == "ludi" || id == "rtd" {
					spec.Versus = "cruise" // the versus path too, where it is quick
				}
				if id == "ludi" {
					spec.Options = map[string]string{"wreck-finish": "place"} // and race options
				}
				r, err := sim.Run(context.Background(), spec, nil)
				if err != nil {
					t.Fatal(err)
				}
				if r.Workers != min(w, races) || r.Races != races || r.Ruleset != id || r.DiceRolled == 0 {
					t.Fatalf("%d workers: %+v", w, r)
				}
				r.Workers, r.Seconds, r.RacesPerSecond = 0, 0, 0
				if w == 1 {
					first = r
					continue
				}
				if !reflect.DeepEqual(first, r) {
					a, _ := json.Marshal(first)
					b, _ := json.Marshal(r)
					t.Errorf("1 worker:\n%s\n%d workers:\n%s", a, w, b)
				}
			}
			// Another seed draws other races.
			spec := small(id, races)
			spec.Seed = 8
			r, err := sim.Run(context.Background(), spec, nil)
			if err != nil {
				t.Fatal(err)
			}
			if r.DiceRolled == first.DiceRolled && reflect.DeepEqual(r.Results.Turns, first.Results.Turns) {
				t.Errorf("seeds 7 and 8 gave the same races")
			}
		})
	}
}

// The counts add up: every racer of a race that ended is counted once by
// each entrant field it chose and once by its place on the grid; it
// finished or has a cause; a race has a winner.
func TestStatsAddUp(t *testing.T) {
	for _, id := range race.IDs() {
		t.Run(id, func(t *testing.T) {
			spec := small(id, 12)
			spec.Versus = "cruise"
			var seen []int
			r, err := sim.Run(context.Background(), spec, func(done int) { seen = append(seen, done) })
			if err != nil {
				t.Fatal(err)
			}
			if want := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}; !slices.Equal(seen, want) {
				t.Errorf("progress said %v", seen)
			}
			st := r.Results
			g := mustGame(t, id)
			seats := 0
			for _, e := range g.Demo.Entrants {
				seats += len(e.Racers)
			}
			if st.Setup.Seats != seats || st.EvenShare != 1/float64(seats) {
				t.Errorf("seats %d, even share %v; the demo has %d", st.Setup.Seats, st.EvenShare, seats)
			}
			if st.RacesOver+st.RacesNotOver != 12 {
				t.Errorf("%d over and %d not of 12", st.RacesOver, st.RacesNotOver)
			}
			racers := seats * st.RacesOver
			for _, name := range st.Groups {
				sum, wins := 0, 0
				for _, x := range st.By[name] {
					sum += x.Racers
					wins += x.Wins
					if x.WinCI[0] > x.WinRate || x.WinRate > x.WinCI[1] || x.FinishCI[0] > x.FinishRate || x.FinishRate > x.FinishCI[1] {
						t.Errorf("%s %s: a rate outside its interval: %+v", name, x.Value, x)
					}
				}
				f, _ := race.FieldNamed(g.Entrant, name)
				perRacer := max(f.Count, 1)
				if sum != racers*perRacer {
					t.Errorf("%s counts %d racers; the races that ended had %d", name, sum, racers)
				}
				if f.Type != race.Choices && wins < st.RacesOver {
					t.Errorf("%s counts %d wins in %d races", name, wins, st.RacesOver)
				}
			}
			if !slices.Contains(st.Groups, "start") || !slices.Contains(st.Groups, "bot") {
				t.Errorf("groups %v lack start or bot", st.Groups)
			}
			// Every place on the grid holds one racer of each race, even
			// where the game starts everyone level (party).
			finishes := 0
			for _, x := range st.By["start"] {
				finishes += x.Finishes
				if x.Racers != st.RacesOver {
					t.Errorf("place %s on the grid counts %d racers of %d races", x.Value, x.Racers, st.RacesOver)
				}
			}
			if len(st.By["start"]) != seats && st.RacesOver > 0 {
				t.Errorf("%d places on the grid; want one a seat, %d", len(st.By["start"]), seats)
			}
			for _, c := range st.DNF {
				finishes += c.Racers
			}
			if finishes != racers {
				t.Errorf("%d finished or did not, of %d racers", finishes, racers)
			}
			turns := 0
			for _, h := range st.Turns.Histogram {
				turns += h.Races
			}
			if turns != st.RacesOver || st.RacesOver > 0 && (st.Turns.Min > st.Turns.P50 || st.Turns.P50 > st.Turns.Max || st.Turns.Mean < float64(st.Turns.Min)) {
				t.Errorf("turns %+v of %d races", st.Turns, st.RacesOver)
			}
		})
	}
}

func mustGame(t *testing.T, id string) *race.Game {
	t.Helper()
	rs, err := race.Lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	return rs.Game()
}

// Every entrant drawn is one the game accepts, and every value of every
// choice is drawn.
func TestDrawEntrant(t *testing.T) {
	for _, id := range race.IDs() {
		rs, _ := race.Lookup(id)
		g := rs.Game()
		rng := rand.New(rand.NewPCG(1, 2))
		seen := map[string]map[string]bool{}
		var es []race.Entrant
		for k := range 300 {
			e, err := sim.DrawEntrant(g, k, g.Racers.Min, rng)
			if err != nil {
				t.Fatalf("%s: %v", id, err)
			}
			if err := g.CheckEntrant(e); err != nil {
				t.Errorf("%s: %+v: %v", id, e, err)
			}
			for k, v := range e.Options {
				if seen[k] == nil {
					seen[k] = map[string]bool{}
				}
				for _, one := range strings.Split(v, ",") {
					seen[k][one] = true
				}
			}
			es = append(es, e)
		}
		for _, f := range g.Entrant {
			if f.Type != race.Choice && f.Type != race.Choices {
				continue
			}
			for _, v := range f.Values {
				if !seen[f.Name][v] {
					t.Errorf("%s: %s %s never drawn in 300 entrants", id, f.Name, v)
				}
			}
		}
		// And the ruleset sets a race up with them.
		n := 0
		for _, e := range g.Demo.Entrants {
			n += len(e.Racers)
		}
		if _, err := rs.Setup(race.Config{Track: g.Tracks[0].ID}, es[:n/g.Racers.Min], dice.New(dice.SeedFromInt(1))); err != nil {
			t.Errorf("%s: %v", id, err)
		}
	}
}

func TestBadSpecs(t *testing.T) {
	for _, c := range []struct {
		spec sim.Spec
		want string
	}{
		{sim.Spec{Ruleset: "chess", Races: 1}, "chess"},
		{sim.Spec{Ruleset: "ludi", Races: 0}, "--races"},
		{sim.Spec{Ruleset: "ludi", Races: 1, Bot: "oracle"}, `no bot "oracle"`},
		{sim.Spec{Ruleset: "ludi", Races: 1, Versus: "oracle"}, `no bot "oracle"`},
		{sim.Spec{Ruleset: "ludi", Races: 1, Workers: -1}, "--workers"},
		{sim.Spec{Ruleset: "ludi", Races: 1, Workers: 1_000_000_000}, "--workers is at most"},
		{sim.Spec{Ruleset: "ludi", Races: 1, Seats: 40}, "--seats 40"},
		{sim.Spec{Ruleset: "ludi", Races: 1, Track: "monza"}, `no track "monza"`},
		{sim.Spec{Ruleset: "ludi", Races: 1, Laps: 99}, "--laps"},
		{sim.Spec{Ruleset: "ludi", Races: 1, Options: map[string]string{"weather": "rain"}}, `no race option "weather"`},
		{sim.Spec{Ruleset: "ludi", Races: 1, Options: map[string]string{"wreck-finish": "maybe"}}, "wreck-finish"},
		{sim.Spec{Ruleset: "party", Races: 1, Seats: 1, Versus: "cruise"}, "--versus"},
		{sim.Spec{Ruleset: "ludi", Races: 1, Racers: 3}, "--racers is how many racers an entrant of ludi enters, 1 to 2; got 3"},
		{sim.Spec{Ruleset: "ludi", Races: 1, Racers: -1}, "--racers"},
		{sim.Spec{Ruleset: "rtd", Races: 1, Racers: 2}, "1 to 1; got 2"},
		{sim.Spec{Ruleset: "ludi", Races: 1, Racers: 2, Seats: 5}, "a multiple of 2; got 5"},
	} {
		_, err := sim.Run(context.Background(), c.spec, nil)
		var bs *sim.BadSpec
		if !errors.As(err, &bs) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v; want a BadSpec saying %q", c.spec, err, c.want)
		}
	}
}

// A race stopped at the cap is not over, and counted in no rate.
func TestMaxTurns(t *testing.T) {
	spec := small("ludi", 3)
	spec.MaxTurns, spec.Bot = 2, "cruise"
	r, err := sim.Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st := r.Results; st.RacesNotOver != 3 || st.RacesOver != 0 || len(st.By["package"]) != 0 || len(st.Turns.Histogram) != 0 {
		t.Errorf("3 races capped at 2 turns: %+v", st)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := sim.Run(ctx, small("ludi", 50), nil); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled run: %v", err)
	}
}

// Wilson intervals against values worked out by hand from the formula
// and found in tables.
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{0, 10, 0, 0.2775},
		{1, 10, 0.0179, 0.4042},
		{5, 10, 0.2366, 0.7634},
		{10, 10, 0.7225, 1},
		{50, 100, 0.4038, 0.5962},
		{0, 0, 0, 1},
	} {
		lo, hi := sim.Wilson(c.k, c.n, sim.Z95)
		if math.Abs(lo-c.lo) > 5e-5 || math.Abs(hi-c.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = %.4f, %.4f; want %.4f, %.4f", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

// A race option that adds a value to an open entrant field (ludi's
// package.NAME) is drawn like the game's own values, and counted; the
// game's descriptor is left as it was.
func TestHostsOwnPackageIsDrawn(t *testing.T) {
	rs, _ := race.Lookup("ludi")
	before := slices.Clone(rs.Game().Entrant[0].Values)
	spec := small("ludi", 20)
	spec.Options = map[string]string{"package.gladiator": "size,speed,endurance", "package.noble": "skill,quality,speed"}
	r, err := sim.Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	racers := map[string]int{}
	for _, rate := range r.Results.By["package"] {
		racers[rate.Value] = rate.Racers
	}
	if racers["gladiator"] == 0 || racers["noble"] == 0 {
		t.Errorf("racers by package: %v; want the host's gladiator drawn beside the game's packages", racers)
	}
	if len(racers) != len(before)+1 {
		t.Errorf("%d packages counted (%v); want the game's %d and gladiator", len(racers), racers, len(before))
	}
	if after := rs.Game().Entrant[0].Values; !slices.Equal(before, after) {
		t.Errorf("the game's packages are now %v; were %v", after, before)
	}
}

// --racers 2 draws ludi's entrants of two aurigae each: every choice is an
// entrant's, so each package is counted for racers two at a time.
func TestTwoRacersAnEntrant(t *testing.T) {
	spec := small("ludi", 6)
	spec.Racers = 2
	r, err := sim.Run(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Results.Setup.Racers != 2 {
		t.Errorf("setup says %d racers an entrant; want 2", r.Results.Setup.Racers)
	}
	total := 0
	for _, rate := range r.Results.By["package"] {
		total += rate.Racers
		if rate.Racers%2 != 0 {
			t.Errorf("package %s counted for %d racers; entrants of two give an even count", rate.Value, rate.Racers)
		}
	}
	if total != 6*12 {
		t.Errorf("%d racers counted by package; want 72", total)
	}
	one, err := sim.Run(context.Background(), small("ludi", 6), nil)
	if err != nil || one.Results.Setup.Racers != 1 {
		t.Errorf("by default: %d racers an entrant, %v; want 1", one.Results.Setup.Racers, err)
	}
}
