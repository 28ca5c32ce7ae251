package measures

import (
	"slices"

	"github.com/utpl/simulador/backend/internal/norms"
)

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
	// "195 punto 1", "setenta y seis punto siete punto ele": the dotted
	// form said aloud.
	"punto": true,
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
	follows    bool // "el 42 del Código Civil y el 43": continues the group before
	// innumerado is the position of an unnumbered article after nums[0]
	// ("artículo innumerado 2 a continuación del artículo 125"); 0 for
	// numbered articles.
	innumerado int
}

// ExtractCitations returns the distinct (norm, article) pairs cited in text,
// in order of first mention, and the article numbers said with no norm to
// attach them to. See the package documentation for the binding rules.
func ExtractCitations(text string) (cites []Citation, unattributed []int) {
	return extract(tokenize(text), allRules)
}

// rules switches binding rules that the labelled-set test turns off to
// report what each is worth.
type rules struct {
	continuation   bool // rule 4
	clauseBoundary bool // rule 3 stops where "el artículo N" opens a clause of its own
}

var allRules = rules{continuation: true, clauseBoundary: true}

// extract runs the extraction on a tokenized transcript.
func extract(d *doc, r rules) ([]Citation, []int) {
	// A citation may run over a segment boundary: a speaker pauses
	// anywhere ("según el artículo setenta y seis" / "numeral siete de la
	// constitución").
	d = d.withoutLineBreaks()
	mentions := findMentions(d)
	mentionAt := make([]int32, len(d.toks)+1) // start token -> mention index + 1; 0 = none
	for k, m := range mentions {
		mentionAt[m.start] = int32(k + 1)
	}
	groups := findGroups(d, mentions, mentionAt)

	b := binder{d: d, mentions: mentions, mentionAt: mentionAt, rules: r,
		usedWeak: map[int]bool{}, boundMention: -1, lastUnbound: -1}
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
			if g.innumerado == 0 { // "125" alone would point at another article
				loose = append(loose, g.nums...)
			}
			continue
		case dropped:
			continue
		}
		for _, n := range g.nums {
			c := Citation{Norm: norm, Article: n, Innumerado: g.innumerado}
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
	d         *doc
	mentions  []mention
	mentionAt []int32
	rules     rules
	usedWeak  map[int]bool // weak mentions that bound an article

	last     string // "" = an untracked norm
	hasLast  bool
	lastWord int
	lastSent int
	lastPara int
	// lastNamedEnd is the token after the mention that made last the last
	// norm when it was named on its own ("La Constitución garantiza..."),
	// or -1 when it was last attached to an article ("el artículo 76 de la
	// Constitución"). The two open different clause-boundary rules.
	lastNamedEnd int

	// lastUnbound is the word of the last group left unattributed, -1 if
	// none, and lastUnboundSent its sentence: a norm noted before it no
	// longer carries over by inference (rules 3 and 4) to a later group of
	// the same sentence. The speaker moved to a norm they did not name;
	// in unpunctuated speech the sentence end that would have separated
	// the two is gone.
	lastUnbound     int
	lastUnboundSent int

	boundMention int    // the mention that bound the last group right after it; -1 = none
	prevNorm     string // the last group's norm and outcome, for the "y el 43" that follows it
	prevState    bindState
}

// note makes norm the last norm, as of token t.
func (b *binder) note(norm string, t token, namedEnd int) {
	b.last, b.hasLast = norm, true
	b.lastWord, b.lastSent, b.lastPara = t.word, t.sent, t.para
	b.lastNamedEnd = namedEnd
}

// see records mention k, which lies before the next group.
func (b *binder) see(k int) {
	m := b.mentions[k]
	end := m.end
	if k == b.boundMention {
		end = -1 // it named the norm of the article before it
	}
	switch {
	case m.kind == mNamed || m.kind == mWeak && b.usedWeak[k]:
		b.note(m.canon, b.d.at(m.start), end)
	case m.kind == mBackref && b.hasLast:
		b.note(b.last, b.d.at(m.start), end)
	case m.kind == mForeign:
		b.note("", b.d.at(m.start), end)
	}
	// Other weak and generic mentions count only right after an article.
}

