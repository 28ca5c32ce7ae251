package measures

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/norms"
)

func TestStem(t *testing.T) {
	same := [][]string{
		{"motivación", "motivada", "motivar", "motiva"},
		{"detención", "detenido"},
		{"tipicidad", "típica"},
		{"integralmente", "integral"},
		{"requisitos", "requisito"},
		{"excepcionalidad", "excepcional"},
		{"irrenunciabilidad", "irrenunciables"},
		{"inocencia", "inocente"},
	}
	for _, words := range same {
		want := stem(norms.FoldText(words[0]))
		for _, w := range words[1:] {
			if got := stem(norms.FoldText(w)); got != want {
				t.Errorf("stem(%q) = %q, stem(%q) = %q; want equal", words[0], want, w, got)
			}
		}
	}
	for _, w := range []string{"pena", "via", "ley"} {
		if got := stem(w); got != w {
			t.Errorf("stem(%q) = %q; short words stay whole", w, got)
		}
	}
}

func TestVerbFormsAndSynonyms(t *testing.T) {
	same := [][]string{
		{"vulneración", "violaron", "vulneraron", "violan", "vulnera", "violó"},
		{"defensa", "defenderse", "defender", "defendieron", "defiende"},
		{"establecer", "establecen", "establecieron"},
		{"notificación", "notificarle", "notificaron"},
		{"demandar", "demandaron", "demandaban"},
		{"presentar", "presentaron", "presentarse"},
		{"patrimonio", "patrimonial"},
		{"extremo", "extremos"},
	}
	for _, words := range same {
		want := contentKey(norms.FoldText(words[0]))
		for _, w := range words[1:] {
			if got := contentKey(norms.FoldText(w)); got != want {
				t.Errorf("key(%q) = %q, key(%q) = %q; want equal", words[0], want, w, got)
			}
		}
	}
	kps := []string{"Vulneración del derecho a la defensa", "Notificación al trabajador"}
	got := coveredKeyPoints(contentWords(tokenize("en este caso se violaron los derechos a defenderse del trabajador")), kps)
	if !reflect.DeepEqual(got, []int{0}) {
		t.Errorf("covered %v, want [0]", got)
	}
}

func TestKeyPoints(t *testing.T) {
	kps := []string{
		"derecho a la defensa",                    // 0: literal
		"detención arbitraria",                    // 1: synonym (aprehensión) and inflection
		"límite de 24 horas",                      // 2: number spelled out in the text
		"reparación integral",                     // 3: inflected ("reparar integralmente")
		"motivación",                              // 4: verb form
		"prueba documental",                       // 5: absent
		"requisitos acumulativos de la medida",    // 6: 2 of 3 stems, far apart
		"audiencia de calificación de flagrancia", // 7: stems spread beyond the window
		"", // 8: empty: never covered
	}
	text := "No se respetó su derecho a la defensa. La aprehensión fue arbitraria y duró más de veinticuatro horas de " +
		"límite. El Estado debe reparar integralmente. El juez debe motivar. Los requisitos son " +
		strings.Repeat("palabra ", 50) + "acumulativos. La audiencia " + strings.Repeat("relleno ", 50) +
		"de calificación " + strings.Repeat("relleno ", 50) + "en flagrancia."
	got := coveredKeyPoints(contentWords(tokenize(text)), kps)
	want := []int{0, 1, 2, 3, 4}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("covered %v, want %v", got, want)
	}
}

func TestGreetingAndClosing(t *testing.T) {
	filler := strings.Repeat("el caso trata de un despido ", 20) // 120 words
	tests := []struct {
		name           string
		text           string
		greeting, clos bool
	}{
		{"formal both", "Buenos días, señores miembros del tribunal. " + filler + " Muchas gracias.", true, true},
		{"venia and quedo atenta", "Con su venia, " + filler + " Quedo atenta a sus preguntas.", true, true},
		{"distinguido and he concluido", "Distinguido tribunal: " + filler + " He concluido.", true, true},
		{"asr lowercase", "buenas tardes honorable tribunal " + filler + " es todo cuanto puedo decir", true, true},
		{"none", filler, false, false},
		{"greeting too late", filler + " Buenos días. " + filler, false, false},
		{"closing too early", "Así concluyo. " + filler, false, false},
		{"gracias a is not thanks", filler + " gracias a la prueba documental se probó la deuda", false, false},
		{"bare gracias", filler + " gracias", false, true},
		{"empty", "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := tokenize(tt.text)
			if got := hasGreeting(d); got != tt.greeting {
				t.Errorf("greeting %v, want %v", got, tt.greeting)
			}
			if got := hasClosing(d); got != tt.clos {
				t.Errorf("closing %v, want %v", got, tt.clos)
			}
		})
	}
}

