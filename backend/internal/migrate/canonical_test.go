package migrate

import (
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// The same data read from two stores compares equal whatever each store did
// to its form; any real difference shows.
func TestCanonicalComparesDataNotForm(t *testing.T) {
	at := time.Date(2026, 11, 24, 10, 30, 0, 123456789, time.FixedZone("ECT", -5*3600))
	sqlForm := store.RecordingRecord{
		Recording: domain.Recording{ID: "r", AttemptID: "a", Levels: []float64{}, CreatedAt: at.UTC().Truncate(time.Millisecond)},
		Chunks:    []domain.ChunkInfo{{Seq: 0, Bytes: 3, SHA256: "x"}},
	}
	firestoreForm := store.RecordingRecord{
		Recording: domain.Recording{ID: "r", AttemptID: "a", Levels: nil, CreatedAt: at.Truncate(time.Microsecond)},
		Chunks:    []domain.ChunkInfo{{Seq: 0, Bytes: 3, SHA256: "x"}},
	}
	if string(canonical(sqlForm)) != string(canonical(firestoreForm)) {
		t.Fatalf("the same recording differs:\n%s\n%s", canonical(sqlForm), canonical(firestoreForm))
	}
	for name, change := range map[string]func(r *store.RecordingRecord){
		"a flag":        func(r *store.RecordingRecord) { r.Recording.Composed = true },
		"a millisecond": func(r *store.RecordingRecord) { r.Recording.CreatedAt = r.Recording.CreatedAt.Add(time.Millisecond) },
		"a chunk hash":  func(r *store.RecordingRecord) { r.Chunks = []domain.ChunkInfo{{Seq: 0, Bytes: 3, SHA256: "y"}} },
		"a level":       func(r *store.RecordingRecord) { r.Recording.Levels = []float64{0} },
	} {
		other := firestoreForm
		change(&other)
		if string(canonical(sqlForm)) == string(canonical(other)) {
			t.Errorf("%s changed and the records still compare equal", name)
		}
	}

	var none *time.Time
	zero := time.Time{}
	a := domain.Attempt{ID: "x", FinishedAt: none, Self: &domain.SelfAssessment{Levels: domain.Levels{"C1": 3, "C2": 4}}}
	b := domain.Attempt{ID: "x", FinishedAt: &zero, Self: &domain.SelfAssessment{Levels: domain.Levels{"C2": 4, "C1": 3}}}
	if string(canonical(a)) != string(canonical(b)) {
		t.Errorf("an unset time and map order make a difference:\n%s\n%s", canonical(a), canonical(b))
	}
	if recordHash(store.Record{Key: "x", Value: a}) == recordHash(store.Record{Key: "y", Value: a}) {
		t.Error("the key is not part of a record's hash")
	}
}
