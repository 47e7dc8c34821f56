package sim

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"pitwall/race"
)

// Stats are the statistics of a simulation: the "results" of
// 'pitwall sim --json'. Rates count the racers of the races that ended;
// a race stopped at the cap on turns is counted in RacesNotOver alone. A
// win is first place in the final standings: in a game that ties (party's
// stars and coins), every racer placed first.
type Stats struct {
	Setup        Settings `json:"setup"`
	RacesOver    int      `json:"races_over"`
	RacesNotOver int      `json:"races_not_over"`
	// EvenShare is the win rate of a racer if every racer were alike:
	// 1 / seats, what a rate is read against.
	EvenShare   float64 `json:"even_share"`
	DicePerRace float64 `json:"dice_per_race"`
	Turns       Turns   `json:"turns"`
	// Groups names the groups of By in the order a report lists them: each
	// entrant field of the game, then "start" (the place on the grid), then
	// "bot" when two bots play.
	Groups []string          `json:"groups"`
	By     map[string][]Rate `json:"by"`
	// DNF is why racers did not finish, most common first.
	DNF []Cause `json:"dnf"`
}

// Settings are what the races were drawn from, to say what the rates are of.
type Settings struct {
	Seed     uint64            `json:"seed"`
	Bot      string            `json:"bot"`
	Versus   string            `json:"versus,omitempty"`
	Seats    int               `json:"seats"`
	Racers   int               `json:"racers_per_entrant"`
	Tracks   []string          `json:"tracks"` // each race draws one
	Laps     int               `json:"laps"`   // 0: each track's own
	MaxTurns int               `json:"max_turns"`
	Options  map[string]string `json:"options,omitempty"`
}

// Rate is how often racers of one kind (a package's, the grid's second
// place's...) won and finished, each with its 95% Wilson interval.
type Rate struct {
	Value      string     `json:"value"`
	Racers     int        `json:"racers"`
	Wins       int        `json:"wins"`
	WinRate    float64    `json:"win_rate"`
	WinCI      [2]float64 `json:"win_ci"`
	Finishes   int        `json:"finishes"`
	FinishRate float64    `json:"finish_rate"`
	FinishCI   [2]float64 `json:"finish_ci"`
}

// Cause is one reason racers did not finish: the standings' word for it.
type Cause struct {
	Cause  string     `json:"cause"`
	Racers int        `json:"racers"`
	Rate   float64    `json:"rate"` // of every racer in the races that ended
	CI     [2]float64 `json:"ci"`
}

// Turns are the turns the races that ended took.
type Turns struct {
	Mean float64 `json:"mean"`
	Min  int     `json:"min"`
	Max  int     `json:"max"`
	P10  int     `json:"p10"`
	P25  int     `json:"p25"`
	P50  int     `json:"p50"`
	P75  int     `json:"p75"`
	P90  int     `json:"p90"`
	// Histogram is how many races took each number of turns, fewest first.
	Histogram []TurnCount `json:"histogram"`
}

// TurnCount is how many races took Turns turns.
type TurnCount struct {
	Turns int `json:"turns"`
	Races int `json:"races"`
}

// StillRacing is the cause of a racer still racing when its race ended
// (the others had all finished or were out).
const StillRacing = "still racing when the race ended"

