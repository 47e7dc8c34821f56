package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"pitwall/host"
	"pitwall/internal/safefile"
	"pitwall/race"
)

func (a *app) renderCmd() *cobra.Command {
	var turn int
	var format, out, as string
	c := &cobra.Command{
		Use:   "render RACE [--turn N] --format svg|png [--out FILE] [--as VIEWER]",
		Short: "Draw the track after a turn: every chariot, this turn's moves, the status board",
		Long: `Draws the track after a turn: every racer, this turn's moves, the status
board. With --server the service draws it, as the token (--token) may see
it: the file holds the very bytes of GET /api/races/RACE/picture.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "svg" && format != "png" {
				return usagef("--format is svg or png; got %q", format)
			}
			if a.cl != nil {
				return a.remoteRender(cmd, args[0], turn, as, format, out)
			}
			return a.withView(cmd, args[0], turn, as, func(_ context.Context, _ *host.Host, p *race.View, turn int) error {
				b, err := host.Render(p, turn, format)
				if err != nil {
					return err
				}
				return a.savePicture(args[0], turn, format, out, b)
			})
		},
	}
	c.Flags().IntVar(&turn, "turn", 0, "the turn to draw the race after (0 = the grid; default: the last)")
	c.Flags().StringVar(&format, "format", "png", "svg or png")
	c.Flags().StringVarP(&out, "out", "o", "", "the file to write (default RACE-turnNN.FORMAT)")
	asFlag(c, &as)
	return viaServer(c)
}

// savePicture writes the picture b of race id after turn to out (default
// RACE-turnNN.FORMAT) and says so.
func (a *app) savePicture(id string, turn int, format, out string, b []byte) error {
	label := "--out " + out
	if out == "" {
		out = fmt.Sprintf("%s-turn%02d.%s", id, turn, format)
		label = out
	}
	if err := writeOut(label, out, b); err != nil {
		return err
	}
	return a.out(map[string]any{"ok": true, "file": out, "turn": turn, "bytes": len(b)}, func(w io.Writer) {
		fmt.Fprintf(w, "wrote %s (turn %d)\n", out, turn)
	})
}

func (a *app) postCmd() *cobra.Command {
	var turn int
	var format, picture, out, as string
	c := &cobra.Command{
		Use:   "post RACE [--turn N] --format markdown|bbcode [--picture FILE] [--out FILE] [--as VIEWER]",
		Short: "Write the turn summary post for a forum",
		Long: `Writes the Turn Summary Post: what happened, every racer's orders, the
standings, the status board, every roll, and the next turn's orders and
deadline. --picture names the picture file the post shows (make it with
'pitwall render'). The post goes to standard output unless --out is given.

With --server the service writes the post, as the token (--token) may see
it: it is the very text of GET /api/races/RACE/post, and without --picture
it shows the service's own picture of the turn (/api/races/RACE/picture).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if format != "markdown" && format != "bbcode" {
				return usagef("--format is markdown or bbcode; got %q", format)
			}
			if a.cl != nil {
				pic := ""
				if cmd.Flags().Changed("picture") {
					pic = picture
				}
				return a.remotePost(cmd, args[0], turn, as, format, pic, out)
			}
			return a.withTurn(cmd, args[0], turn, func(ctx context.Context, h *host.Host, pl *race.Played, turn int) error {
				if err := h.WithBefore(ctx, pl); err != nil {
					return err
				}
				v, err := viewerOf(pl, as)
				if err != nil {
					return err
				}
				p := pl.View(v)
				if !cmd.Flags().Changed("picture") {
					picture = fmt.Sprintf("%s-turn%02d.png", args[0], turn)
				}
				text, err := host.Post(p, turn, format, picture)
				if err != nil {
					return err
				}
				return a.showPost(turn, format, out, text)
			})
		},
	}
	c.Flags().IntVar(&turn, "turn", 0, "the turn to write about (0 = the opening post; default: the last)")
	c.Flags().StringVar(&format, "format", "markdown", "markdown or bbcode")
	c.Flags().StringVar(&picture, "picture", "", "the picture's file name or address (default RACE-turnNN.png)")
	c.Flags().StringVarP(&out, "out", "o", "", "write the post to this file")
	asFlag(c, &as)
	return viaServer(c)
}

// showPost writes the post text of a turn to out, or prints it.
func (a *app) showPost(turn int, format, out, text string) error {
	if out != "" {
		if err := writeOut("--out "+out, out, []byte(text)); err != nil {
			return err
		}
	}
	return a.out(map[string]any{"ok": true, "turn": turn, "format": format, "post": text, "file": out}, func(w io.Writer) {
		if out == "" {
			fmt.Fprint(w, text)
		} else {
			fmt.Fprintf(w, "wrote %s\n", out)
		}
	})
}

// writeOut writes b to path whole or not at all (a half-written picture is
// worse than none), and never over anything but a regular file: a path
// safefile refuses is bad input, told with label (such as "--out FILE").
func writeOut(label, path string, b []byte) error {
	err := safefile.WriteFile(path, b)
	var r *safefile.Refused
	if errors.As(err, &r) {
		return usagef("%s %s; %s", label, r.What, r.Fix)
	}
	return err
}
