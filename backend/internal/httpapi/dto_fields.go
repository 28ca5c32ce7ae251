package httpapi

import (
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/feedback"
)

// APIShapes returns a zero value of each JSON shape the frontend declares
// in frontend/src/types/api.ts, keyed by its TypeScript name. The
// apitypes command lists their fields, and a test on each side checks that
// the two languages agree (docs/architecture.md, "One shape, two
// languages").
func APIShapes() map[string]any {
	return map[string]any{
		"Case":           caseDTO{},
		"LegalBase":      legalBaseDTO{},
		"CaseReview":     reviewDTO{},
		"Blueprint":      domain.Blueprint{},
		"Criterion":      domain.Criterion{},
		"Rubric":         rubricDTO{},
		"Phase":          phaseDTO{},
		"Recording":      recordingDTO{},
		"Person":         personDTO{},
		"SelfAssessment": domain.SelfAssessment{},
		"TutorGrade":     domain.TutorGrade{},
		"Attempt":        attemptDTO{},
		"AttemptSummary": attemptSummaryDTO{},
		"Segment":        domain.Segment{},
		"Transcript":     transcriptDTO{},
		"PhaseEvidence":  feedback.PhaseEvidence{},
		"Evidence":       feedback.Evidence{},
	}
}
