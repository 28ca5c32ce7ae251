package measures

import (
	"slices"
	"sort"
	"strings"

	"github.com/utpl/simulador/backend/internal/norms"
)

// The norms come from the shared catalogue (package norms). Here they are
// indexed for matching on the folded token stream.

type mentionKind uint8

const (
	mNamed   mentionKind = iota + 1 // a norm by name or acronym
	mWeak                           // an ambiguous acronym: binds only right after an article
	mBackref                        // "el mismo código", "ibídem": the last named norm
	mGeneric                        // a bare "el código", "la ley": last norm of that kind, right after only
	mForeign                        // a norm outside the catalogue ("Código de Policía")
)

// mention is a norm named in the transcript, as a token span.
type mention struct {
	start, end int
	kind       mentionKind
	canon      string     // for mNamed and mWeak
	want       norms.Kind // for mGeneric: the kind it may resolve to; 0 = any
}

type alias struct {
	words []string
	canon string
	kind  mentionKind
}

var (
	aliasIndex   = map[string][]alias{} // first word -> aliases, longest first
	acronymSet   = map[string]string{}  // joined letters -> canonical norm
	weakAcronyms = map[string]string{}  // ambiguous acronyms: they bind only right after an article
	normKinds    = map[string]norms.Kind{}
	normLast     = map[string]int{} // canonical norm -> last article (see norms.Norm.LastArticle)
)

// Words that make "código"/"ley" the start of a norm name we do not know,
// rather than a bare back-reference.
var nameContinuation = map[string]bool{
	"de": true, "del": true, "organico": true, "organica": true, "tributario": true,
	"tributaria": true, "comercial": true, "municipal": true, "sanitario": true,
	"electoral": true, "monetario": true, "reformatoria": true, "reformatorio": true,
	"especial": true, "general": true, "para": true, "sobre": true, "nacional": true,
	"civil": true, "penal": true, "procesal": true, "integral": true,
}

// Heads of norms outside the list. An article bound to one of these is not
// reported at all: it is attributed, just not to a norm we track.
var foreignHeads = map[string]bool{
	"reglamento": true, "decreto": true, "convencion": true, "convenio": true,
	"pacto": true, "declaracion": true, "tratado": true, "estatuto": true,
	"ordenanza": true, "resolucion": true, "instructivo": true,
}

// Objects that make "constitución" a civil-law act, not the Constitution:
// "constitución en mora", "constitución de la hipoteca".
var constitutionObjects = map[string]bool{
	"sociedad": true, "compania": true, "hipoteca": true, "prenda": true,
	"servidumbre": true, "garantia": true, "garantias": true, "renta": true,
	"fideicomiso": true, "usufructo": true, "gravamen": true, "patrimonio": true,
	"empresa": true, "fundacion": true, "asociacion": true, "corporacion": true,
	"cooperativa": true, "derechos": true, "familia": true, "hogar": true,
}

func init() {
	add := func(phrase, canon string, kind mentionKind) {
		words := strings.Fields(phrase)
		aliasIndex[words[0]] = append(aliasIndex[words[0]], alias{words, canon, kind})
	}
	for _, n := range norms.All() {
		normKinds[n.Name] = n.Kind
		normLast[n.Name] = n.LastArticle
		for _, a := range n.Aliases {
			add(a, n.Name, mNamed)
		}
		for _, a := range n.Acronyms {
			if !slices.Contains(n.Aliases, a) {
				add(a, n.Name, mNamed)
			}
			acronymSet[a] = n.Name
		}
		for _, a := range n.AmbiguousAcronyms {
			add(a, n.Name, mWeak)
			weakAcronyms[a] = n.Name
		}
	}
	for a := range acronymSet {
		addPrefixes(a)
	}
	for a := range weakAcronyms {
		addPrefixes(a)
	}
	for _, phrase := range backrefPhrases() {
		add(phrase, "", mBackref)
	}
	for w := range aliasIndex {
		as := aliasIndex[w]
		sort.SliceStable(as, func(i, j int) bool { return len(as[i].words) > len(as[j].words) })
	}
}

