package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

func sampleCase(title, area string) domain.Case {
	return domain.Case{ID: domain.NewID(), DegreeID: "derecho", Area: area, Title: title, Facts: "Hechos del caso.",
		Questions: []string{"¿Procede?"}, FollowUps: []string{"¿Qué artículo?", "¿Ante qué juez?"}, KeyPoints: []string{"Punto"},
		LegalBases: []domain.LegalBase{{Norm: "Constitución", Article: "76.7.l"}}, Status: domain.CaseActive, Demo: true,
		CreatedAt: now(), UpdatedAt: now()}
}

func testCases(t *testing.T, s store.Store) {
	c := sampleCase("Acción de protección", "Constitucional")
	if err := s.CreateCase(ctx, c); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetCase(ctx, c.ID)
	if err != nil || got.Title != c.Title || len(got.LegalBases) != 1 || got.LegalBases[0].Article != "76.7.l" || !got.Demo || got.Status != domain.CaseActive {
		t.Fatalf("GetCase = %+v, %v", got, err)
	}
	dup := sampleCase("Acción de protección", "Penal")
	if err := s.CreateCase(ctx, dup); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("duplicate title: %v", err)
	}
	if got, err := s.GetCaseByTitle(ctx, "derecho", "Acción de protección"); err != nil || got.ID != c.ID {
		t.Fatalf("GetCaseByTitle = %+v, %v", got, err)
	}
	p := sampleCase("Legítima defensa", "Penal")
	if err := s.CreateCase(ctx, p); err != nil {
		t.Fatal(err)
	}
	p.Status = domain.CaseRetired
	p.KeyPoints = []string{"Uno", "Dos"}
	if err := s.UpdateCase(ctx, p); err != nil {
		t.Fatal(err)
	}
	active, _ := s.ListCases(ctx, store.CaseFilter{DegreeID: "derecho", Status: domain.CaseActive})
	penal, _ := s.ListCases(ctx, store.CaseFilter{Area: "Penal"})
	if len(active) != 1 || active[0].ID != c.ID || len(penal) != 1 || len(penal[0].KeyPoints) != 2 {
		t.Fatalf("filters: active %v, penal %v", active, penal)
	}
	if err := s.UpdateCase(ctx, sampleCase("x", "y")); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("update missing: %v", err)
	}
	testCaseDifficultyAndReview(t, s)
}

// testCaseDifficultyAndReview: the difficulty, the key point answering each
// tribunal question, the legal bases' descriptions and the review mark
// round-trip, and the difficulty filters the list.
func testCaseDifficultyAndReview(t *testing.T, s store.Store) {
	c := sampleCase("Determinación presuntiva", "Tributario")
	c.Difficulty = domain.DifficultyAdvanced
	c.KeyPoints = []string{"Uno", "Dos", "Tres"}
	c.FollowUpKeyPoints = []int{3, 1}
	c.LegalBases = []domain.LegalBase{{Norm: "Código Tributario", Article: "92", Note: "Formas de determinación."}}
	if err := s.CreateCase(ctx, c); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetCase(ctx, c.ID)
	if err != nil || got.Difficulty != domain.DifficultyAdvanced || fmt.Sprint(got.FollowUpKeyPoints) != "[3 1]" ||
		got.LegalBases[0].Note != "Formas de determinación." || got.Review != nil {
		t.Fatalf("GetCase = %+v, %v", got, err)
	}
	at := now().Truncate(time.Millisecond)
	got.Review = &domain.CaseReview{By: "tutor@utpl.edu.ec", ByName: "Ana Tutora", At: at}
	got.Demo = false
	if err := s.UpdateCase(ctx, got); err != nil {
		t.Fatal(err)
	}
	got, err = s.GetCaseByTitle(ctx, "derecho", "Determinación presuntiva")
	if err != nil || got.Review == nil || got.Review.By != "tutor@utpl.edu.ec" || got.Review.ByName != "Ana Tutora" || !got.Review.At.Equal(at) || got.Demo {
		t.Fatalf("reviewed case = %+v, %v", got, err)
	}
	got.Review, got.FollowUpKeyPoints = nil, nil
	if err := s.UpdateCase(ctx, got); err != nil {
		t.Fatal(err)
	}
	if got, err = s.GetCase(ctx, c.ID); err != nil || got.Review != nil || got.FollowUpKeyPoints != nil {
		t.Fatalf("review and links cleared: %+v, %v", got, err)
	}
	// A case saved without a difficulty reads as the default.
	plain := sampleCase("Sin dificultad", "Tributario")
	if err := s.CreateCase(ctx, plain); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetCase(ctx, plain.ID); err != nil || got.Difficulty != domain.DefaultDifficulty {
		t.Fatalf("case without difficulty = %+v, %v", got, err)
	}
	hard, _ := s.ListCases(ctx, store.CaseFilter{DegreeID: "derecho", Difficulty: domain.DifficultyAdvanced})
	if len(hard) != 1 || hard[0].ID != c.ID {
		t.Fatalf("difficulty filter: %+v", hard)
	}
}

