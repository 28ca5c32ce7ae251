package measures

// Filler detection favours precision: a count that accuses a student of
// muletillas they did not use is worse than a missed "este". The rules are
// in doc.go; each one looks only at the neighbouring tokens.

// isHesitation matches "eh", "ehh", "eeh", "em", "emm", "ehm", "mmm", "hmm".
func isHesitation(w string) bool {
	if len(w) < 2 || len(w) > 8 {
		return false
	}
	i := 0
	if w[0] == 'h' {
		i++
		if !allByte(w[i:], 'm') || len(w)-i < 2 {
			return false
		}
		return true
	}
	if w[0] == 'm' {
		return len(w) >= 2 && allByte(w, 'm')
	}
	for i < len(w) && w[i] == 'e' {
		i++
	}
	if i == 0 || i == len(w) {
		return false
	}
	for i < len(w) && w[i] == 'h' {
		i++
	}
	for i < len(w) && w[i] == 'm' {
		i++
	}
	return i == len(w)
}

func allByte(s string, c byte) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != c {
			return false
		}
	}
	return s != ""
}

// isPause reports whether token k is a pause marker: a comma, an ellipsis
// or a dash.
func isPause(d *doc, k int) bool {
	t := d.at(k)
	if t.kind != tokPunct {
		return false
	}
	switch t.text {
	case ",", "...", "-", "—", "–":
		return true
	}
	return false
}

// clauseStart reports whether token i opens a sentence: the first token, or
// one after . ? ! ¿ ¡ ; : or a line break.
func clauseStart(d *doc, i int) bool {
	if i == 0 {
		return true
	}
	p := d.at(i - 1)
	if p.kind != tokPunct {
		return false
	}
	switch p.text {
	case ".", "?", "!", "¿", "¡", ";", ":", "\n", "\n\n", "...":
		return true
	}
	return false
}

// isFillerWord reports whether token k is an unambiguous filler word, used
// as context: "este eh", "eh pues", "bueno, pues".
func isFillerWord(d *doc, k int) bool {
	switch w := d.word(k); {
	case isHesitation(w), w == "digamos":
		return true
	case w == "o":
		return d.word(k+1) == "sea"
	}
	return false
}

// prevFiller reports whether a filler stands just before token i, possibly
// with a comma in between ("eh, bueno").
func prevFiller(d *doc, i int) bool {
	k := i - 1
	if d.at(k).isPunct(",") {
		k--
	}
	if d.word(k) == "sea" && d.word(k-1) == "o" {
		return true
	}
	return isFillerWord(d, k) || d.word(k) == "bueno" && clauseStart(d, k)
}

// Words before "este" that make it a pronoun ("un caso como este, ...").
var estePronounLead = map[string]bool{
	"como": true, "es": true, "era": true, "sea": true, "de": true, "del": true,
	"en": true, "con": true, "por": true, "para": true, "sobre": true, "a": true,
	"que": true, "ante": true, "hacia": true,
}

// Words before "tipo" that make it a noun ("el tipo penal", "este tipo de").
var tipoNounLead = map[string]bool{
	"el": true, "un": true, "este": true, "ese": true, "del": true, "al": true,
	"otro": true, "mismo": true, "cada": true, "cualquier": true, "ningun": true,
	"dicho": true, "nuevo": true, "primer": true, "de": true, "su": true, "aquel": true,
	"algun": true, "tal": true, "que": true, "cual": true, "mas": true,
}

// countFillers counts fillers by canonical kind and returns the total.
func countFillers(d *doc) (map[string]int, int) {
	counts := map[string]int{}
	total := 0
	add := func(kind string) {
		counts[kind]++
		total++
	}
	for i, t := range d.toks {
		if t.kind != tokWord {
			continue
		}
		switch w := t.text; {
		case isHesitation(w):
			add("eh")
		case w == "este":
			// A filler when a pause or another filler follows it; a
			// determiner ("este caso") or a pronoun after a preposition
			// ("como este,") otherwise.
			next := isPause(d, i+1) || isFillerWord(d, i+1) || d.word(i+1) == "este"
			if next && !estePronounLead[d.word(i-1)] {
				add("este")
			}
		case w == "o":
			if d.word(i+1) == "sea" && !disjunctiveSea(d, i) {
				add("o sea")
			}
		case w == "bueno":
			// Clause-initial, after another filler, or between commas;
			// never "visto bueno", "es bueno que".
			betweenCommas := d.at(i-1).isPunct(",") && isPause(d, i+1)
			if clauseStart(d, i) || prevFiller(d, i) || betweenCommas {
				add("bueno")
			}
		case w == "no":
			// A tag question: "¿no?" or ", no?", or in an unpunctuated live
			// transcript a "no" that ends a segment (the speaker paused on
			// it) after a statement: "es un derecho fundamental no".
			if d.at(i+1).isPunct("?") && (d.at(i-1).isPunct("¿") || d.at(i-1).isPunct(",")) || tagAtBreak(d, i) {
				add("¿no?")
			}
		case w == "pues":
			// Clause-initial ("Pues, en el análisis") or next to another
			// filler ("eh pues"); never the causal ", pues no se cumplen"
			// nor "pues bien".
			initial := clauseStart(d, i) && d.word(i+1) != "bien"
			if initial || isFillerWord(d, i+1) || prevFiller(d, i) {
				add("pues")
			}
		case w == "digamos":
			add("digamos")
		case w == "tipo":
			// "algo tipo que renuncia": not "el tipo penal", "el tipo que
			// describe el artículo".
			if !tipoNounLead[d.word(i-1)] && (d.word(i+1) == "que" || isPause(d, i+1) || isFillerWord(d, i+1)) {
				add("tipo")
			}
		}
	}
	return counts, total
}

// Words before a "no" that ends a segment making it an answer or a
// negation ("dijo que no", "la respuesta es no", "creo que no", "ya no"),
// not a tag question.
var noTagBlockers = toSet(`que si o ni ya aun todavia tampoco nunca jamas como porque pero sino cuando
donde creo digo dijo dice decir claro pues y e es era fue sea son esta estan eso esto aqui ahi alli
obviamente definitivamente simplemente casi quizas quiza acaso vez a de en para por sin con se lo no`)

// tagAtBreak reports whether the "no" at i ends a segment (a line break
// follows) as a tag question: it closes a statement of at least
// three words since the last boundary, after a word that does not make it
// an answer.
func tagAtBreak(d *doc, i int) bool {
	if next := d.at(i + 1); !next.isPunct("\n") && !next.isPunct("\n\n") {
		return false
	}
	if p := d.at(i - 1); p.kind != tokWord || noTagBlockers[p.text] {
		return false
	}
	for k := i - 1; k >= i-3; k-- {
		if t := d.at(k); t.kind != tokWord && t.kind != tokNum {
			return false
		}
	}
	return true
}

// disjunctiveSea reports whether "o sea" at i is the second half of "ya sea
// ... o sea ...", a disjunction rather than a filler.
func disjunctiveSea(d *doc, i int) bool {
	for k := i - 1; k >= 0 && k >= i-8; k-- {
		if d.word(k) == "sea" && d.word(k-1) == "ya" {
			return true
		}
	}
	return false
}