// backrefPhrases builds the explicit back-references: "el mismo código",
// "la citada ley", "dicho cuerpo legal", "el cuerpo legal antes citado",
// "ibídem".
func backrefPhrases() []string {
	nouns := []string{
		"codigo", "ley", "cuerpo legal", "cuerpo normativo", "texto legal", "norma",
		"normativa", "cuerpo de leyes", "cuerpo juridico", "texto normativo", "instrumento",
	}
	before := []string{
		"mismo", "misma", "dicho", "dicha", "citado", "citada", "referido", "referida",
		"mencionado", "mencionada", "indicado", "indicada", "este", "esta", "aludido",
		"aludida", "invocado", "invocada", "senalado", "senalada", "precitado", "precitada",
		"antedicho", "antedicha",
	}
	after := []string{
		"citado", "citada", "mencionado", "mencionada", "referido", "referida",
		"invocado", "invocada", "antes citado", "antes citada", "antes mencionado",
		"antes mencionada", "ya citado", "ya citada", "ya mencionado", "ya mencionada",
		"precitado", "precitada", "aludido", "aludida", "indicado", "indicada",
	}
	out := []string{"ibidem", "ibid", "idem", "ib idem"}
	for _, n := range nouns {
		for _, b := range before {
			out = append(out, b+" "+n)
		}
		for _, a := range after {
			out = append(out, n+" "+a)
		}
	}
	return out
}

// findMentions returns the norm mentions of d in order, without overlaps.
func findMentions(d *doc) []mention {
	var out []mention
	for i := 0; i < len(d.toks); {
		t := d.toks[i]
		if t.kind != tokWord {
			i++
			continue
		}
		if m, ok := aliasAt(d, i); ok {
			out = append(out, m)
			i = m.end
			continue
		}
		if len(t.text) <= 4 {
			if m, ok := spelledAcronymAt(d, i); ok {
				out = append(out, m)
				i = m.end
				continue
			}
		}
		if m, ok := genericAt(d, i); ok {
			out = append(out, m)
			i = m.end
			continue
		}
		i++
	}
	return out
}

// aliasAt matches the longest alias starting at token i.
func aliasAt(d *doc, i int) (mention, bool) {
	for _, a := range aliasIndex[d.toks[i].text] {
		end := i
		ok := true
		for _, w := range a.words {
			if d.word(end) != w {
				ok = false
				break
			}
			end++
		}
		if !ok {
			continue
		}
		if a.canon == "Constitución" && len(a.words) == 1 && civilConstitution(d, i, end) {
			return mention{}, false
		}
		return mention{start: i, end: end, kind: a.kind, canon: a.canon}, true
	}
	return mention{}, false
}

// civilConstitution reports whether a bare "constitución" at [i, end) is a
// civil act ("la constitución en mora", "constitución de una sociedad",
// "escritura de constitución"), not the Constitution ("la Constitución en su
// artículo 76").
func civilConstitution(d *doc, i, end int) bool {
	next := d.word(end)
	if next == "en" && d.word(end+1) == "mora" {
		return true
	}
	if next == "de" || next == "del" {
		j := end + 1
		switch d.word(j) {
		case "un", "una", "la", "el", "los", "las", "su", "sus":
			j++
		}
		if constitutionObjects[d.word(j)] {
			return true
		}
	}
	if d.word(i-1) == "de" {
		switch d.word(i - 2) {
		case "acta", "escritura", "contrato":
			return true
		}
	}
	return false
}