func testCatalogSettings(t *testing.T, s store.Store) {
	if _, err := s.GetBlueprint(ctx, "derecho"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("blueprint before any: %v", err)
	}
	bp := domain.DefaultBlueprint("derecho")
	bp.PresentationSec = 420
	for range 2 { // upsert
		if err := s.PutBlueprint(ctx, bp, now()); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.GetBlueprint(ctx, "derecho"); err != nil || got != bp {
		t.Fatalf("blueprint = %+v, %v", got, err)
	}
	r := domain.DefaultRubric("derecho")
	r.Version = 2
	if err := s.PutRubric(ctx, r, now()); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetRubric(ctx, "derecho"); err != nil || got.Version != 2 || len(got.Criteria) != 10 || got.Criteria[0].Descriptors[3] == "" {
		t.Fatalf("rubric = %+v, %v", got, err)
	}
	if _, err := s.GetMeta(ctx, "k"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("meta missing: %v", err)
	}
	_ = s.SetMeta(ctx, "k", "1")
	_ = s.SetMeta(ctx, "k", "2")
	if v, err := s.GetMeta(ctx, "k"); err != nil || v != "2" {
		t.Fatalf("meta = %q, %v", v, err)
	}
}

func newAttempt(t *testing.T, s store.Store, student domain.User, c domain.Case) domain.Attempt {
	t.Helper()
	a := domain.NewAttempt(domain.NewID(), student, c, domain.DefaultBlueprint("derecho"), domain.DefaultRubric("derecho"), domain.ModeMock, now())
	a.GroupID, a.TutorEmail = "g1", "Tutor@utpl.edu.ec"
	return a
}

// storedAttempt stores a student with mail, a case with title and a mock
// exam of that case, and returns the attempt.
func storedAttempt(t *testing.T, s store.Store, mail, title string) domain.Attempt {
	t.Helper()
	student := mustUser(t, s, mail, domain.RoleStudent)
	c := sampleCase(title, "Civil")
	if err := s.CreateCase(ctx, c); err != nil {
		t.Fatal(err)
	}
	a := newAttempt(t, s, student, c)
	if err := s.CreateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	return a
}

func testAttempts(t *testing.T, s store.Store) {
	student := mustUser(t, s, "est@utpl.edu.ec", domain.RoleStudent)
	c := sampleCase("Caso", "Civil")
	if err := s.CreateCase(ctx, c); err != nil {
		t.Fatal(err)
	}
	a := newAttempt(t, s, student, c)
	if err := s.CreateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateAttempt(ctx, newAttempt(t, s, student, c)); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("second attempt in progress: %v", err)
	}
	got, err := s.InProgressAttempt(ctx, student.ID)
	if err != nil || got.ID != a.ID || got.Version != 1 || len(got.Phases) != len(a.Phases) || got.Case.Title != "Caso" || len(got.Rubric.Criteria) != 10 {
		t.Fatalf("InProgressAttempt = %+v, %v", got, err)
	}
	// Optimistic concurrency: a stale copy cannot overwrite a newer one.
	stale := got
	if err := got.Advance(0, now().Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateAttempt(ctx, got); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateAttempt(ctx, stale); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("stale update: %v", err)
	}
	got, _ = s.GetAttempt(ctx, a.ID)
	if got.Version != 2 || got.Current() != 1 {
		t.Fatalf("after update: version %d current %d", got.Version, got.Current())
	}
	got.Sync(now().Add(3 * time.Hour))
	levels := domain.Levels{}
	for _, cr := range got.Rubric.Criteria {
		levels[cr.ID] = 4
	}
	if err := got.SelfAssess(levels, now().Add(3*time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateAttempt(ctx, got); err != nil {
		t.Fatal(err)
	}
	// A new attempt may start once the first is finished.
	b := newAttempt(t, s, student, c)
	b.CreatedAt = now().Add(4 * time.Hour)
	if err := s.CreateAttempt(ctx, b); err != nil {
		t.Fatal(err)
	}
	ungraded, _ := s.ListAttempts(ctx, store.AttemptFilter{TutorEmail: "tutor@utpl.edu.ec", Status: domain.AttemptFinished, Ungraded: true})
	if len(ungraded) != 1 || ungraded[0].ID != a.ID || ungraded[0].SelfScore == nil || *ungraded[0].SelfScore != 10 || ungraded[0].TutorScore != nil {
		t.Fatalf("grading queue = %+v", ungraded)
	}
	mine, _ := s.ListAttempts(ctx, store.AttemptFilter{StudentID: student.ID})
	if len(mine) != 2 || mine[0].ID != b.ID || mine[0].CaseTitle != "Caso" || mine[0].Area != "Civil" {
		t.Fatalf("student attempts = %+v", mine)
	}
	byMail, _ := s.ListAttempts(ctx, store.AttemptFilter{StudentEmail: "EST@utpl.edu.ec", TutorEmail: "Tutor@utpl.edu.ec"})
	if len(byMail) != 2 || byMail[0].ID != b.ID {
		t.Fatalf("by student and tutor email = %+v", byMail)
	}
	if first, _ := s.ListAttempts(ctx, store.AttemptFilter{StudentEmail: "est@utpl.edu.ec", TutorEmail: "tutor@utpl.edu.ec", Limit: 1}); len(first) != 1 || first[0].ID != b.ID {
		t.Fatalf("by email with limit = %+v", first)
	}
	if inGroup, _ := s.ListAttempts(ctx, store.AttemptFilter{GroupID: "g1"}); len(inGroup) != 2 || inGroup[0].ID != b.ID || inGroup[1].ID != a.ID {
		t.Fatalf("by group = %+v", inGroup)
	} else if inGroup[0].Version != 1 || inGroup[1].Version != 3 {
		// The version tells a reader whether what it keeps of an attempt
		// is still current (the tutor's report keeps finished ones).
		t.Fatalf("versions in the list = %d, %d; want 1 (new) and 3 (saved twice)", inGroup[0].Version, inGroup[1].Version)
	}
	if recent, err := s.ListAttempts(ctx, store.AttemptFilter{GroupID: "g1", Since: b.CreatedAt}); err != nil || len(recent) != 1 || recent[0].ID != b.ID {
		t.Fatalf("by group since the second attempt = %+v, %v", recent, err)
	}
	if ids, _ := s.RecentCaseIDs(ctx, student.ID, 5); len(ids) != 2 || ids[0] != c.ID {
		t.Fatalf("recent = %v", ids)
	}
	// By mode: the newest training attempt is not the newest mock exam.
	tr := domain.NewAttempt(domain.NewID(), student, c, domain.DefaultBlueprint("derecho"), domain.DefaultRubric("derecho"), domain.ModeTraining, now().Add(5*time.Hour))
	if err := tr.Abandon(now().Add(5 * time.Hour)); err != nil {
		t.Fatal(err)
	}
	fresh, _ := s.GetAttempt(ctx, b.ID)
	_ = fresh.Abandon(now().Add(5 * time.Hour))
	if err := s.UpdateAttempt(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateAttempt(ctx, tr); err != nil {
		t.Fatal(err)
	}
	mocks, _ := s.ListAttempts(ctx, store.AttemptFilter{StudentID: student.ID, Mode: domain.ModeMock, Limit: 1})
	trainings, _ := s.ListAttempts(ctx, store.AttemptFilter{StudentID: student.ID, Mode: domain.ModeTraining})
	if len(mocks) != 1 || mocks[0].ID != b.ID || mocks[0].Status != domain.AttemptAbandoned || len(trainings) != 1 || trainings[0].ID != tr.ID {
		t.Fatalf("by mode: mock %+v, training %+v", mocks, trainings)
	}
}

func testConcurrentAttemptStart(t *testing.T, s store.Store) {
	student := mustUser(t, s, "race.est@utpl.edu.ec", domain.RoleStudent)
	c := sampleCase("Carrera", "Civil")
	_ = s.CreateCase(ctx, c)
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = s.CreateAttempt(ctx, newAttempt(t, s, student, c))
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if !errors.Is(err, domain.ErrConflict) {
			t.Fatalf("unexpected: %v", err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d attempts in progress created, want 1", ok)
	}
}

func testRecordings(t *testing.T, s store.Store) {
	a := storedAttempt(t, s, "rec@utpl.edu.ec", "Grabado")
	r := domain.Recording{ID: "7f0c-uuid", AttemptID: a.ID, Phase: 1, MimeType: "audio/webm;codecs=opus", CreatedAt: now()}
	for range 2 { // idempotent
		got, err := s.CreateRecording(ctx, r)
		if err != nil || got.ID != r.ID || got.Chunks != 0 || got.Complete {
			t.Fatalf("CreateRecording = %+v, %v", got, err)
		}
	}
	for seq := range 3 {
		if err := s.AddChunk(ctx, a.ID, r.ID, domain.ChunkInfo{Seq: seq, Bytes: int64(100 + seq), SHA256: fmt.Sprint("h", seq)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.AddChunk(ctx, a.ID, r.ID, domain.ChunkInfo{Seq: 1, Bytes: 1, SHA256: "x"}); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("duplicate chunk: %v", err)
	}
	if ch, err := s.GetChunk(ctx, a.ID, r.ID, 2); err != nil || ch.Bytes != 102 || ch.SHA256 != "h2" {
		t.Fatalf("GetChunk = %+v, %v", ch, err)
	}
	got, _ := s.GetRecording(ctx, a.ID, r.ID)
	if got.Chunks != 3 || got.Bytes != 303 {
		t.Fatalf("counts = %d chunks %d bytes", got.Chunks, got.Bytes)
	}
	got.Complete, got.DurationMs, got.Levels = true, 6000, []float64{0.1, 0.5}
	if err := s.UpdateRecording(ctx, got); err != nil {
		t.Fatal(err)
	}
	list, _ := s.ListRecordings(ctx, a.ID)
	if len(list) != 1 || !list[0].Complete || list[0].DurationMs != 6000 || len(list[0].Levels) != 2 {
		t.Fatalf("ListRecordings = %+v", list)
	}
	chunks, _ := s.ListChunks(ctx, a.ID, r.ID)
	if len(chunks) != 3 || chunks[2].Seq != 2 {
		t.Fatalf("ListChunks = %+v", chunks)
	}
	old, _ := s.RecordingsOlderThan(ctx, now().Add(time.Hour), 10)
	if len(old) != 1 {
		t.Fatalf("RecordingsOlderThan = %+v", old)
	}
	_ = s.DeleteChunks(ctx, a.ID, r.ID)
	got.Deleted = true
	_ = s.UpdateRecording(ctx, got)
	if got, _ := s.GetRecording(ctx, a.ID, r.ID); got.Chunks != 0 || !got.Deleted {
		t.Fatalf("after delete: %+v", got)
	}
	if old, _ := s.RecordingsOlderThan(ctx, now().Add(time.Hour), 10); len(old) != 0 {
		t.Fatalf("deleted recordings are not old recordings: %+v", old)
	}
	// Another attempt may use the same client id without clashing.
	if _, err := s.GetRecording(ctx, "other", r.ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("recording scoped to attempt: %v", err)
	}
}

// testAttemptVersionRace: saves of the same version of an attempt (two
// tabs, a tab and the phase clock) race; exactly one is stored and the
// others get ErrConflict, so none silently overwrites another.
func testAttemptVersionRace(t *testing.T, s store.Store) {
	a := storedAttempt(t, s, "version@utpl.edu.ec", "Versiones")
	read, err := s.GetAttempt(ctx, a.ID)
	if err != nil || read.Version != 1 {
		t.Fatalf("GetAttempt = version %d, %v", read.Version, err)
	}
	const n = racers
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			mine := read
			mine.Notes = fmt.Sprint("notas de la pestaña ", i)
			errs[i] = s.UpdateAttempt(ctx, mine)
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		switch {
		case err == nil && winner == -1:
			winner = i
		case err == nil:
			t.Fatalf("saves %d and %d of version 1 both succeeded", winner, i)
		case !errors.Is(err, domain.ErrConflict):
			t.Fatalf("save %d: %v", i, err)
		}
	}
	if winner == -1 {
		t.Fatal("no save succeeded")
	}
	got, err := s.GetAttempt(ctx, a.ID)
	if err != nil || got.Version != 2 || got.Notes != fmt.Sprint("notas de la pestaña ", winner) {
		t.Fatalf("stored = version %d notes %q, %v; want version 2 with save %d's notes", got.Version, got.Notes, err, winner)
	}
}

// testSaveNotes: the owner's notes of an attempt in progress are saved
// alone, the version goes up (a save of the older version is refused, so
// it cannot undo them), and nothing else changes; another student, an
// unknown attempt and a finished one get ErrNotFound.
func testSaveNotes(t *testing.T, s store.Store) {
	a := storedAttempt(t, s, "notas@utpl.edu.ec", "Notas")
	before, err := s.GetAttempt(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveNotes(ctx, a.ID, a.StudentID, "Hechos: despido intempestivo."); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetAttempt(ctx, a.ID)
	if err != nil || got.Notes != "Hechos: despido intempestivo." || got.Version != before.Version+1 ||
		got.Status != before.Status || len(got.Phases) != len(before.Phases) || got.Case.Title != "Notas" {
		t.Fatalf("after SaveNotes = %+v, %v", got, err)
	}
	if err := s.UpdateAttempt(ctx, before); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("a save of the version before the notes: %v", err)
	}
	// A full save keeps the notes it carries.
	got.Notes = "Normas: Código del Trabajo, art. 188."
	if err := s.UpdateAttempt(ctx, got); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.GetAttempt(ctx, a.ID); again.Notes != "Normas: Código del Trabajo, art. 188." {
		t.Fatalf("notes after UpdateAttempt = %q", again.Notes)
	}
	for name, call := range map[string]func() error{
		"another student": func() error { return s.SaveNotes(ctx, a.ID, "otro", "x") },
		"unknown attempt": func() error { return s.SaveNotes(ctx, "no-existe", a.StudentID, "x") },
	} {
		if err := call(); !errors.Is(err, domain.ErrNotFound) {
			t.Errorf("%s: %v", name, err)
		}
	}
	fresh, _ := s.GetAttempt(ctx, a.ID)
	if err := fresh.Abandon(now()); err != nil {
		t.Fatal(err)
	}
	if err := s.UpdateAttempt(ctx, fresh); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveNotes(ctx, a.ID, a.StudentID, "tarde"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("notes of an abandoned attempt: %v", err)
	}
	if last, _ := s.GetAttempt(ctx, a.ID); last.Notes != "Normas: Código del Trabajo, art. 188." {
		t.Fatalf("refused notes changed the attempt: %q", last.Notes)
	}
}

// testRecordingComposed covers the media compose bookkeeping: the flag,
// the sweep's list, and that a deleted recording is never marked.
func testRecordingComposed(t *testing.T, s store.Store) {
	a := storedAttempt(t, s, "comp@utpl.edu.ec", "Compuesto")
	t0 := now()
	recs := make([]domain.Recording, 4)
	for i := range recs {
		r, err := s.CreateRecording(ctx, domain.Recording{ID: fmt.Sprintf("take-%d-uuid", i), AttemptID: a.ID, Phase: 1,
			MimeType: "audio/webm", CreatedAt: t0.Add(time.Duration(i) * time.Second)})
		if err != nil || r.Composed {
			t.Fatalf("CreateRecording = %+v, %v", r, err)
		}
		recs[i] = r
	}
	ids := func(list []domain.Recording) []string {
		out := []string{}
		for _, r := range list {
			out = append(out, r.ID)
		}
		return out
	}
	if got, err := s.RecordingsToCompose(ctx, 10); err != nil || len(got) != 0 {
		t.Fatalf("nothing complete yet: %v, %v", ids(got), err)
	}
	// 0, 1 and 2 complete; 2 deleted; 3 still recording.
	for i, r := range recs[:3] {
		r.Complete, r.Deleted = true, i == 2
		if err := s.UpdateRecording(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.RecordingsToCompose(ctx, 10)
	if err != nil || fmt.Sprint(ids(got)) != "[take-0-uuid take-1-uuid]" {
		t.Fatalf("RecordingsToCompose = %v, %v", ids(got), err)
	}
	if got, _ := s.RecordingsToCompose(ctx, 1); fmt.Sprint(ids(got)) != "[take-0-uuid]" {
		t.Fatalf("oldest first, limited: %v", ids(got))
	}
	for range 2 { // idempotent
		if err := s.MarkRecordingComposed(ctx, a.ID, recs[0].ID); err != nil {
			t.Fatal(err)
		}
	}
	if r, _ := s.GetRecording(ctx, a.ID, recs[0].ID); !r.Composed || !r.Complete {
		t.Fatalf("after MarkRecordingComposed: %+v", r)
	}
	if got, _ := s.RecordingsToCompose(ctx, 10); fmt.Sprint(ids(got)) != "[take-1-uuid]" {
		t.Fatalf("RecordingsToCompose after marking = %v", ids(got))
	}
	// UpdateRecording (e.g. a retried Complete holding an older copy) does
	// not undo it.
	stale := recs[0]
	stale.Complete, stale.DurationMs = true, 4000
	if err := s.UpdateRecording(ctx, stale); err != nil {
		t.Fatal(err)
	}
	if r, _ := s.GetRecording(ctx, a.ID, recs[0].ID); !r.Composed || r.DurationMs != 4000 {
		t.Fatalf("UpdateRecording changed Composed: %+v", r)
	}
	if l, _ := s.ListRecordings(ctx, a.ID); !l[0].Composed || l[1].Composed {
		t.Fatalf("ListRecordings: %+v", l)
	}
	// A deleted or missing recording is not marked.
	if err := s.MarkRecordingComposed(ctx, a.ID, recs[2].ID); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("marking a deleted recording: %v", err)
	}
	if r, _ := s.GetRecording(ctx, a.ID, recs[2].ID); r.Composed {
		t.Fatalf("a deleted recording was marked: %+v", r)
	}
	if err := s.MarkRecordingComposed(ctx, a.ID, "nunca"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("marking a missing recording: %v", err)
	}
}
