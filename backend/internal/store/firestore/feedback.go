package firestore

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store/storedjson"
)

// attempts/{a}/transcripts/{recording} holds one transcript per recording,
// segments as JSON text. jobs/{id} are background jobs;
// jobSubjects/{kind|subject} names the one job of a kind about a subject.

func (s *Store) transcriptRef(attemptID, recordingID string) *firestoreRef {
	return s.ref(colAttempts, attemptID).Collection(colTranscripts).Doc(docID(recordingID))
}

func transcriptFields(t domain.Transcript) map[string]any {
	return map[string]any{
		"source": t.Source, "language": t.Language, "segments": storedjson.EncodeSegments(t.Segments),
		"updatedAt": ts(t.UpdatedAt), "updatedBy": t.UpdatedBy,
	}
}

func transcriptFrom(d doc) (domain.Transcript, error) {
	f := d.data
	t := domain.Transcript{
		AttemptID: d.ref.Parent.Parent.ID, RecordingID: d.ref.ID, Source: f.str("source"), Language: f.str("language"),
		UpdatedAt: f.time("updatedAt"), UpdatedBy: f.str("updatedBy"),
	}
	var err error
	if t.Segments, err = storedjson.DecodeSegments([]byte(f.str("segments"))); err != nil {
		return t, fmt.Errorf("field segments: %w", err)
	}
	return t, nil
}

func (s *Store) PutTranscript(ctx context.Context, tr domain.Transcript) error {
	return s.write(ctx, func(t *txn) error {
		t.set(s.transcriptRef(tr.AttemptID, tr.RecordingID), transcriptFields(tr))
		return nil
	})
}

// PutTranscriptOver reads the stored transcript in its transaction: a
// correction committed after that read makes Firestore rerun it, and the
// rerun sees the correction.
func (s *Store) PutTranscriptOver(ctx context.Context, tr domain.Transcript, over ...string) (bool, error) {
	var stored bool
	err := s.write(ctx, func(t *txn) error {
		stored = false
		d, err := t.get(ctx, s.transcriptRef(tr.AttemptID, tr.RecordingID))
		if err != nil {
			return err
		}
		if d.exists && !slices.Contains(over, d.data.str("source")) {
			return nil
		}
		t.set(d.ref, transcriptFields(tr))
		stored = true
		return nil
	})
	return stored, err
}

func (s *Store) GetTranscript(ctx context.Context, attemptID, recordingID string) (domain.Transcript, error) {
	return getOne(ctx, s.read(), s.transcriptRef(attemptID, recordingID), transcriptFrom)
}

func (s *Store) ListTranscripts(ctx context.Context, attemptID string) ([]domain.Transcript, error) {
	docs, err := s.read().query(ctx, subcollection(s.ref(colAttempts, attemptID), colTranscripts))
	if err != nil {
		return nil, err
	}
	out, err := decodeAll(docs, transcriptFrom)
	slices.SortFunc(out, func(a, b domain.Transcript) int { return strings.Compare(a.RecordingID, b.RecordingID) })
	return out, err
}

// sweepPage is how many recordings RecordingsWithoutJob examines at a time.
var sweepPage = 300

// RecordingsWithoutJob pages through the complete, undeleted recordings of
// the window, oldest first, reading only the fields it tests, and keeps
// those with audio whose transcript (if any) is the browser's and that
// have no job of kind: two batched reads of transcripts and job subjects
// per page. It reads every recording of the window when nearly all have
// their job, which is the usual case: keep the window short.
func (s *Store) RecordingsWithoutJob(ctx context.Context, kind string, since time.Time, limit int) ([]domain.Recording, error) {
	r := s.read()
	base := collectionGroup(colRecordings).whereEq("complete", true).whereEq("deleted", false).
		with(cond{"createdAt", ">=", since}).orderBy("createdAt", false).orderBy(firestore.DocumentID, false).
		selecting("createdAt", "chunks").take(sweepPage)
	var found []*firestoreRef
	for q := base; len(found) < limit; {
		page, err := r.query(ctx, q)
		if err != nil {
			return nil, err
		}
		var cands []*firestoreRef
		var checks []*firestoreRef
		for _, d := range page {
			if d.data.int("chunks") > 0 {
				attemptID, id := d.ref.Parent.Parent.ID, d.ref.ID
				cands = append(cands, d.ref)
				checks = append(checks, s.transcriptRef(attemptID, id), s.ref(colJobSubjects, kind, domain.RecordingSubject(attemptID, id)))
			}
		}
		got, err := r.getAll(ctx, checks)
		if err != nil {
			return nil, err
		}
		for i, ref := range cands {
			tr, job := got[2*i], got[2*i+1]
			if job.exists || (tr.exists && tr.data.str("source") != domain.TranscriptBrowser) {
				continue
			}
			if found = append(found, ref); len(found) == limit {
				break
			}
		}
		if len(page) < sweepPage {
			break
		}
		last := page[len(page)-1]
		q = base.startAfter(last.data.time("createdAt"), last.ref)
	}
	docs, err := r.getAll(ctx, found)
	if err != nil {
		return nil, err
	}
	return decodeAll(existing(docs), recordingFrom)
}

