package measures

import "strings"

// Spanish number words, accent-folded. Students say article numbers aloud
// and some speech recognizers write them out ("artículo setenta y seis").
var (
	numUnits = map[string]int{
		"uno": 1, "un": 1, "una": 1, "dos": 2, "tres": 3, "cuatro": 4, "cinco": 5,
		"seis": 6, "siete": 7, "ocho": 8, "nueve": 9,
	}
	numTeens = map[string]int{ // closed forms: nothing but "mil" may follow
		"diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14, "quince": 15,
		"dieciseis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19,
		"veintiuno": 21, "veintiun": 21, "veintiuna": 21, "veintidos": 22,
		"veintitres": 23, "veinticuatro": 24, "veinticinco": 25, "veintiseis": 26,
		"veintisiete": 27, "veintiocho": 28, "veintinueve": 29,
	}
	numTens = map[string]int{ // may take "y <unit>"
		"veinte": 20, "treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60,
		"setenta": 70, "ochenta": 80, "noventa": 90,
	}
	numHundreds = map[string]int{
		"cien": 100, "ciento": 100, "doscientos": 200, "doscientas": 200,
		"trescientos": 300, "trescientas": 300, "cuatrocientos": 400,
		"cuatrocientas": 400, "quinientos": 500, "quinientas": 500,
		"seiscientos": 600, "seiscientas": 600, "setecientos": 700,
		"setecientas": 700, "ochocientos": 800, "ochocientas": 800,
		"novecientos": 900, "novecientas": 900,
	}
	// Ordinals are how low articles are read ("artículo primero").
	numOrdinals = map[string]int{
		"primero": 1, "primer": 1, "primera": 1, "segundo": 2, "segunda": 2,
		"tercero": 3, "tercer": 3, "tercera": 3, "cuarto": 4, "cuarta": 4,
		"quinto": 5, "quinta": 5, "sexto": 6, "sexta": 6, "septimo": 7,
		"septima": 7, "setimo": 7, "octavo": 8, "octava": 8, "noveno": 9,
		"novena": 9, "decimo": 10, "decima": 10, "undecimo": 11,
		"duodecimo": 12, "vigesimo": 20, "vigesima": 20,
	}
)

// numberWords holds every word that can start a spelled cardinal, so that
// the scanners can reject ordinary words with one lookup.
var numberWords = func() map[string]bool {
	m := map[string]bool{"mil": true}
	for _, table := range []map[string]int{numUnits, numTeens, numTens, numHundreds} {
		for w := range table {
			m[w] = true
		}
	}
	return m
}()

// maxArticle bounds what can be an article number; the longest Ecuadorian
// code in scope (Código Civil) stays well under it.
const maxArticle = 9999

// Levels of the spelled-number state machine: what the last word filled.
const (
	lvStart    = iota
	lvClosed   // units, teens or "cien": the group is complete
	lvTens     // "setenta": may take "y seis"
	lvHundreds // "ciento": may take tens, teens or units
	lvThousand // "mil": may take a new group
)

// spelledAt parses a cardinal written in Spanish words starting at token i:
// "setenta y seis", "ciento noventa y cinco", "dos mil cuatrocientos diez".
// It stops where the words stop forming one number, so "dieciocho y treinta"
// is 18 (then a list) and "treinta y tres" is 33. A lone "un"/"una" is an
// article, not a number.
func spelledAt(d *doc, i int) (val, next int, ok bool) {
	if !numberWords[d.word(i)] {
		return 0, i, false
	}
	total, group, level := 0, 0, lvStart
	j := i
	for {
		w := d.word(j)
		if w == "" {
			break
		}
		if v, isH := numHundreds[w]; isH {
			if level != lvStart && level != lvThousand {
				break
			}
			group += v
			level = lvHundreds
			if w == "cien" {
				level = lvClosed
			}
			j++
			continue
		}
		open := level == lvStart || level == lvThousand || level == lvHundreds
		if v, isT := numTens[w]; isT {
			if !open {
				break
			}
			group += v
			level = lvTens
			j++
			continue
		}
		if v, isTeen := numTeens[w]; isTeen {
			if !open {
				break
			}
			group += v
			level = lvClosed
			j++
			continue
		}
		if v, isU := numUnits[w]; isU {
			if !open {
				break
			}
			group += v
			level = lvClosed
			j++
			continue
		}
		if w == "y" && level == lvTens {
			if u, isU := numUnits[d.word(j+1)]; isU {
				group += u
				level = lvClosed
				j += 2
				continue
			}
			break
		}
		if w == "mil" && total == 0 && level != lvThousand {
			if group == 0 {
				group = 1
			}
			total = group * 1000
			group = 0
			level = lvThousand
			j++
			continue
		}
		break
	}
	if j == i {
		return 0, i, false
	}
	if j == i+1 && (d.word(i) == "un" || d.word(i) == "una") {
		return 0, i, false
	}
	val = total + group
	if val <= 0 {
		return 0, i, false
	}
	return val, j, true
}