// Z95 is the standard normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson is the Wilson score interval of k successes in n trials at normal
// quantile z: unlike p ± z·se it stays inside [0, 1] and is sound for
// rates near 0 or 1 and for small n. n = 0 says nothing: [0, 1].
func Wilson(k, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	p := float64(k) / nf
	z2 := z * z
	den := 1 + z2/nf
	mid := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = max(0, mid-half), min(1, mid+half)
	// Exactly 0 and 1 at the ends, not a rounding short of them.
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

type tally struct{ racers, wins, finishes int }

func (t *tally) add(won, finished bool) {
	t.racers++
	if won {
		t.wins++
	}
	if finished {
		t.finishes++
	}
}

// aggregate gathers races one by one, in the order of their index.
type aggregate struct {
	p               *plan
	races, over     int
	dice            int64
	racers          int                          // racers in the races that ended
	by              map[string]map[string]*tally // group, value
	order           map[string][]string          // group: its values in the order to list them
	dnf             map[string]int
	turns           map[int]int
	turnsSum        int
	entrantFields   []race.Field
	entrantOfPlayer map[string]race.Entrant
}

func newAggregate(p *plan) *aggregate {
	a := &aggregate{p: p, by: map[string]map[string]*tally{}, order: map[string][]string{},
		dnf: map[string]int{}, turns: map[int]int{}, entrantOfPlayer: map[string]race.Entrant{}}
	for _, f := range p.g.Entrant {
		switch f.Type {
		case race.Choice, race.Choices:
			a.entrantFields = append(a.entrantFields, f)
			a.order[f.Name] = f.Values
		case race.Int:
			a.entrantFields = append(a.entrantFields, f)
		}
	}
	if p.spec.Versus != "" { // the seats' bot first, then the one it plays against
		a.order["bot"] = p.labels[:]
	}
	return a
}

func (a *aggregate) count(group, value string, won, finished bool) {
	g := a.by[group]
	if g == nil {
		g = map[string]*tally{}
		a.by[group] = g
	}
	t := g[value]
	if t == nil {
		t = &tally{}
		g[value] = t
	}
	t.add(won, finished)
}

func (a *aggregate) add(r played) {
	a.races++
	a.dice += int64(r.out.Dice)
	if !r.out.Over {
		return
	}
	a.over++
	a.turns[r.out.Turns]++
	a.turnsSum += r.out.Turns
	clear(a.entrantOfPlayer)
	for _, e := range r.su.Entrants {
		a.entrantOfPlayer[e.Player] = e
	}
	// A racer's place on the grid is where the standings before turn 1
	// list it, not their Place: where every racer starts level (party's
	// board) they all share place 1, and the list keeps the game's order.
	grid := map[int]int{}
	for i, st := range r.out.Grid {
		grid[st.Seat] = i + 1
	}
	for _, st := range r.out.Final {
		a.racers++
		won, finished := st.Place == 1, st.Status == "finished"
		if !finished {
			cause := st.Detail
			switch {
			case st.Status == "racing":
				cause = StillRacing
			case cause == "":
				cause = st.Status
			}
			a.dnf[cause]++
		}
		e := a.entrantOfPlayer[st.Player]
		for _, f := range a.entrantFields {
			v, ok := e.Options[f.Name]
			if !ok {
				continue
			}
			if f.Type == race.Choices {
				for _, one := range strings.Split(v, ",") {
					a.count(f.Name, one, won, finished)
				}
				continue
			}
			a.count(f.Name, v, won, finished)
		}
		if p, ok := grid[st.Seat]; ok {
			a.count("start", strconv.Itoa(p), won, finished)
		}
		if a.p.spec.Versus != "" && st.Seat < len(r.bots) {
			a.count("bot", r.bots[st.Seat], won, finished)
		}
	}
}

func (a *aggregate) stats() Stats {
	sp := a.p.spec
	st := Stats{
		Setup: Settings{Seed: sp.Seed, Bot: sp.Bot, Versus: sp.Versus, Seats: sp.Seats, Racers: sp.Racers, Tracks: a.p.tracks,
			Laps: sp.Laps, MaxTurns: sp.MaxTurns, Options: sp.Options},
		RacesOver: a.over, RacesNotOver: a.races - a.over,
		EvenShare: 1 / float64(sp.Seats), By: map[string][]Rate{}, DNF: []Cause{},
	}
	if a.races > 0 {
		st.DicePerRace = float64(a.dice) / float64(a.races)
	}
	var groups []string
	for _, f := range a.entrantFields {
		groups = append(groups, f.Name)
	}
	groups = append(groups, "start")
	if sp.Versus != "" {
		groups = append(groups, "bot")
	}
	for _, g := range groups {
		values := slices.Clone(a.order[g])
		for v := range a.by[g] {
			if !slices.Contains(values, v) {
				values = append(values, v)
			}
		}
		if len(a.order[g]) == 0 { // numbers by value, words as written
			slices.SortFunc(values, func(x, y string) int {
				nx, ex := strconv.Atoi(x)
				ny, ey := strconv.Atoi(y)
				if ex == nil && ey == nil {
					return cmp.Compare(nx, ny)
				}
				return strings.Compare(x, y)
			})
		}
		rates := []Rate{}
		for _, v := range values {
			t := a.by[g][v]
			if t == nil {
				continue
			}
			r := Rate{Value: v, Racers: t.racers, Wins: t.wins, Finishes: t.finishes}
			r.WinRate, r.FinishRate = ratio(t.wins, t.racers), ratio(t.finishes, t.racers)
			r.WinCI[0], r.WinCI[1] = Wilson(t.wins, t.racers, Z95)
			r.FinishCI[0], r.FinishCI[1] = Wilson(t.finishes, t.racers, Z95)
			rates = append(rates, r)
		}
		st.Groups = append(st.Groups, g)
		st.By[g] = rates
	}
	for _, c := range slices.Sorted(maps.Keys(a.dnf)) {
		n := a.dnf[c]
		x := Cause{Cause: c, Racers: n, Rate: ratio(n, a.racers)}
		x.CI[0], x.CI[1] = Wilson(n, a.racers, Z95)
		st.DNF = append(st.DNF, x)
	}
	slices.SortStableFunc(st.DNF, func(x, y Cause) int { return cmp.Compare(y.Racers, x.Racers) })
	st.Turns = turnStats(a.turns, a.turnsSum, a.over)
	return st
}

func ratio(k, n int) float64 {
	if n == 0 {
		return 0
	}
	return float64(k) / float64(n)
}

// turnStats reads the turns of n races from their histogram; a quantile
// is the least number of turns that q of the races took at most.
func turnStats(hist map[int]int, sum, n int) Turns {
	t := Turns{Histogram: []TurnCount{}}
	if n == 0 {
		return t
	}
	keys := slices.Sorted(maps.Keys(hist))
	t.Mean, t.Min, t.Max = float64(sum)/float64(n), keys[0], keys[len(keys)-1]
	for _, k := range keys {
		t.Histogram = append(t.Histogram, TurnCount{k, hist[k]})
	}
	q := func(f float64) int {
		need := int(math.Ceil(f * float64(n)))
		seen := 0
		for _, k := range keys {
			seen += hist[k]
			if seen >= need {
				return k
			}
		}
		return t.Max
	}
	t.P10, t.P25, t.P50, t.P75, t.P90 = q(0.10), q(0.25), q(0.50), q(0.75), q(0.90)
	return t
}
