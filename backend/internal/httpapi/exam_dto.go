package httpapi

import (
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/norms"
)

type caseDTO struct {
	ID                string         `json:"id,omitempty"`
	Degree            string         `json:"degree"`
	DegreeID          string         `json:"degreeId"`
	Area              string         `json:"area"`
	Title             string         `json:"title"`
	Difficulty        string         `json:"difficulty"`
	Facts             string         `json:"facts"`
	Questions         []string       `json:"questions"`
	FollowUps         []string       `json:"followUps"`
	KeyPoints         []string       `json:"keyPoints"`
	FollowUpKeyPoints []int          `json:"followUpKeyPoints"`
	LegalBases        []legalBaseDTO `json:"legalBases"`
	Status            string         `json:"status"`
	Demo              bool           `json:"demo"`
	// Review is who marked the case reviewed and when; tutors only.
	Review    *reviewDTO `json:"review,omitempty"`
	UpdatedAt *time.Time `json:"updatedAt,omitempty"`
}

// legalBaseDTO is a legal base as stored, plus, in answers, how to show
// it: label ("art. 76.7.l"; an unnumbered article spelt out) and url, the
// address of the norm's official text (from the norms catalogue; "" when
// unknown).
type legalBaseDTO struct {
	Norm    string `json:"norm"`
	Article string `json:"article"`
	Note    string `json:"note,omitempty"`
	Label   string `json:"label,omitempty"`
	URL     string `json:"url,omitempty"`
}

type reviewDTO struct {
	By     string    `json:"by"`
	ByName string    `json:"byName"`
	At     time.Time `json:"at"`
}

func toLegalBaseDTOs(bases []domain.LegalBase) []legalBaseDTO {
	out := make([]legalBaseDTO, len(bases))
	for i, b := range bases {
		out[i] = legalBaseDTO{Norm: b.Norm, Article: b.Article, Note: b.Note}
		out[i].Label = articleLabel(b.Article)
		if n, ok := norms.Lookup(b.Norm); ok {
			out[i].URL = n.Source
		}
	}
	return out
}

// articleLabel writes an article as lawyers cite it. Dotted numbers stay
// as written: "195.1" is an article of its own in the Código del Trabajo,
// which the notation cannot tell from article 195, numeral 1.
func articleLabel(article string) string {
	a, err := norms.ParseArticle(article)
	if err != nil {
		return ""
	}
	if a.Innumerado > 0 {
		return a.Display()
	}
	return "art. " + a.String()
}

func fromLegalBaseDTOs(bases []legalBaseDTO) []domain.LegalBase {
	if bases == nil {
		return nil
	}
	out := make([]domain.LegalBase, len(bases))
	for i, b := range bases {
		out[i] = domain.LegalBase{Norm: b.Norm, Article: b.Article, Note: b.Note}
	}
	return out
}

func toCaseDTO(c domain.Case, degreeName string) caseDTO {
	d := caseDTO{ID: c.ID, Degree: degreeName, DegreeID: c.DegreeID, Area: c.Area, Title: c.Title, Difficulty: string(c.Difficulty),
		Facts: c.Facts, Questions: domain.NonNil(c.Questions), FollowUps: domain.NonNil(c.FollowUps), KeyPoints: domain.NonNil(c.KeyPoints),
		FollowUpKeyPoints: domain.NonNil(c.FollowUpKeyPoints), LegalBases: toLegalBaseDTOs(c.LegalBases), Status: string(c.Status), Demo: c.Demo}
	if c.Review != nil {
		d.Review = &reviewDTO{By: c.Review.By, ByName: c.Review.ByName, At: c.Review.At}
	}
	if !c.UpdatedAt.IsZero() {
		t := c.UpdatedAt
		d.UpdatedAt = &t
	}
	return d
}

type rubricLevelDTO struct {
	Level int    `json:"level"`
	Name  string `json:"name"`
}

type rubricDTO struct {
	domain.Rubric
	Levels []rubricLevelDTO `json:"levels"`
}

func toRubricDTO(r domain.Rubric) rubricDTO {
	return rubricDTO{Rubric: r, Levels: []rubricLevelDTO{{4, domain.LevelNames[4]}, {3, domain.LevelNames[3]}, {2, domain.LevelNames[2]}, {1, domain.LevelNames[1]}}}
}

type phaseDTO struct {
	domain.Phase
	Recorded bool       `json:"recorded"`
	Deadline *time.Time `json:"deadline"`
	UsedSec  int        `json:"usedSec"`
}

type personDTO struct {
	ID          string `json:"id"`
	Mail        string `json:"mail"`
	DisplayName string `json:"displayName"`
}

type transcriptDTO struct {
	Source    string           `json:"source"`
	Language  string           `json:"language"`
	Segments  []domain.Segment `json:"segments"`
	Text      string           `json:"text"`
	UpdatedAt time.Time        `json:"updatedAt"`
	UpdatedBy string           `json:"updatedBy"`
}

type recordingDTO struct {
	Transcript *transcriptDTO `json:"transcript"`
	ID         string         `json:"id"`
	Phase      int            `json:"phase"`
	MimeType   string         `json:"mimeType"`
	Chunks     int            `json:"chunks"`
	Bytes      int64          `json:"bytes"`
	DurationMs int64          `json:"durationMs"`
	Complete   bool           `json:"complete"`
	Deleted    bool           `json:"deleted"`
	CreatedAt  time.Time      `json:"createdAt"`
	Late       bool           `json:"late"`
}