// ordinalAt parses "primero", "tercero", "décimo primero".
func ordinalAt(d *doc, i int) (val, next int, ok bool) {
	v, isO := numOrdinals[d.word(i)]
	if !isO {
		return 0, i, false
	}
	if v == 10 || v == 20 {
		if u, isU := numOrdinals[d.word(i+1)]; isU && u < 10 {
			return v + u, i + 2, true
		}
	}
	return v, i + 1, true
}

// digitsValue returns the main integer of a number token as an article
// number: "76" -> 76, "195.1" -> 195, "76.7.l" -> 76, "1.459" -> 1459 (a
// thousands dot, since sub-article numbers never have three digits). Tokens
// with dashes or slashes are case and ruling numbers, never articles.
func digitsValue(s string) (int, bool) {
	if strings.ContainsAny(s, "-/") {
		return 0, false
	}
	n, i := 0, 0
	for i < len(s) && isASCIIDigit(s[i]) {
		if i >= 4 {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i <= 2 && len(s) == i+4 && s[i] == '.' && allDigits(s[i+1:]) {
		n = n*1000 + int(s[i+1]-'0')*100 + int(s[i+2]-'0')*10 + int(s[i+3]-'0')
	}
	if n <= 0 || n > maxArticle {
		return 0, false
	}
	return n, true
}

// allDigits reports whether s is non-empty and only digits (no dots,
// letters or dashes).
func allDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isASCIIDigit(s[i]) {
			return false
		}
	}
	return true
}

// rangeToken parses a written range token "39-42".
func rangeToken(s string) (lo, hi int, ok bool) {
	a, b, found := strings.Cut(s, "-")
	if !found || len(a) > 4 || len(b) > 4 || !allDigits(a) || !allDigits(b) {
		return 0, 0, false
	}
	lo, _ = digitsValue(a)
	hi, _ = digitsValue(b)
	if lo <= 0 || hi <= lo {
		return 0, 0, false
	}
	return lo, hi, true
}

// cardinalAt parses a number in digits or Spanish words.
func cardinalAt(d *doc, i int) (val, next int, ok bool) {
	t := d.at(i)
	if t.kind == tokNum {
		v, isNum := digitsValue(t.text)
		return v, i + 1, isNum
	}
	return spelledAt(d, i)
}

// numberAt parses an article-position number: digits, words or an ordinal.
func numberAt(d *doc, i int) (val, next int, ok bool) {
	if v, n, isNum := cardinalAt(d, i); isNum {
		return v, n, true
	}
	return ordinalAt(d, i)
}

// ArticleNumber returns the main integer of an article reference as written
// in a case: "76.7.l" -> 76, "195.1" -> 195, "Art. 88" -> 88, "setenta y
// seis" -> 76, "39-42" -> 39. It reports false when there is no number
// ("innumerado").
func ArticleNumber(article string) (int, bool) {
	nums := articleNumbers(article)
	if len(nums) == 0 {
		return 0, false
	}
	return nums[0], true
}

// articleNumbers expands a case's article reference: a single article, or a
// range such as "39-42", "39–42" or "39 a 42".
func articleNumbers(article string) []int {
	d := tokenize(dashes.Replace(article))
	for i := 0; i < len(d.toks); i++ {
		t := d.toks[i]
		if t.kind == tokNum {
			if lo, hi, isRange := rangeToken(t.text); isRange {
				return expandRange(lo, hi)
			}
		}
		v, next, ok := numberAt(d, i)
		if !ok {
			continue
		}
		if v < 1 || v > maxArticle { // "cuatrocientas mil": an amount, not an article
			i = next - 1
			continue
		}
		if w := d.word(next); w == "a" || w == "al" || w == "hasta" {
			if hi, _, isNum := cardinalAt(d, next+1); isNum && hi > v && hi <= maxArticle {
				return expandRange(v, hi)
			}
		}
		if d.at(next).isPunct("-") {
			if hi, _, isNum := cardinalAt(d, next+1); isNum && hi > v && hi <= maxArticle {
				return expandRange(v, hi)
			}
		}
		return []int{v}
	}
	return nil
}

// dashes normalizes the en and em dashes of "39–42" in case files.
var dashes = strings.NewReplacer("–", "-", "—", "-")

// maxRange is the widest range expanded article by article; wider ones are
// almost certainly mis-heard, so only their ends are cited.
const maxRange = 30

func expandRange(lo, hi int) []int {
	if hi-lo > maxRange {
		return []int{lo, hi}
	}
	out := make([]int, 0, hi-lo+1)
	for n := lo; n <= hi; n++ {
		out = append(out, n)
	}
	return out
}
