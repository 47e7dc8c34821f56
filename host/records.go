package host

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"pitwall/internal/words"
	"pitwall/race"
	"pitwall/store"
)

// CourseRecord is the best of one kind of record on one track, over every
// race in the store, and the race that set it.
type CourseRecord struct {
	Track string `json:"track"`
	Race  string `json:"race"`
	race.Record
}

// RecordLines are records as a post's bullets: "fastest lap: Peach (Ade), 4 turns, lap 1, turn 5".
func RecordLines(recs []race.Record) []string {
	var out []string
	for _, r := range recs {
		l := fmt.Sprintf("%s: %s (%s), %s", r.Kind, r.Name, r.Player, words.Count(r.Turns, "turn"))
		if r.Lap > 0 {
			l += fmt.Sprintf(", lap %d", r.Lap)
		}
		out = append(out, l+fmt.Sprintf(", on turn %d", r.Turn))
	}
	return out
}

// Records is the best record of each kind on each track of a ruleset (on
// track alone, if track is not empty), over every race in the store, finished
// or not. A tie goes to the record set in fewer turns into its race, then to the
// race created first. progress, if not nil, is told of each race read.
func (h *Host) Records(ctx context.Context, ruleset, track string, progress func(done, total int)) ([]CourseRecord, error) {
	rs, err := race.Lookup(ruleset)
	if err != nil {
		return nil, bad(err)
	}
	rec, ok := rs.(race.Recorder)
	if !ok {
		return nil, bad(fmt.Errorf("the %s ruleset keeps no records", rs.Game().ID))
	}
	if track != "" {
		known := false
		var ids []string
		for _, t := range rs.Game().Tracks {
			known = known || t.ID == track
			ids = append(ids, t.ID)
		}
		if !known {
			return nil, bad(fmt.Errorf("%s has no track %q; tracks: %s", rs.Game().ID, track, strings.Join(ids, ", ")))
		}
	}
	list, err := h.Store.List(ctx, store.Page{})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].Created.Before(list[j].Created) })
	type key struct{ track, kind string }
	best := map[key]CourseRecord{}
	var order []key
	var todo []int
	for i, sm := range list {
		if sm.Ruleset == rs.Game().ID && (track == "" || sm.Track == track) && sm.Turns > 0 {
			todo = append(todo, i)
		}
	}
	for n, i := range todo {
		sm := list[i]
		p, err := h.Load(ctx, sm.ID)
		if err != nil {
			return nil, fmt.Errorf("race %s: %w", sm.ID, err)
		}
		for _, r := range rec.Records(p.State) {
			k := key{sm.Track, r.Kind}
			old, seen := best[k]
			if !seen {
				order = append(order, k)
			}
			if !seen || r.Better(old.Record) {
				best[k] = CourseRecord{Track: sm.Track, Race: sm.ID, Record: r}
			}
		}
		if progress != nil {
			progress(n+1, len(todo))
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return order[i].track < order[j].track })
	var out []CourseRecord
	for _, k := range order {
		out = append(out, best[k])
	}
	return out, nil
}
