package measures

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzAnalyze feeds arbitrary text to the extractors. They must never
// panic, and their output must keep its invariants whatever the input.
func FuzzAnalyze(f *testing.F) {
	seeds := []string{
		"",
		" ",
		"artículo",
		"art.",
		"art. 76.7.l de la CRE",
		"arts. 39 al 42 de la LOGJCC",
		"artículos del 1 al 9999 del COIP",
		"artículos 9999 al 1 del COIP",
		"artículo 76 numeral literal inciso de la",
		"artículo 76 literales a, b, c, d, e y f, y numerales 1, 2 y 3 de la",
		"el 88 de la", "el 88 de", "y 76 del mismo", "ibídem", "el mismo código artículo",
		"artículo mil mil mil cuatrocientos y y y setenta y",
		"artículo décimo décimo primero",
		"c o i p c o g e p l o g j c c c c",
		"c.o.i.p.artículo.76.de.la.constitución",
		"1158-17-EP/21 17230-2023-01234 1.800 1,800 0,0 30 % 2.500.000",
		"99999999999999999999999999 artículo 99999999999999999999",
		"artículo 76-",
		"artículo 39-42-45",
		"...............",
		"¿no? ¿no? , no ? ¿",
		"este este este , este ... eh eh o sea o sea pues pues bueno , bueno ,",
		"Ａｒｔíｃｕｌｏ ７６ ｄｅ ｌａ Ｃｏｎｓｔｉｔｕｃｉóｎ",
		"artícu\u0301lo 76 de la constitucio\u0301n",
		"\xff\xfe artículo \x00 76 \x80 de la constitución",
		"artículo\n\n\n76\r\nde la\tconstitución",
		"la constitución en mora del artículo 1567",
		"del código del código de la ley de la ley",
		strings.Repeat("artículo 1 y ", 200) + "del COIP",
		strings.Repeat("eh ", 500),
	}
	for _, s := range seeds {
		f.Add(s, int64(60000))
	}
	f.Fuzz(func(t *testing.T, text string, durationMs int64) {
		words := strings.Fields(text)
		if len(words) > 6 {
			words = words[:6]
		}
		cs := &Case{
			KeyPoints:  []string{text, strings.Join(words, " "), ""},
			LegalBases: []LegalBase{{Norm: text, Article: text}, {Norm: "COIP", Article: strings.Join(words, " ")}},
		}
		r := Analyze(Input{Text: text, DurationMs: durationMs, Case: cs})
		checkReport(t, r, len(cs.KeyPoints))
		if _, err := json.Marshal(r); err != nil {
			t.Fatalf("report does not encode: %v", err)
		}

		cites, unatt := ExtractCitations(text)
		seen := map[Citation]bool{}
		cited := map[int]bool{}
		for _, c := range cites {
			if seen[c] {
				t.Fatalf("duplicate citation %v", c)
			}
			seen[c] = true
			cited[c.Article] = true
			if c.Article < 1 || c.Article > maxArticle || c.Norm == "" {
				t.Fatalf("bad citation %v", c)
			}
		}
		for _, n := range unatt {
			if cited[n] || n < 1 || n > maxArticle {
				t.Fatalf("bad unattributed %d (cited: %v)", n, cited[n])
			}
		}
		if norm, ok := CanonicalNorm(text); ok && !utf8.ValidString(norm) {
			t.Fatalf("invalid norm %q", norm)
		}
		if n, ok := ArticleNumber(text); ok && (n < 1 || n > maxArticle) {
			t.Fatalf("ArticleNumber(%q) = %d", text, n)
		}

		levels := make([]float64, 0, len(text))
		for i := 0; i < len(text); i++ {
			levels = append(levels, float64(text[i])/255)
		}
		var last int64 = -1
		for _, p := range LongPauses(levels, durationMs%1000, 0.3, 500) {
			if p.StartMs >= p.EndMs || p.StartMs < last {
				t.Fatalf("bad pause %v after %d", p, last)
			}
			last = p.EndMs
		}
	})
}

func checkReport(t *testing.T, r Report, keyPoints int) {
	t.Helper()
	if r.Words < 0 || r.WordsPerMinute < 0 || r.FillersPerMinute < 0 {
		t.Fatalf("negative measure: %+v", r)
	}
	if r.Citations == nil || r.Unattributed == nil || r.StructureMarkers == nil || r.Fillers == nil || r.KeyPointsCovered == nil {
		t.Fatalf("nil list in report: %+v", r)
	}
	for _, i := range r.KeyPointsCovered {
		if i < 0 || i >= keyPoints {
			t.Fatalf("key point index %d out of range", i)
		}
	}
	for k, n := range r.Fillers {
		if n <= 0 {
			t.Fatalf("filler %q count %d", k, n)
		}
	}
	switch r.PaceBand {
	case "", "lento", "adecuado", "rápido":
	default:
		t.Fatalf("pace band %q", r.PaceBand)
	}
}

// adversarialInputs once made the scan quadratic (a long number list with
// no norm after it took 30 s). BenchmarkAdversarial times them against a
// budget in make bench; here they only have to give a sound report.
var adversarialInputs = map[string]string{
	"bare list":      "el " + strings.Repeat("1, ", 20000),
	"article list":   "artículos " + strings.Repeat("1 y ", 20000),
	"letters":        strings.Repeat("c o i p a ", 10000),
	"literals":       "artículo 76 literales " + strings.Repeat("a, ", 20000),
	"spelled":        "artículo " + strings.Repeat("mil ciento veinte y ", 5000),
	"fillers":        strings.Repeat("este , o sea bueno , pues eh ", 5000),
	"backrefs":       strings.Repeat("el mismo código del código de la ley ", 5000),
	"bare mentions":  strings.Repeat("y el 5 de la constitución ", 5000),
	"split acronyms": strings.Repeat("co co lo lo c o co gep lo sep ", 5000),
	"segments":       strings.Repeat("artículo\nsetenta y\nseis\nnumeral\n", 5000),
	"innumerados":    strings.Repeat("artículo innumerado dos a continuación del artículo ", 5000),
}

func adversarialInput(s string) Input {
	return Input{Text: s, DurationMs: 60000, Case: &Case{KeyPoints: []string{s}}}
}

func TestAdversarialInputs(t *testing.T) {
	for name, s := range adversarialInputs {
		t.Run(name, func(t *testing.T) { checkReport(t, Analyze(adversarialInput(s)), 1) })
	}
}
