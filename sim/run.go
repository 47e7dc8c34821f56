package sim

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"maps"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"pitwall/bot"
	"pitwall/dice"
	"pitwall/race"
)

// Spec is a simulation: which races to play, with which bots.
type Spec struct {
	Ruleset string
	Races   int
	Seed    uint64
	// Bot plays every seat ("": the game's best bot after search, as
	// bot.New chooses); Versus, when given, plays half the seats instead,
	// the two bots changing seats from race to race.
	Bot, Versus string
	Workers     int // 0: every core
	// Seats is how many racers a race has (0: as many as the game's demo).
	Seats int
	// Racers is how many racers each entrant enters (0: the fewest the
	// game allows): ludi's entrants may enter two aurigae.
	Racers int
	// Track is the track of every race ("": each race draws one of the
	// game's tracks that seats them all).
	Track   string
	Laps    int               // 0: the track's own
	Options map[string]string // the race's options, for every race
	// MaxTurns stops a race that has not ended (0: DefaultMaxTurns); such a
	// race is counted as not over and left out of the rates.
	MaxTurns int
}

// maxWorkers bounds --workers: races played at once, each its own
// goroutine and state; far past any machine's cores.
const maxWorkers = 1024

// DefaultMaxTurns is the cap on a race's turns when Spec names none: far
// past the longest race any game's heuristic bots play.
const DefaultMaxTurns = 500

// Result is a simulation's answer, in the shape the contract gives
// 'pitwall sim --json'.
type Result struct {
	Ruleset        string  `json:"ruleset"`
	Races          int     `json:"races"`
	Workers        int     `json:"workers"`
	Seconds        float64 `json:"seconds"`
	RacesPerSecond float64 `json:"races_per_second"`
	DiceRolled     int64   `json:"dice_rolled"`
	Results        Stats   `json:"results"`
}

// plan is a Spec checked and completed: what every race is drawn from.
type plan struct {
	rs       race.Ruleset
	g        *race.Game
	spec     Spec
	tracks   []string // the tracks a race may draw (one when Spec names it)
	perEntry int      // racers an entrant fields
	// The two sides' bots, --bot's and --versus' (the same without), and
	// their names in the results. Race i plays side (seat+i)%2 in a seat,
	// so each side sits in every seat equally: a game whose seats differ
	// (gaslands' even seats win 71% of two-kart races) favours neither.
	bots, labels [2]string
}

// BadSpec is a Spec that cannot be simulated, with what would be right.
type BadSpec struct{ msg string }

func (e *BadSpec) Error() string { return e.msg }

func bad(format string, a ...any) error { return &BadSpec{fmt.Sprintf(format, a...)} }

