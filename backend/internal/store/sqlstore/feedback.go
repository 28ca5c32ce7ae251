package sqlstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store/storedjson"
)

const transcriptColumns = `attempt_id, recording_id, source, language, segments, updated_at, updated_by`

func scanTranscript(r scanner) (domain.Transcript, error) {
	var t domain.Transcript
	var segs string
	var updated int64
	if err := r.Scan(&t.AttemptID, &t.RecordingID, &t.Source, &t.Language, &segs, &updated, &t.UpdatedBy); err != nil {
		return t, err
	}
	t.UpdatedAt = fromMS(updated)
	var err error
	t.Segments, err = storedjson.DecodeSegments([]byte(segs))
	return t, err
}

func (s *DB) PutTranscript(ctx context.Context, t domain.Transcript) error {
	_, err := s.exec(ctx, `INSERT INTO transcripts (`+transcriptColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (attempt_id, recording_id) DO UPDATE SET source = excluded.source, language = excluded.language,
		segments = excluded.segments, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
		t.AttemptID, t.RecordingID, t.Source, t.Language, storedjson.EncodeSegments(t.Segments), ms(t.UpdatedAt), t.UpdatedBy)
	return err
}

func (s *DB) PutTranscriptOver(ctx context.Context, t domain.Transcript, over ...string) (bool, error) {
	args := []any{t.AttemptID, t.RecordingID, t.Source, t.Language, storedjson.EncodeSegments(t.Segments), ms(t.UpdatedAt), t.UpdatedBy}
	onConflict := `DO NOTHING`
	if len(over) > 0 {
		onConflict = `DO UPDATE SET source = excluded.source, language = excluded.language, segments = excluded.segments,
		updated_at = excluded.updated_at, updated_by = excluded.updated_by WHERE transcripts.source IN (` + placeholders(len(over)) + `)`
		for _, o := range over {
			args = append(args, o)
		}
	}
	n, err := s.execCount(ctx, `INSERT INTO transcripts (`+transcriptColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (attempt_id, recording_id) `+onConflict, args...)
	return n > 0, err
}

func (s *DB) RecordingsWithoutJob(ctx context.Context, kind string, since time.Time, limit int) ([]domain.Recording, error) {
	return s.listRecordings(ctx, fmt.Sprintf(`SELECT `+recordingColumns+` FROM recordings r
		WHERE r.complete = ? AND r.deleted = ? AND r.created_at >= ?
		AND EXISTS (SELECT 1 FROM recording_chunks c WHERE c.attempt_id = r.attempt_id AND c.recording_id = r.id)
		AND NOT EXISTS (SELECT 1 FROM transcripts t WHERE t.attempt_id = r.attempt_id AND t.recording_id = r.id AND t.source <> ?)
		AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = ? AND j.subject = r.attempt_id || '/' || r.id)
		ORDER BY r.created_at, r.attempt_id, r.id LIMIT %d`, max(limit, 0)),
		true, false, ms(since), domain.TranscriptBrowser, kind)
}

func (s *DB) GetTranscript(ctx context.Context, attemptID, recordingID string) (domain.Transcript, error) {
	t, err := scanTranscript(s.queryRow(ctx, `SELECT `+transcriptColumns+` FROM transcripts WHERE attempt_id = ? AND recording_id = ?`, attemptID, recordingID))
	return t, s.mapErr(err)
}

func (s *DB) ListTranscripts(ctx context.Context, attemptID string) ([]domain.Transcript, error) {
	out, err := queryAll(ctx, s, scanTranscript, `SELECT `+transcriptColumns+` FROM transcripts WHERE attempt_id = ? ORDER BY recording_id`, attemptID)
	return domain.NonNil(out), err
}

const jobColumns = `id, kind, subject, payload, status, attempts, next_run_at, last_error, created_at`

func scanJob(r scanner) (domain.Job, error) {
	var j domain.Job
	var next, created int64
	err := r.Scan(&j.ID, &j.Kind, &j.Subject, &j.Payload, &j.Status, &j.Attempts, &next, &j.LastError, &created)
	j.NextRunAt, j.CreatedAt = fromMS(next), fromMS(created)
	return j, err
}

func (s *DB) EnqueueJob(ctx context.Context, j domain.Job) error {
	// DO NOTHING rather than a failed insert: in PostgreSQL a unique
	// violation would abort an enclosing transaction.
	n, err := s.execCount(ctx, `INSERT INTO jobs (id, kind, subject, payload, status, attempts, next_run_at, last_error, created_at, updated_at)
		VALUES (?, ?, ?, ?, 'pending', 0, ?, '', ?, ?) ON CONFLICT DO NOTHING`,
		j.ID, j.Kind, j.Subject, j.Payload, ms(j.NextRunAt), ms(j.CreatedAt), ms(j.CreatedAt))
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: a %s job for %q exists", domain.ErrConflict, j.Kind, j.Subject)
	}
	return nil
}

func (s *DB) ClaimJob(ctx context.Context, kind string, now, lease time.Time) (domain.Job, error) {
	// Optimistic claim: pick a candidate, then take it only if it is still
	// pending. Portable across SQLite and PostgreSQL; a lost race just tries
	// the next candidate.
	for range 5 {
		var id string
		err := s.queryRow(ctx, `SELECT id FROM jobs WHERE kind = ? AND status = 'pending' AND next_run_at <= ?
			ORDER BY next_run_at, created_at LIMIT 1`, kind, ms(now)).Scan(&id)
		if err != nil {
			return domain.Job{}, s.mapErr(err)
		}
		n, err := s.execCount(ctx, `UPDATE jobs SET status = 'running', attempts = attempts + 1, locked_until = ?, updated_at = ?
			WHERE id = ? AND status = 'pending'`, ms(lease), ms(now), id)
		if err != nil {
			return domain.Job{}, err
		}
		if n == 1 {
			return s.GetJob(ctx, id)
		}
	}
	return domain.Job{}, domain.ErrNotFound
}

func (s *DB) FinishJob(ctx context.Context, id string, attempt int, status, lastError string, retryAt, now time.Time) error {
	res, err := s.exec(ctx, `UPDATE jobs SET status = ?, last_error = ?, next_run_at = ?, locked_until = 0, updated_at = ?
		WHERE id = ? AND status = 'running' AND attempts = ?`, status, lastError, ms(retryAt), ms(now), id, attempt)
	if err := s.expectOne(res, err); !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	if _, err := s.GetJob(ctx, id); err != nil {
		return err
	}
	return fmt.Errorf("%w: job %s was claimed again after attempt %d", domain.ErrConflict, id, attempt)
}

func (s *DB) ReleaseExpiredLeases(ctx context.Context, now time.Time) (int64, error) {
	return s.execCount(ctx, `UPDATE jobs SET status = 'pending', locked_until = 0, updated_at = ? WHERE status = 'running' AND locked_until < ?`, ms(now), ms(now))
}

func (s *DB) GetJob(ctx context.Context, id string) (domain.Job, error) {
	j, err := scanJob(s.queryRow(ctx, `SELECT `+jobColumns+` FROM jobs WHERE id = ?`, id))
	return j, s.mapErr(err)
}

func (s *DB) GetJobBySubject(ctx context.Context, kind, subject string) (domain.Job, error) {
	j, err := scanJob(s.queryRow(ctx, `SELECT `+jobColumns+` FROM jobs WHERE kind = ? AND subject = ? AND subject <> ''`, kind, subject))
	return j, s.mapErr(err)
}

func (s *DB) RetryJob(ctx context.Context, id string, now time.Time) error {
	res, err := s.exec(ctx, `UPDATE jobs SET status = 'pending', next_run_at = ?, last_error = '', locked_until = 0, updated_at = ?
		WHERE id = ? AND status <> 'running'`, ms(now), ms(now), id)
	if err := s.expectOne(res, err); !errors.Is(err, domain.ErrNotFound) {
		return err
	}
	if _, err := s.GetJob(ctx, id); err != nil {
		return err
	}
	return fmt.Errorf("%w: job %s is running", domain.ErrConflict, id)
}
