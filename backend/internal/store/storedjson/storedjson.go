// Package storedjson is the JSON the stores keep: an attempt's snapshots
// (the case, blueprint and rubric it started with, its phases and
// assessments), the degree's blueprint and rubric, a case's legal bases
// and a transcript's segments. Both adapters (sqlstore, firestore) write
// and read them through this package.
//
// These types are the storage format, on purpose apart from the domain
// types and the API's: renaming a domain field or an API field must not
// change what is on disk, or attempts saved before the rename would read
// back empty. A change here is a change of the stored format: old rows
// must still read (add fields, never rename one). The golden test pins the
// bytes.
package storedjson

import (
	"encoding/json"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// Attempt is an attempt's data: its snapshots and phase clock.
type Attempt struct {
	Case      Case      `json:"case"`
	Blueprint Blueprint `json:"blueprint"`
	Rubric    Rubric    `json:"rubric"`
	Phases    []Phase   `json:"phases"`
	// Notes: Firestore keeps the notes here (always written, "" too);
	// sqlstore keeps them in a column of their own and writes none here,
	// but reads those of rows saved before that column existed.
	Notes *string         `json:"notes,omitempty"`
	Self  *SelfAssessment `json:"self"`
	Grade *TutorGrade     `json:"grade"`
}

type Case struct {
	ID                string      `json:"id"`
	DegreeID          string      `json:"degreeId"`
	Area              string      `json:"area"`
	Title             string      `json:"title"`
	Facts             string      `json:"facts"`
	Questions         []string    `json:"questions"`
	FollowUps         []string    `json:"followUps"`
	KeyPoints         []string    `json:"keyPoints"`
	LegalBases        []LegalBase `json:"legalBases"`
	FollowUpKeyPoints []int       `json:"followUpKeyPoints,omitempty"`
	Difficulty        string      `json:"difficulty,omitempty"`
	Status            string      `json:"status"`
	Demo              bool        `json:"demo"`
	Review            *CaseReview `json:"review,omitempty"`
	CreatedAt         time.Time   `json:"createdAt"`
	UpdatedAt         time.Time   `json:"updatedAt"`
}

type LegalBase struct {
	Norm    string `json:"norm"`
	Article string `json:"article"`
	Note    string `json:"note,omitempty"`
}

type CaseReview struct {
	By     string    `json:"by"`
	ByName string    `json:"byName"`
	At     time.Time `json:"at"`
}

type Blueprint struct {
	DegreeID        string        `json:"degreeId"`
	PreparationSec  int           `json:"preparationSec"`
	PresentationSec int           `json:"presentationSec"`
	Questions       int           `json:"questions"`
	ThinkSec        int           `json:"thinkSec"`
	AnswerSec       int           `json:"answerSec"`
	ClosingSec      int           `json:"closingSec"`
	DefaultMode     string        `json:"defaultMode"`
	DifficultyMix   DifficultyMix `json:"difficultyMix"`
}

type DifficultyMix struct {
	Basic        int `json:"basico"`
	Intermediate int `json:"intermedio"`
	Advanced     int `json:"avanzado"`
}

type Rubric struct {
	DegreeID  string      `json:"degreeId"`
	Version   int         `json:"version"`
	PassScore float64     `json:"passScore"`
	Criteria  []Criterion `json:"criteria"`
}

type Criterion struct {
	ID          string    `json:"id"`
	Group       string    `json:"group"`
	Name        string    `json:"name"`
	Weight      int       `json:"weight"`
	Description string    `json:"description"`
	Descriptors [4]string `json:"descriptors"`
}

type Phase struct {
	Kind      string     `json:"kind"`
	Index     int        `json:"index"`
	LimitSec  int        `json:"limitSec"`
	StartedAt *time.Time `json:"startedAt"`
	EndedAt   *time.Time `json:"endedAt"`
	PausedSec int        `json:"pausedSec"`
	PausedAt  *time.Time `json:"pausedAt"`
	Skipped   bool       `json:"skipped"`
}

type SelfAssessment struct {
	Levels map[string]int `json:"levels"`
	Score  float64        `json:"score"`
	At     time.Time      `json:"at"`
}

type TutorGrade struct {
	Levels   map[string]int `json:"levels"`
	Score    float64        `json:"score"`
	Comments string         `json:"comments"`
	By       string         `json:"by"`
	ByName   string         `json:"byName,omitempty"`
	At       time.Time      `json:"at"`
}

type Segment struct {
	StartMs int64  `json:"startMs"`
	EndMs   int64  `json:"endMs"`
	Text    string `json:"text"`
}

// EncodeAttempt is the stored data of a: its snapshots, without the notes
// (sqlstore keeps them in a column of their own).
func EncodeAttempt(a domain.Attempt) string { return encode(attemptOf(a)) }

// EncodeAttemptWithNotes is the stored data of a with its notes, as the
// Firestore adapter keeps them.
func EncodeAttemptWithNotes(a domain.Attempt) string {
	d := attemptOf(a)
	d.Notes = &a.Notes
	return encode(d)
}

func attemptOf(a domain.Attempt) Attempt {
	return Attempt{Case: caseOf(a.Case), Blueprint: blueprintOf(a.Blueprint), Rubric: rubricOf(a.Rubric),
		Phases: mapSlice(a.Phases, phaseOf), Self: selfOf(a.Self), Grade: gradeOf(a.Grade)}
}

// DecodeAttempt fills a's snapshots from data; a.Notes gets the notes an
// old row kept in data.
func DecodeAttempt(data []byte, a *domain.Attempt) error {
	var d Attempt
	if err := json.Unmarshal(data, &d); err != nil {
		return err
	}
	a.Case, a.Blueprint, a.Rubric = d.Case.domain(), d.Blueprint.domain(), d.Rubric.domain()
	a.Phases = mapSlice(d.Phases, Phase.domain)
	a.Notes = ""
	if d.Notes != nil {
		a.Notes = *d.Notes
	}
	a.Self, a.Grade = d.Self.domain(), d.Grade.domain()
	return nil
}

func EncodeBlueprint(b domain.Blueprint) string { return encode(blueprintOf(b)) }

func DecodeBlueprint(data []byte) (domain.Blueprint, error) {
	var b Blueprint
	err := json.Unmarshal(data, &b)
	return b.domain(), err
}

func EncodeRubric(r domain.Rubric) string { return encode(rubricOf(r)) }

func DecodeRubric(data []byte) (domain.Rubric, error) {
	var r Rubric
	err := json.Unmarshal(data, &r)
	return r.domain(), err
}

// EncodeLegalBases stores a case's legal bases; none is [].
func EncodeLegalBases(bs []domain.LegalBase) string {
	return encode(domain.NonNil(mapSlice(bs, legalBaseOf)))
}

func DecodeLegalBases(data []byte) ([]domain.LegalBase, error) {
	var bs []LegalBase
	err := json.Unmarshal(data, &bs)
	return mapSlice(bs, LegalBase.domain), err
}

// EncodeSegments stores a transcript's segments; none is [].
func EncodeSegments(ss []domain.Segment) string {
	return encode(domain.NonNil(mapSlice(ss, segmentOf)))
}

func DecodeSegments(data []byte) ([]domain.Segment, error) {
	var ss []Segment
	err := json.Unmarshal(data, &ss)
	return mapSlice(ss, Segment.domain), err
}

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // plain data: strings, numbers, times
	}
	return string(b)
}

