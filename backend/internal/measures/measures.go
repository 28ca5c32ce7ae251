package measures

import (
	"math"
	"strings"

	"github.com/utpl/simulador/backend/internal/norms"
)

// LegalBase is an expected legal basis of a case, as the case bank writes it.
type LegalBase struct {
	Norm    string `json:"norm"`
	Article string `json:"article"` // as in a case: "76.7.l", "88", "195.1", "39-42"
}

// Case is the part of a case the measures compare a transcript against.
type Case struct {
	KeyPoints  []string    `json:"keyPoints"`
	LegalBases []LegalBase `json:"legalBases"`
}

// Citation is one article of one norm, with the norm in canonical form.
// An unnumbered article is cited by the article it follows: Article 125,
// Innumerado 2 is "artículo innumerado 2 a continuación del artículo 125"
// (norms.Article writes it "125+2").
type Citation struct {
	Norm       string `json:"norm"`
	Article    int    `json:"article"`
	Innumerado int    `json:"innumerado,omitempty"`
}

// String writes "COIP 140", "Código de la Niñez y Adolescencia 125+2".
func (c Citation) String() string {
	return c.Norm + " " + norms.Article{Number: c.Article, Innumerado: c.Innumerado}.String()
}

// Segment is a piece of a transcript with its timing in the recording.
type Segment struct {
	StartMs int64  `json:"startMs"`
	EndMs   int64  `json:"endMs"`
	Text    string `json:"text"`
}

// Input is what Analyze measures.
type Input struct {
	Text       string    // full transcript; if empty, Segments' texts joined (see JoinSegments)
	Segments   []Segment // optional, with timestamps
	DurationMs int64     // spoken duration; 0 = unknown (then the segments' span, if any)
	Case       *Case     // optional
}

// Report is the automatic evidence shown beside the rubric.
type Report struct {
	Words            int              `json:"words"`
	WordsPerMinute   float64          `json:"wordsPerMinute"` // 0 when the duration is unknown
	PaceBand         string           `json:"paceBand"`       // "lento", "adecuado", "rápido" or "" (unknown)
	Citations        []Citation       `json:"citations"`      // distinct, in order of first mention
	Unattributed     []int            `json:"unattributed"`   // article numbers said with no norm to attach them to
	Greeting         bool             `json:"greeting"`       // formal greeting in the first words
	Closing          bool             `json:"closing"`        // formal closing in the last words
	StructureMarkers []string         `json:"structureMarkers"`
	Fillers          map[string]int   `json:"fillers"` // canonical filler -> count (non-zero only)
	FillersPerMinute float64          `json:"fillersPerMinute"`
	KeyPointsCovered []int            `json:"keyPointsCovered"` // indexes into Case.KeyPoints
	Bases            *BasesComparison `json:"bases,omitempty"`  // when a case is given
}

// BasesComparison sets the cited articles against the case's expected bases.
type BasesComparison struct {
	Matched    []Citation `json:"matched"`    // expected and cited
	Missing    []Citation `json:"missing"`    // expected, not cited
	Unexpected []Citation `json:"unexpected"` // cited, not expected
	// Probable are missing bases whose article number was said with no norm
	// attached: likely meant, but not said completely.
	Probable []Citation `json:"probable"`
}

// Pace bands in words per minute (the product's target is 100–165).
const (
	paceSlow = 100
	paceFast = 165
)

// Analyze measures a transcript. It never fails: an empty or garbled
// transcript gives a report of zeros and empty lists.
func Analyze(in Input) Report {
	text := in.Text
	if text == "" && len(in.Segments) > 0 {
		text = JoinSegments(in.Segments)
	}
	d := tokenize(text)
	cites, unattributed := extract(d, allRules)
	fillers, fillerCount := countFillers(d)

	r := Report{
		Words:            d.words,
		Citations:        cites,
		Unattributed:     unattributed,
		Greeting:         hasGreeting(d),
		Closing:          hasClosing(d),
		StructureMarkers: findStructure(joinWords(d, 0, d.words)),
		Fillers:          fillers,
		KeyPointsCovered: []int{},
	}
	if minutes := float64(duration(in)) / 60000; minutes > 0 {
		r.WordsPerMinute = round1(float64(d.words) / minutes)
		r.FillersPerMinute = round1(float64(fillerCount) / minutes)
		r.PaceBand = paceBand(float64(d.words) / minutes)
	}
	if in.Case != nil {
		r.KeyPointsCovered = coveredKeyPoints(contentWords(d), in.Case.KeyPoints)
		r.Bases = compareBases(in.Case.LegalBases, cites, unattributed)
	}
	return r
}

// JoinSegments joins a transcript's segments one per line. A live
// recognizer's segments end where the speaker paused and carry no
// punctuation, so the line break is the only clause boundary the filler
// counts have (fillers at a clause start, a tag "no" at its end); the
// citation grammar reads across it, since speakers pause mid-citation. A
// blank line would be a paragraph. The last segment ends with a line break
// too.
func JoinSegments(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		if t := strings.TrimSpace(s.Text); t != "" {
			b.WriteString(t)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// duration is DurationMs, or when unknown the span of the timed segments.
func duration(in Input) int64 {
	if in.DurationMs > 0 {
		return in.DurationMs
	}
	var start, end int64 = math.MaxInt64, 0
	for _, s := range in.Segments {
		if s.EndMs > s.StartMs && s.StartMs >= 0 {
			start = min(start, s.StartMs)
			end = max(end, s.EndMs)
		}
	}
	if end > start {
		return end - start
	}
	return 0
}

func paceBand(wpm float64) string {
	switch {
	case wpm < paceSlow:
		return "lento"
	case wpm > paceFast:
		return "rápido"
	default:
		return "adecuado"
	}
}

func round1(x float64) float64 { return math.Round(x*10) / 10 }

// expectedBases turns a case's legal bases into distinct citations, with
// norms in canonical form (unknown norms are kept as written) and ranges
// such as "39-42" expanded.
func expectedBases(bases []LegalBase) []Citation {
	out := []Citation{}
	seen := map[Citation]bool{}
	for _, b := range bases {
		norm, ok := CanonicalNorm(b.Norm)
		if !ok {
			norm = strings.TrimSpace(b.Norm)
		}
		var cs []Citation
		if a, err := norms.ParseArticle(b.Article); err == nil {
			cs = []Citation{{Norm: norm, Article: a.Number, Innumerado: a.Innumerado}}
		} else {
			for _, n := range articleNumbers(b.Article) { // "39-42", "setenta y seis"
				cs = append(cs, Citation{Norm: norm, Article: n})
			}
		}
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

func compareBases(bases []LegalBase, cites []Citation, unattributed []int) *BasesComparison {
	expected := expectedBases(bases)
	isExpected := map[Citation]bool{}
	for _, c := range expected {
		isExpected[c] = true
	}
	isCited := map[Citation]bool{}
	for _, c := range cites {
		isCited[c] = true
	}
	said := map[int]bool{}
	for _, n := range unattributed {
		said[n] = true
	}
	cmp := &BasesComparison{Matched: []Citation{}, Missing: []Citation{}, Unexpected: []Citation{}, Probable: []Citation{}}
	for _, c := range expected {
		if isCited[c] {
			cmp.Matched = append(cmp.Matched, c)
			continue
		}
		cmp.Missing = append(cmp.Missing, c)
		if c.Innumerado == 0 && said[c.Article] {
			cmp.Probable = append(cmp.Probable, c)
		}
	}
	for _, c := range cites {
		if !isExpected[c] {
			cmp.Unexpected = append(cmp.Unexpected, c)
		}
	}
	return cmp
}
