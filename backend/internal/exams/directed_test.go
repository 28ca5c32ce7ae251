package exams

import (
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/domain"
)

func TestWeakestTargetPicksTheLowestAverageAreaAndDifficulty(t *testing.T) {
	available := map[string][]domain.Difficulty{
		"Penal":      {domain.DifficultyBasic, domain.DifficultyIntermediate},
		"Tributario": {domain.DifficultyIntermediate, domain.DifficultyAdvanced},
		"Laboral":    {domain.DifficultyBasic},
	}
	results := []AttemptResult{ // newest first
		{Area: "Tributario", Difficulty: domain.DifficultyAdvanced, Score: 4, Source: SourceTutor},
		{Area: "Penal", Difficulty: domain.DifficultyBasic, Score: 6, Source: SourceSelf},
		{Area: "Tributario", Difficulty: domain.DifficultyIntermediate, Score: 7, Source: SourceSelf},
		{Area: "Civil", Difficulty: domain.DifficultyBasic, Score: 1, Source: SourceTutor}, // no active cases: ignored
	}
	got, ok := WeakestTarget(results, available)
	if !ok || got.Area != "Tributario" || got.Difficulty != domain.DifficultyAdvanced {
		t.Fatalf("target = %+v, %v; want Tributario, avanzado", got, ok)
	}
	if !strings.HasPrefix(got.Reason, "Área con menor promedio en sus últimos intentos: Tributario") || !strings.Contains(got.Reason, "5,5 / 10 en 2 intentos") {
		t.Fatalf("reason %q", got.Reason)
	}
}

func TestWeakestTargetWeighsOnlyTheRecentWindow(t *testing.T) {
	available := map[string][]domain.Difficulty{"Penal": {domain.DifficultyBasic}, "Laboral": {domain.DifficultyBasic}}
	var results []AttemptResult
	for range directedWindow {
		results = append(results, AttemptResult{Area: "Penal", Difficulty: domain.DifficultyBasic, Score: 6})
	}
	results = append(results, AttemptResult{Area: "Laboral", Difficulty: domain.DifficultyBasic, Score: 1}) // too old
	if got, _ := WeakestTarget(results, available); got.Area != "Penal" {
		t.Fatalf("target = %+v, want Penal (the old Laboral result is outside the window)", got)
	}
}

func TestWeakestTargetWithoutResultsHasNoTarget(t *testing.T) {
	if _, ok := WeakestTarget(nil, map[string][]domain.Difficulty{"Penal": {domain.DifficultyBasic}}); ok {
		t.Fatal("a target without results")
	}
}

func TestWeakestTargetTieGoesToFewerAttempts(t *testing.T) {
	available := map[string][]domain.Difficulty{"Penal": {domain.DifficultyBasic}, "Laboral": {domain.DifficultyBasic}}
	results := []AttemptResult{
		{Area: "Penal", Score: 5}, {Area: "Penal", Score: 5}, {Area: "Laboral", Score: 5},
	}
	if got, _ := WeakestTarget(results, available); got.Area != "Laboral" || got.Difficulty != "" {
		t.Fatalf("target = %+v, want Laboral with any difficulty", got)
	}
}
