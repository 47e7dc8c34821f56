package render

import (
	"path/filepath"
	"strings"
	"testing"

	"pitwall/race/racetest/golden"
)

const nasty = "A*b_[c]|<d>"

// samplePost uses every element once.
func samplePost() *Doc {
	var d Doc
	d.H(1, "Circus Maximus — Turn 7").
		P(Text("Lap 2 of 3. "), Bold("Ann"), Text(" leads; "), Italic("Bob"), Text(" crashed into the spina.")).
		H(2, "Standings").
		Table([]string{"Pos", "Racer", "Lane", "Notes"}, [][]string{
			{"1", "Ann", "2", ""},
			{"2", nasty, "1", "whip | lash"},
			{"3", "Cato"},
		}).
		H(3, "Moves").
		List(
			[]Inline{Bold(nasty), Text(" moved 6 spaces")},
			[]Inline{Text("- Bob stays in the pit")},
			[]Inline{Text("3. not a numbered list")},
		).
		Bullets("plain item", "another").
		Image("Track after turn 7", "turn 7.png").
		P(Text("Full rules: "), Link("ludi rules", "https://example.com/rules(v2)")).
		Code("roll 2d6 -> 4 + 3 = 7\n```\n[/code] [b]not bold[/b]\n").
		Rule().
		Spoiler("Dice log [GM]", func(d *Doc) {
			d.P(Text("Seed 42, "), Bold("all rolls"), Text(":"))
			d.Bullets("Ann: 5", nasty+": 6")
		})
	return &d
}

func TestPostGolden(t *testing.T) {
	d := samplePost()
	golden.Check(t, filepath.Join("testdata", "post.md"), d.Markdown())
	golden.Check(t, filepath.Join("testdata", "post.bbcode"), d.BBCode())
}

