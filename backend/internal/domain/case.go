package domain

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/utpl/simulador/backend/internal/norms"
)

// CaseStatus is whether a case can be drawn.
type CaseStatus string

const (
	CaseActive  CaseStatus = "active"
	CaseRetired CaseStatus = "retired"
)

// LegalBase is one expected legal basis: a canonical norm name (see
// package norms; the catalog checks it) and an article in the notation of
// norms.Article: "76.7.l" is article 76, numeral 7, literal l; "125+2" is
// the second unnumbered article after article 125.
type LegalBase struct {
	Norm    string `json:"norm"`
	Article string `json:"article"`
}

func (b LegalBase) String() string { return b.Norm + ": " + b.Article }

// Case is one exam case of a degree's bank.
type Case struct {
	ID         string      `json:"id"`
	DegreeID   string      `json:"degreeId"`
	Area       string      `json:"area"`
	Title      string      `json:"title"`
	Facts      string      `json:"facts"`
	Questions  []string    `json:"questions"`
	FollowUps  []string    `json:"followUps"`
	KeyPoints  []string    `json:"keyPoints"`
	LegalBases []LegalBase `json:"legalBases"`
	Status     CaseStatus  `json:"status"`
	Demo       bool        `json:"demo"`
	CreatedAt  time.Time   `json:"createdAt"`
	UpdatedAt  time.Time   `json:"updatedAt"`
}

// A case has 2 or 3 follow-up questions of the tribunal.
const (
	MinFollowUps = 2
	MaxFollowUps = 3
)

// Areas are the legal areas of the Derecho bank, in display order. Other
// degrees may use other areas; these are suggestions, not a closed list.
var Areas = []string{"Constitucional", "Penal", "Civil", "Procesal", "Laboral", "Niñez y Familia", "Administrativo"}

// CaseProblem is one thing wrong with a case, named by field.
type CaseProblem struct {
	Field   string `json:"column"`
	Message string `json:"message"`
}

// Validate returns every problem of the case (nil when valid). List items
// are single lines, so the CSV exchange format round-trips exactly.
func (c Case) Validate() []CaseProblem {
	var ps []CaseProblem
	add := func(field, msg string) { ps = append(ps, CaseProblem{Field: field, Message: msg}) }
	text := func(field, v string, max int, name string) {
		switch {
		case strings.TrimSpace(v) == "":
			add(field, name+" es obligatorio.")
		case len([]rune(v)) > max:
			add(field, fmt.Sprintf("%s supera los %d caracteres.", name, max))
		}
	}
	text("area", c.Area, 80, "El área")
	text("title", c.Title, 200, "El título")
	text("facts", c.Facts, 6000, "El relato de hechos")
	lines := func(field string, items []string, name string) {
		for i, it := range items {
			switch {
			case strings.TrimSpace(it) == "":
				add(field, fmt.Sprintf("%s: el elemento %d está vacío.", name, i+1))
			case strings.ContainsAny(it, "\r\n"):
				add(field, fmt.Sprintf("%s: el elemento %d debe ocupar una sola línea.", name, i+1))
			case len([]rune(it)) > 600:
				add(field, fmt.Sprintf("%s: el elemento %d supera los 600 caracteres.", name, i+1))
			}
		}
	}
	list := func(field string, items []string, min, max int, name string) {
		if len(items) < min || len(items) > max {
			add(field, fmt.Sprintf("%s: se esperan entre %d y %d elementos (hay %d).", name, min, max, len(items)))
		}
		lines(field, items, name)
	}
	list("questions", c.Questions, 1, 5, "Preguntas")
	// Every case gives the tribunal 2 or 3 follow-up questions; the blueprint
	// chooses how many of them an attempt asks (see NewAttempt).
	if n := len(c.FollowUps); n < MinFollowUps || n > MaxFollowUps {
		add("followUps", fmt.Sprintf("Preguntas del tribunal: cada caso debe tener 2 o 3 (tiene %d).", n))
	}
	lines("followUps", c.FollowUps, "Preguntas del tribunal")
	list("keyPoints", c.KeyPoints, 1, 12, "Puntos clave")
	if len(c.LegalBases) > 40 {
		add("legalBases", "Bases legales: hay más de 40.")
	}
	for i, b := range c.LegalBases {
		if strings.TrimSpace(b.Norm) == "" || strings.ContainsAny(b.Norm, "\r\n:") || len([]rune(b.Norm)) > 120 {
			add("legalBases", fmt.Sprintf("Bases legales: la norma %d no es válida.", i+1))
		}
		if !norms.ValidArticle(b.Article) {
			add("legalBases", fmt.Sprintf("Bases legales: el artículo «%s» no es válido (ejemplos: %s).", Shorten(b.Article), norms.ArticleExamples))
		}
	}
	if c.Status != CaseActive && c.Status != CaseRetired {
		add("status", "El estado debe ser active o retired.")
	}
	return ps
}

// maxShown caps how much of a user's value a message repeats, so a pasted
// paragraph (or a hostile megabyte) does not flood the error list.
const maxShown = 80

// Shorten cuts s to maxShown characters for a message, marking the cut.
func Shorten(s string) string {
	if utf8.RuneCountInString(s) <= maxShown {
		return s
	}
	return string([]rune(s)[:maxShown]) + "…"
}

// newlines turns Windows (\r\n) and old Mac (\r) line ends into \n. A CSV
// reader turns \r\n inside a quoted cell into \n, so without this a case
// imported from a JSON file written on Windows would not come back exactly
// from a CSV export and import.
var newlines = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// Normalize trims the case's text fields and makes every line end \n.
func (c *Case) Normalize() {
	c.Area = strings.TrimSpace(c.Area)
	c.Title = strings.Join(strings.Fields(c.Title), " ")
	c.Facts = strings.TrimSpace(newlines.Replace(c.Facts))
	for _, l := range []*[]string{&c.Questions, &c.FollowUps, &c.KeyPoints} {
		out := make([]string, 0, len(*l))
		for _, s := range *l {
			out = append(out, strings.TrimSpace(newlines.Replace(s)))
		}
		*l = out
	}
	for i := range c.LegalBases {
		c.LegalBases[i].Norm = strings.TrimSpace(c.LegalBases[i].Norm)
		c.LegalBases[i].Article = strings.ToLower(strings.TrimSpace(c.LegalBases[i].Article))
		if a, err := norms.ParseArticle(c.LegalBases[i].Article); err == nil {
			c.LegalBases[i].Article = a.String() // "Art. 76.7.L" -> "76.7.l"
		}
	}
	if c.Status == "" {
		c.Status = CaseActive
	}
}
