package web

import (
	"context"
	"fmt"
	"time"

	"pitwall/race"
	"pitwall/store"
)

// Demo starts, on a store with no race yet, one public race of every game
// that has a bot, with the bot in every seat (and making the host's
// settings, where the game asks for them) and a turn every pace: a
// newcomer sees live races at once. It returns the races' ids; on a store
// that holds races it starts none.
func (s *Server) Demo(ctx context.Context, pace time.Duration) ([]string, error) {
	list, err := s.host.Store.List(ctx, store.Page{})
	if err != nil {
		return nil, err
	}
	if len(list) > 0 {
		return nil, nil
	}
	every := repeat{Every: pace.String()}
	if err := every.check(); err != nil {
		return nil, fmt.Errorf("the demo's pace: %w", err)
	}
	var ids []string
	for _, game := range race.IDs() {
		rs, err := race.Lookup(game)
		if err != nil {
			return ids, err
		}
		if _, ok := rs.(race.Botter); !ok {
			continue
		}
		g := rs.Game()
		out, err := s.makeRace(ctx, game, race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps}, g.Demo.Entrants,
			store.Access{Public: true, ResolveWhen: store.ResolveAtDeadline})
		if err != nil {
			return ids, fmt.Errorf("the %s demo race: %w", game, err)
		}
		id := out.ID
		cs := []store.Control{{Kind: store.ControlSchedule, Seat: -1, Value: every.String()}}
		if _, ok := rs.(race.HostBotter); ok {
			cs = append(cs, store.Control{Kind: store.ControlHost, Seat: -1, Value: store.ControlBot})
		}
		for _, seat := range out.Seats {
			cs = append(cs, store.Control{Kind: store.ControlSeat, Seat: seat.Seat - 1, Value: store.ControlBot})
		}
		for _, c := range cs {
			c.Race, c.At = id, s.host.Now()
			if _, err := s.access.AddControl(ctx, c); err != nil {
				return ids, fmt.Errorf("the %s demo race: %w", game, err)
			}
		}
		s.settle(ctx, id)
		ids = append(ids, id)
	}
	return ids, nil
}
