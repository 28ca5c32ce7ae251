package storedjson

import (
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// fullAttempt sets every stored field, so a field missing from the
// storage types or renamed there changes the golden bytes.
func fullAttempt() domain.Attempt {
	t0 := time.Date(2026, 3, 2, 15, 4, 5, 123456000, time.UTC)
	t1, t2 := t0.Add(90*time.Second), t0.Add(2*time.Minute)
	return domain.Attempt{
		ID: "att-1", StudentID: "u-1", Mode: domain.Mode("simulacro"), Status: domain.AttemptStatus("in_progress"),
		Case: domain.Case{
			ID: "case-1", DegreeID: "derecho", Area: "Penal", Title: "Robo agravado", Facts: "Hechos.\nSegunda línea.",
			Questions: []string{"¿Qué delito?"}, FollowUps: []string{"¿Pena?", "¿Atenuantes?"}, KeyPoints: []string{"Tipicidad", "Pena"},
			LegalBases:        []domain.LegalBase{{Norm: "COIP", Article: "189", Note: "Robo"}, {Norm: "Constitución", Article: "76.7.l"}},
			FollowUpKeyPoints: []int{2, 0}, Difficulty: domain.DifficultyAdvanced, Status: domain.CaseActive, Demo: true,
			Review:    &domain.CaseReview{By: "tutora@utpl.edu.ec", ByName: "Tutora", At: t0},
			CreatedAt: t0, UpdatedAt: t1,
		},
		Blueprint: domain.Blueprint{DegreeID: "derecho", PreparationSec: 600, PresentationSec: 300, Questions: 2, ThinkSec: 30,
			AnswerSec: 120, ClosingSec: 60, DefaultMode: domain.Mode("simulacro"),
			DifficultyMix: domain.DifficultyMix{Basic: 20, Intermediate: 50, Advanced: 30}},
		Rubric: domain.Rubric{DegreeID: "derecho", Version: 3, PassScore: 7.5, Criteria: []domain.Criterion{
			{ID: "c1", Group: "Fondo", Name: "Argumentación", Weight: 60, Description: "Argumenta.", Descriptors: [4]string{"a", "b", "c", "d"}},
		}},
		Phases: []domain.Phase{
			{Kind: domain.PhaseKind("preparation"), LimitSec: 600, StartedAt: &t0, EndedAt: &t1, PausedSec: 5},
			{Kind: domain.PhaseKind("think"), Index: 1, LimitSec: 30, StartedAt: &t1, PausedAt: &t2, Skipped: true},
		},
		Self:  &domain.SelfAssessment{Levels: domain.Levels{"c1": 3}, Score: 7.25, At: t1},
		Grade: &domain.TutorGrade{Levels: domain.Levels{"c1": 4}, Score: 10, Comments: "Bien.", By: "tutora@utpl.edu.ec", ByName: "Tutora", At: t2},
	}
}
