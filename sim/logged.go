package sim

import (
	"time"

	"pitwall/race"
)

// LoggedTable plays a bot race (race.BotRace) on p's log as a host does,
// each resolve logged at the time Play resolves it: the host's way, to
// hold Play's lean way to (the same bots, dice and times give the same
// states).
type LoggedTable struct {
	P     *race.Played
	turns int
}

func (t *LoggedTable) add(e race.Entry) error {
	e.Seq, e.Turn = len(t.P.Race.Log)+1, t.P.State.Turn()
	if err := t.P.Apply(e); err != nil {
		return err
	}
	t.P.Race.Log = append(t.P.Race.Log, e)
	return nil
}

// State implements race.Table.
func (t *LoggedTable) State() race.State { return t.P.State }

// Set implements race.Table.
func (t *LoggedTable) Set(_ int, kv string) error {
	return t.add(race.Entry{Kind: race.EntrySet, Seat: -1, Text: kv})
}

// Submit implements race.Table.
func (t *LoggedTable) Submit(_, seat int, text string, in bool) error {
	return t.add(race.Entry{Kind: race.EntryOrder, Seat: seat, Text: text, InWindow: in})
}

// Resolve implements race.Table: turn n resolves 48 hours after the one
// before, from Epoch, as in Play.
func (t *LoggedTable) Resolve(int) error {
	at := Epoch.Add(time.Duration(t.turns) * 48 * time.Hour)
	t.turns++
	return t.add(race.Entry{Kind: race.EntryResolve, Seat: -1, At: at})
}
