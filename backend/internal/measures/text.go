package measures

import (
	"unicode"
	"unicode/utf8"

	"github.com/utpl/simulador/backend/internal/norms"
)

// tokKind classifies a token of a folded transcript.
type tokKind uint8

const (
	tokWord  tokKind = iota + 1 // a run of letters: "articulo", "coip"
	tokNum                      // starts with an ASCII digit: "76", "195.1", "76.7.l", "1158-17-ep/21"
	tokPunct                    // one punctuation rune, "\n" for a line break, "\n\n" for a blank line, "..." for an ellipsis
)

// token is one unit of a folded transcript. Text is a substring of the folded
// transcript, so tokenizing allocates only the slice.
type token struct {
	text string
	kind tokKind
	word int // words before this token (so a word's own index among words)
	sent int // sentence number
	para int // paragraph number (line breaks)
}

func (t token) isWord(w string) bool  { return t.kind == tokWord && t.text == w }
func (t token) isPunct(p string) bool { return t.kind == tokPunct && t.text == p }

// doc is a tokenized transcript with out-of-range-safe accessors, so the
// extractors can look ahead and behind without bounds checks everywhere.
type doc struct {
	toks       []token
	words      int
	sentStarts []int // sentence number -> index of its first token
}

// at returns the token at i, or a zero token outside the slice.
func (d *doc) at(i int) token {
	if i < 0 || i >= len(d.toks) {
		return token{}
	}
	return d.toks[i]
}

// word returns the text of token i when it is a word, else "".
func (d *doc) word(i int) string {
	t := d.at(i)
	if t.kind != tokWord {
		return ""
	}
	return t.text
}

func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }
func isASCIILetter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
func isASCIIAlnum(c byte) bool { return isASCIIDigit(c) || isASCIILetter(c) }

// abbreviations whose trailing dot does not end a sentence ("art. 76").
var abbrevs = map[string]bool{
	"art": true, "arts": true, "num": true, "nro": true, "lit": true,
	"inc": true, "dr": true, "dra": true, "sr": true, "sra": true, "sres": true,
	"srta": true, "ab": true, "abg": true, "lcdo": true, "lcda": true, "ing": true,
	"pag": true, "etc": true, "ej": true, "vs": true, "cap": true, "ibid": true,
	"cfr": true, "usd": true,
}

// tokenize folds s and splits it into words, numbers and punctuation, and
// numbers sentences and paragraphs. It is linear in len(s).
func tokenize(s string) *doc {
	f := norms.FoldText(s)
	d := &doc{toks: make([]token, 0, len(f)/5+1)}
	emit := func(text string, k tokKind) {
		d.toks = append(d.toks, token{text: text, kind: k})
	}
	for i := 0; i < len(f); {
		c := f[i]
		switch {
		case c == '\n' || c == '\r':
			// One line break separates the segments of a live transcript
			// (a pause of the speaker: a clause boundary); a blank line
			// separates paragraphs, or takes.
			j, breaks := i, 0
			for j < len(f) && (f[j] == '\n' || f[j] == '\r' || f[j] == ' ' || f[j] == '\t') {
				if f[j] == '\n' || f[j] == '\r' && (j+1 == len(f) || f[j+1] != '\n') {
					breaks++
				}
				j++
			}
			if breaks > 1 {
				emit("\n\n", tokPunct)
			} else {
				emit("\n", tokPunct)
			}
			i = j
		case c == ' ' || c == '\t' || c == '\f' || c == '\v':
			i++
		case isASCIIDigit(c):
			j := scanNumber(f, i)
			emit(f[i:j], tokNum)
			i = j
		case c == '.':
			j := i
			for j < len(f) && f[j] == '.' {
				j++
			}
			if j-i >= 2 {
				emit("...", tokPunct)
			} else {
				emit(".", tokPunct)
			}
			i = j
		case c < utf8.RuneSelf && isASCIILetter(c):
			j := scanWord(f, i)
			emit(f[i:j], tokWord)
			i = j
		case c < utf8.RuneSelf:
			emit(f[i:i+1], tokPunct)
			i++
		default:
			r, size := utf8.DecodeRuneInString(f[i:])
			switch {
			case r == '…':
				emit("...", tokPunct)
				i += size
			case unicode.IsSpace(r):
				i += size
			case unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r):
				j := scanWord(f, i)
				emit(f[i:j], tokWord)
				i = j
			default:
				emit(f[i:i+size], tokPunct)
				i += size
			}
		}
	}
	d.number()
	return d
}

// scanWord returns the end of the run of letters starting at i. Non-ASCII
// digits stay inside words: only ASCII digits make numbers.
func scanWord(f string, i int) int {
	j := i
	for j < len(f) {
		c := f[j]
		if c < utf8.RuneSelf {
			if !isASCIILetter(c) {
				break
			}
			j++
			continue
		}
		r, size := utf8.DecodeRuneInString(f[j:])
		if !(unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)) {
			break
		}
		j += size
	}
	return j
}

// scanNumber returns the end of a number token starting at i. A number keeps
// its internal structure so that "195.1", "76.7.l", "1.800" and case codes
// like "1158-17-ep/21" stay one token and can be told apart later.
func scanNumber(f string, i int) int {
	j := i
	for j < len(f) {
		c := f[j]
		if isASCIIAlnum(c) {
			j++
			continue
		}
		if j+1 >= len(f) {
			break
		}
		next := f[j+1]
		switch c {
		case '.':
			// Continue over "195.1" and "76.7.l", but not over "2023.El",
			// where the dot ends a sentence.
			if isASCIIDigit(next) || isASCIILetter(next) && (j+2 >= len(f) || !isASCIILetter(f[j+2])) {
				j++
				continue
			}
		case '-', '/':
			if isASCIIAlnum(next) {
				j++
				continue
			}
		}
		break
	}
	return j
}

// number assigns word, sentence and paragraph numbers.
func (d *doc) number() {
	words, sent, para := 0, 0, 0
	d.sentStarts = append(d.sentStarts[:0], 0)
	for i := range d.toks {
		t := &d.toks[i]
		t.word, t.sent, t.para = words, sent, para
		if sent >= len(d.sentStarts) {
			d.sentStarts = append(d.sentStarts, i)
		}
		switch t.kind {
		case tokWord, tokNum:
			words++
		case tokPunct:
			switch t.text {
			case "\n\n":
				sent++
				para++
			case "?", "!":
				sent++
			case ".":
				if i > 0 {
					p := d.toks[i-1]
					if p.kind == tokWord && (abbrevs[p.text] || len(p.text) == 1) {
						continue // "art. 76", "c.o.i.p."
					}
				}
				sent++
			}
		}
	}
	d.words = words
}

// withoutLineBreaks returns d without its single line breaks, which
// separate the segments of a live transcript. A segment ends where the
// speaker paused, and speakers pause in the middle of a phrase as often as
// between two: what needs clause boundaries (fillers, a tag "¿no?") keeps
// them, the citation grammar reads across them. Blank lines (paragraphs,
// takes) stay.
func (d *doc) withoutLineBreaks() *doc {
	n := 0
	for _, t := range d.toks {
		if t.kind == tokPunct && t.text == "\n" {
			n++
		}
	}
	if n == 0 {
		return d
	}
	out := &doc{toks: make([]token, 0, len(d.toks)-n)}
	for _, t := range d.toks {
		if t.kind != tokPunct || t.text != "\n" {
			out.toks = append(out.toks, t)
		}
	}
	out.number()
	return out
}
