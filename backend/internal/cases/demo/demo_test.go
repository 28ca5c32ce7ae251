package demo

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// demoCase mirrors the case exchange format field by field.
type demoCase struct {
	Degree     string      `json:"degree"`
	Area       string      `json:"area"`
	Title      string      `json:"title"`
	Facts      string      `json:"facts"`
	Questions  []string    `json:"questions"`
	FollowUps  []string    `json:"followUps"`
	KeyPoints  []string    `json:"keyPoints"`
	LegalBases []legalBase `json:"legalBases"`
	Status     string      `json:"status"`
	Demo       bool        `json:"demo"`
}

type legalBase struct {
	Norm    string `json:"norm"`
	Article string `json:"article"`
}

var (
	wantAreas = []string{
		"Constitucional",
		"Penal",
		"Civil",
		"Procesal",
		"Laboral",
		"Niñez y Familia",
		"Administrativo",
	}
	canonicalNorms = map[string]bool{
		"Constitución":                      true,
		"COIP":                              true,
		"Código Civil":                      true,
		"COGEP":                             true,
		"Código del Trabajo":                true,
		"LOGJCC":                            true,
		"Código de la Niñez y Adolescencia": true,
		"COA":                               true,
		"LOSEP":                             true,
		"LOSNCP":                            true,
		"LOES":                              true,
	}
	caseKeys = []string{
		"degree", "area", "title", "facts", "questions", "followUps",
		"keyPoints", "legalBases", "status", "demo",
	}
	baseKeys   = []string{"norm", "article"}
	articleRe  = regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(\.[a-z])?$`)
	minCases   = 35
	minPerArea = 5
)

// decodeStrict decodes the embedded bank rejecting unknown fields and
// trailing data.
func decodeStrict(t *testing.T) []demoCase {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(Derecho))
	dec.DisallowUnknownFields()
	var cases []demoCase
	if err := dec.Decode(&cases); err != nil {
		t.Fatalf("decode derecho.json: %v", err)
	}
	if err := dec.Decode(new(json.RawMessage)); !errors.Is(err, io.EOF) {
		t.Fatalf("derecho.json has data after the array (err=%v)", err)
	}
	return cases
}

func TestDerechoDecodesStrictly(t *testing.T) {
	cases := decodeStrict(t)
	if len(cases) < minCases {
		t.Fatalf("got %d cases, want at least %d", len(cases), minCases)
	}
}

// TestDerechoExactKeys checks the exact spelling of every key, which
// DisallowUnknownFields alone does not (encoding/json matches keys
// case-insensitively).
func TestDerechoExactKeys(t *testing.T) {
	var raw []map[string]json.RawMessage
	if err := json.Unmarshal(Derecho, &raw); err != nil {
		t.Fatalf("decode derecho.json: %v", err)
	}
	for i, obj := range raw {
		if got := slices.Sorted(maps.Keys(obj)); !slices.Equal(got, slices.Sorted(slices.Values(caseKeys))) {
			t.Errorf("case %d: keys %v, want %v", i, got, caseKeys)
		}
		var bases []map[string]json.RawMessage
		if err := json.Unmarshal(obj["legalBases"], &bases); err != nil {
			t.Errorf("case %d: legalBases: %v", i, err)
			continue
		}
		for j, b := range bases {
			if got := slices.Sorted(maps.Keys(b)); !slices.Equal(got, slices.Sorted(slices.Values(baseKeys))) {
				t.Errorf("case %d, legal base %d: keys %v, want %v", i, j, got, baseKeys)
			}
		}
	}
}

func TestDerechoAreas(t *testing.T) {
	cases := decodeStrict(t)
	allowed := map[string]bool{}
	for _, a := range wantAreas {
		allowed[a] = true
	}
	count := map[string]int{}
	for _, c := range cases {
		if !allowed[c.Area] {
			t.Errorf("%q: area %q is not one of %v", c.Title, c.Area, wantAreas)
		}
		count[c.Area]++
	}
	for _, a := range wantAreas {
		if count[a] < minPerArea {
			t.Errorf("area %q has %d cases, want at least %d", a, count[a], minPerArea)
		}
	}
}

func TestDerechoTitlesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range decodeStrict(t) {
		key := strings.ToLower(strings.TrimSpace(c.Title))
		if seen[key] {
			t.Errorf("duplicate title %q", c.Title)
		}
		seen[key] = true
	}
}

func TestDerechoCaseFields(t *testing.T) {
	for i, c := range decodeStrict(t) {
		name := c.Title
		if name == "" {
			name = fmt.Sprintf("case %d", i)
		}
		t.Run(name, func(t *testing.T) {
			nonEmpty(t, "degree", c.Degree)
			nonEmpty(t, "area", c.Area)
			nonEmpty(t, "title", c.Title)
			nonEmpty(t, "facts", c.Facts)
			nonEmpty(t, "status", c.Status)
			if c.Degree != "Derecho" {
				t.Errorf("degree %q, want %q", c.Degree, "Derecho")
			}
			if c.Status != "active" {
				t.Errorf("status %q, want %q", c.Status, "active")
			}
			if !c.Demo {
				t.Error("demo is false, want true")
			}
			if n := len(strings.Fields(c.Facts)); n < 80 || n > 200 {
				t.Errorf("facts have %d words, want 80 to 200", n)
			}
			listLen(t, "questions", c.Questions, 1, 2)
			listLen(t, "followUps", c.FollowUps, 2, 3)
			listLen(t, "keyPoints", c.KeyPoints, 3, 6)
			if len(c.LegalBases) < 1 {
				t.Error("no legal bases, want at least 1")
			}
			seen := map[legalBase]bool{}
			for _, b := range c.LegalBases {
				nonEmpty(t, "legalBases.norm", b.Norm)
				nonEmpty(t, "legalBases.article", b.Article)
				if !canonicalNorms[b.Norm] {
					t.Errorf("norm %q is not a canonical norm name", b.Norm)
				}
				if !articleRe.MatchString(b.Article) {
					t.Errorf("%s article %q does not match %s", b.Norm, b.Article, articleRe)
				}
				if seen[b] {
					t.Errorf("duplicate legal base %s %s", b.Norm, b.Article)
				}
				seen[b] = true
			}
		})
	}
}

func nonEmpty(t *testing.T, field, v string) {
	t.Helper()
	if strings.TrimSpace(v) == "" {
		t.Errorf("%s is empty", field)
	}
}

func listLen(t *testing.T, field string, list []string, lo, hi int) {
	t.Helper()
	if len(list) < lo || len(list) > hi {
		t.Errorf("%s has %d items, want %d to %d", field, len(list), lo, hi)
	}
	for i, s := range list {
		if strings.TrimSpace(s) == "" {
			t.Errorf("%s[%d] is empty", field, i)
		}
	}
}
