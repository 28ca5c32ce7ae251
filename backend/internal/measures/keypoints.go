package measures

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Key point coverage (see doc.go): a key point is covered when at least
// keyPointShare of its content stems (and at least one) occur within
// keyPointWindow consecutive words of the transcript.
const (
	keyPointShare  = 0.6
	keyPointWindow = 40
)

// stopwords are dropped from key points and transcripts before stemming:
// Spanish function words plus a few that every talk uses ("caso", "debe").
var stopwords = toSet(`a al algo algun alguna ante antes aquel asi aun cada como con contra cual
cuales cuando de del desde donde e el ella ellas ellos en entre era es esa ese eso esta estas
este esto estos fue frente ha han hasta hay la las le les lo los mas me mediante mi mientras muy
ni no nos o os otra otro para pero por porque que quien se sea segun ser si sin sobre solo su sus
tal tambien tras u un una unas uno unos y ya yo caso debe puede tiene`)

func toSet(words string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(words) {
		m[w] = true
	}
	return m
}

// Suffixes stripped by the light stemmer, longest first within a family
// (words ending alike). Verb endings cover what students narrate facts
// with: preterite plurals ("violaron", "defendieron"), the imperfect
// ("negaban"), present plurals ("vulneran", "establecen") and infinitives
// with a pronoun ("defenderse", "notificarle").
var suffixes = []string{
	"abilidades", "ibilidades", "abilidad", "ibilidad", "amientos", "imientos",
	"ieron", "aron", "eron", "aban",
	"arse", "erse", "irse", "arle", "erle", "irle", "arlo", "erlo", "irlo", "arla", "erla", "irla",
	"arles", "erles", "irles", "arlos", "erlos", "irlos", "arlas", "erlas", "irlas",
	"amiento", "imiento", "aciones", "iciones", "uciones", "ciones", "siones",
	"acion", "icion", "ucion", "cion", "sion", "idades", "idad", "mente",
	"ancias", "encias", "ancia", "encia", "antes", "entes", "ante", "ente",
	"ables", "ibles", "able", "ible", "istas", "ista", "ivos", "ivas", "ivo", "iva",
	"ados", "adas", "idos", "idas", "ado", "ada", "ido", "ida", "ando", "iendo",
	"ales", "al", "ar", "er", "ir", "es", "os", "as", "ian", "an", "en", "s", "o", "a", "e",
}

// minStem keeps short words recognisable ("pena", "via").
const minStem = 4

// suffixesByLast indexes suffixes by their last byte: stem runs on every
// word of a transcript, and most words rule out all but a few suffixes.
var suffixesByLast = func() map[byte][]string {
	m := map[byte][]string{}
	for _, s := range suffixes {
		m[s[len(s)-1]] = append(m[s[len(s)-1]], s)
	}
	return m
}()

// stem is a crude Spanish suffix stripper: it maps "motivación",
// "motivada" and "motivar" to "motiv". It strips repeatedly (at most three
// times) so that "integralmente" and "integral" meet.
func stem(w string) string {
	for range 3 {
		if w == "" {
			break
		}
		stripped := false
		for _, s := range suffixesByLast[w[len(w)-1]] {
			if len(w)-len(s) >= minStem && strings.HasSuffix(w, s) {
				w = w[:len(w)-len(s)]
				stripped = true
				break
			}
		}
		if !stripped {
			break
		}
	}
	return w
}

// synonymGroups lists legal vocabulary that students use interchangeably.
// Each word is stemmed at init and mapped to its group's first stem.
var synonymGroups = [][]string{
	{"defensa", "contradiccion", "contradecir", "descargos", "defender", "defiende", "defienda"},
	{"detencion", "aprehension", "privacion", "arresto", "detenido", "aprehendido", "captura", "capturado"},
	{"despido", "desvinculacion", "despedido", "despedida"},
	{"indemnizacion", "reparacion", "resarcimiento", "compensacion", "indemnizar", "reparar"},
	{"motivacion", "motivar", "motivada", "motivado"},
	{"inscripcion", "inscribir", "inscribirse", "inscrito", "inscrita", "inscribe"},
	{"nulidad", "nulo", "nula", "invalidez"},
	{"plazo", "termino"},
	{"reintegro", "reincorporacion", "reintegrar", "reincorporar"},
	{"tipicidad", "tipificar", "tipifica", "tipificado", "tipico", "tipica"},
	{"preclusion", "precluir", "precluyo", "precluido"},
	{"juzgamiento", "juicio", "juzgar"},
	{"solicitud", "solicitar", "pedir", "pidio", "peticion", "pedido"},
	{"materna", "madre", "materno"},
	{"sbu", "salario", "salarios"},
	{"vulneracion", "violacion", "vulnerar", "violar", "vulnero", "violo"},
	{"nino", "nina", "ninos", "ninas", "hijo", "hija", "hijos", "hijas"},
	{"abogado", "defensor"},
	{"fiscalia", "fiscal"},
	{"juez", "jueza", "jueces", "juzgador"},
}

