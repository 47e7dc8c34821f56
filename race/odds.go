package race

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Check is one kind of roll whose odds a ruleset can compute exactly.
type Check struct {
	Name     string   `json:"name"`
	Help     string   `json:"help"`
	Flags    []Flag   `json:"flags"`
	Outcomes []string `json:"outcomes"`
}

// Flag is one input of a check.
type Flag struct {
	Name   string `json:"name"`
	Values string `json:"values"` // the allowed values, for help and errors: "low|fast|max", "1..6"
	Bool   bool   `json:"bool,omitempty"`
	Repeat bool   `json:"repeat,omitempty"` // may be given more than once, each value in turn
	Need   bool   `json:"required,omitempty"`
}

// IntFlag reads the whole-number flag name of args (a check's or an order
// check's): def when it is not given, else a number from lo to hi, or an
// error that says what it must be.
func IntFlag(args map[string]string, name string, def, lo, hi int) (int, error) {
	v, ok := args[name]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("--%s must be a whole number from %d to %d; got %q", name, lo, hi, v)
	}
	return n, nil
}

// Oddser is a ruleset that computes exact odds from its tables.
type Oddser interface {
	Checks() []Check
	// Odds returns the probability of each outcome of check (outcomes of
	// probability 0 may be left out). args holds the flags by name without
	// dashes; a bool flag that is set holds "true". Bad input is an error that
	// names the allowed values.
	Odds(check string, args map[string]string) (map[string]float64, error)
}

// Botter is a ruleset with a bot that can order for any seat. The bot's
// randomness is its own: what it orders is logged like a racer's orders.
type Botter interface {
	// BotOrder returns a bot's orders for seat; inWindow says the bonus window
	// is open, so the bot may claim the game's bonus.
	BotOrder(s State, seat int, inWindow bool, rng *rand.Rand) string
}

// HostBotter is a game whose host has settings to make as it goes (party's
// minigame results): a demo, or a host's bot, asks what to set now. The
// settings are KEY=VALUE, logged like a host's.
type HostBotter interface {
	HostSettings(s State, rng *rand.Rand) []string
}

// FindCheck is the check named name among cs, after checking args against its
// flags: every flag known, every needed one given, a switch without a value.
// game names the game in the errors.
func FindCheck(game string, cs []Check, name string, args map[string]string) (Check, error) {
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
		if c.Name != name {
			continue
		}
		var flags []string
		known := map[string]bool{}
		for _, f := range c.Flags {
			flags = append(flags, "--"+f.Name)
			known[f.Name] = true
		}
		var unknown []string
		for k := range args {
			if !known[k] {
				unknown = append(unknown, k)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			if len(flags) == 0 {
				return Check{}, fmt.Errorf("%s has no flag --%s; it takes no flags", name, unknown[0])
			}
			return Check{}, fmt.Errorf("%s has no flag --%s; flags: %s", name, unknown[0], strings.Join(flags, ", "))
		}
		for _, f := range c.Flags {
			v, ok := args[f.Name]
			if f.Need && !ok {
				return Check{}, fmt.Errorf("%s needs --%s (%s)", name, f.Name, f.Values)
			}
			if ok && f.Bool && v != "true" && v != "false" {
				return Check{}, fmt.Errorf("--%s is a switch and takes no value; got %q", f.Name, v)
			}
		}
		return c, nil
	}
	return Check{}, fmt.Errorf("unknown %s check %q; checks: %s", game, name, strings.Join(names, ", "))
}

// Chooser is a game that says, as data, what a seat may order now: enough
// for a page to offer only legal orders and for a bot to enumerate them.
// The value is the game's own shape (documented in docs/choices.md) and
// marshals to JSON; it is made from the state alone, so a viewer's redacted
// state gives the same choices.
type Chooser interface {
	Choices(s State, seat int) (any, error)
}

// OrderChoice is one order a seat is offered and whether it may be given now:
// the part every game's choices share, which a page shows and a bot reads
// alike. A game's own choice embeds it and adds its odds.
type OrderChoice struct {
	Order   string   `json:"order"` // the canonical text
	Words   []string `json:"words"` // what a racer may write for it, in any case
	Allowed bool     `json:"allowed"`
	Code    string   `json:"code,omitempty"`   // when refused: the OrderError's code
	Reason  string   `json:"reason,omitempty"` // and its reason
}

// ShortestFirst sorts the words a racer may write for a choice, shortest
// first, then alphabetically, and returns them.
func ShortestFirst(words []string) []string {
	slices.SortFunc(words, func(a, b string) int {
		return cmp.Or(cmp.Compare(len(a), len(b)), strings.Compare(a, b))
	})
	return words
}

// Judge is order as a choice: allowed when err, the game's check of it, is
// nil; refused with the error's code and reason otherwise (an error that is
// not an OrderError is refused as not allowed).
func Judge(order string, words []string, err error) OrderChoice {
	c := OrderChoice{Order: order, Words: words, Allowed: err == nil}
	if err != nil {
		c.Code, c.Reason = CodeNotAllowed, err.Error()
		var oe *OrderError
		if errors.As(err, &oe) {
			c.Code = oe.ErrCode()
		}
	}
	return c
}
