package norms

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Article is a reference to an article, or a part of one, as a case's legal
// base stores it. The notation, one string:
//
//	76        article 76
//	195.1     article 195, numeral 1
//	76.7.l    article 76, numeral 7, literal l
//	66.l      article 66, literal l (no numeral)
//	125+2     the second unnumbered article (artículo innumerado) after
//	          article 125
//	125+2.3.a its numeral 3, literal a
//
// Unnumbered articles are inserted by reforms between two numbered ones
// and are cited by the article they follow ("artículo innumerado 2 a
// continuación del artículo 125"). Print often writes them "Art. 125.2" or
// "Art. ... (2)", which reads like a numeral; the "+" cannot be mistaken
// for one: "125.2" is always article 125, numeral 2.
type Article struct {
	Number int // the article; for an unnumbered one, the article it follows
	// Innumerado is the position of an unnumbered article after Number
	// (1 = the first one after it); 0 for a numbered article.
	Innumerado int
	Numeral    int    // 0 = none
	Literal    string // "" or one lowercase letter (a–z, ñ)
}

// Limits of the notation.
const (
	MaxArticle    = 9999
	MaxInnumerado = 99
	MaxNumeral    = 999
)

// ErrArticle is returned (wrapped) by ParseArticle for anything that is not
// an article reference.
var ErrArticle = errors.New("not an article reference")

// ParseArticle reads an article in the notation above. Surrounding space,
// upper case and a leading "art." or "artículo" are tolerated; anything
// else (a range, words, a second literal) is an error.
func ParseArticle(s string) (Article, error) {
	src := s
	s = strings.ToLower(strings.TrimSpace(s))
	for _, p := range []string{"artículo", "articulo", "arts.", "art.", "art"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			s = strings.TrimSpace(rest)
			break
		}
	}
	fail := func() (Article, error) { return Article{}, fmt.Errorf("%w: %q", ErrArticle, src) }
	var a Article
	head, rest, _ := strings.Cut(s, ".")
	num, inn, hasInn := strings.Cut(head, "+")
	var ok bool
	if a.Number, ok = positive(num, 4, MaxArticle); !ok {
		return fail()
	}
	if hasInn {
		if a.Innumerado, ok = positive(inn, 2, MaxInnumerado); !ok {
			return fail()
		}
	}
	if rest == "" {
		if strings.HasSuffix(s, ".") {
			return fail()
		}
		return a, nil
	}
	parts := strings.Split(rest, ".")
	if len(parts) > 2 {
		return fail()
	}
	if n, isNum := positive(parts[0], 3, MaxNumeral); isNum {
		a.Numeral = n
		parts = parts[1:]
	}
	switch len(parts) {
	case 0:
		return a, nil
	case 1:
		if !isLiteral(parts[0]) {
			return fail()
		}
		a.Literal = parts[0]
		return a, nil
	}
	return fail()
}

// positive parses 1..max written with at most digits digits.
func positive(s string, digits, max int) (int, bool) {
	if s == "" || len(s) > digits {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 1 && n <= max
}

func isLiteral(s string) bool {
	return len(s) == 1 && s[0] >= 'a' && s[0] <= 'z' || s == "ñ"
}

// ValidArticle reports whether s is an article in the canonical notation,
// exactly as String writes it.
func ValidArticle(s string) bool {
	a, err := ParseArticle(s)
	return err == nil && a.String() == s
}

// String writes the canonical notation: "76", "195.1", "76.7.l", "125+2".
func (a Article) String() string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(a.Number))
	if a.Innumerado > 0 {
		b.WriteByte('+')
		b.WriteString(strconv.Itoa(a.Innumerado))
	}
	if a.Numeral > 0 {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(a.Numeral))
	}
	if a.Literal != "" {
		b.WriteByte('.')
		b.WriteString(a.Literal)
	}
	return b.String()
}

// Display writes the reference for a reader, in Spanish: "art. 76, num. 7,
// lit. l", "art. innumerado 2 a continuación del art. 125".
func (a Article) Display() string {
	var b strings.Builder
	if a.Innumerado > 0 {
		fmt.Fprintf(&b, "art. innumerado %d a continuación del art. %d", a.Innumerado, a.Number)
	} else {
		fmt.Fprintf(&b, "art. %d", a.Number)
	}
	if a.Numeral > 0 {
		fmt.Fprintf(&b, ", num. %d", a.Numeral)
	}
	if a.Literal != "" {
		fmt.Fprintf(&b, ", lit. %s", a.Literal)
	}
	return b.String()
}

// ArticleExamples is the hint shown with an invalid article.
const ArticleExamples = "76, 195.1, 76.7.l; un artículo innumerado se escribe tras el artículo al que sigue: 125+2"
