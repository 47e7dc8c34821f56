package host

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"pitwall/dice"
	"pitwall/internal/words"
	"pitwall/race"
	"pitwall/render"
)

// Presenter is a race's state that draws itself, shows a status board and
// says what its grid post says. Every game's State is one; the game's words
// (what a turn is called, the default order, the bonus) are in its race.Game.
type Presenter interface {
	race.State
	render.Scene
	// Board is the status board: a header and one row per racer.
	Board() (header []string, rows [][]string)
	// GridNote follows the game's name on the grid post: how the grid is set.
	GridNote() string
	// TrackName names a track the game does not ship (a host's own party
	// board); "" for a shipped one, which the game's tracks name.
	TrackName() string
}

// presenterAt is the state after turn n, as a Presenter.
func presenterAt(p *race.View, n int) (Presenter, error) {
	s, err := p.StateAt(n)
	if err != nil {
		return nil, bad(err)
	}
	pr, ok := s.(Presenter)
	if !ok {
		return nil, bad(fmt.Errorf("the %s ruleset cannot draw its races yet", p.Ruleset.Game().ID))
	}
	return pr, nil
}

// Title names a race and a turn for pictures and posts.
func Title(p *race.View, n int) string {
	if n == 0 {
		return fmt.Sprintf("%s: %s", p.ID, p.Ruleset.Game().Words.Start)
	}
	return fmt.Sprintf("%s: after %s %d", p.ID, p.Ruleset.Game().Words.Turn, n)
}

// Render draws the race after turn n as "svg" or "png".
func Render(p *race.View, n int, format string) ([]byte, error) {
	pr, err := presenterAt(p, n)
	if err != nil {
		return nil, err
	}
	w, h := pr.Picture()
	var buf bytes.Buffer
	switch format {
	case "svg":
		c := render.NewSVG(w, h)
		render.DrawScene(c, pr, Title(p, n))
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, err
		}
	case "png":
		c := background(p.Ruleset.Game().ID, pr, w, h).Copy()
		pr.Draw(c, Title(p, n))
		if err := c.Encode(&buf); err != nil {
			return nil, err
		}
	default:
		return nil, bad(fmt.Errorf("unknown picture format %q; formats: svg, png", format))
	}
	return buf.Bytes(), nil
}

// backgrounds holds each PNG background drawn so far, by game, the state's
// key and the size. A track's picture is the same every turn, so it is drawn
// once per process.
var backgrounds sync.Map

func background(game string, s render.Scene, w, h float64) *render.PNG {
	key := fmt.Sprintf("%s/%s/%.0fx%.0f", game, s.BackgroundKey(), w, h)
	if bg, ok := backgrounds.Load(key); ok {
		return bg.(*render.PNG)
	}
	bg := render.NewPNG(w, h, 1)
	s.Background(bg)
	actual, _ := backgrounds.LoadOrStore(key, bg)
	return actual.(*render.PNG)
}

// WithBefore fills in the state before the first turn p holds, when p was
// resumed from that turn's record: the post of a turn compares the states
// before and after it (who took the lead, who finished). A load leaves it
// out, as only a post needs it; call it before Post on a loaded race.
func (h *Host) WithBefore(ctx context.Context, p *race.Played) error {
	if len(p.Turns) == 0 || p.Turns[0].Before != nil || p.Turns[0].Turn < 1 {
		return nil
	}
	n := p.Turns[0].Turn - 1
	q, err := h.LoadAt(ctx, p.Race.ID, n)
	if err != nil {
		return err
	}
	s, err := q.StateAt(n)
	if err != nil {
		return fmt.Errorf("race %s: the state after turn %d: %w", p.Race.ID, n, err)
	}
	p.Turns[0].Before = s
	return nil
}