func newPlan(spec Spec) (*plan, error) {
	rs, err := race.Lookup(spec.Ruleset)
	if err != nil {
		return nil, bad("%v", err)
	}
	p := &plan{rs: rs, g: rs.Game(), spec: spec}
	if spec.Races < 1 {
		return nil, bad("--races is how many races to play, 1 or more; got %d", spec.Races)
	}
	if spec.Workers < 0 {
		return nil, bad("--workers is 1 or more (0: every core); got %d", spec.Workers)
	}
	if spec.Workers > maxWorkers {
		return nil, bad("--workers is at most %d (races at once; this machine has %d cores); got %d", maxWorkers, runtime.NumCPU(), spec.Workers)
	}
	if p.spec.Workers == 0 {
		p.spec.Workers = runtime.NumCPU()
	}
	p.spec.Workers = min(p.spec.Workers, p.spec.Races) // a worker with no race to play is none
	if spec.MaxTurns < 0 {
		return nil, bad("--max-turns is 1 or more (0: %d); got %d", DefaultMaxTurns, spec.MaxTurns)
	}
	if p.spec.MaxTurns == 0 {
		p.spec.MaxTurns = DefaultMaxTurns
	}
	if spec.Laps < 0 || spec.Laps > race.MaxLaps {
		return nil, bad("--laps is 1 to %d (0: the track's own); got %d", race.MaxLaps, spec.Laps)
	}
	for _, name := range []string{spec.Bot, spec.Versus} {
		if _, err := bot.New(rs, name, bot.Options{}); err != nil {
			return nil, bad("%v", err)
		}
	}
	p.spec.Bot = cmp.Or(spec.Bot, bot.Default(rs))
	p.bots = [2]string{p.spec.Bot, p.spec.Bot}
	p.labels = p.bots
	if spec.Versus != "" {
		p.bots[1] = spec.Versus
		p.labels = p.bots
		if p.bots[0] == p.bots[1] { // a control run: the sides by their flags
			p.labels = [2]string{p.bots[0] + " (--bot)", p.bots[1] + " (--versus)"}
		}
	}
	p.perEntry = max(p.g.Racers.Min, 1)
	if spec.Racers != 0 {
		if spec.Racers < p.perEntry || spec.Racers > max(p.g.Racers.Max, p.perEntry) {
			return nil, bad("--racers is how many racers an entrant of %s enters, %d to %d; got %d", p.g.ID, p.perEntry, max(p.g.Racers.Max, p.perEntry), spec.Racers)
		}
		p.perEntry = spec.Racers
	}
	p.spec.Racers = p.perEntry
	if p.spec.Seats == 0 {
		for _, e := range p.g.Demo.Entrants {
			p.spec.Seats += len(e.Racers)
		}
	}
	if p.spec.Seats < 1 || p.spec.Seats%p.perEntry != 0 {
		return nil, bad("--seats is how many racers a race has, 1 or more and a multiple of %d; got %d", p.perEntry, p.spec.Seats)
	}
	if spec.Versus != "" && p.spec.Seats < 2 {
		return nil, bad("--versus plays half the seats, so a race needs 2 seats or more; got %d", p.spec.Seats)
	}
	most := 0
	for _, t := range p.g.Tracks {
		if spec.Track != "" && t.ID != spec.Track {
			continue
		}
		most = max(most, t.Seats)
		if t.Seats == 0 || t.Seats >= p.spec.Seats {
			p.tracks = append(p.tracks, t.ID)
		}
	}
	switch {
	case spec.Track != "" && most == 0 && len(p.tracks) == 0:
		var ids []string
		for _, t := range p.g.Tracks {
			ids = append(ids, t.ID)
		}
		return nil, bad("%s has no track %q; its tracks: %s", p.g.ID, spec.Track, strings.Join(ids, ", "))
	case len(p.tracks) == 0:
		return nil, bad("--seats %d: no track of %s seats that many (the most is %d)", p.spec.Seats, p.g.ID, most)
	}
	for _, k := range slices.Sorted(maps.Keys(spec.Options)) {
		f, ok := race.FieldNamed(p.g.Options, k)
		if !ok {
			return nil, bad("%s has no race option %q; see 'pitwall rules %s'", p.g.ID, k, p.g.ID)
		}
		if f.Type == race.File {
			return nil, bad("--option %s names a file, which the simulator does not read; give the options it stands for", k)
		}
		if err := f.Check(spec.Options[k]); err != nil && !f.Open {
			return nil, bad("--option %v", err)
		}
	}
	var added [][2]string
	p.g, added = withOptionValues(p.g, spec.Options)
	// One race set up and checked before any worker starts, so that a
	// race option the ruleset refuses is one clear error, not N.
	su, _, err := p.setup(0)
	if err == nil {
		_, err = rs.Setup(su.Config, su.Entrants, dice.New(su.Seed))
	}
	if err != nil {
		return nil, bad("%v", err)
	}
	// And each value an option adds, taken by the first entrant: one the
	// game cannot read (package.Gladiator, where ludi reads lower case)
	// would otherwise fail the first race that draws it, partway through.
	for _, fv := range added {
		es := slices.Clone(su.Entrants)
		es[0].Options = maps.Clone(es[0].Options)
		es[0].Options[fv[0]] = fv[1]
		if _, err := rs.Setup(su.Config, es, dice.New(su.Seed)); err != nil {
			return nil, bad("--option %s.%s: an entrant choosing %s %s is refused: %v", fv[0], fv[1], fv[0], fv[1], err)
		}
	}
	return p, nil
}

