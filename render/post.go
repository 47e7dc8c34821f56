package render

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Doc is a turn post built once and rendered as Markdown or BBCode. The zero
// Doc is empty and ready to use; builder methods return d for chaining.
//
// All text given to a Doc is plain text: it is escaped for each format, so
// racers' names like "A*b_[c]|<d>" come out literally. Newlines and tabs in
// inline text become spaces; use Code for preformatted text.
type Doc struct {
	blocks []block
}

// Inline is a run of text inside a paragraph, list item or the like.
type Inline struct {
	kind inlineKind
	text string
	url  string
}

type inlineKind uint8

const (
	inlineText inlineKind = iota
	inlineBold
	inlineItalic
	inlineLink
)

// Text is plain text.
func Text(s string) Inline { return Inline{kind: inlineText, text: s} }

// Bold is bold text.
func Bold(s string) Inline { return Inline{kind: inlineBold, text: s} }

// Italic is italic text.
func Italic(s string) Inline { return Inline{kind: inlineItalic, text: s} }

// Link is a hyperlink; with empty text the URL is shown.
func Link(text, url string) Inline { return Inline{kind: inlineLink, text: text, url: url} }

// block is one block-level element; each knows both output formats.
type block interface {
	markdown(b *strings.Builder)
	bbcode(b *strings.Builder)
	plain(b *strings.Builder) // text.go
}

func (d *Doc) add(b block) *Doc {
	d.blocks = append(d.blocks, b)
	return d
}

// H adds a heading; level is clamped to 1..3.
func (d *Doc) H(level int, text string) *Doc {
	return d.add(heading{level: min(max(level, 1), 3), text: text})
}

// P adds a paragraph.
func (d *Doc) P(in ...Inline) *Doc { return d.add(para(in)) }

// List adds a bullet list; each item is a run of inlines.
func (d *Doc) List(items ...[]Inline) *Doc { return d.add(list(items)) }

// Bullets adds a bullet list of plain-text items.
func (d *Doc) Bullets(items ...string) *Doc {
	l := make(list, len(items))
	for i, s := range items {
		l[i] = []Inline{Text(s)}
	}
	return d.add(l)
}

// Table adds a table. Rows shorter than the widest row are padded with
// empty cells; a nil header gives an empty header row (Markdown needs one).
func (d *Doc) Table(header []string, rows [][]string) *Doc {
	return d.add(table{header: header, rows: rows})
}

// DropEmptyColumns returns the table without the columns that say nothing:
// those whose every row is blank or a placeholder dash ("-"), whatever
// their header. A status board whose Item column nobody fills, or an Orders
// column of racers who have all finished, is left out of a post rather
// than shown empty. Rows shorter than the header count as blank there.
func DropEmptyColumns(header []string, rows [][]string) ([]string, [][]string) {
	n := len(header)
	for _, r := range rows {
		n = max(n, len(r))
	}
	keep := make([]bool, n)
	for i := range n {
		for _, r := range rows {
			if c := strings.TrimSpace(cell(r, i)); c != "" && c != "-" {
				keep[i] = true
				break
			}
		}
	}
	pick := func(row []string) []string {
		var out []string
		for i := range n {
			if keep[i] {
				out = append(out, cell(row, i))
			}
		}
		return out
	}
	h := pick(header)
	out := make([][]string, len(rows))
	for j, r := range rows {
		out[j] = pick(r)
	}
	return h, out
}

// Image adds an image on its own line. path is a URL or relative path.
func (d *Doc) Image(alt, path string) *Doc { return d.add(img{alt: alt, path: path}) }

// Code adds a preformatted block, shown verbatim.
func (d *Doc) Code(text string) *Doc { return d.add(code(text)) }

// Rule adds a horizontal rule.
func (d *Doc) Rule() *Doc { return d.add(rule{}) }

// Spoiler adds a collapsed section titled title, whose content body builds.
func (d *Doc) Spoiler(title string, body func(*Doc)) *Doc {
	var sub Doc
	if body != nil {
		body(&sub)
	}
	return d.add(spoiler{title: title, body: &sub})
}

// Markdown renders the document as CommonMark/GFM (tables and <details>
// are GitHub-flavoured extensions).
func (d *Doc) Markdown() string {
	if d == nil {
		return ""
	}
	// Two lists in a row would merge into one in CommonMark; a different
	// bullet character starts a new list.
	blocks := make([]block, len(d.blocks))
	for i, bl := range d.blocks {
		if l, ok := bl.(list); ok && i > 0 {
			if _, prev := blocks[i-1].(list); prev {
				bl = starList(l)
			}
		}
		blocks[i] = bl
	}
	return (&Doc{blocks: blocks}).render(block.markdown)
}

// BBCode renders the document as forum BBCode (phpBB-style: [size] in
// percent; [table], [spoiler] and [hr] need board support on some forums).
func (d *Doc) BBCode() string { return d.render(block.bbcode) }