var synonyms = map[string]string{}

func init() {
	for _, g := range synonymGroups {
		rep := stem(g[0])
		for _, w := range g {
			synonyms[stem(w)] = rep
		}
	}
}

// contentKey reduces a folded word to the key used for matching, or "" for
// a stopword.
func contentKey(w string) string {
	if stopwords[w] {
		return ""
	}
	s := stem(w)
	if rep, ok := synonyms[s]; ok {
		return rep
	}
	return s
}

// keyed is a content word of a transcript with its word position.
type keyed struct {
	key  string
	word int
}

// contentWords returns the content keys of d in order. Spelled numbers
// become digits so that "tres días" matches "3 días".
func contentWords(d *doc) []keyed {
	out := make([]keyed, 0, d.words/2)
	keys := map[string]string{} // a talk repeats its words: stem each once
	for i := 0; i < len(d.toks); i++ {
		t := d.toks[i]
		switch t.kind {
		case tokNum:
			if v, ok := digitsValue(t.text); ok {
				out = append(out, keyed{strconv.Itoa(v), t.word})
			} else {
				out = append(out, keyed{t.text, t.word})
			}
		case tokWord:
			if v, next, ok := spelledAt(d, i); ok && !stopwords[t.text] {
				out = append(out, keyed{strconv.Itoa(v), t.word})
				i = next - 1
				continue
			}
			k, seen := keys[t.text]
			if !seen {
				k = contentKey(t.text)
				keys[t.text] = k
			}
			if k != "" {
				out = append(out, keyed{k, t.word})
			}
		}
	}
	return out
}

// keyPointKeys returns the distinct content keys of a key point.
func keyPointKeys(kp string) []string {
	var keys []string
	seen := map[string]bool{}
	for _, k := range contentWords(tokenize(kp)) {
		if !seen[k.key] {
			seen[k.key] = true
			keys = append(keys, k.key)
		}
	}
	return keys
}

// coveredKeyPoints returns the indexes of the key points covered by the
// transcript's content words.
func coveredKeyPoints(words []keyed, keyPoints []string) []int {
	kpKeys := make([][]string, len(keyPoints))
	positions := map[string][]int{} // only the keys some key point needs
	for i, kp := range keyPoints {
		kpKeys[i] = keyPointKeys(kp)
		for _, k := range kpKeys[i] {
			positions[k] = nil
		}
	}
	for _, w := range words {
		if ps, needed := positions[w.key]; needed {
			positions[w.key] = append(ps, w.word)
		}
	}
	out := []int{}
	for i, keys := range kpKeys {
		if covers(positions, keys) {
			out = append(out, i)
		}
	}
	return out
}

// covers slides a keyPointWindow-word window over the occurrences of keys
// and reports whether enough distinct keys fall inside one window.
func covers(positions map[string][]int, keys []string) bool {
	if len(keys) == 0 {
		return false
	}
	need := int(keyPointShare*float64(len(keys)) + 0.999)
	if need < 1 {
		need = 1
	}
	type occ struct{ word, key int }
	var occs []occ
	for k, key := range keys {
		for _, p := range positions[key] {
			occs = append(occs, occ{p, k})
		}
	}
	slices.SortFunc(occs, func(a, b occ) int { return cmp.Compare(a.word, b.word) })
	counts := make([]int, len(keys))
	distinct, lo := 0, 0
	for _, o := range occs {
		if counts[o.key] == 0 {
			distinct++
		}
		counts[o.key]++
		for occs[lo].word <= o.word-keyPointWindow {
			counts[occs[lo].key]--
			if counts[occs[lo].key] == 0 {
				distinct--
			}
			lo++
		}
		if distinct >= need {
			return true
		}
	}
	return false
}
