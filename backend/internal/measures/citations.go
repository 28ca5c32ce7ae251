package measures

// Citation extraction works on the folded token stream in three steps:
// find norm mentions (norms.go), find article groups ("artículos 18 y 30",
// "el 88"), then bind each group to a norm by the rules in doc.go.

// Article trigger words. "art" covers "art.", "Art.76" and "arts.".
var articleWords = map[string]bool{
	"articulo": true, "articulos": true, "art": true, "arts": true, "artculo": true,
}

// Words that turn a number after it into a sub-division of the article.
// The flag says whether a letter may follow ("literal l").
var subWords = map[string]bool{
	"numeral": false, "numerales": false, "num": false, "inciso": false, "incisos": false,
	"inc": false, "literal": true, "literales": true, "lit": true, "letra": true,
	"letras": true, "ordinal": false, "ordinales": false, "parrafo": false,
	"parrafos": false, "apartado": false, "apartados": false,
}

var pluralSubWords = map[string]bool{
	"numerales": true, "incisos": true, "literales": true, "letras": true,
	"ordinales": true, "parrafos": true, "apartados": true,
}

// Spanish names of letters, for "literal ele". "de", "e", "o" and "u" are
// left out: they are far more often words.
var letterNames = map[string]bool{
	"be": true, "ce": true, "efe": true, "ge": true, "hache": true, "jota": true,
	"ka": true, "ele": true, "eme": true, "ene": true, "pe": true, "cu": true,
	"erre": true, "ese": true, "te": true, "uve": true, "equis": true, "ye": true,
	"zeta": true,
}

// Words after a number that make it an amount, a duration or a count, never
// an article: "30 días", "15 años", "30 %", "1800 dólares".
var unitWords = map[string]bool{
	"ano": true, "anos": true, "dia": true, "dias": true, "hora": true, "horas": true,
	"mes": true, "meses": true, "minuto": true, "minutos": true, "semana": true,
	"semanas": true, "segundos": true, "dolares": true, "dolar": true, "usd": true,
	"%": true, "sbu": true, "salarios": true, "salario": true,
	"kilometros": true, "km": true, "metros": true, "gramos": true, "veces": true,
	"personas": true, "euros": true, "centavos": true, "mil": true, "millones": true,
	"anios": true, "pesos": true, "litros": true,
}

// isUnitAt reports whether token k makes the number before it an amount or
// a duration ("30 días", "30 por ciento").
func isUnitAt(d *doc, k int) bool {
	t := d.at(k)
	if t.text == "por" {
		return d.word(k+1) == "ciento"
	}
	return (t.kind == tokWord || t.kind == tokPunct) && unitWords[t.text]
}

// Tokens allowed between an article group and the norm named right after it:
// "artículo 76 de la Constitución", "art. 30, del COIP", "artículo 140
// previsto en el COIP".
var afterConnectors = map[string]bool{
	",": true, "de": true, "del": true, "la": true, "el": true, "los": true, "las": true,
	"en": true, "nuestra": true, "nuestro": true, "vigente": true, "actual": true,
	"mismo": true, "misma": true, "previsto": true, "prevista": true,
	"establecido": true, "establecida": true, "contenido": true, "contenida": true,
	"consagrado": true, "consagrada": true, "contemplado": true, "contemplada": true,
	"dispuesto": true, "senalado": true, "tipificado": true,
}

// Window sizes, in words. See doc.go for the binding rules they serve.
const (
	afterWindow        = 6  // tokens scanned for a norm named right after
	sentenceWindow     = 40 // words back for a norm named earlier in the sentence
	continuationWindow = 60 // words back for a continued enumeration (rule 4)
)

// group is one citation phrase: "artículos 39 al 42", "el 88", "art. 76.7.l".
type group struct {
	start, end int // token span
	nums       []int
	bare       bool // no "artículo": "el 88 de la Carta Magna"
	anaphoric  bool // "en su artículo 30": the possessive points at the last norm
}