// Check says whether spec can be simulated: nil, or the *BadSpec Run
// would give, without playing a race. A caller with work to do before the
// races (a folder to make for the charts) asks first.
func Check(spec Spec) error {
	_, err := newPlan(spec)
	return err
}

// withOptionValues is g with the values the race's options add to its open
// entrant fields (ludi's package.NAME adds a package NAME), so that the
// simulator draws a host's own package as it draws the game's: "is my new
// package fair?" is a balance question too; added are the {field, value}
// pairs. g itself is not changed.
func withOptionValues(g *race.Game, options map[string]string) (_ *race.Game, added [][2]string) {
	entrant := slices.Clone(g.Entrant)
	for i, f := range entrant {
		if !f.Open {
			continue
		}
		for _, k := range slices.Sorted(maps.Keys(options)) {
			if v, ok := strings.CutPrefix(k, f.Name+"."); ok && v != "" && !slices.Contains(f.Values, v) {
				f.Values = append(slices.Clip(f.Values), v)
				added = append(added, [2]string{f.Name, v})
			}
		}
		entrant[i] = f
	}
	if len(added) == 0 {
		return g, nil
	}
	c := *g
	c.Entrant = entrant
	return &c, added
}

// streams are race i's seeds: its dice, and the stream its setup and its
// bots draw from, each from the simulation's seed and i alone, so that a
// race is the same whichever worker plays it and whatever it played before.
func (p *plan) streams(i int) (dice.Seed, *rand.Rand) {
	var b [16]byte
	binary.BigEndian.PutUint64(b[:8], p.spec.Seed)
	binary.BigEndian.PutUint64(b[8:], uint64(i))
	h := sha256.Sum256(append([]byte("pitwall sim race "), b[:]...))
	d := sha256.Sum256(append([]byte("dice "), h[:]...))
	r := sha256.Sum256(append([]byte("draws "), h[:]...))
	return dice.Seed(d), rand.New(rand.NewChaCha8(r))
}

// setup draws race i: its track and its entrants.
func (p *plan) setup(i int) (Setup, *rand.Rand, error) {
	seed, rng := p.streams(i)
	// Each race its own copy of the options: the workers share nothing a
	// ruleset could write to.
	su := Setup{Seed: seed, Config: race.Config{Track: p.tracks[rng.IntN(len(p.tracks))], Laps: p.spec.Laps, Options: maps.Clone(p.spec.Options)}}
	for k := range p.spec.Seats / p.perEntry {
		e, err := DrawEntrant(p.g, k, p.perEntry, rng)
		if err != nil {
			return su, nil, err
		}
		su.Entrants = append(su.Entrants, e)
	}
	return su, rng, nil
}

// DrawEntrant draws entrant k (from 0) of a race of g: its name, racers
// of their own names (Player1 fields Racer1...), and every choice of g's Entrant fields drawn
// uniformly from the values the field allows (a choices field: Count
// distinct values, each set equally likely; an int field: Min to Max). Free
// text and files are left to their defaults. The entrant is one g's
// CheckEntrant accepts, or the error says why not.
func DrawEntrant(g *race.Game, k, racers int, rng *rand.Rand) (race.Entrant, error) {
	// One word each: some games' orders name their targets by a word.
	e := race.Entrant{Player: fmt.Sprintf("Player%d", k+1), Options: map[string]string{}}
	for r := range racers {
		e.Racers = append(e.Racers, fmt.Sprintf("Racer%d", k*racers+r+1))
	}
	for _, f := range g.Entrant {
		if strings.HasSuffix(f.Name, ".NAME") || len(f.Values) == 0 && f.Type != race.Int {
			continue
		}
		switch f.Type {
		case race.Choice:
			e.Options[f.Name] = f.Values[rng.IntN(len(f.Values))]
		case race.Choices:
			n := min(max(f.Count, 1), len(f.Values))
			picked := rng.Perm(len(f.Values))[:n]
			slices.Sort(picked) // in the field's order, as a person writes them
			var vs []string
			for _, j := range picked {
				vs = append(vs, f.Values[j])
			}
			e.Options[f.Name] = strings.Join(vs, ",")
		case race.Int:
			e.Options[f.Name] = fmt.Sprint(f.Min + rng.IntN(f.Max-f.Min+1))
		}
	}
	if err := g.CheckEntrant(e); err != nil {
		return e, fmt.Errorf("drawing an entrant of %s: %w", g.ID, err)
	}
	return e, nil
}

