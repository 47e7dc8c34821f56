package render

import (
	"strings"
	"unicode/utf8"
)

// Text renders the document as plain text, for a chat or a terminal that
// shows markup as it is: no markup at all. Headings are underlined, tables
// are columns padded to line up, a folded section is its title and then its
// body, and a picture is its address.
func (d *Doc) Text() string { return d.render(block.plain) }

// The blocks as plain text (block.plain).

func (x heading) plain(b *strings.Builder) {
	t := strings.TrimSpace(oneLine(x.text))
	if t == "" {
		return
	}
	b.WriteString(t + "\n")
	if x.level < 3 {
		b.WriteString(strings.Repeat(map[int]string{1: "=", 2: "-"}[x.level], utf8.RuneCountInString(t)) + "\n")
	}
}

func (x para) plain(b *strings.Builder) {
	if s := textInlines(x); s != "" {
		b.WriteString(s + "\n")
	}
}

func (x list) plain(b *strings.Builder)     { textList(x, b) }
func (x starList) plain(b *strings.Builder) { textList(list(x), b) }
func (x table) plain(b *strings.Builder)    { textTable(x, b) }

func (x img) plain(b *strings.Builder) {
	alt := strings.TrimSpace(oneLine(x.alt))
	if alt != "" {
		alt += ": "
	}
	b.WriteString(alt + oneLine(x.path) + "\n")
}

func (x code) plain(b *strings.Builder) {
	text := normNewlines(string(x))
	b.WriteString(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		b.WriteString("\n")
	}
}

func (rule) plain(b *strings.Builder) { b.WriteString("----------\n") }

func (x spoiler) plain(b *strings.Builder) {
	if t := strings.TrimSpace(oneLine(x.title)); t != "" {
		b.WriteString(t + ":\n")
	}
	b.WriteString(x.body.Text())
}

func textList(l list, b *strings.Builder) {
	for _, it := range l {
		b.WriteString("- " + textInlines(it) + "\n")
	}
}

// textTable pads every column to its widest cell, two spaces apart, with a
// line of dashes under the header.
func textTable(t table, b *strings.Builder) {
	n := t.width()
	if n == 0 {
		return
	}
	widths := make([]int, n)
	for _, r := range append([][]string{t.header}, t.rows...) {
		for i := range n {
			widths[i] = max(widths[i], utf8.RuneCountInString(strings.TrimSpace(cell(r, i))))
		}
	}
	line := func(cells func(i int) string) {
		var l strings.Builder
		for i := range n {
			c := cells(i)
			l.WriteString(c)
			if i < n-1 {
				l.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c)+2))
			}
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	if len(t.header) > 0 {
		line(func(i int) string { return strings.TrimSpace(cell(t.header, i)) })
		line(func(i int) string { return strings.Repeat("-", widths[i]) })
	}
	for _, r := range t.rows {
		line(func(i int) string { return strings.TrimSpace(cell(r, i)) })
	}
}

func textInlines(in []Inline) string {
	var b strings.Builder
	for _, x := range in {
		t := oneLine(x.text)
		if x.kind == inlineLink {
			switch {
			case t == "" || t == x.url:
				t = oneLine(x.url)
			default:
				t += " (" + oneLine(x.url) + ")"
			}
		}
		b.WriteString(t)
	}
	return strings.TrimSpace(b.String())
}
