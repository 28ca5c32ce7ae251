package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

func testTranscripts(t *testing.T, s store.Store) {
	student := mustUser(t, s, "tr@utpl.edu.ec", domain.RoleStudent)
	c := sampleCase("Transcrito", "Civil")
	_ = s.CreateCase(ctx, c)
	a := newAttempt(t, s, student, c)
	if err := s.CreateAttempt(ctx, a); err != nil {
		t.Fatal(err)
	}
	if _, err := s.CreateRecording(ctx, domain.Recording{ID: "r1-abcdefgh", AttemptID: a.ID, Phase: 1, MimeType: "audio/webm", CreatedAt: now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetTranscript(ctx, a.ID, "r1-abcdefgh"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("no transcript yet: %v", err)
	}
	tr := domain.Transcript{AttemptID: a.ID, RecordingID: "r1-abcdefgh", Source: domain.TranscriptBrowser, Language: "es-EC",
		Segments: []domain.Segment{{StartMs: 0, EndMs: 1500, Text: "Buenos días, señores miembros del tribunal."}}, UpdatedAt: now(), UpdatedBy: student.Mail}
	if err := s.PutTranscript(ctx, tr); err != nil {
		t.Fatal(err)
	}
	tr.Source, tr.Segments = domain.TranscriptServer, append(tr.Segments, domain.Segment{StartMs: 1500, EndMs: 3000, Text: "Artículo 76."})
	if err := s.PutTranscript(ctx, tr); err != nil { // replace
		t.Fatal(err)
	}
	got, err := s.GetTranscript(ctx, a.ID, "r1-abcdefgh")
	if err != nil || got.Source != domain.TranscriptServer || len(got.Segments) != 2 || got.Text() != "Buenos días, señores miembros del tribunal.\nArtículo 76." {
		t.Fatalf("transcript = %+v, %v", got, err)
	}
	if list, _ := s.ListTranscripts(ctx, a.ID); len(list) != 1 {
		t.Fatalf("ListTranscripts = %+v", list)
	}
}

func testJobs(t *testing.T, s store.Store) {
	t0 := now()
	for i, id := range []string{"j1", "j2"} {
		if err := s.EnqueueJob(ctx, domain.Job{ID: id, Kind: "transcribe", Payload: `{"n":1}`, NextRunAt: t0.Add(time.Duration(i) * time.Minute), CreatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	j, err := s.ClaimJob(ctx, "transcribe", t0, t0.Add(time.Minute))
	if err != nil || j.ID != "j1" || j.Status != domain.JobRunning || j.Attempts != 1 {
		t.Fatalf("claim = %+v, %v", j, err)
	}
	if _, err := s.ClaimJob(ctx, "transcribe", t0, t0.Add(time.Minute)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("j2 is not due yet: %v", err)
	}
	if _, err := s.ClaimJob(ctx, "other", t0.Add(time.Hour), t0.Add(time.Hour)); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("other kind: %v", err)
	}
	// The worker died: its lease ends and the job is pending again.
	if n, _ := s.ReleaseExpiredLeases(ctx, t0.Add(2*time.Minute)); n != 1 {
		t.Fatalf("released %d", n)
	}
	j, err = s.ClaimJob(ctx, "transcribe", t0.Add(2*time.Minute), t0.Add(3*time.Minute))
	if err != nil || j.ID != "j1" || j.Attempts != 2 {
		t.Fatalf("reclaim = %+v, %v", j, err)
	}
	if err := s.FinishJob(ctx, "j1", domain.JobPending, "timeout", t0.Add(10*time.Minute), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if j, _ := s.GetJob(ctx, "j1"); j.Status != domain.JobPending || j.LastError != "timeout" || !j.NextRunAt.Equal(t0.Add(10*time.Minute)) {
		t.Fatalf("retry scheduled = %+v", j)
	}
	// Concurrent workers never take the same job.
	var wg sync.WaitGroup
	claimed := make(chan string, 8)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if j, err := s.ClaimJob(ctx, "transcribe", t0.Add(time.Hour), t0.Add(2*time.Hour)); err == nil {
				claimed <- j.ID
			}
		}()
	}
	wg.Wait()
	close(claimed)
	seen := map[string]int{}
	for id := range claimed {
		seen[id]++
	}
	if len(seen) != 2 || seen["j1"] != 1 || seen["j2"] != 1 {
		t.Fatalf("claims = %v", seen)
	}
}
