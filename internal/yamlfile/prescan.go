package yamlfile

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// The limits every file is held to before a YAML parser sees it. go-yaml's
// parser costs memory in the square of the nesting depth (a 160 KB file of
// brackets took 15.7 GB), and time in the square of the keys of one block
// mapping, of the documents in a file and of the values left out, so each is
// bounded here, by a scan that costs time linear in the file and no memory
// that grows with it.
const (
	// MaxDepth is the deepest nesting read: block mappings and sequences
	// and flow collections, counted together.
	MaxDepth = 32
	// MaxKeys is the most keys one block mapping may hold.
	MaxKeys = 256
	// MaxEmpty is the most values a file may leave out (a key or a '-'
	// with nothing after it): each costs go-yaml a copy of the tokens after it.
	MaxEmpty = 1024
	// shippedDepth is the deepest nesting in pitwall's own files (a course's
	// segment's paths, one flow mapping each); the test on the shipped files
	// keeps it true.
	shippedDepth = 5
	// maxAngles is the longest run of '<' read outside quotes.
	maxAngles = 64
)

// prescan refuses src when it nests deeper than lim.depth, holds more than
// lim.keys keys in one block mapping or leaves out more than lim.empty
// values, holds more than one document, uses an alias, or is not UTF-8; and
// three things no pitwall file needs whose nesting go-yaml makes hard to
// foresee: explicit keys ('? '), merge keys ('<<:') and block scalars with
// no text; and two that cost go-yaml's scanner time in the square of their
// length: a tab in a double-quoted string (written \t instead) and a run of
// more than 64 '<'. It returns the deepest nesting it saw.
//
// To count what the parser will build, it follows go-yaml's scanner
// (github.com/goccy/go-yaml v1.19.2, scanner/scanner.go) decision by
// decision: where a plain scalar goes on, where a quoted one starts and ends,
// which brackets open a flow collection, where a block scalar ends; and it
// places block keys and entries by the parser's own rules (parser.go). A
// simpler count is fooled: go-yaml's parser nests '0: !' on every line, or
// '0:' and '-' on alternate lines, one level deeper each time with no
// indentation at all; and its scanner skips the character after a
// double-quoted string that holds a tab, so '["\tx"],' repeated would nest
// one level each time while a count of brackets stays at one. FuzzPrescan
// checks the scan against go-yaml's own tokens and tree.
func prescan(src []byte, lim limits) (deepest int, err error) {
	if line := badUTF8Line(src); line > 0 {
		return 0, fmt.Errorf("line %d: the file is not UTF-8 text; save it as UTF-8", line)
	}
	p := &scanner{src: src, line: 1, col: 1, first: true, maxDepth: lim.depth, maxKeys: lim.keys, maxEmpty: lim.empty}
	p.maxDepth = min(p.maxDepth, MaxDepth) // the arrays of levels hold one more
	if err := p.run(); err != nil {
		return p.deepest, err
	}
	return p.deepest, nil
}

// limits are the bounds prescan holds a file to.
type limits struct{ depth, keys, empty int }

var fileLimits = limits{depth: MaxDepth, keys: MaxKeys, empty: MaxEmpty}