// ExtractCitations returns the distinct (norm, article) pairs cited in text,
// in order of first mention, and the article numbers said with no norm to
// attach them to. See the package documentation for the binding rules.
func ExtractCitations(text string) (cites []Citation, unattributed []int) {
	return extract(tokenize(text), true)
}

// extract runs the extraction on a tokenized transcript. continuation
// enables binding rule 4; the labelled-set test turns it off to report what
// the rule is worth.
func extract(d *doc, continuation bool) ([]Citation, []int) {
	mentions := findMentions(d)
	mentionAt := make([]int32, len(d.toks)+1) // start token -> mention index + 1; 0 = none
	for k, m := range mentions {
		mentionAt[m.start] = int32(k + 1)
	}
	groups := findGroups(d, mentions, mentionAt)

	b := binder{d: d, mentions: mentions, mentionAt: mentionAt, continuation: continuation,
		usedWeak: map[int]bool{}}
	cites := []Citation{}
	seen := map[Citation]bool{}
	var loose []int
	mi := 0
	for _, g := range groups {
		for mi < len(mentions) && mentions[mi].start < g.start {
			b.see(mi)
			mi++
		}
		norm, state := b.bind(g)
		switch state {
		case unbound:
			loose = append(loose, g.nums...)
			continue
		case dropped:
			continue
		}
		for _, n := range g.nums {
			c := Citation{Norm: norm, Article: n}
			if !seen[c] {
				seen[c] = true
				cites = append(cites, c)
			}
		}
	}

	// A number left unbound but cited with a norm elsewhere in the talk is
	// a repetition, not an unattributed article.
	cited := map[int]bool{}
	for _, c := range cites {
		cited[c.Article] = true
	}
	unattributed := []int{}
	for _, n := range loose {
		if !cited[n] {
			cited[n] = true
			unattributed = append(unattributed, n)
		}
	}
	return cites, unattributed
}

// bindState is the outcome of binding a group.
type bindState uint8

const (
	bound   bindState = iota + 1 // attributed to a tracked norm
	unbound                      // no norm to attach it to: unattributed
	dropped                      // attributed to an untracked norm, or too weak to report
)

// binder holds the discourse state while groups are bound left to right:
// the last norm named or attached to an article, and where.
type binder struct {
	d            *doc
	mentions     []mention
	mentionAt    []int32
	continuation bool         // rule 4 on (the labelled-set test measures it off too)
	usedWeak     map[int]bool // weak mentions that bound an article

	last     string // "" = an untracked norm
	hasLast  bool
	lastWord int
	lastSent int
	lastPara int
}

// note makes norm the last norm, as of token t.
func (b *binder) note(norm string, t token) {
	b.last, b.hasLast = norm, true
	b.lastWord, b.lastSent, b.lastPara = t.word, t.sent, t.para
}

// see records mention k, which lies before the next group.
func (b *binder) see(k int) {
	m := b.mentions[k]
	switch {
	case m.kind == mNamed || m.kind == mWeak && b.usedWeak[k]:
		b.note(m.canon, b.d.at(m.start))
	case m.kind == mBackref && b.hasLast:
		b.note(b.last, b.d.at(m.start))
	case m.kind == mForeign:
		b.note("", b.d.at(m.start))
	}
	// Other weak and generic mentions count only right after an article.
}

// bind applies the binding rules (doc.go) to g.
func (b *binder) bind(g group) (string, bindState) {
	first := b.d.at(g.start)
	norm, state := b.rightAfter(g)
	if state == unbound && !g.bare && b.hasLast {
		switch {
		case g.anaphoric:
			state = bound
		case b.lastSent == first.sent && first.word-b.lastWord <= sentenceWindow:
			state = bound
		case b.continuation && b.lastPara == first.para && first.word-b.lastWord <= continuationWindow &&
			opensWithContinuation(b.d, g.start):
			state = bound
		}
		if state == bound {
			norm = b.last
			if !plausible(norm, g.nums) {
				// An inferred norm that has no such article is a change of
				// subject the speaker did not name.
				norm, state = "", unbound
			}
		}
	}
	if state == unbound && g.bare {
		return "", dropped // a bare number is only an article when a norm follows
	}
	if state == bound && norm == "" {
		state = dropped
	}
	if state != unbound {
		b.note(norm, b.d.at(g.end-1))
	}
	return norm, state
}

