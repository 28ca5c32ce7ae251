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
// the second unnumbered article after article 125. Note is an optional
// one-line description of what the article regulates, written by the
// bank's authors and shown to the student after the self-assessment.
type LegalBase struct {
	Norm    string `json:"norm"`
	Article string `json:"article"`
	Note    string `json:"note,omitempty"`
}

func (b LegalBase) String() string { return b.Norm + ": " + b.Article }

// MaxLegalBaseNote bounds a legal base's description.
const MaxLegalBaseNote = 240

// Difficulty grades a case for the draw: training may ask for one, a mock
// exam draws by the degree's mix (Blueprint.DifficultyMix).
type Difficulty string

const (
	DifficultyBasic        Difficulty = "basico"
	DifficultyIntermediate Difficulty = "intermedio"
	DifficultyAdvanced     Difficulty = "avanzado"
)

// Difficulties in display order.
var Difficulties = []Difficulty{DifficultyBasic, DifficultyIntermediate, DifficultyAdvanced}

// DefaultDifficulty is what a case stored before difficulties existed
// reads as, and what an imported row without one gets.
const DefaultDifficulty = DifficultyIntermediate

// ParseDifficulty accepts the three stored values.
func ParseDifficulty(s string) (Difficulty, bool) {
	switch d := Difficulty(s); d {
	case DifficultyBasic, DifficultyIntermediate, DifficultyAdvanced:
		return d, true
	}
	return "", false
}

// Label is the Spanish name shown to users.
func (d Difficulty) Label() string {
	switch d {
	case DifficultyBasic:
		return "Básico"
	case DifficultyIntermediate:
		return "Intermedio"
	case DifficultyAdvanced:
		return "Avanzado"
	}
	return string(d)
}

// CaseReview records the tutor who checked a case's content and when. A
// reviewed case is no longer demo content.
type CaseReview struct {
	By     string    `json:"by"`     // the tutor's email
	ByName string    `json:"byName"` // their name when they reviewed it
	At     time.Time `json:"at"`
}

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
	// FollowUpKeyPoints links each tribunal question to the key point
	// that answers it: FollowUpKeyPoints[i] is the 1-based number of the
	// key point answering FollowUps[i], 0 when that question has none.
	// Empty when the author linked none; otherwise one number per
	// follow-up.
	FollowUpKeyPoints []int      `json:"followUpKeyPoints,omitempty"`
	Difficulty        Difficulty `json:"difficulty,omitempty"`
	Status            CaseStatus `json:"status"`
	Demo              bool       `json:"demo"`
	// Review is set when a tutor marked the case reviewed (server-owned:
	// edits keep it, marking the case as demo again clears it).
	Review    *CaseReview `json:"review,omitempty"`
	CreatedAt time.Time   `json:"createdAt"`
	UpdatedAt time.Time   `json:"updatedAt"`
}

// A case has 2 or 3 follow-up questions of the tribunal.
const (
	MinFollowUps = 2
	MaxFollowUps = 3
)

// Areas are the legal areas of the Derecho bank, in display order. Other
// degrees may use other areas; these are suggestions, not a closed list.
var Areas = []string{"Constitucional", "Penal", "Procesal Penal", "Civil", "Procesal", "Sucesiones", "Niñez y Familia",
	"Laboral", "Administrativo", "Tributario", "Mercantil y Societario", "Ambiental y derechos de la naturaleza", "Internacional",
	"Seguridad Social", "Inquilinato", "Protección al Consumidor", "Arbitraje y Mediación", "Laboral Colectivo"}

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
	if n := len(c.FollowUpKeyPoints); n > 0 {
		if n != len(c.FollowUps) {
			add("followUpKeyPoints", fmt.Sprintf("Respuestas a las preguntas del tribunal: indique un punto clave por cada pregunta del tribunal (hay %d preguntas y %d respuestas).", len(c.FollowUps), n))
		}
		for i, k := range c.FollowUpKeyPoints {
			if k < 0 || k > len(c.KeyPoints) {
				add("followUpKeyPoints", fmt.Sprintf("Respuestas a las preguntas del tribunal: la pregunta %d remite al punto clave %d, que no existe.", i+1, k))
			}
		}
	}
	if _, ok := ParseDifficulty(string(c.Difficulty)); !ok {
		if c.Difficulty == "" {
			add("difficulty", "La dificultad es obligatoria: elija básico, intermedio o avanzado.")
		} else {
			add("difficulty", "La dificultad debe ser básico, intermedio o avanzado.")
		}
	}
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
		switch {
		case strings.ContainsAny(b.Note, "\r\n"):
			add("legalBases", fmt.Sprintf("Bases legales: la descripción %d debe ocupar una sola línea.", i+1))
		case len([]rune(b.Note)) > MaxLegalBaseNote:
			add("legalBases", fmt.Sprintf("Bases legales: la descripción %d supera los %d caracteres.", i+1, MaxLegalBaseNote))
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
		c.LegalBases[i].Note = strings.Join(strings.Fields(c.LegalBases[i].Note), " ")
		if a, err := norms.ParseArticle(c.LegalBases[i].Article); err == nil {
			c.LegalBases[i].Article = a.String() // "Art. 76.7.L" -> "76.7.l"
		}
	}
	c.Difficulty = Difficulty(strings.ToLower(strings.TrimSpace(string(c.Difficulty))))
	if len(c.FollowUpKeyPoints) == 0 {
		c.FollowUpKeyPoints = nil
	}
	if c.Status == "" {
		c.Status = CaseActive
	}
}
