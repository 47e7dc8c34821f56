// Package sim plays many races with bots through the rulesets alone, with
// no store, no drawing and no log, and gathers what balance questions need.
package sim

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"pitwall/dice"
	"pitwall/race"
)

// Setup is one race to simulate: what a host would set it up with.
type Setup struct {
	Config   race.Config
	Entrants []race.Entrant
	Seed     dice.Seed
}

// Outcome is what a simulated race leaves for the statistics.
type Outcome struct {
	Grid  race.Standings // the standings before turn 1: the starting order
	Final race.Standings
	Turns int  // turns resolved
	Dice  int  // dice rolled, the setup's included
	Over  bool // false: stopped at the cap on turns, not over
}

// Play plays su to its end: each turn the host's settings from the game's
// host bot (if it has one), then each prompted seat's orders from
// bots[seat] (a nil bot, or one that sends "", leaves the game's default
// to play), then the resolve, at race.BotTime. The bots draw from rng
// alone; the dice from su.Seed alone. A race not over after maxTurns turns stops there (ludi's
// chariots that only ever cruise never leave the grid), not Over.
func Play(rs race.Ruleset, su Setup, bots []race.BotFunc, rng *rand.Rand, maxTurns int) (Outcome, error) {
	d := dice.NewQuiet(su.Seed) // no story is read: the ruleset may skip writing it
	s, err := rs.Setup(su.Config, su.Entrants, d)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Grid: rs.Standings(s)}
	hb, _ := rs.(race.HostBotter)
	orders := map[int]race.Order{}
	for !s.Over() && out.Turns < maxTurns {
		turn := s.Turn()
		if hb != nil {
			for _, kv := range hb.HostSettings(s, rng) {
				k, v, ok := strings.Cut(kv, "=")
				if !ok {
					return out, fmt.Errorf("turn %d: the host bot's setting %q is not KEY=VALUE", turn, kv)
				}
				if s, err = rs.Set(s, k, v); err != nil {
					return out, fmt.Errorf("turn %d, setting %s: %w", turn, kv, err)
				}
			}
		}
		clear(orders)
		for _, pr := range rs.Prompts(s) {
			var text string
			if pr.Seat < len(bots) && bots[pr.Seat] != nil {
				text = bots[pr.Seat](s, pr.Seat, false, rng)
			}
			if text == "" {
				orders[pr.Seat] = rs.DefaultOrder(s, pr.Seat)
				continue
			}
			o, err := rs.ParseOrder(s, race.Submission{Seat: pr.Seat, Text: text})
			if err != nil {
				return out, fmt.Errorf("turn %d, seat %d, %q: %w", turn, pr.Seat, text, err)
			}
			orders[pr.Seat] = o
		}
		if s, _, err = rs.Resolve(s, orders, d, race.BotTime(out.Turns)); err != nil {
			return out, fmt.Errorf("turn %d: %w", turn, err)
		}
		out.Turns++
	}
	out.Final, out.Dice, out.Over = rs.Standings(s), d.Mark(), s.Over()
	return out, nil
}
