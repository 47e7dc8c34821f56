package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"pitwall/host"
	"pitwall/internal/words"
)

func (a *app) recordsCmd() *cobra.Command {
	var track string
	c := &cobra.Command{
		Use:   "records RULESET [--track TRACK]",
		Short: "The course records: the best of each kind on each track, over every race in the database",
		Long: `Reads every race of a game in the database, finished or not, and lists the
best record of each kind on each track (for rtd: the fastest lap, and the
fastest completion for each number of laps), with the race that set it.
Turns are the measure: fewer is better; a tie goes to the older race.

  pitwall records rtd
  pitwall records rtd --track rainbow-road --json`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return a.withHost(func(ctx context.Context, h *host.Host) error {
				line := a.progress()
				recs, err := h.Records(ctx, args[0], track, func(done, total int) {
					line.show(done == total, "reading races: %d of %d", done, total)
				})
				line.end()
				if err != nil {
					return err
				}
				if recs == nil {
					recs = []host.CourseRecord{}
				}
				return a.out(map[string]any{"ruleset": args[0], "records": recs}, func(w io.Writer) {
					if len(recs) == 0 {
						fmt.Fprintf(w, "no records yet: no %s race has finished a lap", args[0])
						if track != "" {
							fmt.Fprintf(w, " on %s", track)
						}
						fmt.Fprintln(w)
					}
					last := ""
					for _, r := range recs {
						if r.Track != last {
							fmt.Fprintf(w, "%s\n", r.Track)
							last = r.Track
						}
						fmt.Fprintf(w, "  %-30s %9s  %s (%s), race %s", r.Kind, words.Count(r.Turns, "turn"), r.Name, r.Player, r.Race)
						if r.Lap > 0 {
							fmt.Fprintf(w, ", lap %d", r.Lap)
						}
						fmt.Fprintf(w, ", turn %d\n", r.Turn)
					}
				})
			})
		},
	}
	c.Flags().StringVar(&track, "track", "", "one track only")
	return c
}