// spelledAcronymAt matches an acronym a recognizer wrote letter by letter,
// with or without dots ("c o i p", "c.o.i.p.", "l o g j c c"), or split
// into pieces ("co gep", "lo sep", "c o gep"). A split form made only of
// common short words ("lo es", "con a") is read as those words.
func spelledAcronymAt(d *doc, i int) (mention, bool) {
	var buf [maxAcronym]byte
	letters := buf[:0]
	var ends, lens [maxAcronym]int // after k+1 pieces: the token end and the letters read
	var ok [maxAcronym]bool        // after k+1 pieces: letters only, or a piece that is not a common word
	pieces, j := 0, i
	split, plain := false, false
	for pieces < maxAcronym {
		t := d.at(j)
		if t.kind != tokWord || len(t.text) > 4 || len(letters)+len(t.text) > maxAcronym {
			break
		}
		letters = append(letters, t.text...)
		if !acronymPrefixes[string(letters)] {
			break
		}
		if len(t.text) > 1 {
			split = true
			plain = plain || !commonShortWords[t.text]
		}
		j++
		if d.at(j).isPunct(".") {
			j++
		}
		ends[pieces], lens[pieces], ok[pieces] = j, len(letters), !split || plain
		pieces++
	}
	for k := pieces - 1; k >= 1; k-- {
		if !ok[k] {
			continue
		}
		if canon, found := acronymSet[string(letters[:lens[k]])]; found {
			return mention{start: i, end: ends[k], kind: mNamed, canon: canon}, true
		}
		if canon, found := weakAcronyms[string(letters[:lens[k]])]; found {
			return mention{start: i, end: ends[k], kind: mWeak, canon: canon}, true
		}
	}
	return mention{}, false
}

// genericAt matches a bare "código", "ley" or "cuerpo legal" (a reference to
// the norm under discussion) and the heads of norms we do not track.
func genericAt(d *doc, i int) (mention, bool) {
	w := d.toks[i].text
	switch w {
	case "codigo", "ley":
		if nameContinuation[d.word(i+1)] {
			return mention{start: i, end: i + 1, kind: mForeign}, true
		}
		want := norms.KindCode
		if w == "ley" {
			want = norms.KindLaw
		}
		return mention{start: i, end: i + 1, kind: mGeneric, want: want}, true
	case "cuerpo":
		if n := d.word(i + 1); n == "legal" || n == "normativo" {
			return mention{start: i, end: i + 2, kind: mGeneric}, true
		}
	}
	if foreignHeads[w] {
		return mention{start: i, end: i + 1, kind: mForeign}, true
	}
	return mention{}, false
}

// CanonicalNorm maps a norm name as written in a case or said in a
// transcript to its canonical name: "Código Orgánico Integral Penal" ->
// "COIP", "Carta Magna" -> "Constitución", "c.o.i.p." -> "COIP". A year or
// punctuation after the name is tolerated ("Constitución (2008)").
func CanonicalNorm(name string) (string, bool) {
	d := tokenize(name)
	first := -1
	for i, t := range d.toks {
		if t.kind == tokWord {
			first = i
			break
		}
	}
	if first < 0 {
		return "", false
	}
	m, ok := aliasAt(d, first)
	if !ok && len(d.toks[first].text) <= 4 {
		m, ok = spelledAcronymAt(d, first)
	}
	if !ok || (m.kind != mNamed && m.kind != mWeak) {
		return "", false
	}
	for _, t := range d.toks[m.end:] {
		if t.kind == tokWord {
			return "", false
		}
	}
	return m.canon, true
}

// Short words that are also pieces of a split acronym ("lo es"): a split
// acronym whose pieces are all such words is read as the words.
var commonShortWords = toSet(`a e o u y de del el la lo los las le les se si no es en un una al con por que mi tu su me te nos yo`)

// maxAcronym bounds the letters (and pieces) of a spelled acronym.
const maxAcronym = 8

// acronymPrefixes holds every prefix of an acronym, so that reading a
// spelled acronym stops at the first piece that cannot continue one.
var acronymPrefixes = map[string]bool{}

func addPrefixes(a string) {
	for k := 1; k <= len(a) && k <= maxAcronym; k++ {
		acronymPrefixes[a[:k]] = true
	}
}