// render joins the non-empty blocks with blank lines.
func (d *Doc) render(f func(block, *strings.Builder)) string {
	if d == nil {
		return ""
	}
	var out, b strings.Builder
	for _, bl := range d.blocks {
		b.Reset()
		f(bl, &b)
		if b.Len() == 0 {
			continue
		}
		if out.Len() > 0 {
			out.WriteString("\n")
		}
		out.WriteString(b.String())
	}
	return out.String()
}

// ---- blocks ----

type heading struct {
	level int
	text  string
}

func (h heading) markdown(b *strings.Builder) {
	if strings.TrimSpace(oneLine(h.text)) == "" {
		return
	}
	b.WriteString(strings.Repeat("#", h.level) + " " + EscapeMarkdown(strings.TrimSpace(oneLine(h.text))) + "\n")
}

func (h heading) bbcode(b *strings.Builder) {
	t := EscapeBBCode(strings.TrimSpace(oneLine(h.text)))
	if t == "" {
		return
	}
	switch h.level {
	case 1:
		b.WriteString("[size=150][b]" + t + "[/b][/size]\n")
	case 2:
		b.WriteString("[size=120][b]" + t + "[/b][/size]\n")
	default:
		b.WriteString("[b]" + t + "[/b]\n")
	}
}

type para []Inline

func (p para) markdown(b *strings.Builder) {
	if s := mdLineStart(mdInlines(p)); s != "" {
		b.WriteString(s + "\n")
	}
}

func (p para) bbcode(b *strings.Builder) {
	if s := bbInlines(p); s != "" {
		b.WriteString(s + "\n")
	}
}

type list [][]Inline

func (l list) markdown(b *strings.Builder) { l.markdownWith(b, "- ") }

func (l list) markdownWith(b *strings.Builder, bullet string) {
	for _, it := range l {
		b.WriteString(bullet + mdLineStart(mdInlines(it)) + "\n")
	}
}

// starList is a list that follows another list in Markdown.
type starList list

func (l starList) markdown(b *strings.Builder) { list(l).markdownWith(b, "* ") }
func (l starList) bbcode(b *strings.Builder)   { list(l).bbcode(b) }

func (l list) bbcode(b *strings.Builder) {
	b.WriteString("[list]\n")
	for _, it := range l {
		b.WriteString("[*]" + bbInlines(it) + "\n")
	}
	b.WriteString("[/list]\n")
}

type table struct {
	header []string
	rows   [][]string
}

func (t table) width() int {
	n := len(t.header)
	for _, r := range t.rows {
		n = max(n, len(r))
	}
	return n
}

func cell(row []string, i int) string {
	if i < len(row) {
		return oneLine(row[i])
	}
	return ""
}

func (t table) markdown(b *strings.Builder) {
	n := t.width()
	if n == 0 {
		return
	}
	line := func(row []string) {
		b.WriteString("|")
		for i := range n {
			// EscapeMarkdown escapes '|', which GFM honours inside cells.
			b.WriteString(" " + strings.TrimSpace(EscapeMarkdown(cell(row, i))) + " |")
		}
		b.WriteString("\n")
	}
	line(t.header)
	b.WriteString("|" + strings.Repeat(" --- |", n) + "\n")
	for _, r := range t.rows {
		line(r)
	}
}

func (t table) bbcode(b *strings.Builder) {
	n := t.width()
	if n == 0 {
		return
	}
	// One line: most boards turn newlines inside [table] into stray <br>s.
	row := func(r []string, tag string) {
		b.WriteString("[tr]")
		for i := range n {
			b.WriteString("[" + tag + "]" + EscapeBBCode(cell(r, i)) + "[/" + tag + "]")
		}
		b.WriteString("[/tr]")
	}
	b.WriteString("[table]")
	if len(t.header) > 0 {
		row(t.header, "th")
	}
	for _, r := range t.rows {
		row(r, "td")
	}
	b.WriteString("[/table]\n")
}

type img struct{ alt, path string }

func (i img) markdown(b *strings.Builder) {
	b.WriteString("![" + EscapeMarkdown(oneLine(i.alt)) + "](" + escapeURL(i.path) + ")\n")
}

func (i img) bbcode(b *strings.Builder) {
	b.WriteString("[img]" + escapeURL(i.path) + "[/img]\n")
}

type code string