// Additive connectors that open a sentence continuing an enumeration:
// "Además, los artículos 1698 y 1704 ...", "Y también el artículo 45 ...".
var continuationOpeners = map[string]bool{
	"ademas": true, "asimismo": true, "tambien": true, "igualmente": true, "y": true,
	"finalmente": true, "luego": true,
}

var continuationPairs = map[[2]string]bool{
	{"asi", "mismo"}: true, {"de", "igual"}: true, {"del", "mismo"}: true,
	{"en", "concordancia"}: true, {"a", "continuacion"}: true,
}

// opensWithContinuation reports whether the sentence holding token i opens
// with an additive connector.
func opensWithContinuation(d *doc, i int) bool {
	k := d.sentStarts[d.at(i).sent]
	for k < i && d.toks[k].kind == tokPunct { // "¿", "\n"
		k++
	}
	w := d.word(k)
	return continuationOpeners[w] || continuationPairs[[2]string{w, d.word(k + 1)}]
}

// plausible reports whether every number can be an article of norm. An
// untracked norm ("") accepts anything: its articles are dropped anyway.
func plausible(norm string, nums []int) bool {
	last, known := normLast[norm]
	if !known {
		return true
	}
	for _, n := range nums {
		if n > last {
			return false
		}
	}
	return true
}

// rightAfter looks for a norm named right after the group.
func (b *binder) rightAfter(g group) (string, bindState) {
	k, ok := b.mentionAfter(g.end)
	if !ok {
		return "", unbound
	}
	m := b.mentions[k]
	switch m.kind {
	case mNamed:
		return m.canon, bound
	case mWeak:
		b.usedWeak[k] = true
		return m.canon, bound
	case mForeign:
		return "", dropped
	case mBackref:
		if b.hasLast {
			return b.last, bound
		}
	case mGeneric:
		if b.hasLast && b.last != "" && (m.want == 0 || normKinds[b.last] == m.want) {
			return b.last, bound
		}
		if m.want != 0 {
			return "", dropped // "del código" with no code named before: some code
		}
	}
	return "", unbound
}

// mentionAfter finds the index of a mention starting within afterWindow
// tokens of j with only connectors in between.
func (b *binder) mentionAfter(j int) (int, bool) {
	for k := j; k < j+afterWindow && k < len(b.d.toks); k++ {
		if idx := b.mentionAt[k]; idx > 0 {
			return int(idx - 1), true
		}
		if !afterConnectors[b.d.toks[k].text] {
			break
		}
	}
	return 0, false
}

// findGroups finds the article groups in d, in order.
func findGroups(d *doc, mentions []mention, mentionAt []int32) []group {
	var out []group
	inMention := make([]bool, len(d.toks))
	for _, m := range mentions {
		for k := m.start; k < m.end && k < len(inMention); k++ {
			inMention[k] = true
		}
	}
	for i := 0; i < len(d.toks); i++ {
		t := d.toks[i]
		if inMention[i] {
			continue
		}
		if t.kind == tokWord && articleWords[t.text] {
			if g, ok := triggeredGroup(d, i); ok {
				out = append(out, g)
				i = g.end - 1
			}
			continue
		}
		g, ok, end := bareGroup(d, i, mentions, mentionAt)
		if ok {
			out = append(out, g)
		}
		if end > i {
			// Every number inside a failed list ends at the same place and
			// fails the same way: skipping it keeps the scan linear.
			i = end - 1
		}
	}
	return out
}

