package norms

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Text is compared folded: lower case and without diacritics, because
// speech recognizers and hurried typists drop accents, and "Constitución",
// "CONSTITUCION" and "constitucion" must match. Norm names, transcripts
// and the names of people, degrees and cases (domain.FoldName) all fold
// through appendFolded.

// Fold folds s and turns everything but letters and digits into spaces,
// so that names compare the way a listener hears them.
func Fold(s string) string { return fold(s, true) }

// FoldText folds s and keeps everything else as it is (punctuation, line
// breaks), for the transcript analyser, which reads them.
func FoldText(s string) string { return fold(s, false) }

func fold(s string, onlyLettersAndDigits bool) string {
	buf := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'A' <= c && c <= 'Z':
				c += 'a' - 'A'
			case onlyLettersAndDigits && !('a' <= c && c <= 'z' || '0' <= c && c <= '9'):
				c = ' '
			}
			buf = append(buf, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case unicode.Is(unicode.Mn, r): // a combining accent of decomposed input
		case onlyLettersAndDigits && !unicode.IsLetter(r) && !unicode.IsDigit(r):
			buf = append(buf, ' ')
		default:
			buf = appendFolded(buf, r)
		}
	}
	return string(buf)
}

// appendFolded appends r lowercased and without diacritics: 'Á' -> "a",
// 'ñ' -> "n", 'š' -> "s". The letters of Spanish take the short way; any
// other rune is replaced by its canonical decomposition (Unicode NFD)
// without the combining marks.
func appendFolded(buf []byte, r rune) []byte {
	r = unicode.ToLower(r)
	switch r {
	case 'á', 'à', 'ä', 'â', 'ã', 'å':
		return append(buf, 'a')
	case 'é', 'è', 'ë', 'ê':
		return append(buf, 'e')
	case 'í', 'ì', 'ï', 'î':
		return append(buf, 'i')
	case 'ó', 'ò', 'ö', 'ô', 'õ':
		return append(buf, 'o')
	case 'ú', 'ù', 'ü', 'û':
		return append(buf, 'u')
	case 'ñ':
		return append(buf, 'n')
	case 'ç':
		return append(buf, 'c')
	}
	var enc [utf8.UTFMax]byte
	r1 := enc[:utf8.EncodeRune(enc[:], r)]
	if norm.NFD.IsNormal(r1) {
		return append(buf, r1...)
	}
	for _, m := range string(norm.NFD.Bytes(r1)) {
		if !unicode.Is(unicode.Mn, m) {
			buf = utf8.AppendRune(buf, m)
		}
	}
	return buf
}