func (c code) markdown(b *strings.Builder) {
	text := normNewlines(string(c))
	// The fence must be longer than any backtick run inside (CommonMark).
	fence := strings.Repeat("`", max(3, longestRun(text, '`')+1))
	b.WriteString(fence + "\n" + text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
	b.WriteString(fence + "\n")
}

func (c code) bbcode(b *strings.Builder) {
	text := normNewlines(string(c))
	// Only a closing tag can end [code] early; BBCode has no escape, so a
	// zero-width space breaks it up instead.
	text = replaceFold(text, "[/code]", "[\u200b/code]")
	b.WriteString("[code]" + strings.TrimSuffix(text, "\n") + "[/code]\n")
}

type rule struct{}

func (rule) markdown(b *strings.Builder) { b.WriteString("---\n") }
func (rule) bbcode(b *strings.Builder)   { b.WriteString("[hr]\n") }

type spoiler struct {
	title string
	body  *Doc
}

func (s spoiler) markdown(b *strings.Builder) {
	// Raw HTML: the summary is HTML-escaped, and the blank lines let the
	// body be parsed as Markdown again (GitHub, Discourse).
	b.WriteString("<details>\n<summary>" + htmlEscape(oneLine(s.title)) + "</summary>\n\n")
	b.WriteString(s.body.Markdown())
	b.WriteString("\n</details>\n")
}

func (s spoiler) bbcode(b *strings.Builder) {
	// A bracket would end the opening tag, so the title gets parentheses.
	t := strings.NewReplacer("[", "(", "]", ")").Replace(oneLine(s.title))
	if t == "" {
		b.WriteString("[spoiler]\n")
	} else {
		b.WriteString("[spoiler=" + t + "]\n")
	}
	b.WriteString(s.body.BBCode())
	b.WriteString("[/spoiler]\n")
}

// ---- inlines ----

func mdInlines(in []Inline) string {
	var b strings.Builder
	for _, x := range in {
		t := oneLine(x.text)
		switch x.kind {
		case inlineBold:
			b.WriteString(mdWrap(t, "**"))
		case inlineItalic:
			b.WriteString(mdWrap(t, "*"))
		case inlineLink:
			if t == "" {
				t = x.url
			}
			b.WriteString("[" + EscapeMarkdown(t) + "](" + escapeURL(x.url) + ")")
		default:
			b.WriteString(EscapeMarkdown(t))
		}
	}
	return strings.TrimSpace(b.String())
}

// mdWrap emphasises t. Emphasis next to a space does not count in
// CommonMark ("** a**"), so surrounding spaces move outside the markers.
func mdWrap(t, mark string) string {
	core := strings.TrimSpace(t)
	if core == "" {
		return t
	}
	i := strings.Index(t, core)
	return t[:i] + mark + EscapeMarkdown(core) + mark + t[i+len(core):]
}

func bbInlines(in []Inline) string {
	var b strings.Builder
	for _, x := range in {
		t := oneLine(x.text)
		switch x.kind {
		case inlineBold, inlineItalic:
			tag := map[inlineKind]string{inlineBold: "b", inlineItalic: "i"}[x.kind]
			if strings.TrimSpace(t) == "" {
				b.WriteString(t) // an empty [b][/b] is just noise
			} else {
				b.WriteString("[" + tag + "]" + EscapeBBCode(t) + "[/" + tag + "]")
			}
		case inlineLink:
			if t == "" {
				t = x.url
			}
			b.WriteString("[url=" + escapeURL(x.url) + "]" + EscapeBBCode(t) + "[/url]")
		default:
			b.WriteString(EscapeBBCode(t))
		}
	}
	return strings.TrimSpace(b.String())
}

// ---- escaping ----

// EscapeMarkdown backslash-escapes the characters that can start Markdown
// syntax anywhere in a line (emphasis, links, code, HTML, table cells,
// strikethrough, heading closers), so s renders literally. Characters that
// only matter at the start of a line are handled by the Doc blocks.
func EscapeMarkdown(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\', '`', '*', '_', '[', ']', '<', '>', '|', '~', '#':
			b.WriteByte('\\')
		case '&':
			// Only an entity reference ("&amp;", "&#38;") needs escaping;
			// "Tom & Jerry" is left alone.
			if i+1 < len(s) && (isAlnum(s[i+1]) || s[i+1] == '#') {
				b.WriteByte('\\')
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// mdLineStart escapes what would make a line a list item, heading
// underline or numbered list ("- x", "+ x", "=", "1. x", "1) x").
func mdLineStart(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '-', '+', '=':
		return `\` + s
	}
	i := 0
	for i < len(s) && i < 10 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i > 0 && i < len(s) && (s[i] == '.' || s[i] == ')') {
		return s[:i] + `\` + s[i:]
	}
	return s
}

// EscapeBBCode makes s show literally in BBCode. BBCode has no escape
// syntax, so a zero-width space (U+200B) goes after every '[': the text
// looks the same but no tag can form. Nothing else is special; boards
// escape HTML themselves.
func EscapeBBCode(s string) string {
	return strings.ReplaceAll(s, "[", "[\u200b")
}

func htmlEscape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}

// escapeURL percent-encodes the few characters that would end a URL early
// in either format (spaces, brackets, parentheses, quotes, angle brackets,
// control characters); everything else is left as given.
func escapeURL(u string) string {
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(u, "\uFFFD") {
		switch {
		case r <= ' ' || r == 0x7f || strings.ContainsRune(`()[]<>"'\`+"`", r):
			fmt.Fprintf(&b, "%%%02X", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// oneLine makes user text safe for a single line: newlines, tabs and other
// control characters become spaces, invalid UTF-8 becomes U+FFFD.
func oneLine(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return strings.Map(func(r rune) rune {
		if r < ' ' || r == 0x7f {
			return ' '
		}
		return r
	}, s)
}

func normNewlines(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// replaceFold replaces old, which must be ASCII, in s ignoring case.
func replaceFold(s, old, repl string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		if i+len(old) <= len(s) && strings.EqualFold(s[i:i+len(old)], old) {
			b.WriteString(repl)
			i += len(old)
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