func TestStructureMarkers(t *testing.T) {
	text := "Me permito presentar el caso. En cuanto a los hechos, hubo un despido. El problema jurídico es " +
		"si procede. La normativa aplicable es el Código del Trabajo. En el análisis, procede. En conclusión, gana."
	got := Analyze(Input{Text: text}).StructureMarkers
	want := []string{"introducción", "hechos", "problema", "normas", "análisis", "conclusión"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := Analyze(Input{Text: "un texto sin señales"}).StructureMarkers; len(got) != 0 {
		t.Errorf("got %v, want none", got)
	}
}

func TestLongPauses(t *testing.T) {
	// 100 ms samples: 0.5 s of sound, 3.2 s of silence, sound, 1 s of
	// silence, sound, then 3 s of silence to the end.
	var levels []float64
	push := func(v float64, n int) {
		for range n {
			levels = append(levels, v)
		}
	}
	push(0.4, 5)
	push(0.01, 32)
	push(0.3, 3)
	push(0.02, 10)
	push(0.3, 2)
	push(0.0, 30)
	got := LongPauses(levels, 100, 0.05, 3000)
	want := []Pause{{StartMs: 500, EndMs: 3700}, {StartMs: 5200, EndMs: 8200}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if got := LongPauses(levels, 0, 0.05, 3000); got == nil || len(got) != 0 {
		t.Errorf("zero interval: got %v, want empty", got)
	}
	if got := LongPauses(nil, 100, 0.05, 3000); got == nil || len(got) != 0 {
		t.Errorf("no levels: got %v, want empty", got)
	}
}

func TestAnalyzePaceAndBases(t *testing.T) {
	text := "Buenos días, señores miembros del tribunal. Eh, el artículo 88 de la Constitución y los artículos " +
		"39 al 42 de la LOGJCC fundamentan la acción de protección. El artículo 33 del COIP no aplica.\n\n" +
		"Según el artículo 534, no. Muchas gracias."
	cs := &Case{
		KeyPoints: []string{"acción de protección", "prueba documental"},
		LegalBases: []LegalBase{
			{Norm: "Constitución de la República", Article: "88"},
			{Norm: "Constitución", Article: "76.7.l"},
			{Norm: "LOGJCC", Article: "39–42"},
			{Norm: "Código Orgánico Integral Penal", Article: "534"},
		},
	}
	r := Analyze(Input{Text: text, DurationMs: 20000, Case: cs})
	if r.Words != 41 {
		t.Errorf("words %d, want 41", r.Words)
	}
	if r.WordsPerMinute != 123 || r.PaceBand != "adecuado" {
		t.Errorf("pace %v %q, want 123 adecuado", r.WordsPerMinute, r.PaceBand)
	}
	if r.FillersPerMinute != 3 || r.Fillers["eh"] != 1 {
		t.Errorf("fillers %v (%v/min), want eh:1 at 3/min", r.Fillers, r.FillersPerMinute)
	}
	if !r.Greeting || !r.Closing {
		t.Errorf("greeting %v closing %v, want both", r.Greeting, r.Closing)
	}
	if !reflect.DeepEqual(r.KeyPointsCovered, []int{0}) {
		t.Errorf("key points %v, want [0]", r.KeyPointsCovered)
	}
	want := &BasesComparison{
		Matched:    []Citation{c(cre, 88), c(lgj, 39), c(lgj, 40), c(lgj, 41), c(lgj, 42)},
		Missing:    []Citation{c(cre, 76), c(coip, 534)},
		Unexpected: []Citation{c(coip, 33)},
		Probable:   []Citation{c(coip, 534)},
	}
	if !reflect.DeepEqual(r.Bases, want) {
		t.Errorf("bases\n got %+v\nwant %+v", r.Bases, want)
	}
	if !reflect.DeepEqual(r.Unattributed, []int{534}) {
		t.Errorf("unattributed %v, want [534]", r.Unattributed)
	}
}

func TestPaceBands(t *testing.T) {
	words := strings.Repeat("palabra ", 200)
	for _, tt := range []struct {
		durationMs int64
		band       string
	}{
		{0, ""}, {60000 * 3, "lento"}, {60000, "rápido"}, {90000, "adecuado"},
	} {
		r := Analyze(Input{Text: words, DurationMs: tt.durationMs})
		if r.PaceBand != tt.band {
			t.Errorf("200 words in %d ms: band %q, want %q", tt.durationMs, r.PaceBand, tt.band)
		}
	}
}

func TestAnalyzeSegments(t *testing.T) {
	in := Input{Segments: []Segment{
		{StartMs: 1000, EndMs: 31000, Text: "Buenos días, señores del tribunal."},
		{StartMs: 31000, EndMs: 61000, Text: "El artículo 89 de la Constitución regula el hábeas corpus."},
	}}
	r := Analyze(in)
	if r.Words != 15 || r.WordsPerMinute != 15 {
		t.Errorf("words %d at %v wpm; want 15 at 15 (span of the segments)", r.Words, r.WordsPerMinute)
	}
	if !reflect.DeepEqual(r.Citations, []Citation{c(cre, 89)}) {
		t.Errorf("citations %v", r.Citations)
	}
}

// TestAnalyzeLiveSegments: a live recognizer's segments have no
// punctuation; each segment boundary is a pause, so a filler that opens a
// segment and a tag "no" that closes one count.
func TestAnalyzeLiveSegments(t *testing.T) {
	segs := []Segment{
		{StartMs: 0, EndMs: 3000, Text: "buenos días señores miembros del tribunal"},
		{StartMs: 3000, EndMs: 8000, Text: "pues el caso trata de un despido intempestivo"},
		{StartMs: 8000, EndMs: 12000, Text: "bueno la constitución en el artículo 326 protege al trabajador"},
		{StartMs: 12000, EndMs: 15000, Text: "es un derecho irrenunciable no"},
		{StartMs: 15000, EndMs: 18000, Text: "el empleador dijo que no"},
	}
	r := Analyze(Input{Segments: segs})
	want := map[string]int{"pues": 1, "bueno": 1, "¿no?": 1}
	if !reflect.DeepEqual(r.Fillers, want) {
		t.Errorf("fillers %v, want %v", r.Fillers, want)
	}
	if !reflect.DeepEqual(r.Citations, []Citation{c(cre, 326)}) {
		t.Errorf("citations %v", r.Citations)
	}
	// Joined with spaces, the same words hide every one of them.
	var words []string
	for _, s := range segs {
		words = append(words, s.Text)
	}
	if r := Analyze(Input{Text: strings.Join(words, " ")}); len(r.Fillers) != 0 {
		t.Errorf("space-joined fillers %v, want none", r.Fillers)
	}
	if got := JoinSegments(append(segs[:1:1], Segment{Text: "  "}, Segment{Text: " fin "})); got != "buenos días señores miembros del tribunal\nfin\n" {
		t.Errorf("JoinSegments = %q", got)
	}
}

// TestReportJSON pins the wire format: camelCase keys, empty lists as [].
func TestReportJSON(t *testing.T) {
	raw, err := json.Marshal(Analyze(Input{}))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"words":0,"wordsPerMinute":0,"paceBand":"","citations":[],"unattributed":[],"greeting":false,` +
		`"closing":false,"structureMarkers":[],"fillers":{},"fillersPerMinute":0,"keyPointsCovered":[]}`
	if string(raw) != want {
		t.Errorf("got  %s\nwant %s", raw, want)
	}
	raw, _ = json.Marshal(Analyze(Input{Text: "x", Case: &Case{}}))
	if !strings.Contains(string(raw), `"bases":{"matched":[],"missing":[],"unexpected":[],"probable":[]}`) {
		t.Errorf("bases not encoded as empty lists: %s", raw)
	}
}

// A live transcript cut mid-citation, against a case whose bases include
// an unnumbered article.
func TestAnalyzeSegmentsAgainstInnumerado(t *testing.T) {
	segs := []Segment{
		{StartMs: 0, EndMs: 2000, Text: "buenos días señores del tribunal según el artículo"},
		{StartMs: 2000, EndMs: 4000, Text: "innumerado dos a continuación del artículo ciento"},
		{StartMs: 4000, EndMs: 6000, Text: "veinticinco del código de la niñez y el artículo cuarenta y cuatro"},
		{StartMs: 6000, EndMs: 8000, Text: "de la c r e los alimentos son irrenunciables no"},
	}
	r := Analyze(Input{Segments: segs, Case: &Case{LegalBases: []LegalBase{
		{Norm: "Código de la Niñez y Adolescencia", Article: "125+2"}, {Norm: "CRE", Article: "44"}, {Norm: "COGEP", Article: "332"}}}})
	want := []Citation{inn(cona, 125, 2), c(cre, 44)}
	if !slices.Equal(r.Citations, want) || !slices.Equal(r.Bases.Matched, want) || len(r.Bases.Missing) != 1 {
		t.Fatalf("citations %v, bases %+v; want %v matched", r.Citations, r.Bases, want)
	}
	if r.Fillers["¿no?"] != 1 || !r.Greeting { // the segment end still closes the tag "no"
		t.Errorf("fillers %v, greeting %v", r.Fillers, r.Greeting)
	}
}
