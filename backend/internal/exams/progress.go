package exams

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// History lists the user's own attempts, newest first.
func (s *Service) History(ctx context.Context, u domain.User) ([]domain.AttemptSummary, error) {
	return s.store.ListAttempts(ctx, store.AttemptFilter{StudentID: u.ID})
}

// GradingQueue lists the finished, ungraded attempts of the tutor's groups,
// newest first.
func (s *Service) GradingQueue(ctx context.Context, tutor domain.User) ([]domain.AttemptSummary, error) {
	return s.store.ListAttempts(ctx, store.AttemptFilter{TutorEmail: tutor.Mail, Status: domain.AttemptFinished, Ungraded: true})
}

// StudentAttempts lists a student's attempts made in the tutor's groups;
// the student is named by user id.
func (s *Service) StudentAttempts(ctx context.Context, tutor domain.User, studentID string) ([]domain.AttemptSummary, error) {
	student, err := s.store.GetUser(ctx, studentID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil, domain.NotFound("student_not_found", "El estudiante no existe.")
	}
	if err != nil {
		return nil, err
	}
	all, err := s.store.ListAttempts(ctx, store.AttemptFilter{StudentEmail: student.Mail, TutorEmail: tutor.Mail})
	if err != nil {
		return nil, err
	}
	return all, nil
}

// Trend words shown to students and tutors.
const (
	TrendUp     = "sube"
	TrendDown   = "baja"
	TrendStable = "estable"
)

// scoreOf is the mark a summary shows: the tutor's when graded.
func scoreOf(a domain.AttemptSummary) (float64, bool) {
	if a.TutorScore != nil {
		return *a.TutorScore, true
	}
	if a.SelfScore != nil {
		return *a.SelfScore, true
	}
	return 0, false
}

// Stats summarise a list of attempts (newest first).
type Stats struct {
	Attempts     int
	Finished     int
	LastScore    *float64
	Average      *float64
	Trend        string // sube, baja, estable, or "" with fewer than two scores
	LastActivity *time.Time
}

// Summarize computes the figures of a student's attempts.
func Summarize(attempts []domain.AttemptSummary) Stats {
	st := Stats{Attempts: len(attempts)}
	var scores []float64 // newest first
	for i, a := range attempts {
		if i == 0 {
			t := a.CreatedAt
			if a.FinishedAt != nil {
				t = *a.FinishedAt
			}
			st.LastActivity = &t
		}
		if a.Status == domain.AttemptFinished {
			st.Finished++
		}
		if sc, ok := scoreOf(a); ok && a.Status == domain.AttemptFinished {
			scores = append(scores, sc)
		}
	}
	if len(scores) == 0 {
		return st
	}
	st.LastScore = &scores[0]
	sum := 0.0
	for _, v := range scores {
		sum += v
	}
	avg := domain.Round2(sum / float64(len(scores)))
	st.Average = &avg
	st.Trend = trend(scores)
	return st
}

// trend compares the mean of the newest k scores with the mean of the k
// before them, k = min(3, n/2) (so with two or three scores, the newest with
// the second newest); half a point either way counts as a change.
func trend(newestFirst []float64) string {
	n := len(newestFirst)
	if n < 2 {
		return ""
	}
	k := min(3, n/2)
	recent, earlier := mean(newestFirst[:k]), mean(newestFirst[k:min(n, 2*k)])
	switch d := recent - earlier; {
	case d >= 0.5:
		return TrendUp
	case d <= -0.5:
		return TrendDown
	}
	return TrendStable
}

func mean(xs []float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// CriterionPoint is one level a criterion got, for progress charts.
type CriterionPoint struct {
	At    time.Time
	Level int
}

// Progress is the student's home figures.
type Progress struct {
	Stats
	Recent      []domain.AttemptSummary
	ByCriterion map[string][]CriterionPoint // criterion id -> levels over time, oldest first
	Criteria    []domain.Criterion          // names for the chart legend (the current rubric)
	// ByArea are the results of the finished attempts per area of law,
	// weakest first.
	ByArea []AreaResult
	// Directed is where a directed draw in the student's degree would aim
	// now (nil without results yet, or outside a group).
	Directed *Target
}

// Progress returns the user's figures: counts, last score, trend and levels
// per criterion over their finished attempts.
func (s *Service) Progress(ctx context.Context, u domain.User) (Progress, error) {
	all, err := s.store.ListAttempts(ctx, store.AttemptFilter{StudentID: u.ID})
	if err != nil {
		return Progress{}, err
	}
	p := Progress{Stats: Summarize(all), Recent: all[:min(len(all), 5)], ByCriterion: map[string][]CriterionPoint{}}
	// Levels per criterion need each attempt's grade; a student has tens of
	// attempts at most, so reading the finished ones is cheap.
	var results []AttemptResult
	for i := len(all) - 1; i >= 0; i-- {
		if all[i].Status != domain.AttemptFinished {
			continue
		}
		a, err := s.store.GetAttempt(ctx, all[i].ID)
		if err != nil {
			return p, err
		}
		levels := domain.Levels(nil)
		at := a.CreatedAt
		if a.Grade != nil {
			levels, at = a.Grade.Levels, a.Grade.At
		} else if a.Self != nil {
			levels, at = a.Self.Levels, a.Self.At
		}
		for id, l := range levels {
			p.ByCriterion[id] = append(p.ByCriterion[id], CriterionPoint{At: at, Level: l})
		}
		p.Criteria = a.Rubric.Criteria // the newest attempt's rubric names the legend
		if r, ok := resultOf(a); ok {
			results = append(results, r)
		}
	}
	p.ByArea = ByArea(results)
	slices.SortStableFunc(p.ByArea, func(a, b AreaResult) int { return cmp.Compare(a.Average, b.Average) })
	if pc, err := s.PracticeContext(ctx, u, ""); err == nil {
		if t, ok, err := s.DirectedTarget(ctx, u.ID, pc.Degree.ID); err != nil {
			return p, err
		} else if ok {
			p.Directed = &t
		}
	}
	return p, nil
}

// MemberStats returns the figures of each student of a group, by email.
func (s *Service) MemberStats(ctx context.Context, g domain.Group) (map[string]Stats, error) {
	all, err := s.store.ListAttempts(ctx, store.AttemptFilter{GroupID: g.ID})
	if err != nil {
		return nil, err
	}
	by := map[string][]domain.AttemptSummary{}
	for _, a := range all {
		by[a.StudentEmail] = append(by[a.StudentEmail], a)
	}
	out := make(map[string]Stats, len(by))
	for email, list := range by {
		out[email] = Summarize(list)
	}
	return out, nil
}