// mapSlice converts each element, keeping nil as nil (it is stored as
// null, and an empty list as []).
func mapSlice[S, T any](in []S, f func(S) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i, v := range in {
		out[i] = f(v)
	}
	return out
}

func caseOf(c domain.Case) Case {
	s := Case{ID: c.ID, DegreeID: c.DegreeID, Area: c.Area, Title: c.Title, Facts: c.Facts, Questions: c.Questions,
		FollowUps: c.FollowUps, KeyPoints: c.KeyPoints, LegalBases: mapSlice(c.LegalBases, legalBaseOf),
		FollowUpKeyPoints: c.FollowUpKeyPoints, Difficulty: string(c.Difficulty), Status: string(c.Status), Demo: c.Demo,
		CreatedAt: c.CreatedAt, UpdatedAt: c.UpdatedAt}
	if c.Review != nil {
		s.Review = &CaseReview{By: c.Review.By, ByName: c.Review.ByName, At: c.Review.At}
	}
	return s
}

func (s Case) domain() domain.Case {
	c := domain.Case{ID: s.ID, DegreeID: s.DegreeID, Area: s.Area, Title: s.Title, Facts: s.Facts, Questions: s.Questions,
		FollowUps: s.FollowUps, KeyPoints: s.KeyPoints, LegalBases: mapSlice(s.LegalBases, LegalBase.domain),
		FollowUpKeyPoints: s.FollowUpKeyPoints, Difficulty: domain.Difficulty(s.Difficulty), Status: domain.CaseStatus(s.Status),
		Demo: s.Demo, CreatedAt: s.CreatedAt, UpdatedAt: s.UpdatedAt}
	if s.Review != nil {
		c.Review = &domain.CaseReview{By: s.Review.By, ByName: s.Review.ByName, At: s.Review.At}
	}
	return c
}

