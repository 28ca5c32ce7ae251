package exams

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// The directed draw ("Sorteo dirigido") of a training attempt aims at the
// area and difficulty where the student's recent results are weakest.
const (
	// directedWindow is how many of the student's latest finished attempts
	// (in the degree) it weighs.
	directedWindow = 10
	// directedReads bounds the attempts read to find them.
	directedReads = 30
)

// Where a result's mark comes from, in the order the directed draw trusts
// them: the tutor's grade, else the student's self-assessment. (Automatic
// measures would come third, but an attempt finishes only with its
// self-assessment, so every finished attempt has one of the first two.)
const (
	SourceTutor = "tutor"
	SourceSelf  = "self"
)

// AttemptResult is one finished attempt as the directed draw weighs it.
type AttemptResult struct {
	CaseID     string
	Area       string
	Difficulty domain.Difficulty
	Score      float64 // 0–10
	Source     string
	Passed     bool // the mark reaches the attempt's pass score
}

// AreaResult is a student's results in one area of law.
type AreaResult struct {
	Area     string
	Attempts int // finished attempts with a mark
	Average  float64
	Passed   int
}

// Target is where a directed draw aims, and why (shown to the student).
type Target struct {
	Area       string
	Difficulty domain.Difficulty // "" = any difficulty of the area
	Reason     string
}

// resultOf is a finished attempt's mark: the tutor's when graded.
func resultOf(a domain.Attempt) (AttemptResult, bool) {
	r := AttemptResult{CaseID: a.Case.ID, Area: a.Case.Area, Difficulty: a.Case.Difficulty}
	switch {
	case a.Status != domain.AttemptFinished:
		return r, false
	case a.Grade != nil:
		r.Score, r.Source = a.Grade.Score, SourceTutor
	case a.Self != nil:
		r.Score, r.Source = a.Self.Score, SourceSelf
	default:
		return r, false
	}
	r.Passed = a.Rubric.Passed(r.Score)
	return r, true
}

// ByArea sums results per area, in the order areas first appear.
func ByArea(results []AttemptResult) []AreaResult {
	var out []AreaResult
	index := map[string]int{}
	for _, r := range results {
		i, ok := index[r.Area]
		if !ok {
			i = len(out)
			index[r.Area] = i
			out = append(out, AreaResult{Area: r.Area})
		}
		a := &out[i]
		a.Average = (a.Average*float64(a.Attempts) + r.Score) / float64(a.Attempts+1)
		a.Attempts++
		if r.Passed {
			a.Passed++
		}
	}
	for i := range out {
		out[i].Average = domain.Round2(out[i].Average)
	}
	return out
}

// WeakestTarget is the directed draw's rule. Among the areas that have
// active cases (available: area -> its difficulties), it picks the one with
// the lowest average over results (the newest directedWindow, newest
// first); a tie goes to the area with fewer attempts, then by name. Within
// it, the difficulty with the lowest average, if the area has cases of it.
// Without results in any available area there is no target.
func WeakestTarget(results []AttemptResult, available map[string][]domain.Difficulty) (Target, bool) {
	results = results[:min(len(results), directedWindow)]
	var usable []AttemptResult
	for _, r := range results {
		if _, ok := available[r.Area]; ok {
			usable = append(usable, r)
		}
	}
	areas := ByArea(usable)
	if len(areas) == 0 {
		return Target{}, false
	}
	weakest := slices.MinFunc(areas, func(a, b AreaResult) int {
		return cmp.Or(cmp.Compare(a.Average, b.Average), cmp.Compare(a.Attempts, b.Attempts), strings.Compare(a.Area, b.Area))
	})
	type acc struct {
		sum float64
		n   int
	}
	byDifficulty := map[domain.Difficulty]*acc{}
	for _, r := range usable {
		if r.Area != weakest.Area || r.Difficulty == "" {
			continue
		}
		if byDifficulty[r.Difficulty] == nil {
			byDifficulty[r.Difficulty] = &acc{}
		}
		byDifficulty[r.Difficulty].sum += r.Score
		byDifficulty[r.Difficulty].n++
	}
	t := Target{Area: weakest.Area}
	best := 0.0
	for _, d := range domain.Difficulties { // display order breaks ties
		a := byDifficulty[d]
		if a == nil || !slices.Contains(available[weakest.Area], d) {
			continue
		}
		if avg := a.sum / float64(a.n); t.Difficulty == "" || avg < best {
			t.Difficulty, best = d, avg
		}
	}
	t.Reason = reasonFor(weakest, t.Difficulty)
	return t, true
}

