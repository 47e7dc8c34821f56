package party

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"pitwall/race"
)

// Bot orders as a fair player would: 'try roll' (so that a bot never sends
// a roll the calendar refuses), often with a route for the next fork; at a
// fork it heads for a star when it can pay for one, else goes either way.
// Its randomness is its own.
func Bot(st race.State, seat int, rng *rand.Rand) string {
	s := st.(*State)
	p := s.player(seat)
	if p == nil || s.Over() {
		return ""
	}
	b := s.board
	if p.Pause != nil {
		return Order{Kind: Choose, Route: []string{botChoice(b, p, p.Pause.Fork, rng)}}.String()
	}
	if rng.IntN(2) == 0 {
		return "try roll" // forks wait for a choice
	}
	// The first fork ahead, along line spaces.
	at := p.Space
	for range b.Spaces {
		if b.IsFork(at) {
			return "try roll via " + botChoice(b, p, at, rng)
		}
		at = b.Successors(at)[0]
	}
	return "try roll"
}

// botChoice picks a way on from a fork.
func botChoice(b *Board, p *Player, fork string, rng *rand.Rand) string {
	succ := b.Successors(fork)
	if p.Coins >= starPrice {
		best, bestD := succ[0], -1
		for _, n := range succ {
			if d := b.toStar(n); d >= 0 && (bestD < 0 || d < bestD) {
				best, bestD = n, d
			}
		}
		if bestD >= 0 {
			return best
		}
	}
	return succ[rng.IntN(len(succ))]
}

// toStar is how many steps from id the nearest star space is (0 on one), or -1.
func (b *Board) toStar(id string) int {
	dist := map[string]int{id: 0}
	queue := []string{id}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if b.Space(x).Type == Star {
			return dist[x]
		}
		for _, n := range b.Successors(x) {
			if _, seen := dist[n]; !seen {
				dist[n] = dist[x] + 1
				queue = append(queue, n)
			}
		}
	}
	return -1
}

// BotOrder implements race.Botter.
func (Ruleset) BotOrder(s race.State, seat int, _ bool, rng *rand.Rand) string {
	return Bot(s, seat, rng)
}

// HostSettings implements race.HostBotter: once a week's Minigame Phase is
// open, the week's results, a few coins each at random.
func (Ruleset) HostSettings(st race.State, rng *rand.Rand) []string {
	s := st.(*State)
	if s.Over() || s.Phase != Minigame || s.hasResults(s.Week) {
		return nil
	}
	var res []string
	for _, p := range s.Players {
		res = append(res, fmt.Sprintf("%s=%d", p.Name, rng.IntN(11)))
	}
	return []string{"minigame=" + strings.Join(res, ",")}
}