func legalBaseOf(b domain.LegalBase) LegalBase {
	return LegalBase{Norm: b.Norm, Article: b.Article, Note: b.Note}
}

func (s LegalBase) domain() domain.LegalBase {
	return domain.LegalBase{Norm: s.Norm, Article: s.Article, Note: s.Note}
}

func blueprintOf(b domain.Blueprint) Blueprint {
	return Blueprint{DegreeID: b.DegreeID, PreparationSec: b.PreparationSec, PresentationSec: b.PresentationSec,
		Questions: b.Questions, ThinkSec: b.ThinkSec, AnswerSec: b.AnswerSec, ClosingSec: b.ClosingSec,
		DefaultMode: string(b.DefaultMode), DifficultyMix: DifficultyMix(b.DifficultyMix)}
}

func (s Blueprint) domain() domain.Blueprint {
	return domain.Blueprint{DegreeID: s.DegreeID, PreparationSec: s.PreparationSec, PresentationSec: s.PresentationSec,
		Questions: s.Questions, ThinkSec: s.ThinkSec, AnswerSec: s.AnswerSec, ClosingSec: s.ClosingSec,
		DefaultMode: domain.Mode(s.DefaultMode), DifficultyMix: domain.DifficultyMix(s.DifficultyMix)}
}

func rubricOf(r domain.Rubric) Rubric {
	return Rubric{DegreeID: r.DegreeID, Version: r.Version, PassScore: r.PassScore, Criteria: mapSlice(r.Criteria, criterionOf)}
}

func (s Rubric) domain() domain.Rubric {
	return domain.Rubric{DegreeID: s.DegreeID, Version: s.Version, PassScore: s.PassScore, Criteria: mapSlice(s.Criteria, Criterion.domain)}
}

func criterionOf(c domain.Criterion) Criterion {
	return Criterion{ID: c.ID, Group: c.Group, Name: c.Name, Weight: c.Weight, Description: c.Description, Descriptors: c.Descriptors}
}

func (s Criterion) domain() domain.Criterion {
	return domain.Criterion{ID: s.ID, Group: s.Group, Name: s.Name, Weight: s.Weight, Description: s.Description, Descriptors: s.Descriptors}
}

func phaseOf(p domain.Phase) Phase {
	return Phase{Kind: string(p.Kind), Index: p.Index, LimitSec: p.LimitSec, StartedAt: p.StartedAt, EndedAt: p.EndedAt,
		PausedSec: p.PausedSec, PausedAt: p.PausedAt, Skipped: p.Skipped}
}

func (s Phase) domain() domain.Phase {
	return domain.Phase{Kind: domain.PhaseKind(s.Kind), Index: s.Index, LimitSec: s.LimitSec, StartedAt: s.StartedAt,
		EndedAt: s.EndedAt, PausedSec: s.PausedSec, PausedAt: s.PausedAt, Skipped: s.Skipped}
}

func selfOf(a *domain.SelfAssessment) *SelfAssessment {
	if a == nil {
		return nil
	}
	return &SelfAssessment{Levels: a.Levels, Score: a.Score, At: a.At}
}

func (s *SelfAssessment) domain() *domain.SelfAssessment {
	if s == nil {
		return nil
	}
	return &domain.SelfAssessment{Levels: s.Levels, Score: s.Score, At: s.At}
}

func gradeOf(g *domain.TutorGrade) *TutorGrade {
	if g == nil {
		return nil
	}
	return &TutorGrade{Levels: g.Levels, Score: g.Score, Comments: g.Comments, By: g.By, ByName: g.ByName, At: g.At}
}

func (s *TutorGrade) domain() *domain.TutorGrade {
	if s == nil {
		return nil
	}
	return &domain.TutorGrade{Levels: s.Levels, Score: s.Score, Comments: s.Comments, By: s.By, ByName: s.ByName, At: s.At}
}

func segmentOf(s domain.Segment) Segment {
	return Segment{StartMs: s.StartMs, EndMs: s.EndMs, Text: s.Text}
}

func (s Segment) domain() domain.Segment {
	return domain.Segment{StartMs: s.StartMs, EndMs: s.EndMs, Text: s.Text}
}
