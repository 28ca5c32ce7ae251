package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

func testTranscripts(t *testing.T, s store.Store) {
	a := storedAttempt(t, s, "tr@utpl.edu.ec", "Transcrito")
	if _, err := s.CreateRecording(ctx, domain.Recording{ID: "r1-abcdefgh", AttemptID: a.ID, Phase: 1, MimeType: "audio/webm", CreatedAt: now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetTranscript(ctx, a.ID, "r1-abcdefgh"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("no transcript yet: %v", err)
	}
	tr := domain.Transcript{AttemptID: a.ID, RecordingID: "r1-abcdefgh", Source: domain.TranscriptBrowser, Language: "es-EC",
		Segments: []domain.Segment{{StartMs: 0, EndMs: 1500, Text: "Buenos días, señores miembros del tribunal."}}, UpdatedAt: now(), UpdatedBy: a.StudentEmail}
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

// recordingWith makes a recording of a, complete with chunks when complete.
func recordingWith(t *testing.T, s store.Store, a domain.Attempt, id string, created time.Time, complete bool, chunks int) domain.Recording {
	t.Helper()
	r, err := s.CreateRecording(ctx, domain.Recording{ID: id, AttemptID: a.ID, Phase: 1, MimeType: "audio/webm", CreatedAt: created})
	if err != nil {
		t.Fatal(err)
	}
	for seq := range chunks {
		if err := s.AddChunk(ctx, a.ID, id, domain.ChunkInfo{Seq: seq, Bytes: 10, SHA256: "h"}); err != nil {
			t.Fatal(err)
		}
	}
	if complete {
		r.Complete, r.DurationMs = true, 1000
		if err := s.UpdateRecording(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func testTranscriptOver(t *testing.T, s store.Store) {
	a := storedAttempt(t, s, "over@utpl.edu.ec", "Sobre")
	tr := func(id, source, text string) domain.Transcript {
		return domain.Transcript{AttemptID: a.ID, RecordingID: id, Source: source, Language: "es",
			Segments: []domain.Segment{{StartMs: 0, EndMs: 1000, Text: text}}, UpdatedAt: now(), UpdatedBy: "x"}
	}
	recordingWith(t, s, a, "over-1", now(), true, 1)
	// Nothing yet: inserted whatever over says.
	if ok, err := s.PutTranscriptOver(ctx, tr("over-1", domain.TranscriptBrowser, "en vivo"), domain.TranscriptBrowser); !ok || err != nil {
		t.Fatalf("insert = %v, %v", ok, err)
	}
	// A live transcript does not replace the server's.
	if ok, err := s.PutTranscriptOver(ctx, tr("over-1", domain.TranscriptServer, "servidor"), domain.TranscriptBrowser, domain.TranscriptServer); !ok || err != nil {
		t.Fatalf("server over browser = %v, %v", ok, err)
	}
	if ok, err := s.PutTranscriptOver(ctx, tr("over-1", domain.TranscriptBrowser, "en vivo 2"), domain.TranscriptBrowser); ok || err != nil {
		t.Fatalf("browser over server = %v, %v", ok, err)
	}
	// Nothing replaces a correction but another correction.
	if err := s.PutTranscript(ctx, tr("over-1", domain.TranscriptEdited, "corregido")); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.PutTranscriptOver(ctx, tr("over-1", domain.TranscriptServer, "servidor 2"), domain.TranscriptBrowser, domain.TranscriptServer); ok || err != nil {
		t.Fatalf("server over correction = %v, %v", ok, err)
	}
	if got, _ := s.GetTranscript(ctx, a.ID, "over-1"); got.Source != domain.TranscriptEdited || got.Text() != "corregido" {
		t.Fatalf("after refused writes: %+v", got)
	}
	// With no source to replace, only an insert.
	recordingWith(t, s, a, "over-2", now(), true, 1)
	if ok, _ := s.PutTranscriptOver(ctx, tr("over-2", domain.TranscriptServer, "uno")); !ok {
		t.Fatal("insert with no over refused")
	}
	if ok, _ := s.PutTranscriptOver(ctx, tr("over-2", domain.TranscriptServer, "dos")); ok {
		t.Fatal("replaced with no over")
	}
	// A correction racing a server result always wins, whichever lands
	// first: the rule is one statement, not a read then a write.
	for i := range 10 {
		id := fmt.Sprintf("race-%02d", i)
		recordingWith(t, s, a, id, now(), true, 1)
		if err := s.PutTranscript(ctx, tr(id, domain.TranscriptBrowser, "en vivo")); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		wg.Add(2)
		go func() {
			defer wg.Done()
			if _, err := s.PutTranscriptOver(ctx, tr(id, domain.TranscriptServer, "servidor"), domain.TranscriptBrowser, domain.TranscriptServer); err != nil {
				t.Error(err)
			}
		}()
		go func() {
			defer wg.Done()
			if err := s.PutTranscript(ctx, tr(id, domain.TranscriptEdited, "corregido")); err != nil {
				t.Error(err)
			}
		}()
		wg.Wait()
		if got, _ := s.GetTranscript(ctx, a.ID, id); got.Source != domain.TranscriptEdited {
			t.Fatalf("race %d: the correction was replaced: %+v", i, got)
		}
	}
}

func testRecordingsWithoutJob(t *testing.T, s store.Store) {
	a := storedAttempt(t, s, "sweep@utpl.edu.ec", "Barrido")
	t0 := now()
	ids := func(rs []domain.Recording) []string {
		out := []string{}
		for _, r := range rs {
			out = append(out, r.ID)
		}
		return out
	}
	lost2 := recordingWith(t, s, a, "lost-2", t0.Add(2*time.Second), true, 2)
	lost1 := recordingWith(t, s, a, "lost-1", t0.Add(time.Second), true, 1)
	recordingWith(t, s, a, "live-only", t0.Add(3*time.Second), true, 1)
	if err := s.PutTranscript(ctx, domain.Transcript{AttemptID: a.ID, RecordingID: "live-only", Source: domain.TranscriptBrowser,
		Segments: []domain.Segment{{Text: "en vivo"}}, UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	recordingWith(t, s, a, "old", t0.Add(-48*time.Hour), true, 1)
	recordingWith(t, s, a, "unfinished", t0, false, 1)
	recordingWith(t, s, a, "no-audio", t0, true, 0)
	del := recordingWith(t, s, a, "deleted", t0, true, 1)
	del.Deleted = true
	if err := s.UpdateRecording(ctx, del); err != nil {
		t.Fatal(err)
	}
	for id, source := range map[string]string{"served": domain.TranscriptServer, "corrected": domain.TranscriptEdited} {
		recordingWith(t, s, a, id, t0, true, 1)
		if err := s.PutTranscript(ctx, domain.Transcript{AttemptID: a.ID, RecordingID: id, Source: source,
			Segments: []domain.Segment{{Text: "x"}}, UpdatedAt: t0}); err != nil {
			t.Fatal(err)
		}
	}
	for i, id := range []string{"queued", "failed"} {
		recordingWith(t, s, a, id, t0, true, 1)
		j := domain.Job{ID: "sweep-job-" + id, Kind: "transcribe", Subject: domain.RecordingSubject(a.ID, id), Payload: "{}", NextRunAt: t0, CreatedAt: t0}
		if err := s.EnqueueJob(ctx, j); err != nil {
			t.Fatal(err)
		}
		if i == 1 {
			// One of the two jobs ends failed: a failed job still counts.
			c, err := s.ClaimJob(ctx, "transcribe", t0, t0.Add(time.Minute))
			if err != nil {
				t.Fatal(err)
			}
			if err := s.FinishJob(ctx, c.ID, c.Attempts, domain.JobFailed, "x", t0, t0); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, err := s.RecordingsWithoutJob(ctx, "transcribe", t0.Add(-time.Hour), 10)
	if want := []string{lost1.ID, lost2.ID, "live-only"}; err != nil || !slices.Equal(ids(got), want) {
		t.Fatalf("RecordingsWithoutJob = %v, %v; want %v", ids(got), err, want)
	}
	if got[1].Chunks != 2 || !got[1].Complete {
		t.Fatalf("recording fields: %+v", got[1])
	}
	// Jobs of another kind do not count; limit and window apply.
	if err := s.EnqueueJob(ctx, domain.Job{ID: "other-kind", Kind: "other", Subject: domain.RecordingSubject(a.ID, lost1.ID), Payload: "{}", NextRunAt: t0, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.RecordingsWithoutJob(ctx, "transcribe", t0.Add(-time.Hour), 1); !slices.Equal(ids(got), []string{lost1.ID}) {
		t.Fatalf("limit 1 = %v", ids(got))
	}
	if got, _ := s.RecordingsWithoutJob(ctx, "transcribe", t0.Add(-72*time.Hour), 10); len(got) != 4 || got[0].ID != "old" {
		t.Fatalf("wider window = %v", ids(got))
	}
	if err := s.EnqueueJob(ctx, domain.Job{ID: "lost-1-job", Kind: "transcribe", Subject: domain.RecordingSubject(a.ID, lost1.ID), Payload: "{}", NextRunAt: t0, CreatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.RecordingsWithoutJob(ctx, "transcribe", t0.Add(-time.Hour), 10); !slices.Equal(ids(got), []string{lost2.ID, "live-only"}) {
		t.Fatalf("after queueing lost-1 = %v", ids(got))
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
	// The first worker outlived its lease: its outcome is refused.
	if err := s.FinishJob(ctx, "j1", 1, domain.JobDone, "", t0.Add(2*time.Minute), t0.Add(2*time.Minute)); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("finish by the worker whose lease ended = %v", err)
	}
	if err := s.FinishJob(ctx, "j1", 2, domain.JobPending, "timeout", t0.Add(10*time.Minute), t0.Add(2*time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err := s.FinishJob(ctx, "j1", 2, domain.JobDone, "", t0, t0); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("finishing a job that is no longer running = %v", err)
	}
	if err := s.FinishJob(ctx, "nope", 1, domain.JobDone, "", t0, t0); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("finishing a missing job = %v", err)
	}
	if j, _ := s.GetJob(ctx, "j1"); j.Status != domain.JobPending || j.LastError != "timeout" || !j.NextRunAt.Equal(t0.Add(10*time.Minute)) {
		t.Fatalf("retry scheduled = %+v", j)
	}
	// Concurrent workers never take the same job.
	var wg sync.WaitGroup
	claimed := make(chan string, racers)
	for range racers {
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
	// One job per kind and subject, in any state; none without a subject.
	sub := domain.Job{ID: "s1", Kind: "transcribe", Subject: "a/r", Payload: "{}", NextRunAt: t0, CreatedAt: t0}
	if err := s.EnqueueJob(ctx, sub); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetJob(ctx, "s1"); got.Subject != "a/r" {
		t.Fatalf("subject = %+v", got)
	}
	sub.ID = "s2"
	if err := s.EnqueueJob(ctx, sub); !errors.Is(err, domain.ErrConflict) {
		t.Fatalf("second job for the same subject: %v", err)
	}
	if _, err := s.GetJob(ctx, "s2"); !errors.Is(err, domain.ErrNotFound) {
		t.Fatalf("s2 was stored: %v", err)
	}
	sub.ID, sub.Kind = "s3", "other"
	if err := s.EnqueueJob(ctx, sub); err != nil {
		t.Fatalf("same subject, other kind: %v", err)
	}
	// Concurrent enqueues of one subject leave exactly one job.
	var okCount atomic.Int32
	var wg2 sync.WaitGroup
	for i := range racers {
		wg2.Add(1)
		go func() {
			defer wg2.Done()
			err := s.EnqueueJob(ctx, domain.Job{ID: fmt.Sprint("c", i), Kind: "transcribe", Subject: "a/concurrent", Payload: "{}", NextRunAt: t0, CreatedAt: t0})
			switch {
			case err == nil:
				okCount.Add(1)
			case !errors.Is(err, domain.ErrConflict):
				t.Error(err)
			}
		}()
	}
	wg2.Wait()
	if okCount.Load() != 1 {
		t.Fatalf("%d concurrent enqueues succeeded", okCount.Load())
	}
}