func reasonFor(a AreaResult, d domain.Difficulty) string {
	attempts := "intento"
	if a.Attempts != 1 {
		attempts = "intentos"
	}
	reason := fmt.Sprintf("Área con menor promedio en sus últimos intentos: %s (%s / 10 en %d %s)", a.Area, decimalComma(a.Average), a.Attempts, attempts)
	if d != "" {
		reason += fmt.Sprintf("; dificultad %s", strings.ToLower(d.Label()))
	}
	return reason + "."
}

func decimalComma(f float64) string {
	return strings.Replace(fmt.Sprintf("%.1f", f), ".", ",", 1)
}

// NoTargetReason is what the directed draw says when it has nothing to go
// on yet.
const NoTargetReason = "Aún no tiene intentos terminados en las áreas con casos: el sorteo dirigido elegirá entre todas las áreas."

// recentResults are the user's newest finished attempts in the degree, as
// the directed draw weighs them (newest first).
func (s *Service) recentResults(ctx context.Context, userID, degreeID string) ([]AttemptResult, error) {
	all, err := s.store.ListAttempts(ctx, store.AttemptFilter{StudentID: userID, Status: domain.AttemptFinished})
	if err != nil {
		return nil, err
	}
	var out []AttemptResult
	for _, sum := range all[:min(len(all), directedReads)] {
		a, err := s.store.GetAttempt(ctx, sum.ID)
		if errors.Is(err, domain.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if a.DegreeID != degreeID {
			continue
		}
		if r, ok := resultOf(a); ok {
			out = append(out, r)
			if len(out) == directedWindow {
				break
			}
		}
	}
	return out, nil
}

// availableAreas maps each area of the degree's active cases to its
// difficulties.
func (s *Service) availableAreas(ctx context.Context, degreeID string) (map[string][]domain.Difficulty, error) {
	cases, err := s.store.ListCases(ctx, store.CaseFilter{DegreeID: degreeID, Status: domain.CaseActive})
	if err != nil {
		return nil, err
	}
	out := map[string][]domain.Difficulty{}
	for _, c := range cases {
		if !slices.Contains(out[c.Area], c.Difficulty) {
			out[c.Area] = append(out[c.Area], c.Difficulty)
		}
	}
	return out, nil
}

// DirectedTarget is where the user's next directed draw in the degree
// would aim; ok is false when there is nothing to go on yet.
func (s *Service) DirectedTarget(ctx context.Context, userID, degreeID string) (Target, bool, error) {
	results, err := s.recentResults(ctx, userID, degreeID)
	if err != nil {
		return Target{}, false, err
	}
	available, err := s.availableAreas(ctx, degreeID)
	if err != nil {
		return Target{}, false, err
	}
	t, ok := WeakestTarget(results, available)
	return t, ok, nil
}

// drawDirected draws a case aimed at the target, never one of the recent
// cases while any other case exists: when every case of the area and
// difficulty is recent it widens to the area, then to the whole bank.
func (s *Service) drawDirected(ctx context.Context, degreeID string, t Target, recent []string) (domain.Case, error) {
	tries := []catalog.DrawRequest{
		{DegreeID: degreeID, Area: t.Area, Difficulty: t.Difficulty, Recent: recent},
		{DegreeID: degreeID, Area: t.Area, Recent: recent},
		{DegreeID: degreeID, Recent: recent},
	}
	var c domain.Case
	var noCase error
	for _, r := range tries {
		got, err := s.catalog.Draw(ctx, r)
		if err != nil {
			var ue *domain.UserError
			if errors.As(err, &ue) { // no case there: widen
				noCase = err
				continue
			}
			return domain.Case{}, err
		}
		if !slices.Contains(recent, got.ID) {
			return got, nil
		}
		c = got
	}
	if c.ID == "" {
		return c, noCase
	}
	return c, nil // the whole bank is recent: the least recently seen case
}