func toRecordingDTO(r domain.Recording) recordingDTO {
	return recordingDTO{ID: r.ID, Phase: r.Phase, MimeType: domain.CanonicalAudioType(r.MimeType), Chunks: r.Chunks, Bytes: r.Bytes, DurationMs: r.DurationMs,
		Complete: r.Complete, Deleted: r.Deleted, CreatedAt: r.CreatedAt, Late: r.Late}
}

type attemptDTO struct {
	ID             string                 `json:"id"`
	Mode           string                 `json:"mode"`
	Status         string                 `json:"status"`
	Student        personDTO              `json:"student"`
	GroupID        string                 `json:"groupId"`
	DegreeID       string                 `json:"degreeId"`
	DegreeName     string                 `json:"degreeName"`
	Case           caseDTO                `json:"case"`
	Phases         []phaseDTO             `json:"phases"`
	Current        int                    `json:"current"`
	ServerTime     time.Time              `json:"serverTime"`
	Notes          string                 `json:"notes"`
	Blueprint      domain.Blueprint       `json:"blueprint"`
	Rubric         rubricDTO              `json:"rubric"`
	SelfAssessment *domain.SelfAssessment `json:"selfAssessment"`
	TutorGrade     *domain.TutorGrade     `json:"tutorGrade"`
	Recordings     []recordingDTO         `json:"recordings"`
	CreatedAt      time.Time              `json:"createdAt"`
	FinishedAt     *time.Time             `json:"finishedAt"`
	// Evidence is the automatic evidence, once the attempt is finished.
	Evidence *feedback.Evidence `json:"evidence"`
	// Directed is set only on the answer to a start with directed=true that
	// drew a new case: where the draw aimed and why (area and difficulty are
	// empty when there were no results to go on).
	Directed *directedDTO `json:"directed,omitempty"`
}

// toAttemptDTO hides the case's key points and legal bases until the
// student has assessed themselves (docs/product.md, "Phases", phase 6).
func toAttemptDTO(a domain.Attempt, degreeName string, recs []domain.Recording, transcripts map[string]domain.Transcript, now time.Time) attemptDTO {
	c := a.Case
	c.Review = nil // who reviewed the bank is the tutors' business
	if !a.Revealed() {
		c.KeyPoints, c.LegalBases, c.FollowUpKeyPoints = nil, nil, nil
	}
	d := attemptDTO{ID: a.ID, Mode: string(a.Mode), Status: string(a.Status),
		Student: personDTO{ID: a.StudentID, Mail: a.StudentEmail, DisplayName: a.StudentName},
		GroupID: a.GroupID, DegreeID: a.DegreeID, DegreeName: degreeName, Case: toCaseDTO(c, degreeName),
		Current: a.Current(), ServerTime: now.UTC(), Notes: a.Notes, Blueprint: a.Blueprint, Rubric: toRubricDTO(a.Rubric),
		SelfAssessment: a.Self, TutorGrade: a.Grade, CreatedAt: a.CreatedAt, FinishedAt: a.FinishedAt,
		Phases: make([]phaseDTO, len(a.Phases)), Recordings: make([]recordingDTO, len(recs))}
	for i, p := range a.Phases {
		pd := phaseDTO{Phase: p, Recorded: p.Kind.Recorded(), UsedSec: p.UsedSec(now)}
		if dl, ok := p.Deadline(); ok {
			pd.Deadline = &dl
		}
		d.Phases[i] = pd
	}
	for i, r := range recs {
		r.Late = a.TakeLate(r)
		d.Recordings[i] = toRecordingDTO(r)
		if t, ok := transcripts[r.ID]; ok && !r.Deleted {
			d.Recordings[i].Transcript = &transcriptDTO{Source: t.Source, Language: t.Language, Segments: domain.NonNil(t.Segments),
				Text: t.Text(), UpdatedAt: t.UpdatedAt, UpdatedBy: t.UpdatedBy}
		}
	}
	if a.Status == domain.AttemptFinished {
		ev := feedback.Measure(a, recs, transcripts)
		d.Evidence = &ev
	}
	return d
}

type attemptSummaryDTO struct {
	ID         string     `json:"id"`
	Mode       string     `json:"mode"`
	Status     string     `json:"status"`
	CaseTitle  string     `json:"caseTitle"`
	Area       string     `json:"area"`
	CreatedAt  time.Time  `json:"createdAt"`
	FinishedAt *time.Time `json:"finishedAt"`
	SelfScore  *float64   `json:"selfScore"`
	TutorScore *float64   `json:"tutorScore"`
	Graded     bool       `json:"graded"`
	Student    personDTO  `json:"student"`
}

func toSummaryDTOs(list []domain.AttemptSummary) []attemptSummaryDTO {
	out := make([]attemptSummaryDTO, len(list))
	for i, a := range list {
		out[i] = attemptSummaryDTO{ID: a.ID, Mode: string(a.Mode), Status: string(a.Status), CaseTitle: a.CaseTitle, Area: a.Area,
			CreatedAt: a.CreatedAt, FinishedAt: a.FinishedAt, SelfScore: a.SelfScore, TutorScore: a.TutorScore, Graded: a.TutorScore != nil,
			Student: personDTO{ID: a.StudentID, Mail: a.StudentEmail, DisplayName: a.StudentName}}
	}
	return out
}

type statsDTO struct {
	Attempts     int        `json:"attempts"`
	Finished     int        `json:"finished"`
	LastScore    *float64   `json:"lastScore"`
	Average      *float64   `json:"average"`
	Trend        string     `json:"trend"`
	LastActivity *time.Time `json:"lastActivity"`
}

func toStatsDTO(s exams.Stats) statsDTO {
	return statsDTO{Attempts: s.Attempts, Finished: s.Finished, LastScore: s.LastScore, Average: s.Average, Trend: s.Trend, LastActivity: s.LastActivity}
}
