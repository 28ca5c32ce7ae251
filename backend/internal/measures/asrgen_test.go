package measures

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/utpl/simulador/backend/internal/norms"
)

// The ASR-style labelled set (testdata/asr) is generated from the clean one
// (testdata/labelled) by a seeded, reproducible rewrite that imitates what a
// speech recognizer returns: lower case, no punctuation, abbreviations said
// in full, numbers as digits or words, acronyms as words, letter by letter
// ("c o i p") or split ("co gep"), and segments that end wherever the
// speaker paused, often in the middle of a citation. The labels are the
// clean transcript's: the rewrite keeps every word that carries them.
//
// Regenerate after changing the clean set or the generator:
//
//	go test ./backend/internal/measures -run TestASRSetIsGenerated -update

var updateASR = flag.Bool("update", false, "rewrite testdata/asr from testdata/labelled")

const asrSeed = 20240613

// asrTranscript is one generated transcript with the labels of its source.
type asrTranscript struct {
	Source           string     `json:"source"`
	Segments         []Segment  `json:"segments"`
	Citations        []Citation `json:"citations"`
	Unattributed     []int      `json:"unattributed"`
	Greeting         bool       `json:"greeting"`
	Closing          bool       `json:"closing"`
	Case             Case       `json:"case"`
	KeyPointsCovered []int      `json:"keyPointsCovered"`
}

// rng is splitmix64: tiny, and the same sequence on every Go version.
type rng struct{ s uint64 }

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}

func (r *rng) intn(n int) int      { return int(r.next() % uint64(n)) }
func (r *rng) chance(pct int) bool { return r.intn(100) < pct }

func seedFor(seed int, name string) *rng {
	h := fnv.New64a()
	fmt.Fprintf(h, "%d/%s", seed, name)
	return &rng{s: h.Sum64()}
}

// Abbreviations a speaker says in full.
var asrAbbrevs = []struct {
	re   *regexp.Regexp
	full string
}{
	{regexp.MustCompile(`(?i)\barts\.\s*`), "artículos "},
	{regexp.MustCompile(`(?i)\bart\.\s*`), "artículo "},
	{regexp.MustCompile(`(?i)\bnum\.\s*`), "numeral "},
	{regexp.MustCompile(`(?i)\blit\.\s*`), "literal "},
	{regexp.MustCompile(`(?i)\binc\.\s*`), "inciso "},
	{regexp.MustCompile(`(?i)\b(?:nro|no)\.\s*(\d)`), "número $1"},
	{regexp.MustCompile(`(?i)\bdra\.\s*`), "doctora "},
	{regexp.MustCompile(`(?i)\bdr\.\s*`), "doctor "},
	{regexp.MustCompile(`(?i)\bsra\.\s*`), "señora "},
	{regexp.MustCompile(`(?i)\bsr\.\s*`), "señor "},
	{regexp.MustCompile(`(?i)\betc\.`), "etcétera"},
	{regexp.MustCompile(`\$\s*([\d.]+)`), "$1 dólares"},
	{regexp.MustCompile(`(\d)\s*%`), "$1 por ciento"},
	{regexp.MustCompile(`(\d)\s*[-–—]\s*(\d{1,4})\b`), "$1-$2"},
}

var (
	asrToken = regexp.MustCompile(`[\p{L}\p{N}]+(?:[.\-/][\p{L}\p{N}]+)*`)
	// A written range of articles, "39-42" (not a case number: those have
	// more parts or letters).
	asrRange     = regexp.MustCompile(`^(\d{1,4})-(\d{1,4})$`)
	asrThousands = regexp.MustCompile(`^\d{1,3}(?:\.\d{3})+$`)
	asrSubNumber = regexp.MustCompile(`^(\d{1,4})((?:\.\d{1,3})?)((?:\.[a-zñ])?)$`)
)

// generateASR rewrites one clean transcript; seed is asrSeed for the
// committed set.
func generateASR(l labelled, seed int) asrTranscript {
	r := seedFor(seed, l.name)
	text := l.Text
	for _, a := range asrAbbrevs {
		text = a.re.ReplaceAllString(text, a.full)
	}
	var words []string
	for _, tok := range asrToken.FindAllString(text, -1) {
		words = append(words, asrWords(r, tok)...)
	}
	return asrTranscript{
		Source: l.name, Segments: asrSegments(r, words),
		Citations: l.Citations, Unattributed: orEmpty(l.Unattributed), Greeting: l.Greeting, Closing: l.Closing,
		Case: l.Case, KeyPointsCovered: orEmpty(l.KeyPointsCovered),
	}
}

func orEmpty(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}

// asrWords rewrites one written token as a recognizer would write what was
// said.
func asrWords(r *rng, tok string) []string {
	low := strings.ToLower(tok)
	if _, ok := acronymSet[norms.FoldText(low)]; ok && isAcronymToken(tok) {
		return spellAcronym(r, norms.FoldText(low))
	}
	if !unicode.IsDigit(rune(low[0])) {
		return []string{low}
	}
	if m := asrRange.FindStringSubmatch(low); m != nil {
		return append(append(sayNumber(r, m[1]), "al"), sayNumber(r, m[2])...)
	}
	if asrThousands.MatchString(low) {
		return sayNumber(r, strings.ReplaceAll(low, ".", ""))
	}
	if m := asrSubNumber.FindStringSubmatch(low); m != nil {
		out := sayNumber(r, m[1])
		if m[2] != "" {
			if r.chance(50) {
				out = append(out, "numeral")
			} else {
				out = append(out, "punto")
			}
			out = append(out, sayNumber(r, m[2][1:])...)
		}
		if m[3] != "" {
			out = append(out, "literal", m[3][1:])
		}
		return out
	}
	return []string{low} // a case or ruling number: "1158-17-ep/21"
}