// skipTrigger steps over "artículo", "art.", "artículo número", "art. No."
// starting at the trigger word i.
func skipTrigger(d *doc, i int) int {
	j := i + 1
	if d.at(j).isPunct(".") {
		j++
	}
	switch d.word(j) {
	case "numero", "nro", "no", "n":
		if _, _, ok := numberAt(d, j+1); ok {
			j++
		} else if d.at(j + 1).isPunct(".") {
			if _, _, ok := numberAt(d, j+2); ok {
				j += 2
			}
		}
	}
	return j
}

// triggeredGroup parses the numbers after an "artículo" word at i.
func triggeredGroup(d *doc, i int) (group, bool) {
	g := group{start: i}
	if w := d.word(i - 1); w == "su" || w == "sus" {
		g.anaphoric = true
	}
	nums, end := parseItems(d, skipTrigger(d, i), true)
	if len(nums) == 0 {
		return group{}, false
	}
	g.nums, g.end = nums, end
	return g, true
}

// Words that may stand before a bare article number: "el 88", "y 76".
var bareLead = map[string]bool{"el": true, "los": true, "al": true, "y": true, "e": true}

// bareGroup recognizes an article said without the word "artículo" when a
// norm follows at once: "el 88 de la Carta Magna", "y 76 del COIP". It also
// returns the end of the numbers it parsed, matched or not.
func bareGroup(d *doc, i int, mentions []mention, mentionAt []int32) (group, bool, int) {
	t := d.at(i)
	switch t.kind {
	case tokNum:
		if !allDigits(t.text) && !isSubNumbered(t.text) {
			return group{}, false, i
		}
	case tokWord:
		if _, isO := numOrdinals[t.text]; isO {
			return group{}, false, i
		}
		if _, _, ok := spelledAt(d, i); !ok || t.text == "uno" {
			return group{}, false, i
		}
	default:
		return group{}, false, i
	}
	if p := d.at(i - 1); !(p.kind == tokWord && bareLead[p.text] || p.isPunct(",")) {
		return group{}, false, i
	}
	nums, end := parseItems(d, i, false)
	if len(nums) == 0 {
		return group{}, false, i
	}
	if w := d.word(end); w != "de" && w != "del" {
		return group{}, false, end
	}
	for k := end; k < end+afterWindow && k < len(d.toks); k++ {
		if idx := mentionAt[k]; idx > 0 {
			if m := mentions[idx-1]; m.kind == mNamed || m.kind == mBackref {
				return group{start: i, end: end, nums: nums, bare: true}, true, end
			}
			return group{}, false, end
		}
		if !afterConnectors[d.toks[k].text] {
			break
		}
	}
	return group{}, false, end
}

// isSubNumbered accepts "195.1" and "76.7.l" (but not "1.800") for bare
// citations.
func isSubNumbered(s string) bool {
	dot := -1
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			dot = i
			break
		}
		if !isASCIIDigit(s[i]) {
			return false
		}
	}
	if dot <= 0 {
		return false
	}
	rest := s[dot+1:]
	return len(rest) > 0 && len(rest) < 3 || !allDigits(rest)
}

// parseItems parses a list of article numbers with their sub-divisions and
// ranges: "18 y 30", "1459, 1740 y 1698", "39 al 42", "del 39 al 42",
// "76 numeral 7 literal l y 77 numeral 1", "527 528 y 529". It returns the
// numbers and the token after the last one consumed.
func parseItems(d *doc, j int, triggered bool) ([]int, int) {
	var nums []int
	for first := true; ; first = false {
		item, next, ok := parseItem(d, j, triggered && first)
		if !ok {
			break
		}
		if !first && isUnitAt(d, next) {
			break
		}
		nums = append(nums, item...)
		j = next
		k, more := listSeparator(d, j)
		if !more {
			break
		}
		j = k
	}
	return nums, j
}