// bind applies the binding rules (doc.go) to g.
func (b *binder) bind(g group) (string, bindState) {
	norm, state := b.bindRules(g)
	b.prevNorm, b.prevState = norm, state
	if state == unbound {
		t := b.d.at(g.start)
		b.lastUnbound, b.lastUnboundSent = t.word, t.sent
	}
	return norm, state
}

func (b *binder) bindRules(g group) (string, bindState) {
	first := b.d.at(g.start)
	b.boundMention = -1
	norm, state := b.rightAfter(g)
	if state == unbound && g.follows {
		// "el 42 del Código Civil y el 43": the norm of the group it
		// continues, which was named right after that group.
		switch {
		case b.prevState == bound && plausible(b.prevNorm, g.nums):
			norm, state = b.prevNorm, bound
		default:
			return "", dropped
		}
	}
	if state == unbound && !g.bare && b.hasLast {
		inferable := b.lastWord > b.lastUnbound || b.lastUnboundSent != first.sent
		switch {
		case g.anaphoric:
			state = bound
		case inferable && b.lastSent == first.sent && first.word-b.lastWord <= sentenceWindow &&
			!(b.rules.clauseBoundary && opensClause(b.d, g.start, b.lastNamedEnd)):
			state = bound
		case inferable && b.rules.continuation && b.lastPara == first.para && first.word-b.lastWord <= continuationWindow &&
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
		b.note(norm, b.d.at(g.end-1), -1)
	}
	return norm, state
}

// Words after which "el artículo N" is still inside the clause that named
// the norm: prepositions ("en el artículo", "según el artículo"), verbs of
// citing with the article as their subject ("como establece el artículo
// 76") and "que".
var clauseKeepers = toSet(`a ante bajo con conforme contra de desde durante en entre hacia hasta
mediante para por segun sin sobre tras como que acorde establece establecen dispone disponen senala
senalan preve preven determina determinan indica indican dice dicen manda mandan reconoce reconocen
consagra consagran contempla contemplan prescribe prescriben estipula estipulan expresa expresan
menciona mencionan recoge recogen desarrolla desarrollan`)

// Conjunctions that join clauses: after one, "el artículo N" may be the
// subject of a new clause.
var clauseJoiners = toSet(`y e o u ni pero mas sino aunque mientras ademas tambien asimismo igualmente
luego finalmente entonces pues porque`)

// opensClause reports whether the article group starting at i, said with a
// determiner ("el artículo 140"), is the subject of a clause of its own
// rather than part of the clause that named the last norm. namedEnd is the
// token after that norm's mention when it was named on its own, or -1 when
// the norm was last attached to an article.
//
//   - A norm named on its own is the frame of its clause only: "La
//     Constitución garantiza el debido proceso y el artículo 140 tipifica
//     el asesinato" does not cite the Constitution's article 140, while
//     "la Constitución en el artículo 76", "el Código Civil: el artículo
//     715" and "como establece el artículo 76" do.
//   - After an article attached to a norm, an enumeration goes on with a
//     conjunction or punctuation ("el artículo 43 protege a la madre, y el
//     artículo 332 prohíbe..."); a determiner right after an ordinary word
//     is a sentence boundary a recognizer dropped ("protege la vida en el
//     artículo 66 el artículo 144 sanciona el homicidio").
func opensClause(d *doc, i, namedEnd int) bool {
	det := i - 1
	if w := d.word(det); w != "el" && w != "los" {
		return false
	}
	q := det - 1
	if namedEnd >= 0 {
		onlyPunct := true
		for k := namedEnd; k < det; k++ {
			if d.at(k).kind != tokPunct {
				onlyPunct = false
				break
			}
		}
		if onlyPunct {
			return false // in apposition to the norm
		}
		return !clauseKeepers[d.word(q)]
	}
	t := d.at(q)
	if t.kind == tokPunct || clauseKeepers[t.text] || clauseJoiners[t.text] {
		return false
	}
	return true
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
	b.boundMention = k
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
	return mentionRightAfter(b.d, j, b.mentionAt)
}

// mentionRightAfter finds the index of a mention starting within
// afterWindow tokens of j, the token after an article group, with only
// connectors in between. A determiner right after the number opens the
// next clause instead ("...artículo 66 numeral 1 el COIP en el artículo
// 144...", a sentence boundary a recognizer dropped): a norm named after
// an article takes "de", "en" or a participle first.
func mentionRightAfter(d *doc, j int, mentionAt []int32) (int, bool) {
	for k := j; k < j+afterWindow && k < len(d.toks); k++ {
		if idx := mentionAt[k]; idx > 0 {
			return int(idx - 1), true
		}
		t := d.toks[k].text
		if !afterConnectors[t] || k == j && (t == "el" || t == "la" || t == "los" || t == "las") {
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
		if (t.text == "y" || t.text == "e") && len(out) > 0 {
			if f, ok := elidedFollower(d, i, out[len(out)-1], mentions, mentionAt); ok {
				out = append(out, f)
				i = f.end - 1
				continue
			}
		}
		if t.kind == tokWord && (articleWords[t.text] || t.text == "innumerado") {
			if g, ok := triggeredGroup(d, i); ok {
				out = append(out, g)
				i = g.end - 1
				i = addFollower(d, &out, g, mentions, mentionAt, i)
			}
			continue
		}
		g, ok, end := bareGroup(d, i, mentions, mentionAt)
		if ok {
			out = append(out, g)
			end = addFollower(d, &out, g, mentions, mentionAt, end-1) + 1
		}
		if end > i {
			// Every number inside a failed list ends at the same place and
			// fails the same way: skipping it keeps the scan linear.
			i = end - 1
		}
	}
	return out
}

// addFollower appends the group that continues g after the norm named
// right after it ("el 42 del Código Civil y el 43"), if there is one, and
// returns the index of the last token the scan has consumed (i when none).
func addFollower(d *doc, out *[]group, g group, mentions []mention, mentionAt []int32, i int) int {
	if k, ok := mentionRightAfter(d, g.end, mentionAt); ok {
		if f, ok := followerAt(d, mentions[k].end, mentions, mentionAt); ok {
			*out = append(*out, f)
			return f.end - 1
		}
	}
	return i
}

// Words that may follow a number continuing a list without "el": "...de la
// Constitución y setenta y siete establecen". Anything else ("y 2 hijos")
// makes the number a quantity.
var followerNext = toSet(`que y e o en se lo la las el los establece establecen dispone disponen
senala senalan preve preven regula regulan garantiza garantizan determina determinan indica indican
dice dicen reconoce reconocen tipifica tipifican sanciona sancionan define definen prohibe prohiben
consagra consagran fija fijan exige exigen respectivamente tambien ibidem`)

// followerAt parses a bare number continuing a list right after the norm
// that ends at j: ", y el 43", "y en el 105", "e setenta y siete". Dates,
// years, amounts and counts ("y el 30 de marzo", "y en el 2008", "y 30
// días", "y 2 hijos") are not followers.
func followerAt(d *doc, j int, mentions []mention, mentionAt []int32) (group, bool) {
	return parseFollower(d, j, false, mentions, mentionAt)
}

// Limits of an elided follower: "el artículo 2410 del mismo código regula
// la prescripción extraordinaria y el 2411 fija el tiempo".
const (
	elidedWindow = 20 // words from the group it continues, in the same sentence
	elidedStep   = 10 // at most this far past that group's last article
)

// elidedFollower parses, at the "y" at i, a number that continues the
// enumeration of group prev after a predicate, with the verb left implicit:
// "...regula la prescripción extraordinaria y el 2411 fija el tiempo",
// "...en el artículo 100 los requisitos y en el 105 las causas". Only a
// number said with "el", a little past prev's articles, in the same
// sentence and a few words on, is taken: "y el 30 de marzo", "y el 5 %",
// "y el 12" after article 22 are not.
func elidedFollower(d *doc, i int, prev group, mentions []mention, mentionAt []int32) (group, bool) {
	last := d.at(prev.end - 1)
	if t := d.at(i); t.sent != last.sent || t.word-last.word > elidedWindow {
		return group{}, false
	}
	f, ok := parseFollower(d, i, true, mentions, mentionAt)
	if !ok {
		return group{}, false
	}
	top := slices.Max(prev.nums)
	if lo := slices.Min(f.nums); lo <= top || lo-top > elidedStep {
		return group{}, false
	}
	return f, true
}

// parseFollower parses "[,] y|e [en] [el] N..." at j; needDet requires the
// "el".
func parseFollower(d *doc, j int, needDet bool, mentions []mention, mentionAt []int32) (group, bool) {
	k := j
	if d.at(k).isPunct(",") {
		k++
	}
	if w := d.word(k); w != "y" && w != "e" {
		return group{}, false
	}
	k++
	det := false
	if d.word(k) == "en" && d.word(k+1) == "el" {
		k += 2
		det = true
	} else if d.word(k) == "el" {
		k++
		det = true
	}
	if needDet && !det {
		return group{}, false
	}
	t := d.at(k)
	switch t.kind {
	case tokNum:
		if !allDigits(t.text) && !isSubNumbered(t.text) {
			return group{}, false
		}
	case tokWord:
		if !numberWords[t.text] || t.text == "uno" || t.text == "un" || t.text == "una" {
			return group{}, false
		}
	default:
		return group{}, false
	}
	nums, end := parseItems(d, k, false)
	if len(nums) == 0 || isUnitAt(d, end) {
		return group{}, false
	}
	for _, n := range nums {
		if n >= 1900 && n <= 2100 {
			return group{}, false // a year: "y en el 2008"
		}
	}
	next := d.at(end)
	switch {
	case next.kind == tokWord && (next.text == "de" || next.text == "del"):
		// Only a norm may follow: "y el 43 del mismo código", not "y el
		// 30 de marzo".
		if _, ok := mentionRightAfter(d, end, mentionAt); !ok {
			return group{}, false
		}
	case next.kind == tokWord && !det && !followerNext[next.text]:
		return group{}, false
	}
	return group{start: k, end: end, nums: nums, bare: true, follows: true}, true
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
	j := i
	if d.word(i) != "innumerado" {
		j = skipTrigger(d, i)
	}
	if d.word(j) == "innumerado" {
		host, inn, end, ok := innumeradoAt(d, j)
		if !ok {
			return group{}, false
		}
		g.nums, g.innumerado, g.end = []int{host}, inn, end
		return g, true
	}
	nums, end := parseItems(d, j, true)
	if len(nums) == 0 {
		return group{}, false
	}
	g.nums, g.end = nums, end
	return g, true
}

// Phrases that place an unnumbered article after the one it follows.
var innumeradoPlacers = [][]string{
	{"a", "continuacion", "del"}, {"a", "continuacion", "de"}, {"despues", "del"}, {"despues", "de"},
	{"luego", "del"}, {"posterior", "al"}, {"siguiente", "al"}, {"que", "sigue", "al"}, {"tras", "el"},
}

// innumeradoAt parses an unnumbered article cited by the article it
// follows, at the word "innumerado" at i: "innumerado dos a continuación
// del artículo ciento veinticinco", "innumerado 2 después del 125",
// "innumerado primero a continuación del artículo 125". Without the
// article it follows ("el artículo innumerado 2 dice...") there is no
// citation: the number alone names no article.
func innumeradoAt(d *doc, i int) (host, inn, end int, ok bool) {
	inn, j, ok := numberAt(d, i+1)
	if !ok || inn > norms.MaxInnumerado {
		return 0, 0, 0, false
	}
	placed := false
	for _, p := range innumeradoPlacers {
		k := j
		for _, w := range p {
			if d.word(k) != w {
				break
			}
			k++
		}
		if k-j == len(p) {
			j, placed = k, true
			break
		}
	}
	if !placed {
		return 0, 0, 0, false
	}
	if articleWords[d.word(j)] {
		j = skipTrigger(d, j)
	}
	host, j, ok = cardinalAt(d, j)
	if !ok || isUnitAt(d, j) {
		return 0, 0, 0, false
	}
	return host, inn, skipSubdivisions(d, j), true
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
		if _, _, ok := spelledAt(d, i); !ok || t.text == "uno" || insideSpelled(d, i) {
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
	if k, ok := mentionRightAfter(d, end, mentionAt); ok {
		if m := mentions[k]; m.kind == mNamed || m.kind == mBackref {
			return group{start: i, end: end, nums: nums, bare: true}, true, end
		}
	}
	return group{}, false, end
}

// insideSpelled reports whether the number word at i continues a spelled
// number that starts before it, as "seis" in "setenta y seis": read left
// to right, it is not a number of its own.
func insideSpelled(d *doc, i int) bool {
	s := i
	for s > 0 && i-s < 8 {
		w := d.word(s - 1)
		if !numberWords[w] && w != "y" {
			break
		}
		s--
	}
	for p := s; p < i; {
		_, next, ok := spelledAt(d, p)
		if !ok {
			p++
			continue
		}
		if next > i {
			return true
		}
		p = next
	}
	return false
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
	juxtaposed := false
	for first := true; ; first = false {
		item, next, ok := parseItem(d, j, triggered && first)
		if !ok {
			break
		}
		if !first && isUnitAt(d, next) {
			break
		}
		if juxtaposed && item[0] <= nums[len(nums)-1] {
			// "artículo 76 7 de la Constitución": a smaller number said
			// right after is the sub-division read without its dot.
			item = nil
		}
		nums = append(nums, item...)
		j = next
		k, more, jux := listSeparator(d, j)
		if !more {
			break
		}
		j, juxtaposed = k, jux
	}
	return nums, j
}

// listSeparator steps over ", ", " y ", " y el ", ", artículo " between two
// items and reports whether another number follows, and whether it
// follows with no separator at all (juxtaposed: "527 528 y 529").
func listSeparator(d *doc, j int) (next int, more, juxtaposed bool) {
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
	if w := d.word(k); sep && (w == "el" || w == "los") {
		// Without "," or "y" before it, "el artículo" opens a new clause:
		// "en el artículo 66 el artículo 144 sanciona...".
		k++
	}
	if articleWords[d.word(k)] {
		k = skipTrigger(d, k)
		sep = true
	}
	if _, _, ok := numberAt(d, k); !ok {
		return j, false, false
	}
	if w := d.word(k); w == "un" || w == "una" {
		return j, false, false
	}
	if !sep {
		// Recognizers drop commas: "artículos 527 528 y 529", "setenta y
		// cinco setenta y seis y ochenta y dos". Both numbers must be
		// written the same way, and be cardinals.
		prev, cur := d.at(j-1), d.at(k)
		switch {
		case prev.kind == tokNum && cur.kind == tokNum:
		case prev.kind == tokWord && numberWords[prev.text] && cur.kind == tokWord && cur.text != "uno":
			if _, _, ok := spelledAt(d, k); !ok {
				return j, false, false
			}
		default:
			return j, false, false
		}
		return k, true, true
	}
	return k, true, false
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
		if w == "punto" {
			switch d.word(k) {
			case "a", "e", "o", "u", "y":
				return j // "punto y aparte", "punto a tratar"
			}
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