// Post writes the turn summary post for turn n (0 = the race's opening post)
// as "markdown", "bbcode" or "text" (plain). picture is the file name the
// post shows.
func Post(p *race.View, n int, format, picture string) (string, error) {
	if format != "markdown" && format != "bbcode" && format != "text" {
		return "", bad(fmt.Errorf("unknown post format %q; formats: markdown, bbcode, text", format))
	}
	s, err := presenterAt(p, n)
	if err != nil {
		return "", err
	}
	rs := p.Ruleset
	g := rs.Game()
	d := &render.Doc{}
	track := s.TrackName()
	for _, t := range g.Tracks {
		if track == "" && t.ID == p.Config.Track {
			track = t.Name
		}
	}
	if track == "" {
		track = p.Config.Track
	}
	if n == 0 {
		d.H(1, fmt.Sprintf("%s at %s: %s", p.ID, track, g.Words.Start))
		d.P(render.Text(g.Name + ". " + s.GridNote()))
	} else {
		d.H(1, fmt.Sprintf("%s at %s: %s %d", p.ID, track, g.Words.Turn, n))
		// A race loaded without the state before the turn (Host.WithBefore)
		// gets no headline rather than a wrong one.
		if before, err := p.StateAt(n - 1); err == nil {
			t, _ := p.TurnAt(n)
			if line := headline(rs, before, s, t.Events); line != "" {
				d.P(render.Bold(line))
			}
		}
	}
	switch {
	case s.Over():
		over := []render.Inline{render.Bold("The race is over.")}
		if pod := podium(rs.Standings(s)); pod != "" {
			over = append(over, render.Text(" "+pod))
		}
		d.P(over...)
		if p.Seed != "" {
			d.P(render.Text("The seed is revealed: "+p.Seed+". Its SHA-256 is the commitment posted at the start, "), render.Bold(p.Commitment),
				render.Text(fmt.Sprintf(", and 'pitwall verify %s' replays every roll from it.", p.ID)))
		}
	default:
		d.P(render.Text("The dice are sealed: the SHA-256 of this race's seed is "), render.Bold(p.Commitment),
			render.Text(". The seed is revealed when the race ends, so anyone can replay every roll."))
	}
	if picture != "" {
		d.Image(Title(p, n), picture)
	}

	t, _ := p.TurnAt(n)
	if n > 0 && t.Untold {
		d.P(render.Text(fmt.Sprintf("This %s was resolved before pitwall kept the story of each %s: its orders and events are in the race's log ('pitwall replay %s --turn %d').", g.Words.Turn, g.Words.Turn, p.ID, n)))
	} else if n > 0 {
		d.H(2, "What happened")
		story := tellStory(t.Events, s.Seats())
		if len(story) == 0 {
			story = append(story, fmt.Sprintf("A quiet %s: nothing moved.", g.Words.Turn))
		}
		d.Bullets(story...)
		// The audit trail of the story: every roll, folded away.
		rollList(d, fmt.Sprintf("Every roll of %s %d", g.Words.Turn, n), t.Rolls, s.Seats(),
			fmt.Sprintf("No dice were rolled in %s %d.", g.Words.Turn, n))

		d.H(2, "Orders")
		var rows [][]string
		seats := s.Seats()
		for _, seat := range sortedSeats(t.Orders) {
			note := ""
			for _, x := range t.Defaulted {
				if x == seat {
					note = "no orders came: the default"
				}
			}
			rows = append(rows, []string{seatName(seats, seat), t.Orders[seat], note})
		}
		table(d, []string{"Racer", "Orders", "Note"}, rows)
	}

	d.H(2, "Standings")
	var st [][]string
	for _, x := range rs.Standings(s) {
		st = append(st, []string{fmt.Sprint(x.Place), x.Name, x.Player, x.Status, x.Detail})
	}
	table(d, []string{"Place", "Racer", "Player", "Status", "Detail"}, st)

	if rec, ok := rs.(race.Recorder); ok {
		if recs := rec.Records(s); len(recs) > 0 {
			d.H(2, "Records of this race")
			d.Bullets(RecordLines(recs)...)
		}
	}

	d.H(2, "Status board")
	header, rows := s.Board()
	table(d, header, rows)

	if n == 0 {
		rollList(d, "The grid draw", p.SetupRolls, s.Seats(), "")
	}

	if !s.Over() && !p.Past && n == p.Resolved() {
		word := g.Words.Turn
		d.H(2, fmt.Sprintf("%s%s %d: your orders", strings.ToUpper(word[:1]), word[1:], s.Turn()))
		sch := p.Schedule
		var lines []string
		now := p.State // the coming turn, with the host's settings for it
		when := "as the host announces"
		if sch.Deadline != nil {
			when = sch.Deadline.UTC().Format("Mon 2 Jan 2006, 15:04 MST")
		}
		lines = append(lines, "Deadline: "+when+". Racers who send nothing take the default ("+g.Words.Default+").")
		if g.Words.Bonus != "" && sch.WindowOpen != nil && sch.WindowClose != nil {
			lines = append(lines, fmt.Sprintf("Bonus window: %s to %s. %s",
				sch.WindowOpen.UTC().Format("Mon 15:04"), sch.WindowClose.UTC().Format("15:04 MST"), g.Words.Bonus))
		}
		lines = append(lines, menuLines(rs.Prompts(now), g.Words.Racers)...)
		d.Bullets(lines...)
	}
	if p.PublicHead != "" { // a race played outside a store (a test's) has no chain
		// The head of the log's public part: the open turn's orders are not in it.
		d.P(render.Text(fmt.Sprintf("The race's log is sealed by a hash chain: its head after %d entries is ", p.PublicSeq)), render.Bold(p.PublicHead),
			render.Text(fmt.Sprintf(". Keep it: 'pitwall verify %s --head %s' shows whether anything up to here was rewritten since.", p.ID, p.PublicHead)))
	}
	switch format {
	case "bbcode":
		return d.BBCode(), nil
	case "text":
		return d.Text(), nil
	}
	return d.Markdown(), nil
}

// table adds a table without the columns that are empty in every row.
func table(d *render.Doc, header []string, rows [][]string) {
	d.Table(render.DropEmptyColumns(header, rows))
}

