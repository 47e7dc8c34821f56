package nascar

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"pitwall/dice"
	"pitwall/race"
	"pitwall/race/racetest"
)

// botFigures is what a bot race shows of the bot's driving.
type botFigures struct {
	turns    int
	off      int // squares entered off the track, all cars
	cars     int
	atFloor  int // cars that end the race at the lowest max speed
	finished int
	crashes  int
	pits     int // repairs at the PP mark
	cutIn    int // pit lane entries not through its entry marker
	endMax   int // max speeds at the end, summed
}

// playFigures plays a bot race of cars cars on track, one prompt in miss
// missed (0: none), and counts what the bots did.
func playFigures(t testing.TB, seed uint64, cars int, track string, miss int) botFigures {
	t.Helper()
	ups := []string{"none", "turbo", "swaybars", "performance"}
	es := racetest.Entrants(cars, "Car ", func(i int) map[string]string { return map[string]string{"upgrade": ups[i%4]} })
	_, p := racetest.BotRace(t, Ruleset{}, seed, 3, race.Config{Track: track}, es, racetest.Options{Miss: miss, MaxTurns: 400, Bot: Bot})
	f := botFigures{turns: len(p.Turns), cars: cars}
	prev := p.Start.(*State)
	var d driveTable
	d.init(prev.track)
	for _, turn := range p.Turns {
		s := turn.After.(*State)
		for i := range s.Cars {
			if !prev.Cars[i].racing() {
				continue // a car that has finished keeps its last trail
			}
			if !s.track.At(prev.Cars[i].Pos).InPit() && !slices.Contains(turn.Defaulted, s.Cars[i].Seat) { // a missed turn drives straight on
				if j := slices.IndexFunc(s.Cars[i].Trail, func(q Point) bool { return s.track.At(q).InPit() }); j >= 0 && s.Cars[i].Trail[j] != d.entry {
					f.cutIn++
				}
			}
			for _, q := range s.Cars[i].Trail {
				if !s.track.At(q).OnTrack() {
					f.off++
				}
			}
		}
		for _, e := range turn.Events {
			switch {
			case e.Kind == "crash":
				f.crashes++
			case e.Kind == "pit" && strings.Contains(e.Text, "passes the PP mark"):
				f.pits++
			}
		}
		prev = s
	}
	for _, c := range prev.Cars {
		f.endMax += c.MaxSpeed
		if c.MaxSpeed <= MinMaxSpeed {
			f.atFloor++
		}
		if c.Out == Finished {
			f.finished++
		}
	}
	return f
}

// TestBotKeepsToTheTrack plays bot races of eight cars and holds the bot to
// driving them cleanly. With every turn ordered (the bot's own driving), on
// both tracks: fewer than botOffBound squares off the track a car a race
// (the bot of rules version 2 left the track for 18 a car on the oval and
// 29 on the road course), at most one car in 50 worn down to the lowest
// max speed by the end (it wore every car down), and three laps of the oval in fewer than
// botOvalTurns turns on average (it took 94). With one turn in twelve
// missed, as the demo plays (a missed turn drives straight on, into the
// outside of a bend), fewer than botMissOffBound squares off the oval a car
// a race (it left it for 23). And no car cuts into the pit lane except
// through its entry marker (one that cut in at the exit crawled the lane
// backwards for 30 turns of a demo). Measured (this test's log, 20 races
// each): 0.17 squares on the oval and 0.05 on the road course, 1 of 160
// cars at the lowest max speed on the oval and none on the road course,
// 54.2 turns; 2.92 squares with turns missed.
func TestBotKeepsToTheTrack(t *testing.T) {
	const (
		botOffBound     = 1.0
		botOvalTurns    = 70
		botMissOffBound = 5.0
	)
	n := 20
	if testing.Short() {
		n = 4
	}
	for _, c := range []struct {
		track string
		miss  int
	}{{"oval", 0}, {"road-course", 0}, {"oval", 12}} {
		var sum botFigures
		for seed := uint64(1); seed <= uint64(n); seed++ {
			f := playFigures(t, seed, 8, c.track, c.miss)
			sum.turns += f.turns
			sum.off += f.off
			sum.cars += f.cars
			sum.atFloor += f.atFloor
			sum.finished += f.finished
			sum.crashes += f.crashes
			sum.pits += f.pits
			sum.cutIn += f.cutIn
			sum.endMax += f.endMax
		}
		turns, off := float64(sum.turns)/float64(n), float64(sum.off)/float64(sum.cars)
		how := "every turn ordered"
		if c.miss > 0 {
			how = fmt.Sprintf("one turn in %d missed", c.miss)
		}
		t.Logf("%s, %s: %d races: %.1f turns a race, %.2f squares off the track a car a race, %d of %d cars at max speed %d at the end, %d finished, %.1f crashes and %.1f pit stops a race, mean max speed at the end %.1f",
			c.track, how, n, turns, off, sum.atFloor, sum.cars, MinMaxSpeed, sum.finished, float64(sum.crashes)/float64(n), float64(sum.pits)/float64(n), float64(sum.endMax)/float64(sum.cars))
		if sum.cutIn > 0 {
			t.Errorf("%s, %s: %d pit lane entries not through the entry marker; want none (a car cut in must turn round in the lane)", c.track, how, sum.cutIn)
		}
		if sum.finished != sum.cars {
			t.Errorf("%s: %d of %d cars finished", c.track, sum.finished, sum.cars)
		}
		if c.miss > 0 {
			if off >= botMissOffBound {
				t.Errorf("%s, one turn in %d missed: %.2f squares off the track a car a race; want fewer than %.1f", c.track, c.miss, off, botMissOffBound)
			}
			continue
		}
		if off >= botOffBound {
			t.Errorf("%s: %.2f squares off the track a car a race; want fewer than %.1f", c.track, off, botOffBound)
		}
		// Crashes still wear a car down, so one car in 50 may end at the
		// floor (the old bot left every car there).
		if sum.atFloor*50 > sum.cars {
			t.Errorf("%s: %d of %d cars end the race at the lowest max speed (%d); want at most one in 50", c.track, sum.atFloor, sum.cars, MinMaxSpeed)
		}
		if c.track == "oval" && turns >= botOvalTurns {
			t.Errorf("%s: %.1f turns a race; want fewer than %d", c.track, turns, botOvalTurns)
		}
	}
}

