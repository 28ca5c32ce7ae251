package domain

import (
	"fmt"
	"strings"
)

// Mode is how an attempt is run (docs/product.md, "Modes").
type Mode string

const (
	// ModeTraining shows the structure guide, allows pauses and practising
	// phases alone.
	ModeTraining Mode = "entrenamiento"
	// ModeMock is one take, no pause, the real sequence.
	ModeMock Mode = "simulacro"
)

// ParseMode accepts the two mode names.
func ParseMode(s string) (Mode, bool) {
	switch Mode(s) {
	case ModeTraining, ModeMock:
		return Mode(s), true
	}
	return "", false
}

// Blueprint is a degree's exam format: phase timings and the default mode.
type Blueprint struct {
	DegreeID        string `json:"degreeId"`
	PreparationSec  int    `json:"preparationSec"`
	PresentationSec int    `json:"presentationSec"`
	Questions       int    `json:"questions"`
	ThinkSec        int    `json:"thinkSec"`
	AnswerSec       int    `json:"answerSec"`
	ClosingSec      int    `json:"closingSec"`
	DefaultMode     Mode   `json:"defaultMode"`
	// DifficultyMix is how a mock exam's draw weighs the difficulties.
	DifficultyMix DifficultyMix `json:"difficultyMix"`
}

// DifficultyMix gives, in percent summing to 100, how often a mock exam
// draws a case of each difficulty. The zero value means "not set" (a
// blueprint saved before mixes existed) and reads as DefaultDifficultyMix.
type DifficultyMix struct {
	Basic        int `json:"basico"`
	Intermediate int `json:"intermedio"`
	Advanced     int `json:"avanzado"`
}

// DefaultDifficultyMix: a quarter basic, half intermediate, a quarter
// advanced.
var DefaultDifficultyMix = DifficultyMix{Basic: 25, Intermediate: 50, Advanced: 25}

// IsZero reports an unset mix.
func (m DifficultyMix) IsZero() bool { return m == DifficultyMix{} }

// OrDefault is the mix, or the default when unset.
func (m DifficultyMix) OrDefault() DifficultyMix {
	if m.IsZero() {
		return DefaultDifficultyMix
	}
	return m
}

// Weight is the percentage of difficulty d.
func (m DifficultyMix) Weight(d Difficulty) int {
	switch d {
	case DifficultyBasic:
		return m.Basic
	case DifficultyIntermediate:
		return m.Intermediate
	case DifficultyAdvanced:
		return m.Advanced
	}
	return 0
}

// Validate checks each share is 0–100 and that they sum to 100.
func (m DifficultyMix) Validate() error {
	for _, d := range Difficulties {
		if w := m.Weight(d); w < 0 || w > 100 {
			return &UserError{Code: "difficulty_mix", Message: fmt.Sprintf("El porcentaje de casos de dificultad %s debe estar entre 0 y 100.", strings.ToLower(d.Label())),
				Details: map[string]any{"field": "difficultyMix." + string(d)}}
		}
	}
	if sum := m.Basic + m.Intermediate + m.Advanced; sum != 100 {
		return &UserError{Code: "difficulty_mix", Message: fmt.Sprintf("Los porcentajes de dificultad deben sumar 100 (suman %d).", sum),
			Details: map[string]any{"field": "difficultyMix"}}
	}
	return nil
}

// DefaultBlueprint has the default timings of docs/product.md, "Phases".
func DefaultBlueprint(degreeID string) Blueprint {
	return Blueprint{DegreeID: degreeID, PreparationSec: 20 * 60, PresentationSec: 10 * 60, Questions: 3,
		ThinkSec: 20, AnswerSec: 2 * 60, ClosingSec: 60, DefaultMode: ModeTraining, DifficultyMix: DefaultDifficultyMix}
}

// Bound is an allowed range for one timing.
type Bound struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// BlueprintBounds are the ranges tutors may choose from.
type BlueprintBounds struct {
	PreparationSec  Bound `json:"preparationSec"`
	PresentationSec Bound `json:"presentationSec"`
	Questions       Bound `json:"questions"`
	ThinkSec        Bound `json:"thinkSec"`
	AnswerSec       Bound `json:"answerSec"`
	ClosingSec      Bound `json:"closingSec"`
}

// DefaultBounds are the product's ranges (preparation 10–60 min, presentation
// 5–15 min; docs/product.md, "Phases") with sane ranges for the rest. The
// tribunal asks at most as many questions as a case has (2 or 3), so the
// blueprint may ask 1 to MaxFollowUps; a case with fewer follow-ups than the
// blueprint asks for gets all of its own (NewAttempt).
func DefaultBounds() BlueprintBounds {
	return BlueprintBounds{
		PreparationSec: Bound{10 * 60, 60 * 60}, PresentationSec: Bound{5 * 60, 15 * 60}, Questions: Bound{1, MaxFollowUps},
		ThinkSec: Bound{10, 120}, AnswerSec: Bound{60, 5 * 60}, ClosingSec: Bound{30, 3 * 60},
	}
}

// ShortBounds allow phases of a few seconds, for demonstrations and tests
// (ALLOW_SHORT_TIMINGS).
func ShortBounds() BlueprintBounds {
	b := DefaultBounds()
	for _, x := range []*Bound{&b.PreparationSec, &b.PresentationSec, &b.ThinkSec, &b.AnswerSec, &b.ClosingSec} {
		x.Min = 2
	}
	return b
}

// Validate checks the blueprint against bounds, naming the field in Spanish.
func (b Blueprint) Validate(bounds BlueprintBounds) error {
	check := func(v int, bd Bound, field, name, unit string) error {
		if v < bd.Min || v > bd.Max {
			return &UserError{Code: "blueprint_out_of_bounds", Message: fmt.Sprintf("%s debe estar entre %d y %d %s.", name, bd.Min, bd.Max, unit),
				Details: map[string]any{"field": field, "min": bd.Min, "max": bd.Max}}
		}
		return nil
	}
	for _, c := range []struct {
		v     int
		bd    Bound
		field string
		name  string
		unit  string
	}{
		{b.PreparationSec, bounds.PreparationSec, "preparationSec", "La preparación", "segundos"},
		{b.PresentationSec, bounds.PresentationSec, "presentationSec", "La exposición", "segundos"},
		{b.Questions, bounds.Questions, "questions", "El número de preguntas del tribunal", "preguntas"},
		{b.ThinkSec, bounds.ThinkSec, "thinkSec", "El tiempo para pensar", "segundos"},
		{b.AnswerSec, bounds.AnswerSec, "answerSec", "El tiempo de respuesta", "segundos"},
		{b.ClosingSec, bounds.ClosingSec, "closingSec", "El cierre", "segundos"},
	} {
		if err := check(c.v, c.bd, c.field, c.name, c.unit); err != nil {
			return err
		}
	}
	if _, ok := ParseMode(string(b.DefaultMode)); !ok {
		return Invalid("blueprint_mode", "El modo predeterminado debe ser entrenamiento o simulacro.")
	}
	return b.DifficultyMix.OrDefault().Validate()
}
