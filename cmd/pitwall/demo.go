package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"pitwall/dice"
	"pitwall/host"
	"pitwall/race"
	"pitwall/store/sqlite"
)

func (a *app) demoCmd() *cobra.Command {
	var dir string
	var seed int64
	var rules []string
	c := &cobra.Command{
		Use:   "demo --out DIR [--rules GAME]",
		Short: "Play a whole race of every game with bots, and write every post and picture",
		Long: `Plays one complete race of every game pitwall has (or of the games --rules
names), with bots in every seat, on a fresh database in DIR, and writes each
turn's post (Markdown and BBCode) and picture (SVG and PNG) there. The race
is kept, so you can try the other commands on it:
pitwall --db DIR/pitwall-demo.db race show ludi-demo

DIR may be new, empty, or hold an earlier demo. The new demo is written
aside first; only once it is whole are the earlier demo's files removed and
the new ones put in their place, so an interrupted demo leaves the earlier
one as it was. A DIR that holds any file a demo does not write is refused,
and nothing in it is touched.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if dir == "" {
				return usagef("--out DIR is required: the folder to write the posts and pictures in")
			}
			ids, err := demoGames(rules)
			if err != nil {
				return err
			}
			earlier, err := demoFolder(dir)
			if err != nil {
				return err
			}
			tmp, err := os.MkdirTemp(dir, demoTmpPrefix)
			if err != nil {
				return usagef("--out %s: cannot write in it: %v", dir, err)
			}
			defer os.RemoveAll(tmp) // empty once the demo is in place
			var s *dice.Seed
			if cmd.Flags().Changed("seed") {
				x := dice.SeedFromInt(uint64(seed))
				s = &x
			}
			results, err := a.demoRaces(ids, filepath.Join(tmp, demoDB), tmp, s, uint64(seed))
			if err != nil {
				return err
			}
			if err := demoReplace(dir, tmp, earlier); err != nil {
				return err
			}
			db := filepath.Join(dir, demoDB)
			return a.out(map[string]any{"ok": true, "dir": dir, "database": db, "races": results}, func(w io.Writer) {
				for _, r := range results {
					fmt.Fprintf(w, "%s: %d turns, winner %s; %d files in %s (start with %s)\n", r["ruleset"], r["turns"], r["winner"], r["files"], dir, r["first_post"])
				}
				fmt.Fprintf(w, "the races are kept in %s: try 'pitwall --db %s race show %s-demo'\n", db, db, ids[0])
			})
		},
	}
	c.Flags().StringVar(&dir, "out", "", "the folder to write into: new, empty, or holding an earlier demo")
	c.Flags().Int64Var(&seed, "seed", 0, "a fixed seed for the dice and the bots (default: a fresh seed)")
	c.Flags().StringSliceVar(&rules, "rules", nil, "play only these games, such as ludi or ludi,rtd (default: every game)")
	return c
}

// The names a demo writes in its folder: the database, with SQLite's files,
// and GAME-demo-turnNN.EXT for every game's turns; it writes them in a
// temporary folder in DIR first.
const (
	demoDB        = "pitwall-demo.db"
	demoTmpPrefix = ".pitwall-demo-new-"
)

// demoGames checks --rules: the games to play, every game by default.
func demoGames(rules []string) ([]string, error) {
	all := race.IDs()
	if len(rules) == 0 {
		return all, nil
	}
	var ids []string
	for _, r := range rules {
		if !slices.Contains(all, r) {
			return nil, usagef("--rules: pitwall has no game %q; it has %s", r, strings.Join(all, ", "))
		}
		if !slices.Contains(ids, r) {
			ids = append(ids, r)
		}
	}
	return ids, nil
}

// demoFile says whether name is one a demo writes.
func demoFile(name string) bool {
	switch name {
	case demoDB, demoDB + "-wal", demoDB + "-shm", demoDB + "-journal":
		return true
	}
	for _, id := range race.IDs() {
		rest, ok := strings.CutPrefix(name, id+"-demo-turn")
		if !ok {
			continue
		}
		num, ext, _ := strings.Cut(rest, ".")
		digits := len(num) >= 2
		for _, c := range num {
			digits = digits && c >= '0' && c <= '9'
		}
		if digits && (ext == "png" || ext == "svg" || ext == "md" || ext == "bbcode") {
			return true
		}
	}
	return false
}

// demoFolder makes dir if it is missing and returns what an earlier demo
// left in it: its files, and the temporary folders of demos cut short. It
// refuses a dir that holds anything else.
func demoFolder(dir string) ([]string, error) {
	st, err := os.Stat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, usagef("--out %s: cannot make the folder: %v", dir, err)
		}
		return nil, nil
	}
	if err != nil {
		return nil, usagef("--out %s: %v", dir, err)
	}
	if !st.IsDir() {
		return nil, usagef("--out %s is not a folder; give a new folder's path, or one an earlier demo wrote", dir)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, usagef("--out %s: cannot read the folder: %v", dir, err)
	}
	var earlier, foreign []string
	for _, e := range ents {
		if demoOwn(dir, e) {
			earlier = append(earlier, e.Name())
		} else {
			foreign = append(foreign, e.Name())
		}
	}
	if len(foreign) > 0 {
		more := ""
		if len(foreign) > 1 {
			more = fmt.Sprintf(" and %d more", len(foreign)-1)
		}
		return nil, usagef("--out %s holds files a demo did not write (%s%s); give a new or empty folder, or one only a demo wrote in: nothing was changed", dir, foreign[0], more)
	}
	return earlier, nil
}

// demoOwn says whether the entry e of dir is a demo's: a regular file by a
// demo's name, or a cut-short demo's temporary folder of such files.
func demoOwn(dir string, e fs.DirEntry) bool {
	if e.Type().IsRegular() {
		return demoFile(e.Name())
	}
	if !e.IsDir() || !strings.HasPrefix(e.Name(), demoTmpPrefix) {
		return false
	}
	ents, err := os.ReadDir(filepath.Join(dir, e.Name()))
	if err != nil {
		return false
	}
	for _, f := range ents {
		if !f.Type().IsRegular() || !demoFile(f.Name()) {
			return false
		}
	}
	return true
}

// demoReplace removes the earlier demo's files from dir and moves the new
// demo's in from tmp.
func demoReplace(dir, tmp string, earlier []string) error {
	for _, name := range earlier {
		p := filepath.Join(dir, name)
		var err error
		if strings.HasPrefix(name, demoTmpPrefix) {
			err = os.RemoveAll(p)
		} else {
			err = os.Remove(p)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("removing the earlier demo's %s: %w", name, err)
		}
	}
	ents, err := os.ReadDir(tmp)
	if err != nil {
		return err
	}
	for _, e := range ents {
		if err := os.Rename(filepath.Join(tmp, e.Name()), filepath.Join(dir, e.Name())); err != nil {
			return fmt.Errorf("putting the demo's %s in place: %w", e.Name(), err)
		}
	}
	return nil
}

// demoRaces plays a race of each game on a fresh database at db, writing
// the posts and pictures in dir.
func (a *app) demoRaces(ids []string, db, dir string, s *dice.Seed, botSeed uint64) ([]map[string]any, error) {
	st, err := sqlite.Open(db)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	var results []map[string]any
	for _, id := range ids {
		res, err := a.demoRace(context.Background(), host.New(st), id, dir, s, botSeed)
		if err != nil {
			return nil, fmt.Errorf("%s demo: %w", id, err)
		}
		results = append(results, res)
	}
	return results, st.Close()
}

// demoRace plays one race with bots through the host, as a host would: a
// turn every two days, a bonus window now and then, some racers missing a turn.
func (a *app) demoRace(ctx context.Context, h *host.Host, ruleset, dir string, seed *dice.Seed, botSeed uint64) (map[string]any, error) {
	rs, _ := race.Lookup(ruleset)
	clock := time.Date(2026, 11, 23, 18, 0, 0, 0, time.UTC)
	h.Clock = host.ClockFunc(func() time.Time { return clock })
	id := ruleset + "-demo"
	g := rs.Game()
	cfg := race.Config{Track: g.Tracks[0].ID, Laps: g.Demo.Laps}
	r, err := h.NewRace(ctx, ruleset, id, cfg, g.Demo.Entrants, seed)
	if err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewPCG(botSeed, 7))
	files := 0
	write := func(p *race.Played, turn int) error {
		if err := h.WithBefore(ctx, p); err != nil {
			return err
		}
		// what a host posts on a forum: the spectator's view
		w := p.View(race.Spectator)
		base := filepath.Join(dir, fmt.Sprintf("%s-turn%02d", id, turn))
		for _, f := range []string{"png", "svg"} {
			b, err := host.Render(w, turn, f)
			if err != nil {
				return err
			}
			if err := writeOut(base+"."+f, base+"."+f, b); err != nil {
				return err
			}
		}
		for f, ext := range map[string]string{"markdown": "md", "bbcode": "bbcode"} {
			text, err := host.Post(w, turn, f, filepath.Base(base)+".png")
			if err != nil {
				return err
			}
			if err := writeOut(base+"."+ext, base+"."+ext, []byte(text)); err != nil {
				return err
			}
		}
		files += 4
		return nil
	}
	line := a.progress()
	p, err := playBots(ctx, h, r.ID, rng, &clock, botHooks{resolved: func(p *race.Played, turn int) error {
		if turn > 0 {
			line.show(false, "%s: turn %d resolved", ruleset, turn)
		}
		return write(p, turn)
	}})
	line.end()
	if err != nil {
		return nil, err
	}
	rep, err := h.Verify(ctx, id, "")
	if err != nil {
		return nil, err
	}
	if !rep.OK {
		return nil, fmt.Errorf("the demo race failed verification: %v", rep.Problems)
	}
	winner := "nobody"
	if st := rs.Standings(p.State); len(st) > 0 && st[0].Status == "finished" {
		winner = st[0].Name
	}
	return map[string]any{"ruleset": ruleset, "race": id, "turns": p.Resolved(), "winner": winner, "files": files,
		"first_post": id + "-turn00.md", "verified": rep.OK, "seed": rep.Seed}, nil
}