// The bot keeps what it works out about a track with the track, for every
// race there: an order must not depend on what it worked out before. Every
// seat's order at turns of a bot race is the same from the shipped track,
// warm from the races before, as from the same track freshly read, with
// nothing kept.
func TestBotKeepsNothingOfEarlierRaces(t *testing.T) {
	for _, track := range []string{"oval", "road-course"} {
		_, p := botRace(t, 5, 8, track)
		src, err := trackFiles.ReadFile("tracks/" + track + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{1, 10, 25} {
			warm := racetest.StateAt(t, p, n).(*State)
			fresh := warm.clone()
			if fresh.track, err = ParseTrack(track+".txt", src); err != nil {
				t.Fatal(err)
			}
			for _, c := range warm.Cars {
				if !c.racing() {
					continue
				}
				a := Bot(warm, c.Seat, rand.New(rand.NewPCG(uint64(n), 1)))
				b := Bot(fresh, c.Seat, rand.New(rand.NewPCG(uint64(n), 1)))
				if a != b {
					t.Errorf("%s turn %d, %s: %q from the shipped track, %q from a fresh one", track, n, c.Name, a, b)
				}
				if a == "" {
					t.Errorf("%s turn %d, %s: no order", track, n, c.Name)
				}
			}
		}
	}
}

// Bots deciding at once on one track (the simulator's workers, the
// service's races) each take a table of their own from the track's pool,
// and order as each would alone. Run with -race.
func TestBotsAtOnceOnOneTrack(t *testing.T) {
	_, p := botRace(t, 6, 8, "oval")
	s := racetest.StateAt(t, p, 12).(*State)
	alone := map[int]string{}
	for _, c := range s.Cars {
		alone[c.Seat] = Bot(s, c.Seat, rand.New(rand.NewPCG(7, uint64(c.Seat))))
	}
	var wg sync.WaitGroup
	got := make([]map[int]string, 4)
	for g := range got {
		got[g] = map[int]string{}
		wg.Go(func() {
			for _, c := range s.Cars {
				got[g][c.Seat] = Bot(s, c.Seat, rand.New(rand.NewPCG(7, uint64(c.Seat))))
			}
		})
	}
	wg.Wait()
	for g := range got {
		if !maps.Equal(got[g], alone) {
			t.Errorf("goroutine %d ordered %v; alone %v", g, got[g], alone)
		}
	}
	if n := len(s.track.drive.free); n > runtime.GOMAXPROCS(0) {
		t.Errorf("the pool keeps %d tables; at most %d", n, runtime.GOMAXPROCS(0))
	}
}

// A car faster than the planner works out for (a stored state; pit stops
// never raise one this far) brakes first instead of searching every way of
// that many squares, and the order passes Check.
func TestBotBrakesBeyondItsTable(t *testing.T) {
	_, p := botRace(t, 5, 8, "oval")
	s := racetest.StateAt(t, p, 10).(*State).clone()
	c := &s.Cars[0]
	c.MaxSpeed, c.Speed = maxMaxSpeed, maxMaxSpeed
	if err := s.check(); err != nil {
		t.Fatalf("the state to drive is refused: %v", err)
	}
	got := Bot(s, c.Seat, rand.New(rand.NewPCG(1, 1)))
	if want := brakeOrder(maxMaxSpeed); got != want {
		t.Fatalf("at speed %d the bot orders %q, want %q", maxMaxSpeed, got, want)
	}
	o, err := Parse(got)
	if err == nil {
		_, err = Check(o, s.carFor(c))
	}
	if err != nil {
		t.Errorf("%q is refused: %v", got, err)
	}
}

// oilCircle is testdata/oil-circle.json: a car alone behind a cluster of
// slicks on the oval, the others finished.
func oilCircle(t *testing.T) *State {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "oil-circle.json"))
	if err != nil {
		t.Fatal(err)
	}
	st, err := Ruleset{}.DecodeState(b)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// A car alone behind a cluster of slicks that leaves it no way round in
