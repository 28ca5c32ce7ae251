package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// testExclusiveMembershipRace: tutors add the same students at once, some
// to their active group and some by creating one, with the emails in
// different orders: exactly one wins, the others are told the students
// are taken and write nothing.
func testExclusiveMembershipRace(t *testing.T, s store.Store) {
	const n = racers
	wanted := []string{"disputada@utpl.edu.ec", "disputado@utpl.edu.ec"}
	existing := make([]domain.Group, n/2)
	for i := range existing {
		existing[i] = newGroup(t, s, fmt.Sprintf("docente%d@utpl.edu.ec", i), fmt.Sprintf("propio%d@utpl.edu.ec", i))
		if err := s.CreateGroup(ctx, existing[i]); err != nil {
			t.Fatal(err)
		}
	}
	groupIDs := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		emails := slices.Clone(wanted)
		if i%2 == 1 {
			slices.Reverse(emails)
		}
		wg.Go(func() {
			if i < len(existing) {
				groupIDs[i] = existing[i].ID
				var students []domain.GroupStudent
				for _, e := range emails {
					students = append(students, domain.GroupStudent{Email: e, AddedAt: now()})
				}
				_, errs[i] = s.AddGroupStudents(ctx, existing[i].ID, students)
				return
			}
			g := newGroup(t, s, fmt.Sprintf("docente%d@utpl.edu.ec", i), emails...)
			groupIDs[i] = g.ID
			errs[i] = s.CreateGroup(ctx, g)
		})
	}
	wg.Wait()
	winner := ""
	for i, err := range errs {
		var taken *store.MembersTakenError
		switch {
		case err == nil:
			if winner != "" {
				t.Fatalf("two tutors got the same students: groups %s and %s", winner, groupIDs[i])
			}
			winner = groupIDs[i]
		case errors.As(err, &taken):
			got := slices.Sorted(slices.Values(taken.Emails))
			if !slices.Equal(got, wanted) {
				t.Errorf("racer %d: taken = %v, want %v", i, taken.Emails, wanted)
			}
		default:
			t.Errorf("racer %d: unexpected error %v", i, err)
		}
	}
	if winner == "" {
		t.Fatal("no tutor got the students")
	}
	for _, e := range wanted {
		g, err := s.ActiveGroupOfStudent(ctx, e)
		if err != nil || g.ID != winner {
			t.Fatalf("ActiveGroupOfStudent(%s) = %s, %v; want the winner %s", e, g.ID, err, winner)
		}
	}
	for _, id := range groupIDs {
		g, err := s.GetGroup(ctx, id)
		if id != winner && err == nil && (g.HasStudent(wanted[0]) || g.HasStudent(wanted[1])) {
			t.Fatalf("a losing group lists the students: %+v", g.Estudiantes)
		}
	}
}

// recordedAttempt stores an attempt and a recording of its phase 1.
func recordedAttempt(t *testing.T, s store.Store, student domain.User, title string) (domain.Attempt, domain.Recording) {
	t.Helper()
	c := sampleCase(title, "Civil")
	if err := s.CreateCase(ctx, c); err != nil {
		t.Fatal(err)
	}
	a := newAttempt(t, s, student, c)
	if err := s.CreateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	// Leave the attempt so that the student may start another.
	a.Version = 1
	a.Status = domain.AttemptAbandoned
	if err := s.UpdateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	r, err := s.CreateRecording(ctx, domain.Recording{ID: domain.NewID(), AttemptID: a.ID, Phase: 1, MimeType: "audio/webm", CreatedAt: now()})
	if err != nil {
		t.Fatal(err)
	}
	return a, r
}

