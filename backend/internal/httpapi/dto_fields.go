package httpapi

import (
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/measures"
	"github.com/utpl/simulador/backend/internal/roster"
)

// APIShapes returns a zero value of every JSON shape the frontend reads or
// sends, keyed by its TypeScript name in frontend/src/types/api.ts: each
// response, each request body, and every struct nested in one of them
// (the apitypes command refuses a nested struct missing here). The
// apitypes command lists their fields, and a test on each side checks
// that the two languages agree (docs/architecture.md, "One shape, two
// languages").
func APIShapes() map[string]any {
	return map[string]any{
		// Cases, blueprints and rubrics.
		"Case":              caseDTO{},
		"LegalBase":         legalBaseDTO{},
		"CaseReview":        reviewDTO{},
		"Blueprint":         domain.Blueprint{},
		"DifficultyMix":     domain.DifficultyMix{},
		"Criterion":         domain.Criterion{},
		"Rubric":            rubricDTO{},
		"RubricLevel":       rubricLevelDTO{},
		"ImportCasesResult": catalog.ImportResult{},
		"DegreeConfig":      configDTO{},
		"BlueprintBounds":   domain.BlueprintBounds{},
		"Bound":             domain.Bound{},
		"Degree":            degreeDTO{},

		// Attempts, recordings, transcripts and their evidence.
		"Phase":           phaseDTO{},
		"Recording":       recordingDTO{},
		"Person":          personDTO{},
		"SelfAssessment":  domain.SelfAssessment{},
		"TutorGrade":      domain.TutorGrade{},
		"Attempt":         attemptDTO{},
		"AttemptSummary":  attemptSummaryDTO{},
		"DirectedDraw":    directedDTO{},
		"Segment":         domain.Segment{},
		"Transcript":      transcriptDTO{},
		"PhaseEvidence":   feedback.PhaseEvidence{},
		"PauseEvidence":   feedback.PauseEvidence{},
		"Evidence":        feedback.Evidence{},
		"KeyPointStatus":  feedback.KeyPointStatus{},
		"Report":          measures.Report{},
		"Citation":        measures.Citation{},
		"BasesComparison": measures.BasesComparison{},

		// The student's home: the exam overview and progress.
		"ExamOverview":     overviewDTO{},
		"DifficultyOption": difficultyDTO{},
		"Progress":         progressDTO{},
		"CriterionSeries":  criterionSeriesDTO{},
		"CriterionPoint":   criterionPointDTO{},
		"AreaResult":       areaResultDTO{},

		// Session, sign-in and the account page.
		"User":                 userDTO{},
		"Access":               accessDTO{},
		"Session":              sessionDTO{},
		"LoginResult":          loginResponse{},
		"MicrosoftNonce":       microsoftStartResponse{},
		"MicrosoftLoginResult": microsoftLoginResponse{},
		"Account":              accountDTO{},
		"MfaStatus":            mfaStatusDTO{},
		"SessionItem":          sessionItemDTO{},
		"SessionsEnded":        sessionsEndedDTO{},
		"PasswordChanged":      passwordChangedDTO{},
		"TotpSetup":            totpSetupDTO{},
		"RecoveryCodes":        recoveryCodesDTO{},
		"IssuedReset":          passwordResetDTO{},

		// Groups, members and reports.
		"Group":               groupDTO{},
		"GroupStudent":        groupStudentDTO{},
		"Docente":             docenteDTO{},
		"ActiveGroup":         activeGroupResponse{},
		"FinalizedGroup":      groupResponse{},
		"LoadGroupResult":     loadGroupResponse{},
		"AddStudentsResult":   addStudentsResponse{},
		"Member":              memberDTO{},
		"GroupWithMembers":    membersResponse{},
		"GroupReportResponse": groupReportResponse{},
		"GroupReport":         feedback.GroupReport{},
		"CriterionAverage":    feedback.CriterionAverage{},
		"WeekCount":           feedback.WeekCount{},
		"InactiveStudent":     feedback.InactiveStudent{},
		"AreaReport":          feedback.AreaReport{},
		"MissedKeyPoint":      feedback.MissedKeyPoint{},

		// Courses (LTI).
		"LtiCourse":               ltiCourseDTO{},
		"LtiColumn":               ltiColumnDTO{},
		"LtiGroupCourse":          ltiGroupCourseDTO{},
		"LtiCourses":              ltiCoursesResponse{},
		"LtiColumns":              ltiColumnsResponse{},
		"LtiLinkedColumn":         ltiLinkedColumnResponse{},
		"LoadFromCourseResult":    ltiLoadResponse{},
		"UpdateFromCourseResult":  ltiUpdateResponse{},
		"UpdateFromCourseDetails": lti.UpdateDetails{},
		"Omitted":                 lti.Omitted{},
		"LeftStudent":             lti.LeftStudent{},
		"ScoreStatus":             scoreStatusDTO{},

		// The public configuration.
		"AppConfig":       publicConfigDTO{},
		"SiteConfig":      config.Site{},
		"MicrosoftConfig": microsoftConfigDTO{},
		"MailConfig":      mailConfigDTO{},

		// Every error answer, and the problems some list in its details.
		"ErrorBody":     errorBody{},
		"ErrorPayload":  errorPayload{},
		"RosterProblem": roster.Problem{},
		"ImportProblem": catalog.ImportProblem{},
		"CaseProblem":   domain.CaseProblem{},

		// Request bodies.
		"LoginRequest":          loginRequest{},
		"LoginCodeRequest":      loginCodeRequest{},
		"MicrosoftLoginRequest": microsoftLoginRequest{},
		"PasswordResetInput":    passwordResetRequest{},
		"ChangePasswordInput":   changePasswordRequest{},
		"PasswordRequest":       passwordRequest{},
		"TotpCodeRequest":       codeRequest{},
		"AddStudentsRequest":    addStudentsRequest{},
		"RemoveStudentRequest":  removeStudentRequest{},
		"LoadFromCourseInput":   ltiLoadRequest{},
		"LtiColumnRequest":      ltiColumnRequest{},
		"StartRequest":          startRequest{},
		"PhaseRequest":          phaseRequest{},
		"LevelsRequest":         levelsRequest{},
		"NotesRequest":          notesRequest{},
		"RubricRequest":         rubricRequest{},
		"TranscriptRequest":     transcriptRequest{},
		"PutRecordingRequest":   putRecordingRequest{},
		"CompleteRequest":       completeRequest{},
	}
}
