package host

import "pitwall/race"

// Shown is a started race as its viewer may see it now: what `pitwall race
// show --json` prints and what the service answers to GET /api/races/{id}.
// It is built from the viewer's projection (race.View) and from nothing
// else, so it holds no more than that viewer may see. Seats, prompts and
// standings are numbered from 1, as pictures and posts number them.
type Shown struct {
	ID            string         `json:"id"`
	Ruleset       string         `json:"ruleset"`
	Rules         int            `json:"rules"`
	Track         string         `json:"track"`
	Turn          int            `json:"turn"`
	Over          bool           `json:"over"`
	TurnsResolved int            `json:"turns_resolved"`
	Commitment    string         `json:"commitment"`
	Seats         []ShownSeat    `json:"seats"`
	Standings     []Standing     `json:"standings"`
	Prompts       []ShownPrompt  `json:"prompts"`
	OrdersIn      []string       `json:"orders_in"`   // the racers prompted whose orders are in
	WaitingFor    []string       `json:"waiting_for"` // the racers prompted whose orders are not
	Schedule      race.Schedule  `json:"schedule"`
	ChainHead     string         `json:"chain_head"`
	Entries       int            `json:"entries"`
	Viewer        string         `json:"viewer"`
	MyOrders      *string        `json:"my_orders,omitempty"` // a racer's own view: its orders in ("" for none)
	Voided        []race.Voided  `json:"voided,omitempty"`
	Seed          string         `json:"seed,omitempty"` // once the race is over
	prompts       []race.Prompt  // for the text form
	standings     race.Standings // for the text form
}

// ShownSeat is a seat: its number from 1, its racer and player, whether its
// orders for the open turn are in (never what they are) and whether it has
// marked itself ready.
type ShownSeat struct {
	Seat     int    `json:"seat"`
	Name     string `json:"name"`
	Player   string `json:"player"`
	OrdersIn bool   `json:"orders_in"`
	Ready    bool   `json:"ready"`
	Bot      bool   `json:"bot,omitempty"`      // the service plays the seat with a bot
	BotName  string `json:"bot_name,omitempty"` // which: cruise, heuristic or search (package bot)
	Removed  bool   `json:"removed,omitempty"`  // its racer was removed: the game's default plays it
}

// Standing is a standing with the seat numbered from 1.
type Standing struct {
	race.Standing
	Seat int `json:"seat"`
}

// ShownPrompt is a prompt with the seat numbered from 1.
type ShownPrompt struct {
	race.Prompt
	Seat int `json:"seat"`
}

// Standings numbers st's seats from 1.
func Standings(st race.Standings) []Standing {
	out := []Standing{}
	for _, x := range st {
		out = append(out, Standing{Standing: x, Seat: x.Seat + 1})
	}
	return out
}

// Show is w as its viewer may see it now; w must be of a started race.
func Show(w *race.View) Shown {
	s := w.State
	g := w.Ruleset.Game()
	sh := Shown{
		ID: w.ID, Ruleset: g.ID, Rules: g.Version, Track: w.Config.Track, Turn: s.Turn(), Over: w.Over,
		TurnsResolved: w.Resolved(), Commitment: w.Commitment, Schedule: w.Schedule, ChainHead: w.Head,
		Entries: w.Seq, Viewer: w.Viewer.String(), Voided: w.Voided, Seed: w.Seed,
		prompts: w.Ruleset.Prompts(s), standings: w.Ruleset.Standings(s),
	}
	sh.Standings = Standings(sh.standings)
	for _, pr := range sh.prompts {
		sh.Prompts = append(sh.Prompts, ShownPrompt{Prompt: pr, Seat: pr.Seat + 1})
		if w.OrdersIn[pr.Seat] {
			sh.OrdersIn = append(sh.OrdersIn, pr.Name)
		} else {
			sh.WaitingFor = append(sh.WaitingFor, pr.Name)
		}
	}
	for _, x := range s.Seats() {
		sh.Seats = append(sh.Seats, ShownSeat{Seat: x.Seat + 1, Name: x.Name, Player: x.Player, OrdersIn: w.OrdersIn[x.Seat], Ready: w.Ready[x.Seat]})
	}
	if seat, ok := w.Viewer.Seat(); ok {
		o := w.Orders[seat]
		sh.MyOrders = &o
	}
	return sh
}

// PromptsNow and StandingsNow are the race's prompts and standings as the
// rules give them (seats from 0), for a text form of Shown.
func (sh Shown) PromptsNow() []race.Prompt { return sh.prompts }

// StandingsNow: see PromptsNow.
func (sh Shown) StandingsNow() race.Standings { return sh.standings }

// Replay is the race after turn n as p's viewer may see it, as 'pitwall
// replay' and the service's replay give it: the state, the standings and,
// for a turn played, its events, orders (by seat from 1), rolls and hash.
func Replay(p *race.View, n int) (map[string]any, error) {
	st, err := p.StateAt(n)
	if err != nil {
		return nil, err
	}
	out := map[string]any{"race": p.ID, "turn": n, "standings": Standings(p.Ruleset.Standings(st)), "state": st, "viewer": p.Viewer.String()}
	if t, played := p.TurnAt(n); played {
		orders := map[int]string{}
		for seat, o := range t.Orders {
			orders[seat+1] = o
		}
		out["events"], out["orders"], out["rolls"] = t.Events, orders, t.Rolls
		if t.Hash != "" {
			out["hash"] = t.Hash
		}
	}
	return out, nil
}