// rollList adds the rolls, folded away under title with their count, each
// with its racer's name; with none, the sentence none (or nothing, if none
// is ""), never an empty table.
func rollList(d *render.Doc, title string, rolls []dice.Roll, seats []race.Seat, none string) {
	if len(rolls) == 0 {
		if none != "" {
			d.P(render.Text(none))
		}
		return
	}
	var rr [][]string
	for i, r := range rolls {
		who, why := "", r.Reason
		if name := race.NameOf(seats, r.Seat); name != "" {
			// Most games begin a roll's reason with the racer's name;
			// the Racer column says it once.
			who, why = name, strings.TrimPrefix(why, name+": ")
		}
		rr = append(rr, []string{fmt.Sprint(i + 1), who, why, r.Die, fmt.Sprint(r.Result)})
	}
	d.Spoiler(fmt.Sprintf("%s (%s)", title, words.Count(len(rolls), "roll")), func(d *render.Doc) {
		table(d, []string{"#", "Racer", "Roll", "Die", "Result"}, rr)
	})
}

// tellStory makes one line of each racer's run of events, in the order they
// happened: 'Marcus shakes the reins: LOW; at LOW rolls 3 ...; drives 3
// spaces', the racer's name said once.
func tellStory(events []race.Event, seats []race.Seat) []string {
	var lines []string
	last := -2
	for _, e := range events {
		if e.Seat >= 0 && e.Seat == last && len(lines) > 0 {
			prev := lines[len(lines)-1]
			if strings.HasSuffix(prev, ".") || strings.HasSuffix(prev, "!") {
				// Games that tell whole sentences keep them whole.
				lines[len(lines)-1] += " " + e.Text
				continue
			}
			text := e.Text
			if name := seatName(seats, e.Seat) + " "; strings.HasPrefix(prev, name) {
				// The line began with the racer: it is said once. A line
				// that began otherwise ("the blue shell strikes the
				// leader, Luigi") keeps the name.
				text = strings.TrimPrefix(text, name)
			}
			lines[len(lines)-1] += "; " + text
			continue
		}
		lines = append(lines, e.Text)
		last = e.Seat
	}
	for i, l := range lines {
		// A line a game begins in lower case ("the blue shell ...") starts
		// with a capital, as a line of a post does.
		if r, n := utf8.DecodeRuneInString(l); unicode.IsLower(r) {
			lines[i] = string(unicode.ToUpper(r)) + l[n:]
		}
	}
	return lines
}

func sortedSeats(m map[int]string) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

func seatName(seats []race.Seat, seat int) string {
	if name := race.NameOf(seats, seat); name != "" {
		return name
	}
	return fmt.Sprint("seat ", seat)
}

// Stamp formats a time for people.
func Stamp(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 MST") }

// menuLines says what each racer may order, once for all who may order the
// same: a dozen racers with one menu read it once, not a dozen times. What is
// each racer's own (a note of where they stand) follows, racer by racer.
func menuLines(prompts []race.Prompt, racers string) []string {
	type menu struct {
		text  string
		names []string
		notes []string
	}
	var menus []*menu
	byText := map[string]*menu{}
	for _, pr := range prompts {
		text := words.Count(pr.Orders, "order")
		if len(pr.Legal) > 0 {
			text += " from " + strings.Join(pr.Legal, ", ")
		}
		m := byText[text]
		if m == nil {
			m = &menu{text: text}
			byText[text] = m
			menus = append(menus, m)
		}
		m.names = append(m.names, pr.Name)
		m.notes = append(m.notes, pr.Note)
	}
	var out []string
	for _, m := range menus {
		who := words.List(m.names)
		if len(menus) == 1 && len(m.names) > 2 {
			who = fmt.Sprintf("All %d %s", len(m.names), racers)
		}
		if allSame(m.notes) {
			line := who + ": " + m.text
			if m.notes[0] != "" {
				line += " (" + m.notes[0] + ")"
			}
			out = append(out, line)
			continue
		}
		out = append(out, who+": "+m.text)
		for i, n := range m.notes {
			if n != "" {
				out = append(out, m.names[i]+": "+n)
			}
		}
	}
	return out
}

func allSame(xs []string) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}

// podium names the first three places of a race that is over: "Winner:
// Marcus Aurelius (Marcus); second: Livia (Livia); third: Gaius (Gaius)."
// Racers who share a place are named together.
func podium(st race.Standings) string {
	byPlace := map[int][]string{}
	for _, x := range st {
		if x.Place < 1 || x.Place > 3 {
			continue
		}
		who := x.Name
		if x.Player != "" && x.Player != x.Name {
			who += " (" + x.Player + ")"
		}
		byPlace[x.Place] = append(byPlace[x.Place], who)
	}
	var parts []string
	for place, word := range []string{"", "Winner", "second", "third"} {
		if names := byPlace[place]; len(names) > 0 {
			if len(names) > 1 && place == 1 {
				word = "Winners, level"
			} else if len(names) > 1 {
				word += ", level"
			}
			parts = append(parts, word+": "+words.List(names))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, "; ") + "."
}
