package measures

import "strings"

// protocolWindow is how many words at each end of a talk are searched for
// the greeting and the closing.
const protocolWindow = 60

// Greeting phrases, folded. Any one in the first protocolWindow words counts.
var greetingPhrases = []string{
	"buenos dias", "buenas tardes", "buenas noches", "buen dia", "muy buenos dias",
	"senores miembros", "senoras y senores", "miembros del tribunal", "distinguido tribunal",
	"distinguidos miembros", "distinguidas y distinguidos", "honorable tribunal",
	"honorables miembros", "respetable tribunal", "respetables miembros",
	"estimados miembros", "estimado tribunal", "senores jueces", "senoras juezas",
	"con su venia", "con la venia", "con el permiso de", "saludo", "saludos",
	"saludar", "saludarles", "saludarlos", "saludo cordial", "cordial saludo",
}

// Closing phrases, folded. Any one in the last protocolWindow words counts;
// so does a "gracias" not followed by "a" ("gracias a la prueba" is not a
// thank-you).
var closingPhrases = []string{
	"gracias por su atencion", "gracias por la atencion", "agradezco su atencion",
	"agradezco la atencion", "agradezco su tiempo", "he concluido", "hemos concluido",
	"quedo atento", "quedo atenta", "quedo a su disposicion", "quedo a disposicion",
	"quedo a sus ordenes", "es todo cuanto", "eso es todo", "eso seria todo",
	"asi concluyo", "con esto concluyo", "con esto termino", "he terminado",
	"concluyo mi exposicion", "concluyo mi intervencion", "termino mi exposicion",
	"hasta aqui mi exposicion", "hasta aqui mi intervencion", "muy amables",
}

// structureMarkers maps each section of the expected structure to phrases
// that signpost it, in the order the report lists them.
var structureMarkers = []struct {
	name    string
	phrases []string
}{
	{"introducción", []string{
		"introduccion", "me permito presentar", "me permito exponer", "voy a presentar",
		"voy a exponer", "presento el caso", "presentare", "expondre", "el caso que me",
		"mi caso", "me corresponde exponer", "me corresponde presentar", "el caso que voy",
	}},
	{"hechos", []string{
		"los hechos", "hechos del caso", "antecedentes", "hechos relevantes",
		"relato de los hechos", "en cuanto a los hechos",
	}},
	{"problema", []string{
		"problema juridico", "el problema", "la pregunta juridica", "cuestion juridica",
		"interrogante juridico", "problema a resolver", "la pregunta del caso",
	}},
	{"normas", []string{
		"normativa", "normas aplicables", "norma aplicable", "marco normativo",
		"marco legal", "marco juridico", "base legal", "bases legales",
		"fundamento legal", "fundamentos legales", "fundamento juridico",
		"fundamentos juridicos", "fundamento normativo", "en cuanto a las normas",
		"en cuanto a la norma", "las normas",
	}},
	{"análisis", []string{
		"analisis", "analizando", "al analizar", "subsuncion", "argumentacion",
		"aplicando la norma", "aplicando las normas",
	}},
	{"conclusión", []string{
		"en conclusion", "para concluir", "concluyo", "conclusion", "para finalizar",
		"en sintesis", "en resumen", "por lo expuesto", "a manera de conclusion",
	}},
}

// joinWords returns the folded words of d in [from, to) as " w1 w2 ... ",
// padded so that phrases can be matched on word boundaries with Contains.
func joinWords(d *doc, from, to int) string {
	var b strings.Builder
	b.WriteByte(' ')
	for _, t := range d.toks {
		if t.kind != tokWord && t.kind != tokNum {
			continue
		}
		if t.word < from {
			continue
		}
		if t.word >= to {
			break
		}
		b.WriteString(t.text)
		b.WriteByte(' ')
	}
	return b.String()
}

// pad turns phrases into " phrase " so that strings.Contains on a padded
// word string matches whole words only.
func pad(phrases []string) []string {
	out := make([]string, len(phrases))
	for i, p := range phrases {
		out[i] = " " + p + " "
	}
	return out
}

var (
	paddedGreetings = pad(greetingPhrases)
	paddedClosings  = pad(closingPhrases)
)

func init() {
	for i := range structureMarkers {
		structureMarkers[i].phrases = pad(structureMarkers[i].phrases)
	}
}

func containsAny(joined string, padded []string) bool {
	for _, p := range padded {
		if strings.Contains(joined, p) {
			return true
		}
	}
	return false
}

func hasGreeting(d *doc) bool {
	return containsAny(joinWords(d, 0, protocolWindow), paddedGreetings)
}

func hasClosing(d *doc) bool {
	from := d.words - protocolWindow
	if containsAny(joinWords(d, from, d.words), paddedClosings) {
		return true
	}
	for i, t := range d.toks {
		if t.word >= from && t.isWord("gracias") {
			if next := d.word(i + 1); next != "a" && next != "al" {
				return true
			}
		}
	}
	return false
}

// findStructure returns the signposted sections, in the expected order.
func findStructure(joined string) []string {
	out := []string{}
	for _, s := range structureMarkers {
		if containsAny(joined, s.phrases) {
			out = append(out, s.name)
		}
	}
	return out
}