func badUTF8Line(src []byte) int {
	line := 1
	for i := 0; i < len(src); {
		c := src[i]
		if c < utf8.RuneSelf {
			if c == '\n' {
				line++
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n == 1 {
			return line
		}
		i += n
	}
	return 0
}

// tokKind is the kind of the last token go-yaml's scanner made, as far as
// its later decisions look at it.
type tokKind uint8

const (
	tokNone tokKind = iota
	tokPlain
	tokQuote
	tokMapValue
	tokOther
	tokText    // a block scalar's text: its column is go-yaml's guess
	tokComment // a comment
)

// indentState mirrors the scanner's: set at a line's first character
// against the last delimiter's column.
type indentState uint8

const (
	stateKeep indentState = iota
	stateUp
	stateDown
)

type level struct {
	col  int
	seq  bool
	keys int
}

// document states
const (
	docNone    = iota
	docHeader  // '---' seen, no content yet
	docContent // content seen
	docEnded   // '...' seen
)

// scanner holds go-yaml's scanner state that decides structure, in its own
// units: col is go-yaml's column, in runes, lagging where go-yaml's lags
// (after a tag, a tab); line is the file's own line, for messages.
type scanner struct {
	src  []byte
	i    int
	line int

	maxDepth, maxKeys, maxEmpty int
	nulls                       int

	col, indentNum, lastDelim int
	first                     bool // isFirstCharAtLine
	state                     indentState
	seqN, mapN                int // startedFlowSequenceNum, startedFlowMapNum
	plain                     bool
	plainStart, lastNonSpace  int
	saved                     bool // savedPos is set
	savedCol                  int
	anchor, alias, directive  bool
	last                      tokKind // the scanner's last token
	lastNC                    tokKind // the last but comments: the parser's
	lastQuoteCol              int
	lastPlainCol              int  // the column of the last plain scalar's token
	propCol, propLine         int  // where the first tag or anchor before a node is
	tagOpen                   bool // a tag, and nothing after it on its line yet
	anchorOpen                bool // an anchor, and nothing after it on its line yet
	anchorLine                int
	pendLine                  int  // the line of the key or '-' that awaits a value
	nameNext                  bool // the next token is an anchor's name
	pend                      int  // a block value is awaited: pendMap, pendSeq or pendAny
	pendCol                   int  // the column of the key or '-' that awaits it
	keyPend                   int  // pend before the last scalar began
	keyProp                   int  // propCol before the last scalar began
	keyLine                   int  // the line it began on
	multi                     bool // a block scalar or a raw folded plain scalar
	multiFirst                int  // its firstLineIndentColumn
	multiText                 bool // a block scalar has text (or is a raw folded one)
	multiStart                int  // the line of its header

	flow    int // open flow collections, and the pairs ('[a: b]') open in them
	flows   [MaxDepth + 2]flowLevel
	nflows  int
	levels  [MaxDepth + 2]level
	nlevels int
	deepest int
	doc     int
}

func (p *scanner) errorf(format string, a ...any) error {
	return fmt.Errorf("line %d: %s", p.line, fmt.Sprintf(format, a...))
}

// prop notes a tag or an anchor: the parser gives a key that has one the
// column of the first.
func (p *scanner) prop() {
	if p.propCol == 0 || p.propLine != p.line {
		p.propCol, p.propLine = p.col, p.line
	}
}

func (p *scanner) flowMode() bool { return p.seqN > 0 || p.mapN > 0 }

func (p *scanner) runeLen(i int) int {
	if p.src[i] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRune(p.src[i:])
	return n
}

func (p *scanner) next() byte {
	if p.i+1 < len(p.src) {
		return p.src[p.i+1]
	}
	return 0
}

// repeat is repeatNum, counting no further than most.
func (p *scanner) repeat(c byte, most int) int {
	n := 0
	for j := p.i; j < len(p.src) && p.src[j] == c && n < most; j++ {
		n++
	}
	return n
}

// newlineAt counts the file's line for the line break at j ('\r\n' is one).
func (p *scanner) newlineAt(j int) {
	if p.src[j] == '\n' || j+1 >= len(p.src) || p.src[j+1] != '\n' {
		p.line++
	}
}

// progressLine is go-yaml's: a new line starts.
func (p *scanner) progressLine() {
	if p.tagOpen || (p.anchorOpen && (p.pend == pendNone || p.pendLine != p.anchorLine)) {
		// go-yaml's parser takes the next node as the tag's value, at any
		// column: '0: !' on every line nests one deeper each time. So it
		// does an anchor's, but for one on the line of the key or '-'.
		p.pend = pendAny
	}
	p.tagOpen, p.anchorOpen = false, false
	p.col = 1
	p.indentNum = 0
	p.first = true
	p.anchor, p.alias, p.directive = false, false, false
}

// value notes a scalar or a flow collection: what a key, a '-' or a tag
// awaited has come.
func (p *scanner) value() {
	if p.nameNext {
		p.nameNext = false // go-yaml's parser takes it as the anchor's name
		return
	}
	// if the scalar turns out a key, what awaited it still waits, and the
	// key has the tag's or anchor's column
	p.keyPend, p.keyProp, p.keyLine = p.pend, 0, p.line
	if p.propLine == p.line {
		p.keyProp = p.propCol // (one on an earlier line is the collection's)
	}
	p.pend, p.propCol = pendNone, 0
	p.tagOpen, p.anchorOpen = false, false
	if p.nflows > 0 {
		if f := &p.flows[p.nflows-1]; f.colon {
			f.val = true
		} else {
			f.key = true
		}
	}
}

// content notes a token that is part of a document.
func (p *scanner) content() error {
	switch p.doc {
	case docEnded:
		return p.errorf("more after the end of the document ('...'); pitwall reads one document a file")
	case docNone, docHeader:
		p.doc = docContent
	}
	return nil
}

func (p *scanner) setLast(k tokKind) {
	p.last = k
	if k != tokComment {
		p.lastNC = k
	}
}

// emit notes a token other than a plain scalar's (see plainChar and flush).
func (p *scanner) emit(k tokKind) error {
	p.setLast(k)
	p.nameNext = false
	return p.content()
}

// flush is addBufferedTokenIfExists: a plain scalar in progress ends.
func (p *scanner) flush() {
	if p.plain {
		p.plain = false
		p.setLast(tokPlain)
		p.lastPlainCol = p.plainCol()
	}
	p.saved = false
}

// plainCol is the column go-yaml gives the plain scalar in progress.
func (p *scanner) plainCol() int {
	if p.saved {
		return p.savedCol
	}
	return p.plainStart
}

func (p *scanner) plainChar() error {
	c := p.src[p.i]
	if c != ' ' && c != '\t' {
		if !p.plain {
			p.plain = true
			p.plainStart = p.col
			p.value() // or the anchor's name
			if err := p.content(); err != nil {
				return err
			}
		}
		p.lastNonSpace = p.col
	}
	p.col++
	p.i += p.runeLen(p.i)
	return nil
}

func (p *scanner) depthCheck() error {
	d := p.nlevels + p.flow
	if d > p.deepest {
		p.deepest = d
	}
	if d > p.maxDepth {
		return p.errorf("nesting deeper than %d levels; pitwall's files need at most %d (is a bracket or an indentation astray?)", p.maxDepth, shippedDepth)
	}
	return nil
}

func (p *scanner) push(l level) error {
	p.levels[p.nlevels] = l
	p.nlevels++
	return p.depthCheck()
}

// What a key, a '-' or a tag at the end of its line awaits.
const (
	pendNone = iota
	pendMap  // a key's value
	pendSeq  // a sequence entry's value
	pendAny  // a tag's value, or a key's the scan cannot place
)

// block notes a block mapping's key (seq false) or a sequence entry at col,
// placing it as go-yaml's parser does (parseMapValue, parseSequenceValue
// and the loops of parseMap and parseSequence): it is the value awaited, so
// one level deeper, unless it is a sibling or stands left of what awaits
// it; then it ends open collections until one takes it as a sibling.
func (p *scanner) block(col, line int, seq bool) error {
	nested := false
	switch p.pend {
	case pendAny:
		nested = true
	case pendMap: // a key at the key's column is the next key; a '-' there is the value
		nested = col > p.pendCol || (col == p.pendCol && seq)
	case pendSeq: // a '-' at the entry's column is the next entry; a key there is the value
		nested = col > p.pendCol || (col == p.pendCol && !seq)
	}
	if p.pend != pendNone && !nested {
		if err := p.empty(); err != nil {
			return err
		}
	}
	p.pend = pendMap
	if seq {
		p.pend = pendSeq
	}
	p.pendCol, p.pendLine = col, line
	if !nested {
		for p.nlevels > 0 {
			top := &p.levels[p.nlevels-1]
			if top.col == col && top.seq == seq {
				if seq {
					return nil
				}
				if top.keys++; top.keys > p.maxKeys {
					return p.errorf("more than %d keys in one mapping; pitwall's files need a few dozen at most", p.maxKeys)
				}
				return nil
			}
			p.nlevels--
		}
	}
	// A mapping the scan nests where the parser may not (after a tag, say)
	// goes on counting the keys of the one it stands in at the same column.
	keys := 1
	for k := p.nlevels - 1; k >= 0; k-- {
		if l := p.levels[k]; l.col == col && !l.seq && !seq {
			keys += l.keys
			break
		}
	}
	if keys > p.maxKeys {
		return p.errorf("more than %d keys in one mapping; pitwall's files need a few dozen at most", p.maxKeys)
	}
	return p.push(level{col: col, seq: seq, keys: keys})
}

// flowLevel is an open flow collection: the pairs open in its entry (each
// a level deeper), and in a mapping, what the entry so far has.
type flowLevel struct {
	seq             bool
	pairs           int
	key, colon, val bool
}

func (p *scanner) flowOpen(seq bool) error {
	p.flows[p.nflows] = flowLevel{seq: seq}
	p.nflows++
	p.flow++
	return p.depthCheck()
}

// flowPair notes a ':' in a flow collection: in a sequence it opens a
// mapping of one pair, a level deeper, to the next ',' or the end; so does
// each ':' after the first in a mapping's entry ('{a: b: c}').
func (p *scanner) flowPair() error {
	if p.nflows == 0 {
		return nil
	}
	f := &p.flows[p.nflows-1]
	if !f.seq && !f.colon {
		f.colon = true
		return nil
	}
	f.pairs++
	p.flow++
	return p.depthCheck()
}

// flowEntry notes a ',' or the end: a pair ends, and a mapping's entry.
func (p *scanner) flowEntry() error {
	if p.nflows == 0 {
		return nil
	}
	f := &p.flows[p.nflows-1]
	p.flow -= f.pairs
	f.pairs = 0
	if !f.seq {
		empty := (f.key || f.colon) && !(f.colon && f.val)
		f.key, f.colon, f.val = false, false, false
		if empty {
			return p.empty()
		}
	}
	return nil
}

// empty notes a value left out: go-yaml's parser puts a null in its place
// by copying every token after it (context.insertToken).
func (p *scanner) empty() error {
	if p.nulls++; p.nulls > p.maxEmpty {
		return p.errorf("more than %d empty values (keys or '-' with nothing after them); pitwall's files need a handful", p.maxEmpty)
	}
	return nil
}

func (p *scanner) flowClose() error {
	if p.nflows == 0 {
		return nil
	}
	err := p.flowEntry()
	p.nflows--
	p.flow--
	return err
}

// docMarkerAt is foundDocumentSeparatorMarker: '---' or '...' at j, alone
// or followed by a space, tab or line break.
func (p *scanner) docMarkerAt(j int) bool {
	s := p.src[j:]
	if len(s) < 3 {
		return false
	}
	if string(s[:3]) != "---" && string(s[:3]) != "..." {
		return false
	}
	return len(s) == 3 || s[3] == ' ' || s[3] == '\t' || s[3] == '\n' || s[3] == '\r'
}

func isBreak(c byte) bool { return c == '\n' || c == '\r' }

func (p *scanner) run() error {
	for p.i < len(p.src) {
		c := p.src[p.i]
		// updateIndent
		if p.first {
			switch c {
			case ' ':
				p.indentNum++
			case '\n', '\r', '\t':
			default:
				if p.lastDelim != 0 {
					if p.lastDelim < p.col {
						p.state = stateUp
					} else {
						p.state = stateDown
					}
				}
				p.first = false
			}
		} else {
			p.state = stateKeep
		}
		if p.state == stateDown {
			p.flush()
		}
		if p.multi {
			if p.state == stateDown {
				if !p.multiText {
					// go-yaml ends a block scalar of blank lines keeping a
					// stale buffer (its Context.notSpaceCharPos), and reads
					// what follows as if a plain scalar were under way.
					p.line = p.multiStart
					return p.errorf("a block scalar ('|' or '>') with no text; write '' for an empty value")
				}
				p.multi = false
				p.setLast(tokText) // the block's text, or an empty one
			} else {
				p.multiLine(c)
				continue
			}
		}
		var err error
		switch c {
		case '{', '[':
			if p.plain && !p.flowMode() {
				err = p.plainChar()
				break
			}
			p.flush()
			p.value()
			if c == '{' {
				p.mapN++
			} else {
				p.seqN++
			}
			if err = p.emit(tokOther); err == nil {
				err = p.flowOpen(c == '[')
			}
			p.col++
			p.i++
		case '}', ']':
			if (c == '}' && p.mapN <= 0) || (c == ']' && p.plain && p.seqN <= 0) {
				err = p.plainChar()
				break
			}
			p.flush()
			if c == '}' {
				p.mapN--
			} else {
				p.seqN--
			}
			if err = p.flowClose(); err == nil {
				err = p.emit(tokOther)
			}
			p.col++
			p.i++
		case ',':
			if !p.flowMode() {
				err = p.plainChar()
				break
			}
			p.flush()
			if err = p.flowEntry(); err == nil {
				err = p.emit(tokOther)
			}
			p.col++
			p.i++
		case '.':
			if p.indentNum == 0 && p.col == 1 && p.repeat('.', 4) == 3 {
				p.flush()
				p.setLast(tokOther)
				if p.doc != docNone {
					p.doc = docEnded
				}
				p.col += 3
				p.i += 3
				break
			}
			err = p.plainChar()
		case '<':
			// go-yaml counts the '<' from each one on (isMergeKey), so a run
			// costs it time in the square of its length.
			if p.i == 0 || p.src[p.i-1] != '<' {
				if n := p.repeat('<', maxAngles+1); n > maxAngles {
					return p.errorf("more than %d '<' in a row; quote the value", maxAngles)
				}
			}
			if p.mergeKey() {
				// go-yaml reads '<<:' even inside a plain scalar, and drops
				// what came before it there; no file of pitwall's needs one.
				return p.errorf("merge keys ('<<:') are not read; write the keys out")
			}
			err = p.plainChar()
		case '-':
			err = p.dash()
		case ':':
			err = p.colon()
		case '|', '>':
			if p.plain {
				err = p.plainChar()
				break
			}
			err = p.blockHeader()
		case '!':
			if p.plain || p.directive {
				err = p.plainChar()
				break
			}
			err = p.tag()
		case '%':
			if p.plain || p.indentNum != 0 {
				err = p.plainChar()
				break
			}
			p.flush()
			p.setLast(tokOther)
			p.directive = true
			p.col++
			p.i++
		case '?':
			if nc := p.next(); p.plain || (nc != ' ' && nc != '\t') {
				err = p.plainChar()
				break
			}
			// go-yaml's parser nests what follows an explicit key in ways
			// of its own; no file of pitwall's needs one.
			return p.errorf("explicit keys ('? ') are not read; write 'key: value'")
		case '&':
			if p.plain {
				err = p.plainChar()
				break
			}
			p.flush()
			p.prop()
			err = p.emit(tokOther)
			p.anchor = true
			p.nameNext = true
			p.anchorOpen, p.anchorLine = !p.flowMode(), p.line
			p.col++
			p.i++
		case '*':
			if p.plain {
				err = p.plainChar()
				break
			}
			// An alias copies what its anchor names; nested, a few hundred
			// bytes expand to gigabytes. Nothing pitwall reads needs them.
			return p.errorf("aliases (*name) are not read; write the value out where it is wanted (and quote a value that begins with '*')")
		case '#':
			prev := byte(0)
			if p.i > 0 {
				prev = p.src[p.i-1]
			}
			if p.plain && prev != ' ' && prev != '\t' && !isBreak(prev) {
				err = p.plainChar()
				break
			}
			p.flush()
			p.setLast(tokComment)
			p.comment()
		case '\'', '"':
			if p.plain {
				err = p.plainChar()
				break
			}
			err = p.quote(c)
		case '\n', '\r':
			p.newline(c)
		case ' ':
			switch {
			case p.first:
			case p.directive:
				p.flush()
			case p.anchor || p.alias:
				p.flush()
				p.anchor, p.alias = false, false
			}
			p.col++
			p.i++
		case '\t':
			if (p.plain && p.lastDelim == 0) || p.lastDelim < p.col {
				p.indentNum++ // go-yaml counts the tab as indentation, and not as a column
			} else {
				p.col++
			}
			p.i++
		default:
			err = p.plainChar()
		}
		if err != nil {
			return err
		}
	}
	p.flush()
	return nil
}

// mergeKey is isMergeKey: exactly '<<', then spaces, then ':' and a space or
// line break.
func (p *scanner) mergeKey() bool {
	if p.repeat('<', 3) != 2 {
		return false
	}
	for j := p.i + 2; j < len(p.src); j++ {
		c := p.src[j]
		if c == ' ' {
			continue
		}
		if c != ':' {
			return false
		}
		if j+1 < len(p.src) {
			if nc := p.src[j+1]; nc == ' ' || isBreak(nc) {
				return true
			}
		}
	}
	return false
}

// dash is scanDocumentStart, scanRawFoldedChar and scanSequence, in go-yaml's order.
func (p *scanner) dash() error {
	if p.indentNum == 0 && p.col == 1 && p.repeat('-', 4) == 3 {
		if j := p.i + 3; j >= len(p.src) || p.src[j] == ' ' || p.src[j] == '\t' || isBreak(p.src[j]) {
			p.flush()
			p.plain = false
			p.multi = false
			if p.doc != docNone {
				return p.errorf("a second YAML document ('---'); pitwall reads one document a file")
			}
			p.doc = docHeader
			p.setLast(tokOther)
			p.col += 3
			p.i += 3
			p.lastDelim, p.indentNum = 0, 0
			p.nlevels, p.pend, p.tagOpen, p.anchorOpen = 0, pendNone, false, false
			return nil
		}
	}
	if p.plain && p.state == stateUp {
		// A continued plain scalar's line that starts with '-': go-yaml
		// reads it and what follows as folded text.
		p.multi, p.multiText = true, true
		p.multiFirst = p.col
		p.col++
		p.i++
		return nil
	}
	if nc := p.next(); p.plain || (nc != 0 && nc != ' ' && nc != '\t' && !isBreak(nc)) {
		return p.plainChar()
	}
	p.flush()
	p.lastDelim = p.col
	if err := p.emit(tokOther); err != nil {
		return err
	}
	if p.flowMode() {
		// not block structure; counted as nesting all the same
		p.pend = pendAny
	}
	if err := p.block(p.col, p.line, true); err != nil {
		return err
	}
	p.propCol = 0
	p.col++
	p.i++
	return nil
}

// colon is scanMapDelim.
func (p *scanner) colon() error {
	nc := p.next()
	switch {
	case p.directive || p.anchor || p.alias,
		p.mapN <= 0 && nc != ' ' && nc != '\t' && !isBreak(nc) && p.i+1 < len(p.src),
		p.mapN > 0 && nc == '/',
		p.mapN > 0 && p.last == tokMapValue:
		return p.plainChar()
	}
	// The parser's key is the token before the ':', wherever it is; a tag or
	// an anchor before it on its line gives it their column. Where that is
	// not known, the key is counted as nested in whatever is open.
	key, line, known := 0, p.line, true
	switch {
	case p.plain:
		p.lastDelim = p.plainCol()
		p.plain = false
		p.setLast(tokPlain)
		p.lastPlainCol = p.lastDelim
		key = p.lastDelim
	case p.last == tokQuote:
		p.lastDelim = p.lastQuoteCol
		key = p.lastDelim
	case p.lastNC == tokQuote:
		key = p.lastQuoteCol
	case p.lastNC == tokPlain:
		key = p.lastPlainCol
	default:
		// after a tag or an anchor, a flow collection's end, or nothing:
		// the key is taken at the first tag's or anchor's column, or the ':'
		// (go-yaml takes the first tag's column even from an earlier line:
		// '! !' then ' :' is a key at the column of the first '!')
		known = false
		key = p.col
		if p.propCol > 0 && p.propCol < key {
			key = p.propCol
		}
	}
	if known {
		p.pend, line = p.keyPend, p.keyLine
		if p.keyProp > 0 && p.keyProp < key {
			key = p.keyProp
		}
	}
	p.saved = false
	if err := p.emit(tokMapValue); err != nil {
		return err
	}
	if p.flowMode() {
		if err := p.flowPair(); err != nil {
			return err
		}
	} else {
		if !known {
			p.pend = pendAny
		}
		if err := p.block(key, line, false); err != nil {
			return err
		}
	}
	p.propCol = 0
	p.col++
	p.i++
	return nil
}

// newline is scanNewLine, outside quotes and block scalars.
func (p *scanner) newline(c byte) {
	if p.plain && !p.saved {
		p.saved = true
		p.savedCol = p.col - (p.lastNonSpace - p.plainStart + 1)
	}
	if c == '\r' && p.next() == '\n' {
		p.i++
	}
	p.newlineAt(p.i)
	if p.i == len(p.src)-1 || p.anchor || p.alias || p.directive {
		p.flush()
	}
	p.progressLine()
	p.i++
}

// comment is scanComment: to the line's end, and the line break with it.
func (p *scanner) comment() {
	j := p.i + 1
	for j < len(p.src) && !isBreak(p.src[j]) {
		j++
	}
	if j < len(p.src) {
		p.newlineAt(j)
		j++
	}
	p.i = j
	p.progressLine()
}

// tag is scanTag: to a space (taken with it), a line break, or a comma in a
// flow collection; go-yaml's column falls one behind.
func (p *scanner) tag() error {
	p.prop()
	n := 1 // runes from the '!'
	for j := p.i + 1; j < len(p.src); {
		c := p.src[j]
		switch {
		case c == ' ':
			p.col += n
			p.i = j + 1
			return p.emitTag()
		case (c == ',' && p.flowMode()) || isBreak(c):
			p.col += n - 1
			p.i = j
			return p.emitTag()
		case c == '{' || c == '}':
			// go-yaml refuses the file here; read on after the brace.
			p.col += n
			p.i = j + 1
			return p.emit(tokOther)
		}
		n++
		j += p.runeLen(j)
	}
	p.i = len(p.src)
	return p.emitTag()
}

func (p *scanner) emitTag() error {
	name := p.nameNext // then the parser reads it as an anchor's name
	err := p.emit(tokOther)
	if !name && !p.flowMode() {
		p.tagOpen = true
	}
	return err
}

// blockHeader is scanMultiLineHeader: '|' or '>' and the rest of its line.
func (p *scanner) blockHeader() error {
	p.value()
	if err := p.emit(tokOther); err != nil {
		return err
	}
	h := p.i
	end := -1 // where go-yaml stops: the line break ('\n' of a '\r\n')
	opt := p.src[h+1:]
	for j := h + 1; j < len(p.src); j++ {
		if isBreak(p.src[j]) {
			opt = p.src[h+1 : j]
			end = j
			if p.src[j] == '\r' && j+1 < len(p.src) && p.src[j+1] == '\n' {
				end = j + 1
			}
			break
		}
	}
	if p.col == 1 {
		p.lastDelim = 1
	}
	p.multi, p.multiText, p.multiStart = true, false, p.line
	p.multiFirst = 0
	if d := indentIndicator(opt); d > 0 {
		p.multiFirst = p.lastDelim + d
	}
	p.state = stateKeep
	p.plain = false
	// go-yaml stops at the line break, or on the file's last character
	stop := end
	if stop < 0 {
		_, n := utf8.DecodeLastRune(p.src)
		stop = max(len(p.src)-n, h+1)
	}
	p.col += utf8.RuneCount(p.src[h+1 : stop])
	p.i = stop
	return nil
}

// indentIndicator is the indentation a block scalar's header gives
// ('|2-'), 0 when it gives none, read as go-yaml's scanMultiLineHeader and
// firstLineIndentColumnByOpt read it.
func indentIndicator(opt []byte) int {
	for len(opt) > 0 && opt[len(opt)-1] == ' ' {
		opt = opt[:len(opt)-1]
	}
	if k := bytes.IndexByte(opt, '#'); k > 0 {
		opt = opt[:k]
	}
	for len(opt) > 0 && (opt[len(opt)-1] == ' ' || opt[len(opt)-1] == '\t') {
		opt = opt[:len(opt)-1]
	}
	opt = bytes.TrimPrefix(opt, []byte("-"))
	opt = bytes.TrimPrefix(opt, []byte("+"))
	opt = bytes.TrimSuffix(opt, []byte("-"))
	opt = bytes.TrimSuffix(opt, []byte("+"))
	// strconv.ParseInt(opt, 10, 64), where only 1 to 9 matter: go-yaml
	// refuses a header with more
	if len(opt) > 0 && (opt[0] == '+' || opt[0] == '-') {
		if opt[0] == '-' {
			return 0
		}
		opt = opt[1:]
	}
	if len(opt) == 0 {
		return 0
	}
	v := 0
	for _, c := range opt {
		if c < '0' || c > '9' {
			return 0
		}
		if v = v*10 + int(c-'0'); v > 9 {
			return 0
		}
	}
	return v
}

// multiLine is scanMultiLine: one character of a block scalar's text.
func (p *scanner) multiLine(c byte) {
	if c == '\r' && p.next() == '\n' {
		p.i++
		c = '\n'
	}
	size := p.runeLen(p.i)
	if p.i+size >= len(p.src) { // the file's last character
		p.col++
		p.i += size
		return
	}
	switch {
	case isBreak(c):
		p.newlineAt(p.i)
		p.progressLine()
		p.i++
		if p.i < len(p.src) && p.docMarkerAt(p.i) {
			p.multi = false
			p.plain = false
			p.setLast(tokText)
		}
		return
	case p.first && c == ' ':
	case c == '\t' && !p.indentColumn():
	default:
		if c != ' ' && c != '\t' {
			p.multiText = true
		}
		if p.multiFirst == 0 {
			p.multiFirst = p.col
		}
		if p.multiFirst > 1 {
			p.lastDelim = p.multiFirst - 1
		}
	}
	p.col++
	p.i += size
}

func (p *scanner) indentColumn() bool {
	if p.multiFirst == 0 {
		return p.col == 1
	}
	return p.multiFirst > p.col
}

// quote is scanSingleQuote and scanDoubleQuote.
func (p *scanner) quote(q byte) error {
	p.value()
	if err := p.emit(tokQuote); err != nil {
		return err
	}
	p.lastQuoteCol = p.col
	src := p.src
	j := p.i + 1
	newLine, firstLineChar := false, false
	for j < len(src) {
		if !newLine {
			p.col++
		} else {
			newLine = false
		}
		c := src[j]
		switch {
		case isBreak(c):
			p.newlineAt(j)
			p.progressLine()
			firstLineChar, newLine = true, true
			j++
			continue
		case firstLineChar && (c == ' ' || c == '\t'):
			j++
			continue
		case q == '\'' && c == '\'':
			if j+1 < len(src) && src[j+1] == '\'' {
				j += 2
				p.col++
				continue
			}
		case q == '"' && c == '\\':
			firstLineChar = false
			var adv, cols int
			j, adv, cols, newLine = p.escape(j)
			if adv < 0 {
				// go-yaml refuses the file here; read on after the backslash.
				j++
				continue
			}
			firstLineChar = firstLineChar || newLine
			p.col += cols
			j += adv
			continue
		case q == '"' && c == '\t':
			// For each tab here go-yaml reads on to the line's end (time in
			// the square of the line), and after one it skips the
			// character after the closing quote ('["\tx"],' repeated nests
			// one level each time). An escape does neither.
			return p.errorf("a tab inside a double-quoted string; write \\t instead")
		case c != q:
			firstLineChar = false
			j += p.runeLen(j)
			continue
		}
		// the closing quote
		p.col++
		j++
		p.i = j
		p.setLast(tokQuote)
		return nil
	}
	// never closed: go-yaml refuses the file
	p.i = len(src)
	return nil
}

// escape reads the escape at j ('\\') as scanDoubleQuote does. It returns
// where the loop's index is (j, or j+1 after an escaped line break), how
// many more bytes to step over, how many columns go-yaml adds, and whether
// a line ended; adv is -1 where go-yaml refuses the file.
func (p *scanner) escape(j int) (int, int, int, bool) {
	src := p.src
	if j+1 >= len(src) {
		return j, 1, 0, false
	}
	// runes ahead of the backslash, as far as go-yaml looks (12)
	var ahead [13]rune
	var at [14]int
	n := 0
	at[0] = j + 1
	for k := j + 1; k < len(src) && n < len(ahead); n++ {
		r, size := rune(src[k]), 1
		if src[k] >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(src[k:])
		}
		ahead[n] = r
		k += size
		at[n+1] = k
	}
	// ahead[m] is the rune at go-yaml's idx+1+m; "idx+k >= size" is "n < k"
	runes := func(k int) int { return at[k] - (j + 1) } // bytes of the first k runes
	switch ahead[0] {
	case '0', 'a', 'b', 't', 'n', 'v', 'f', 'r', 'e', ' ', '"', '/', '\\', 'N', '_', 'L', 'P', '\t':
		return j, 1 + runes(1), 1, false
	case 'x':
		if n < 3 {
			return j, 1 + runes(1), 1, false
		}
		return j, 1 + runes(3), 3, false
	case 'u':
		if n < 5 {
			return j, -1, 0, false
		}
		code := hexRunes(ahead[1:5])
		if code >= 0xD800 && code <= 0xDBFF {
			if n < 11 || ahead[5] != '\\' || ahead[6] != 'u' {
				return j, -1, 0, false
			}
			if low := hexRunes(ahead[7:11]); low < 0xDC00 || low > 0xDFFF {
				return j, -1, 0, false
			}
			return j, 1 + runes(11), 11, false
		}
		return j, 1 + runes(5), 5, false
	case 'U':
		if n < 9 {
			return j, -1, 0, false
		}
		return j, 1 + runes(9), 9, false
	case '\n':
		// the column moves onto the break, then the line ends
		p.line++
		p.progressLine()
		return j + 1, 1, 0, true
	case '\r':
		p.line++
		p.progressLine()
		adv := 1
		if j+2 < len(src) && src[j+2] == '\n' {
			adv = 2
		}
		return j, 1 + adv, adv, true
	}
	return j, -1, 0, false
}

// hexRunes is go-yaml's hexRunesToInt, which reads any rune as a digit.
func hexRunes(b []rune) int {
	sum := 0
	for i, r := range b {
		var d int
		switch {
		case r >= 'A' && r <= 'F':
			d = int(r) - 'A' + 10
		case r >= 'a' && r <= 'f':
			d = int(r) - 'a' + 10
		default:
			d = int(r) - '0'
		}
		sum += d << (uint(len(b)-i-1) * 4)
	}
	return sum
}