// listSeparator steps over ", ", " y ", " y el ", ", artículo " between two
// items and reports whether another number follows.
func listSeparator(d *doc, j int) (int, bool) {
	k := j
	sep := false
	if d.at(k).isPunct(",") {
		k++
		sep = true
	}
	if w := d.word(k); w == "y" || w == "e" {
		k++
		sep = true
	}
	if w := d.word(k); w == "el" || w == "los" {
		k++
	}
	if articleWords[d.word(k)] {
		k = skipTrigger(d, k)
		sep = true
	}
	if _, _, ok := numberAt(d, k); !ok {
		return j, false
	}
	if !sep {
		// Recognizers drop commas: "artículos 527 528 y 529".
		if d.at(j-1).kind != tokNum || d.at(k).kind != tokNum {
			return j, false
		}
	}
	if w := d.word(k); w == "un" || w == "una" {
		return j, false
	}
	return k, true
}

// parseItem parses one article number at j with its sub-divisions and an
// optional range end.
func parseItem(d *doc, j int, afterTrigger bool) ([]int, int, bool) {
	t := d.at(j)
	lo, next, ok := 0, j, false
	rangeStart := false
	if afterTrigger {
		switch t.text {
		case "del", "desde", "entre":
			k := j + 1
			if d.word(k) == "el" {
				k++
			}
			if v, n, isNum := numberAt(d, k); isNum {
				lo, next, ok, rangeStart = v, n, true, true
			}
		}
	}
	if !ok && t.kind == tokNum {
		if a, b, isRange := rangeToken(t.text); isRange {
			return expandRange(a, b), j + 1, true
		}
	}
	if !ok {
		lo, next, ok = numberAt(d, j)
	}
	if !ok {
		return nil, j, false
	}
	if afterTrigger && isUnitAt(d, next) {
		return nil, j, false // "el artículo 30 días..." is not a citation
	}
	next = skipSubdivisions(d, next)

	// Range: "39 al 42", "39 a 42", "39 hasta el 42", "del 39 al 42",
	// "entre el 39 y el 42".
	k := next
	w := d.word(k)
	isRangeWord := w == "al" || w == "a" || w == "hasta" || (rangeStart && w == "y")
	if !isRangeWord && d.at(k).isPunct("-") {
		isRangeWord = true
	}
	if isRangeWord {
		k++
		if d.word(k) == "el" {
			k++
		}
		if hi, n, isNum := cardinalAt(d, k); isNum && hi > lo {
			if isUnitAt(d, n) {
				return nil, j, false // "3 a 5 años" is a duration
			}
			return expandRange(lo, hi), skipSubdivisions(d, n), true
		}
	}
	return []int{lo}, next, true
}

// skipSubdivisions steps over "numeral 7", "literal l", ", inciso segundo",
// "numerales 1 y 2", "literales a, c y l".
func skipSubdivisions(d *doc, j int) int {
	for {
		k := j
		if d.at(k).isPunct(",") {
			k++
		}
		w := d.word(k)
		letterOK, isSub := subWords[w]
		if !isSub {
			return j
		}
		plural := pluralSubWords[w]
		k++
		if d.at(k).isPunct(".") {
			k++
		}
		k2, wasLetter, ok := subValue(d, k, letterOK)
		if !ok {
			return j
		}
		k = k2
		if plural || wasLetter {
			for {
				s := k
				if d.at(s).isPunct(",") {
					s++
				}
				if x := d.word(s); x == "y" || x == "e" {
					s++
				} else if s == k {
					break
				}
				s2, isLetter, ok := subValue(d, s, letterOK)
				if !ok || (!plural && !isLetter) {
					break
				}
				k = s2
			}
		}
		j = k
	}
}

// subValue parses the value of a sub-division: a number, an ordinal, a
// letter ("l", "ele", "a)") or "final"/"último".
func subValue(d *doc, k int, letterOK bool) (next int, letter, ok bool) {
	t := d.at(k)
	if letterOK && t.kind == tokWord && (len(t.text) == 1 || letterNames[t.text]) {
		k++
		if d.at(k).isPunct(")") {
			k++
		}
		return k, true, true
	}
	if t.kind == tokWord && (t.text == "final" || t.text == "ultimo") {
		return k + 1, false, true
	}
	if _, n, ok := numberAt(d, k); ok {
		return n, false, true
	}
	return k, false, false
}