// isAcronymToken: written in capitals, or in lower case the way the clean
// set writes acronyms ("coip"): not a word that merely folds to one.
func isAcronymToken(tok string) bool {
	return tok == strings.ToUpper(tok) || tok == strings.ToLower(tok)
}

// spellAcronym writes an acronym as a word (most often), letter by letter,
// or split after its first syllable ("co gep", "lo sep") when the rest is
// not itself a common word.
func spellAcronym(r *rng, a string) []string {
	switch n := r.intn(10); {
	case n < 5:
		return []string{a}
	case n < 8 || len(a) < 4 || commonShortWords[a[2:]]:
		return strings.Split(a, "")
	default:
		return []string{a[:2], a[2:]}
	}
}

// sayNumber writes a number in digits or in Spanish words (numbers above
// 9999 stay in digits: amounts, not articles).
func sayNumber(r *rng, digits string) []string {
	n, err := strconv.Atoi(digits)
	if err != nil || n <= 0 || n > 9999 || strings.HasPrefix(digits, "0") || r.chance(45) {
		return []string{digits}
	}
	return strings.Fields(spanishNumber(n))
}

// spanishNumber writes 1..9999 in Spanish words, as a recognizer that
// spells numbers would: "setenta y seis", "mil cuatrocientos cincuenta y
// nueve".
func spanishNumber(n int) string {
	units := []string{"", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once",
		"doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte",
		"veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete",
		"veintiocho", "veintinueve"}
	tens := []string{"", "", "", "treinta", "cuarenta", "cincuenta", "sesenta", "setenta", "ochenta", "noventa"}
	hundreds := []string{"", "ciento", "doscientos", "trescientos", "cuatrocientos", "quinientos", "seiscientos",
		"setecientos", "ochocientos", "novecientos"}
	below100 := func(n int) string {
		switch {
		case n < 30:
			return units[n]
		case n%10 == 0:
			return tens[n/10]
		default:
			return tens[n/10] + " y " + units[n%10]
		}
	}
	below1000 := func(n int) string {
		switch {
		case n == 100:
			return "cien"
		case n < 100:
			return below100(n)
		case n%100 == 0:
			return hundreds[n/100]
		default:
			return hundreds[n/100] + " " + below100(n%100)
		}
	}
	var parts []string
	if th := n / 1000; th > 0 {
		if th > 1 {
			parts = append(parts, below100(th))
		}
		parts = append(parts, "mil")
	}
	if rest := n % 1000; rest > 0 {
		parts = append(parts, below1000(rest))
	}
	return strings.Join(parts, " ")
}

// asrSegments cuts the words where a speaker might pause: every 2 to 12
// words, and often right after "artículo" or a number, in the middle of a
// citation. Timings assume 150 words a minute.
func asrSegments(r *rng, words []string) []Segment {
	var segs []Segment
	var ms int64
	start := 0
	for i := range words {
		n := i + 1 - start
		w := norms.FoldText(words[i])
		citing := articleWords[w] || numberWords[w] || w != "" && w[0] >= '0' && w[0] <= '9'
		if i+1 < len(words) && (n >= 2+r.intn(11) || citing && r.chance(35)) {
			segs = append(segs, asrSegment(words[start:i+1], &ms))
			start = i + 1
		}
	}
	if start < len(words) {
		segs = append(segs, asrSegment(words[start:], &ms))
	}
	return segs
}

func asrSegment(words []string, ms *int64) Segment {
	s := Segment{StartMs: *ms, EndMs: *ms + int64(len(words))*400, Text: strings.Join(words, " ")}
	*ms = s.EndMs + 300
	return s
}

func encodeASR(t asrTranscript) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(t); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// TestASRSetIsGenerated checks that the committed ASR-style set is exactly
// what the generator makes from the clean set (or rewrites it with -update).
func TestASRSetIsGenerated(t *testing.T) {
	dir := filepath.Join("testdata", "asr")
	clean := loadLabelled(t)
	want := map[string]bool{}
	for _, l := range clean {
		name := strings.TrimSuffix(l.name, ".json") + ".asr.json"
		want[name] = true
		got := encodeASR(generateASR(l, asrSeed))
		path := filepath.Join(dir, name)
		if *updateASR {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		committed, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v (run with -update)", err)
			continue
		}
		if !bytes.Equal(committed, got) {
			t.Errorf("%s differs from what the generator makes from %s (run with -update)", path, l.name)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	for _, f := range files {
		if !want[filepath.Base(f)] {
			if *updateASR {
				os.Remove(f)
			} else {
				t.Errorf("%s has no source in testdata/labelled", f)
			}
		}
	}
}

func TestSpanishNumber(t *testing.T) {
	for n, want := range map[int]string{1: "uno", 16: "dieciséis", 21: "veintiuno", 30: "treinta", 76: "setenta y seis",
		100: "cien", 101: "ciento uno", 195: "ciento noventa y cinco", 500: "quinientos", 1000: "mil",
		1459: "mil cuatrocientos cincuenta y nueve", 2410: "dos mil cuatrocientos diez", 9999: "nueve mil novecientos noventa y nueve"} {
		if got := spanishNumber(n); got != want {
			t.Errorf("spanishNumber(%d) = %q, want %q", n, got, want)
		}
		// The analyser reads back what the generator writes.
		if v, _, ok := spelledAt(tokenize(want), 0); !ok || v != n {
			t.Errorf("spelledAt(%q) = %d, %v", want, v, ok)
		}
	}
}
