package nascar

import (
	"math/rand/v2"
	"sort"

	"pitwall/race"
)

// searchCandidates is how many of the planner's best orders the search bot
// tries: the planner weighs hundreds, most of them plainly worse.
const searchCandidates = 8

// Candidates implements race.Searcher: the heuristic bot's order and the
// next best the planner weighed on the way to it (each a speed, a way of
// steering and a speed change it checked with the rules' Check), by the
// planner's own score.
func (Ruleset) Candidates(st race.State, seat int, _ bool, rng *rand.Rand) []string {
	var all []botChoice
	heur := botWith(st, seat, rng, func(c botChoice) { all = append(all, c) })
	sort.SliceStable(all, func(i, j int) bool { return all[i].score > all[j].score })
	texts := []string{heur}
	for _, c := range all {
		texts = append(texts, c.text)
	}
	out := race.Distinct(texts)
	return out[:min(len(out), searchCandidates)]
}

// The weights of Score, in tenths of a square of ground (lap.go).
const (
	scoreSpeed     = 10 // each point of speed: ground the next turn gains
	scoreMaxSpeed  = 20 // each point of max speed a crash has not taken
	scoreWildcard  = 15 // each wildcard left
	scoreFinished  = 1e6
	scoreOffTrack  = 50 // a car off the track, beside what its place loses
	scoreFinishGap = 1e3
)

// Score implements race.Searcher: how far round the race the car is, and
// its speed, max speed and wildcards; a finished car above all racing, the
// earlier higher.
func (Ruleset) Score(st race.State, seat int) float64 {
	s := st.(*State)
	c := s.car(seat)
	if c == nil {
		return 0
	}
	for i, f := range s.Finish {
		if f == seat {
			return scoreFinished - scoreFinishGap*float64(i)
		}
	}
	v := float64(s.distance(c) + scoreSpeed*c.Speed + scoreMaxSpeed*c.MaxSpeed + scoreWildcard*c.Wildcards)
	if s.track.Progress(c.Pos) < 0 {
		v -= scoreOffTrack
	}
	return v
}

// SearchBudget is the search bot's budget (race.Budgeter): the heuristic
// bot weighs hundreds of ways each turn, so fewer, shorter playouts.
func (Ruleset) SearchBudget() (playouts, depth int) { return 24, 2 }

var _ race.Budgeter = Ruleset{}

var _ race.Searcher = Ruleset{}