// played is what one race leaves for the statistics.
type played struct {
	su   Setup
	out  Outcome
	bots []string // each seat's bot, by its side's label
}

// play plays race i.
func (p *plan) play(i int) (played, error) {
	su, rng, err := p.setup(i)
	if err != nil {
		return played{}, err
	}
	// Fresh bots for each race: a bot that kept anything from a race it
	// played before would make a race depend on its worker.
	var made [2]race.BotFunc
	for j, name := range p.bots {
		if made[j], err = bot.New(p.rs, name, bot.Options{}); err != nil {
			return played{}, err
		}
	}
	bots := make([]race.BotFunc, p.spec.Seats)
	names := make([]string, p.spec.Seats)
	for s := range bots {
		side := (s + i) % 2
		bots[s], names[s] = made[side], p.labels[side]
	}
	out, err := Play(p.rs, su, bots, rng, p.spec.MaxTurns)
	if err != nil {
		return played{}, fmt.Errorf("race %d on %s: %w", i, su.Config.Track, err)
	}
	return played{su: su, out: out, bots: names}, nil
}

// playSafely is play, with a panic in the game's code (its setup, bot or
// resolve) told as race i's error: it runs on a worker's goroutine, where
// no one else would catch it.
func (p *plan) playSafely(i int) (r played, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("race %d failed inside the game (a bug to report, with this command): %v", i, v)
		}
	}()
	return p.play(i)
}

// Run plays spec's races on spec.Workers workers and gathers their
// statistics. Race i is drawn and played from (spec.Seed, i) alone, and the
// races are gathered in the order of i, so the results are the same for
// any number of workers. progress, if not nil, is told how many races are
// done, from one goroutine, in order. A BadSpec error is bad input.
func Run(ctx context.Context, spec Spec, progress func(done int)) (Result, error) {
	p, err := newPlan(spec)
	if err != nil {
		return Result{}, err
	}
	start := time.Now()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	type done struct {
		i   int
		r   played
		err error
	}
	var next atomic.Int64
	results := make(chan done, 4*p.spec.Workers)
	var wg sync.WaitGroup
	for range p.spec.Workers {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= p.spec.Races {
					return
				}
				r, err := p.playSafely(i)
				select {
				case results <- done{i, r, err}:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	go func() { wg.Wait(); close(results) }()

	agg := newAggregate(p)
	pending := map[int]played{}
	var firstErr error
	for d := range results {
		if d.err != nil {
			if firstErr == nil {
				firstErr = d.err
				cancel()
			}
			continue
		}
		if firstErr != nil {
			continue
		}
		// The workers take races in order, so few wait here.
		pending[d.i] = d.r
		for {
			r, ok := pending[agg.races]
			if !ok {
				break
			}
			delete(pending, agg.races)
			agg.add(r)
			if progress != nil {
				progress(agg.races)
			}
		}
	}
	if firstErr != nil {
		return Result{}, firstErr
	}
	if agg.races < p.spec.Races {
		return Result{}, fmt.Errorf("stopped after %d of %d races: %w", agg.races, p.spec.Races, ctx.Err())
	}
	secs := time.Since(start).Seconds()
	return Result{Ruleset: p.g.ID, Races: p.spec.Races, Workers: p.spec.Workers, Seconds: secs,
		RacesPerSecond: float64(p.spec.Races) / secs, DiceRolled: agg.dice, Results: agg.stats()}, nil
}