func testTakeLimit(t *testing.T, s store.Store) {
	a := storedAttempt(t, s, "tomas@utpl.edu.ec", "Tomas")
	take := func(id string, phase int) (domain.Recording, error) {
		return s.CreateTake(ctx, domain.Recording{ID: id, AttemptID: a.ID, Phase: phase, MimeType: "audio/webm", CreatedAt: now()}, 2)
	}
	for _, id := range []string{"toma-uno-1", "toma-dos-2"} {
		if r, err := take(id, 1); err != nil || r.ID != id || r.Phase != 1 {
			t.Fatalf("CreateTake(%s) = %+v, %v", id, r, err)
		}
	}
	if _, err := take("toma-tres-3", 1); !errors.Is(err, store.ErrTakeLimit) {
		t.Fatalf("a third take with a limit of 2: err = %v, want ErrTakeLimit", err)
	}
	if _, err := s.GetRecording(ctx, a.ID, "toma-tres-3"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a refused take was stored: %v", err)
	}
	// A registered take is returned again, whatever the limit (a retry).
	if r, err := take("toma-dos-2", 1); err != nil || r.ID != "toma-dos-2" {
		t.Fatalf("retrying a registered take = %+v, %v", r, err)
	}
	// Deleted takes count: deleting does not give a take back.
	r, _ := s.GetRecording(ctx, a.ID, "toma-uno-1")
	r.Deleted = true
	if err := s.UpdateRecording(ctx, r); err != nil {
		t.Fatal(err)
	}
	if _, err := take("toma-cuatro-4", 1); !errors.Is(err, store.ErrTakeLimit) {
		t.Fatalf("a take after deleting one: err = %v, want ErrTakeLimit", err)
	}
	// Other phases have their own count; no limit is no limit.
	if _, err := take("fase-tres-1", 3); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := s.CreateTake(ctx, domain.Recording{ID: fmt.Sprint("libre-", i), AttemptID: a.ID, Phase: 5, MimeType: "audio/webm", CreatedAt: now()}, 0); err != nil {
			t.Fatalf("CreateTake without a limit: %v", err)
		}
	}
	if _, err := s.CreateTake(ctx, domain.Recording{ID: "sin-intento", AttemptID: "missing", Phase: 1, MimeType: "audio/webm", CreatedAt: now()}, 2); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a take of a missing attempt: %v", err)
	}

	// Racing registrations of new takes: exactly the limit succeed.
	b := storedAttempt(t, s, "tomas.carrera@utpl.edu.ec", "Tomas en carrera")
	const limit = 2
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Go(func() {
			_, errs[i] = s.CreateTake(ctx, domain.Recording{ID: fmt.Sprint("carrera-toma-", i), AttemptID: b.ID, Phase: 1, MimeType: "audio/webm", CreatedAt: now()}, limit)
		})
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, store.ErrTakeLimit):
			t.Fatalf("unexpected error: %v", err)
		}
	}
	list, _ := s.ListRecordings(ctx, b.ID)
	if ok != limit || len(list) != limit {
		t.Fatalf("%d racing takes registered, %d stored; want %d", ok, len(list), limit)
	}
}