// jobFields is a job's document; lockedUntil is null while no worker
// holds the job.
func jobFields(j domain.Job, lockedUntil, updatedAt time.Time) map[string]any {
	return map[string]any{
		"kind": j.Kind, "subject": j.Subject, "payload": j.Payload, "status": j.Status, "attempts": int64(j.Attempts),
		"nextRunAt": ts(j.NextRunAt), "lockedUntil": ts(lockedUntil), "lastError": j.LastError, "createdAt": ts(j.CreatedAt),
		"updatedAt": ts(updatedAt),
	}
}

func jobFrom(d doc) (domain.Job, error) {
	f := d.data
	return domain.Job{
		ID: d.ref.ID, Kind: f.str("kind"), Subject: f.str("subject"), Payload: f.str("payload"), Status: f.str("status"),
		Attempts: int(f.int("attempts")), NextRunAt: f.time("nextRunAt"), LastError: f.str("lastError"), CreatedAt: f.time("createdAt"),
	}, nil
}

func (s *Store) EnqueueJob(ctx context.Context, j domain.Job) error {
	return s.write(ctx, func(t *txn) error {
		refs := []*firestoreRef{s.ref(colJobs, j.ID)}
		if j.Subject != "" {
			refs = append(refs, s.ref(colJobSubjects, j.Kind, j.Subject))
		}
		docs, err := t.getAll(ctx, refs)
		if err != nil {
			return err
		}
		for _, d := range docs {
			if d.exists {
				return fmt.Errorf("%w: a %s job for %q exists", domain.ErrConflict, j.Kind, j.Subject)
			}
		}
		j.Status, j.Attempts, j.LastError = domain.JobPending, 0, ""
		t.create(refs[0], jobFields(j, time.Time{}, j.CreatedAt))
		if j.Subject != "" {
			t.create(refs[1], map[string]any{"jobId": j.ID})
		}
		return nil
	})
}

// ClaimJob reads the oldest due job and marks it running in one
// transaction: a worker that read the same job first makes Firestore rerun
// this one, which then takes the next job or finds none.
func (s *Store) ClaimJob(ctx context.Context, kind string, now, lease time.Time) (domain.Job, error) {
	var claimed domain.Job
	err := s.write(ctx, func(t *txn) error {
		docs, err := t.query(ctx, collection(colJobs).whereEq("kind", kind).whereEq("status", domain.JobPending).
			with(cond{"nextRunAt", "<=", now}).orderBy("nextRunAt", false).orderBy("createdAt", false).take(1))
		if err != nil {
			return err
		}
		if len(docs) == 0 {
			return fmt.Errorf("no due %s job: %w", kind, domain.ErrNotFound)
		}
		d := docs[0]
		t.update(d, map[string]any{
			"status": domain.JobRunning, "attempts": d.data.int("attempts") + 1, "lockedUntil": ts(lease), "updatedAt": ts(now),
		})
		if d, err = t.get(ctx, d.ref); err != nil {
			return err
		}
		claimed, err = jobFrom(d)
		return err
	})
	return claimed, err
}

func (s *Store) FinishJob(ctx context.Context, id string, attempt int, status, lastError string, retryAt, now time.Time) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.existing(ctx, s.ref(colJobs, id), "job "+id)
		if err != nil {
			return err
		}
		if d.data.str("status") != domain.JobRunning || d.data.int("attempts") != int64(attempt) {
			return fmt.Errorf("%w: job %s was claimed again after attempt %d", domain.ErrConflict, id, attempt)
		}
		t.update(d, map[string]any{
			"status": status, "lastError": lastError, "nextRunAt": ts(retryAt), "lockedUntil": nil, "updatedAt": ts(now),
		})
		return nil
	})
}

func (s *Store) ReleaseExpiredLeases(ctx context.Context, now time.Time) (int64, error) {
	return s.sweep(ctx, func(t *txn, d doc) {
		t.update(d, map[string]any{"status": domain.JobPending, "lockedUntil": nil, "updatedAt": ts(now)})
	}, collection(colJobs).whereEq("status", domain.JobRunning).with(cond{"lockedUntil", "<", now}).take(expiredBatch))
}

func (s *Store) GetJob(ctx context.Context, id string) (domain.Job, error) {
	return getOne(ctx, s.read(), s.ref(colJobs, id), jobFrom)
}
