package measures

import (
	"sort"
	"strings"
)

// normKind groups norms so that a bare "el código" or "la ley" can only refer
// back to a norm of its own kind.
type normKind uint8

const (
	kindConstitution normKind = iota + 1
	kindCode
	kindLaw
)

type normDef struct {
	canon string
	kind  normKind
	// lastArticle is a little above the norm's last article. An article
	// number beyond it cannot be *inferred* to belong to the norm (binding
	// rules 2–4); said explicitly ("artículo 534 de la LOGJCC"), it is
	// reported as said.
	lastArticle int
	aliases     []string // folded word sequences
	// acronyms may also be spelled letter by letter by a recognizer ("c o i p").
	acronyms []string
}

// normDefs lists the norms a presentation is expected to cite, with the ways
// students and speech recognizers name them. Aliases are accent-folded and
// lowercase; matching is on whole words.
var normDefs = []normDef{
	{"Constitución", kindConstitution, 450, []string{
		"constitucion", "constitucion de la republica", "constitucion de la republica del ecuador",
		"constitucion del ecuador", "constitucion politica", "constitucion politica del ecuador",
		"constitucion politica de la republica", "constitucion de montecristi",
		"constitucion ecuatoriana", "misma constitucion", "carta magna", "norma suprema",
		"ley suprema", "norma fundamental", "carta fundamental", "ley fundamental",
		"texto constitucional", "carta constitucional",
	}, []string{"cre"}},
	{"COIP", kindCode, 750, []string{
		"codigo organico integral penal", "codigo integral penal", "codigo organico penal",
		"codigo penal", "cojip", "koip", "cohip",
	}, []string{"coip"}},
	{"Código Civil", kindCode, 2500, []string{"codigo civil", "codigo civil ecuatoriano"}, nil},
	{"COGEP", kindCode, 470, []string{
		"codigo organico general de procesos", "codigo general de procesos",
		"codigo organico general del proceso", "kogep", "cogeb", "cojep",
	}, []string{"cogep"}},
	{"Código del Trabajo", kindCode, 700, []string{
		"codigo del trabajo", "codigo de trabajo", "codigo laboral",
	}, nil},
	{"LOGJCC", kindLaw, 210, []string{
		"ley organica de garantias jurisdiccionales y control constitucional",
		"ley de garantias jurisdiccionales y control constitucional",
		"ley organica de garantias jurisdiccionales", "ley de garantias jurisdiccionales",
		"ley de garantias", "lojcc", "logjc", "lgjcc",
	}, []string{"logjcc"}},
	{"Código de la Niñez y Adolescencia", kindCode, 400, []string{
		"codigo de la ninez y adolescencia", "codigo de la ninez y la adolescencia",
		"codigo organico de la ninez y adolescencia", "codigo de ninez y adolescencia",
		"codigo de la ninez",
	}, []string{"cona"}},
	{"COA", kindCode, 300, []string{"codigo organico administrativo", "codigo administrativo"}, []string{"coa"}},
	{"COFJ", kindCode, 360, []string{
		"codigo organico de la funcion judicial", "codigo de la funcion judicial",
	}, []string{"cofj"}},
	{"LOSEP", kindLaw, 150, []string{
		"ley organica del servicio publico", "ley organica de servicio publico",
		"ley del servicio publico", "ley de servicio publico",
	}, []string{"losep"}},
	{"LOSNCP", kindLaw, 120, []string{
		"ley organica del sistema nacional de contratacion publica",
		"ley del sistema nacional de contratacion publica",
		"ley organica de contratacion publica", "ley de contratacion publica",
	}, []string{"losncp"}},
	{"LOES", kindLaw, 230, []string{"ley organica de educacion superior", "ley de educacion superior"}, []string{"loes"}},
	{"LOEI", kindLaw, 160, []string{"ley organica de educacion intercultural", "ley de educacion intercultural"}, []string{"loei"}},
}

// weakAcronyms name a norm only when said right after an article number:
// "CC" is also the Corte Constitucional ("sentencia 001-10-SIN-CC").
var weakAcronyms = map[string]string{"cc": "Código Civil"}

type mentionKind uint8

const (
	mNamed   mentionKind = iota + 1 // a norm by name or acronym
	mWeak                           // an ambiguous acronym: binds only right after an article
	mBackref                        // "el mismo código", "ibídem": the last named norm
	mGeneric                        // a bare "el código", "la ley": last norm of that kind, right after only
	mForeign                        // a norm outside the list ("Código de Comercio")
)

// mention is a norm named in the transcript, as a token span.
type mention struct {
	start, end int
	kind       mentionKind
	canon      string   // for mNamed and mWeak
	want       normKind // for mGeneric: the kind it may resolve to; 0 = any
}

type alias struct {
	words []string
	canon string
	kind  mentionKind
}

var (
	aliasIndex = map[string][]alias{} // first word -> aliases, longest first
	acronymSet = map[string]string{}  // joined letters -> canonical norm
	normKinds  = map[string]normKind{}
	normLast   = map[string]int{} // canonical norm -> lastArticle
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
	for _, n := range normDefs {
		normKinds[n.canon] = n.kind
		normLast[n.canon] = n.lastArticle
		for _, a := range n.aliases {
			add(a, n.canon, mNamed)
		}
		for _, a := range n.acronyms {
			add(a, n.canon, mNamed)
			acronymSet[a] = n.canon
		}
	}
	for a, canon := range weakAcronyms {
		add(a, canon, mWeak)
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
		if len(t.text) == 1 {
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
// with or without dots: "c o i p", "c.o.i.p.", "l o g j c c".
func spelledAcronymAt(d *doc, i int) (mention, bool) {
	var letters []byte
	var ends []int // ends[k] = token end after k+1 letters
	j := i
	for {
		t := d.at(j)
		if t.kind != tokWord || len(t.text) != 1 {
			break
		}
		letters = append(letters, t.text[0])
		j++
		if d.at(j).isPunct(".") {
			j++
		}
		ends = append(ends, j)
		if len(letters) == 8 {
			break
		}
	}
	for k := len(letters); k >= 2; k-- {
		if canon, ok := acronymSet[string(letters[:k])]; ok {
			return mention{start: i, end: ends[k-1], kind: mNamed, canon: canon}, true
		}
		if canon, ok := weakAcronyms[string(letters[:k])]; ok {
			return mention{start: i, end: ends[k-1], kind: mWeak, canon: canon}, true
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
		want := kindCode
		if w == "ley" {
			want = kindLaw
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
	if !ok && len(d.toks[first].text) == 1 {
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