func testChunkLimits(t *testing.T, s store.Store) {
	student := mustUser(t, s, "cuota@utpl.edu.ec", domain.RoleStudent)
	a1, r1 := recordedAttempt(t, s, student, "Cuota uno")
	_, r2 := recordedAttempt(t, s, student, "Cuota dos")
	l := store.ChunkLimits{RecordingBytes: 250, StudentBytes: 400}
	chunk := func(r domain.Recording, seq int, bytes int64) error {
		return s.AddChunkWithin(ctx, r.AttemptID, r.ID, domain.ChunkInfo{Seq: seq, Bytes: bytes, SHA256: fmt.Sprint("h", seq)}, l)
	}
	used := func(want int64) {
		t.Helper()
		if got, err := s.StorageUsed(ctx, student.ID); err != nil || got != want {
			t.Fatalf("StorageUsed = %d, %v; want %d", got, err, want)
		}
	}
	used(0)
	for seq := range 2 {
		if err := chunk(r1, seq, 100); err != nil {
			t.Fatal(err)
		}
	}
	if err := chunk(r1, 2, 51); !errors.Is(err, store.ErrRecordingFull) {
		t.Fatalf("a chunk past the recording's limit: err = %v, want ErrRecordingFull", err)
	}
	if err := chunk(r1, 1, 100); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("a stored seq: err = %v, want ErrConflict", err)
	}
	if err := chunk(r1, 2, 50); err != nil { // exactly at the limit
		t.Fatal(err)
	}
	used(250)
	if got, _ := s.GetRecording(ctx, r1.AttemptID, r1.ID); got.Bytes != 250 || got.Chunks != 3 {
		t.Fatalf("recording after the refusal = %d bytes in %d chunks", got.Bytes, got.Chunks)
	}
	// The student's quota spans recordings.
	if err := chunk(r2, 0, 100); err != nil {
		t.Fatal(err)
	}
	if err := chunk(r2, 1, 51); !errors.Is(err, store.ErrStorageQuota) {
		t.Fatalf("a chunk past the student's quota: err = %v, want ErrStorageQuota", err)
	}
	used(350)
	// AddChunk counts without a limit (copies, tools).
	if err := s.AddChunk(ctx, r2.AttemptID, r2.ID, domain.ChunkInfo{Seq: 5, Bytes: 70, SHA256: "h5"}); err != nil {
		t.Fatal(err)
	}
	used(420)
	// Deleting a recording's chunks gives its bytes back.
	if err := s.DeleteChunks(ctx, r1.AttemptID, r1.ID); err != nil {
		t.Fatal(err)
	}
	used(170)
	if err := chunk(r2, 1, 51); err != nil {
		t.Fatalf("a chunk after space was freed: %v", err)
	}
	used(221)
	// A complete or deleted recording takes no more chunks.
	got, _ := s.GetRecording(ctx, r2.AttemptID, r2.ID)
	got.Complete = true
	if err := s.UpdateRecording(ctx, got); err != nil {
		t.Fatal(err)
	}
	if err := chunk(r2, 2, 1); !errors.Is(err, store.ErrRecordingClosed) {
		t.Fatalf("a chunk of a complete recording: err = %v, want ErrRecordingClosed", err)
	}
	r1.Deleted = true
	if err := s.UpdateRecording(ctx, r1); err != nil {
		t.Fatal(err)
	}
	if err := chunk(r1, 0, 1); !errors.Is(err, store.ErrRecordingClosed) {
		t.Fatalf("a chunk of a deleted recording: err = %v, want ErrRecordingClosed", err)
	}
	if err := s.AddChunkWithin(ctx, a1.ID, "missing", domain.ChunkInfo{Seq: 0, Bytes: 1, SHA256: "h"}, l); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("a chunk of a missing recording: %v", err)
	}
	used(221)
	if n, err := s.StorageUsed(ctx, "nobody"); err != nil || n != 0 {
		t.Fatalf("StorageUsed of a student without recordings = %d, %v", n, err)
	}
}

// testChunkLimitRace: chunks uploaded in parallel to one recording, and to
// two recordings of one student, never hold more than the limits allow.
func testChunkLimitRace(t *testing.T, s store.Store) {
	student := mustUser(t, s, "carrera.cuota@utpl.edu.ec", domain.RoleStudent)
	_, r1 := recordedAttempt(t, s, student, "Carrera uno")
	_, r2 := recordedAttempt(t, s, student, "Carrera dos")
	// Recording limit 3 chunks, student limit 5 chunks: racing uploads of
	// 4 chunks to each recording store exactly 3 + 2.
	const size = 100
	l := store.ChunkLimits{RecordingBytes: 3 * size, StudentBytes: 5 * size}
	type result struct {
		r   domain.Recording
		err error
	}
	var wg sync.WaitGroup
	results := make(chan result, 8)
	for _, r := range []domain.Recording{r1, r2} {
		for seq := range 4 {
			wg.Go(func() {
				err := s.AddChunkWithin(ctx, r.AttemptID, r.ID, domain.ChunkInfo{Seq: seq, Bytes: size, SHA256: fmt.Sprint("h", seq)}, l)
				results <- result{r, err}
			})
		}
	}
	wg.Wait()
	close(results)
	ok := 0
	for res := range results {
		switch {
		case res.err == nil:
			ok++
		case errors.Is(res.err, store.ErrRecordingFull), errors.Is(res.err, store.ErrStorageQuota):
		default:
			t.Fatalf("unexpected error: %v", res.err)
		}
	}
	g1, _ := s.GetRecording(ctx, r1.AttemptID, r1.ID)
	g2, _ := s.GetRecording(ctx, r2.AttemptID, r2.ID)
	used, err := s.StorageUsed(ctx, student.ID)
	if err != nil || ok != 5 || used != 5*size || g1.Bytes+g2.Bytes != 5*size || g1.Bytes > 3*size || g2.Bytes > 3*size {
		t.Fatalf("%d chunks accepted; recordings hold %d and %d bytes, the student %d (%v); want 5 chunks, at most %d each, %d in all",
			ok, g1.Bytes, g2.Bytes, used, err, 3*size, 5*size)
	}
}