// the moves of this turn and the next (testdata/oil-circle.json: 'pitwall
// sim nascar --seed 1', race 257, on the oval at turn 307) drives on through
// them and finishes its lap. It used to turn away a little every turn, for
// each turn looked better than paying for a slick, and circle them until
// the race was called at turn 350.
func TestBotCrossesUnavoidableOil(t *testing.T) {
	s := oilCircle(t)
	if c := s.car(1); c.Crossings != 2 || !s.hasOil(Point{42, 11}) {
		t.Fatalf("the stored state is not the one described: %+v, oil %v", c, s.Oil)
	}
	p := &botPlanner{s: s, c: s.car(1), d: &driveTable{}}
	p.d.init(s.track)
	if !p.oilUnavoidable() {
		t.Error("oilUnavoidable: false at the slicks; want true")
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for turn := 0; turn < 40 && s.car(1).racing() && s.car(1).Crossings == 2; turn++ {
		text := Bot(s, 1, rng)
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: 1, Text: text})
		if err != nil {
			t.Fatalf("turn %d: the bot's %q: %v", s.T, text, err)
		}
		next, _, err := Ruleset{}.Resolve(s, map[int]race.Order{1: o}, dice.New(dice.SeedFromInt(uint64(turn))), race.BotTime(turn))
		if err != nil {
			t.Fatal(err)
		}
		s = next.(*State)
	}
	if c := s.car(1); c.Crossings == 2 && c.racing() {
		t.Errorf("after 40 turns the car is still on its lap 2, at %v heading %v: it did not get past the slicks", c.Pos, c.Heading)
	}
}

// With a slick in one lane of three ahead, the way round is there: the bot
// pays for the slick in full and drives round it.
func TestBotGoesRoundAvoidableOil(t *testing.T) {
	s := oilCircle(t)
	s.Oil = []Point{{42, 12}} // one slick, two squares ahead in the inside lane
	p := &botPlanner{s: s, c: s.car(1), d: &driveTable{}}
	p.d.init(s.track)
	if p.oilUnavoidable() {
		t.Error("oilUnavoidable: true with a lane free beside the slick; want false")
	}
	// A slick four squares on and the car standing: it cannot pass the
	// slick in the three moves it could make, but it can make headway.
	s.Oil, p.c.Speed = []Point{{42, 14}}, 0
	if p.oilUnavoidable() {
		t.Error("oilUnavoidable: true with headway to make before a slick four squares on; want false")
	}
	s.Oil = nil
	if p.oilUnavoidable() {
		t.Error("oilUnavoidable: true with no slick at all; want false")
	}
}

// A car that every way takes off the track (here heading into the wall by
// the pit lane's exit at speed 6, as a crash on the oval once left one)
// leaves the track rather than cut into the pit lane at its exit: in the
// lane it heads against the way round, at the pit speed limit, and once
// drove it backwards for 27 turns.
func TestBotLeavesTheTrackRatherThanCutIntoThePit(t *testing.T) {
	s := oilCircle(t)
	s.Oil = nil
	c := s.car(1)
	c.Pos, c.Heading, c.Speed, c.Trail = Point{37, 4}, N, 6, nil
	var d driveTable
	d.init(s.track)
	for seed := range uint64(8) {
		text := Bot(s, 1, rand.New(rand.NewPCG(seed, 2)))
		o, err := Ruleset{}.ParseOrder(s, race.Submission{Seat: 1, Text: text})
		if err != nil {
			t.Fatalf("the bot's %q: %v", text, err)
		}
		next, _, err := Ruleset{}.Resolve(s, map[int]race.Order{1: o}, dice.New(dice.SeedFromInt(seed)), race.BotTime(0))
		if err != nil {
			t.Fatal(err)
		}
		trail := next.(*State).car(1).Trail
		if i := slices.IndexFunc(trail, func(q Point) bool { return s.track.At(q).InPit() }); i >= 0 && trail[i] != d.entry {
			t.Errorf("the bot's %q enters the pit lane at %v, not its entry %v: %v", text, trail[i], d.entry, trail)
		}
	}
}
