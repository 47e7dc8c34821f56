// Package sim plays many races with bots through the rulesets alone, with
// no store, no drawing and no log, and gathers what balance questions need.
package sim

import (
	"errors"
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
// alone; the dice from su.Seed alone. A race not over after maxTurns turns
// stops there (ludi's chariots that only ever cruise never leave the
// grid), not Over.
func Play(rs race.Ruleset, su Setup, bots []race.BotFunc, rng *rand.Rand, maxTurns int) (Outcome, error) {
	d := dice.NewQuiet(su.Seed) // no story is read: the ruleset may skip writing it
	s, err := rs.Setup(su.Config, su.Entrants, d)
	if err != nil {
		return Outcome{}, err
	}
	out := Outcome{Grid: rs.Standings(s)}
	t := &table{rs: rs, s: s, d: d, orders: map[int]race.Order{}}
	seated := func(s race.State, seat int, inWindow bool, rng *rand.Rand) string {
		if seat < len(bots) && bots[seat] != nil {
			return bots[seat](s, seat, inWindow, rng)
		}
		return "" // no bot: the game's default plays
	}
	err = race.BotRace{Bot: seated, MaxTurns: maxTurns}.Play(rs, t, rng)
	if err != nil && !errors.Is(err, race.ErrNotOver) {
		return out, err
	}
	out.Turns, out.Final, out.Dice, out.Over = t.turns, rs.Standings(t.s), d.Mark(), t.s.Over()
	return out, nil
}

// table is a race held in memory alone: the state, and the orders of the
// turn being played, read as ParseOrder reads them; no log, no story.
type table struct {
	rs     race.Ruleset
	s      race.State
	d      *dice.Roller
	orders map[int]race.Order
	turns  int // resolved
}

func (t *table) State() race.State { return t.s }

func (t *table) Set(_ int, kv string) error {
	k, v, ok := strings.Cut(kv, "=")
	if !ok {
		return fmt.Errorf("a setting is KEY=VALUE; got %q", kv)
	}
	s, err := t.rs.Set(t.s, k, v)
	if err != nil {
		return err
	}
	t.s = s
	return nil
}

func (t *table) Submit(_, seat int, text string, inWindow bool) error {
	o, err := t.rs.ParseOrder(t.s, race.Submission{Seat: seat, Text: text, InWindow: inWindow})
	if err != nil {
		return err
	}
	t.orders[seat] = o
	return nil
}

// Resolve resolves the turn at race.BotTime; a seat whose bot sent nothing
// plays the game's default, as on a host's log.
func (t *table) Resolve(int) error {
	s, _, err := t.rs.Resolve(t.s, t.orders, t.d, race.BotTime(t.turns))
	if err != nil {
		return err
	}
	t.s, t.turns = s, t.turns+1
	clear(t.orders)
	return nil
}