func TestEscapeMarkdown(t *testing.T) {
	for in, want := range map[string]string{
		nasty:         `A\*b\_\[c\]\|\<d\>`,
		`back\slash`:  `back\\slash`,
		"`code` ~x~":  "\\`code\\` \\~x\\~",
		"Tom & Jerry": "Tom & Jerry",
		"&amp; &#38;": `\&amp; \&\#38;`,
		"Car #3":      `Car \#3`,
		"plain, text": "plain, text",
	} {
		if got := EscapeMarkdown(in); got != want {
			t.Errorf("EscapeMarkdown(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEscapeBBCode(t *testing.T) {
	if got, want := EscapeBBCode(nasty), "A*b_[\u200bc]|<d>"; got != want {
		t.Errorf("EscapeBBCode = %q, want %q", got, want)
	}
	if got := EscapeBBCode("[b]x[/b]"); strings.Contains(got, "[b]") || strings.Contains(got, "[/b]") {
		t.Errorf("tag survived: %q", got)
	}
}

func TestPostEscapingEverywhere(t *testing.T) {
	var d Doc
	d.H(2, nasty).P(Bold(nasty), Italic(nasty), Text(nasty)).Bullets(nasty).
		Table([]string{nasty}, [][]string{{nasty}}).Image(nasty, nasty).
		Spoiler(nasty, func(d *Doc) { d.P(Link(nasty, nasty)) })
	// Every raw occurrence must be escaped: in Markdown no unescaped | [ ] <
	// * _ that came from the name, in BBCode no tag-like [c].
	for _, f := range []struct {
		format, doc, raw, says string
		wants                  []string
	}{
		{"Markdown", d.Markdown(), nasty, "unescaped name", []string{
			"## A\\*b\\_\\[c\\]\\|\\<d\\>\n",
			"**A\\*b\\_\\[c\\]\\|\\<d\\>***A\\*b",
			"| A\\*b\\_\\[c\\]\\|\\<d\\> |\n| --- |\n",
			"![A\\*b\\_\\[c\\]\\|\\<d\\>](A*b_%5Bc%5D|%3Cd%3E)",
			"<summary>A*b_[c]|&lt;d&gt;</summary>",
			"[A\\*b\\_\\[c\\]\\|\\<d\\>](A*b_%5Bc%5D|%3Cd%3E)",
		}},
		{"BBCode", d.BBCode(), "[c]", "tag-like [c] survived", []string{
			"[b]A*b_[\u200bc]|<d>[/b][i]A*b_[\u200bc]|<d>[/i]",
			"[spoiler=A*b_(c)|<d>]",
			"[img]A*b_%5Bc%5D|%3Cd%3E[/img]",
			"[url=A*b_%5Bc%5D|%3Cd%3E]A*b_[\u200bc]|<d>[/url]",
			"[table][tr][th]A*b_[\u200bc]|<d>[/th][/tr][tr][td]",
		}},
	} {
		if strings.Contains(f.doc, f.raw) {
			t.Errorf("%s in %s:\n%s", f.says, f.format, f.doc)
		}
		for _, want := range f.wants {
			if !strings.Contains(f.doc, want) {
				t.Errorf("%s lacks %q:\n%s", f.format, want, f.doc)
			}
		}
	}
}

// Each doc comes out as exactly this Markdown and this BBCode.
func TestPostFormats(t *testing.T) {
	for _, tc := range []struct {
		name             string
		doc              *Doc
		markdown, bbcode string
	}{
		{"what would start a block at a line's start", new(Doc).P(Text("- not a list")).P(Text("12. not numbered")).P(Text("  + indented")).P(Text("=")).Bullets("1) x"),
			"\\- not a list\n\n12\\. not numbered\n\n\\+ indented\n\n\\=\n\n- 1\\) x\n",
			"- not a list\n\n12. not numbered\n\n+ indented\n\n=\n\n[list]\n[*]1) x\n[/list]\n"},
		{"spaces inside bold and empty inlines", new(Doc).P(Text("a"), Bold(" b "), Text("c"), Bold("  "), Italic(""), Link("", "u v")),
			"a **b** c  [u v](u%20v)\n",
			"a[b] b [/b]c  [url=u%20v]u v[/url]\n"},
		{"a newline in inline text cannot break out of the block", new(Doc).Bullets("one\n# two"),
			"- one \\# two\n",
			"[list]\n[*]one # two\n[/list]\n"},
		{"a fence longer than the code's backticks", new(Doc).Code("a ```` b"),
			"`````\na ```` b\n`````\n",
			"[code]a ```` b[/code]\n"},
		{"a closing tag in code", new(Doc).Code("x [/CODE] y\r\n"),
			"```\nx [/CODE] y\n```\n",
			"[code]x [\u200b/code] y[/code]\n"},
		{"a nil doc", nil, "", ""},
		{"empty parts", new(Doc).Table(nil, nil).Spoiler("", nil).H(9, "").H(-1, "x"),
			"<details>\n<summary></summary>\n\n\n</details>\n\n# x\n",
			"[spoiler]\n[/spoiler]\n\n[size=150][b]x[/b][/size]\n"},
	} {
		if got := tc.doc.Markdown(); got != tc.markdown {
			t.Errorf("%s: Markdown = %q, want %q", tc.name, got, tc.markdown)
		}
		if got := tc.doc.BBCode(); got != tc.bbcode {
			t.Errorf("%s: BBCode = %q, want %q", tc.name, got, tc.bbcode)
		}
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{{"Mario", 5, "Mario"}, {"Mario Bros", 5, "Mari…"}, {"ÉÉÉÉÉÉ", 4, "ÉÉÉ…"}, {"", 3, ""}} {
		if got := Clip(tc.in, tc.n); got != tc.want {
			t.Errorf("Clip(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestDropEmptyColumns(t *testing.T) {
	h, rows := DropEmptyColumns([]string{"Racer", "Item", "Note", "Lap"}, [][]string{
		{"Ann", "", "-", "2/3"},
		{"Bob", " ", "", "-"},
		{"Cato"},
	})
	if got, want := strings.Join(h, ","), "Racer,Lap"; got != want {
		t.Errorf("header %q, want %q", got, want)
	}
	if len(rows) != 3 || strings.Join(rows[0], ",") != "Ann,2/3" || strings.Join(rows[1], ",") != "Bob,-" || strings.Join(rows[2], ",") != "Cato," {
		t.Errorf("rows %q", rows)
	}
	// One filled cell keeps its column, header and all.
	h, rows = DropEmptyColumns([]string{"Racer", "Note"}, [][]string{{"Ann", ""}, {"Bob", "no orders came"}})
	if len(h) != 2 || rows[1][1] != "no orders came" || rows[0][1] != "" {
		t.Errorf("a column with one note: %q %q", h, rows)
	}
	if h, rows := DropEmptyColumns(nil, nil); h != nil || len(rows) != 0 {
		t.Errorf("empty table: %q %q", h, rows)
	}
}
