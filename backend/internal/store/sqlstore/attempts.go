package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/storedjson"
)

// The data column is the JSON part of an attempt row: the snapshots and
// the phase clock, read and written as a whole in package storedjson's
// format (rows saved before the notes column, 00015, keep their notes
// there).
// The notes have their own column (notes), so that saving them, which a
// student's browser does every few seconds while preparing, neither reads
// nor writes the snapshots in data; NULL in a row saved before it existed,
// whose notes are still in data.
const attemptColumns = `id, student_id, student_email, student_name, group_id, tutor_email, degree_id, mode, status, data, created_at, finished_at, version, notes`

func scanAttempt(r scanner) (domain.Attempt, error) {
	var a domain.Attempt
	var mode, status, data string
	var created int64
	var finished sql.NullInt64
	var notes sql.NullString
	if err := r.Scan(&a.ID, &a.StudentID, &a.StudentEmail, &a.StudentName, &a.GroupID, &a.TutorEmail, &a.DegreeID,
		&mode, &status, &data, &created, &finished, &a.Version, &notes); err != nil {
		return a, err
	}
	if err := storedjson.DecodeAttempt([]byte(data), &a); err != nil {
		return a, fmt.Errorf("attempt %s: %w", a.ID, err)
	}
	a.Mode, a.Status = domain.Mode(mode), domain.AttemptStatus(status)
	a.CreatedAt, a.FinishedAt = fromMS(created), fromNullMS(finished)
	if notes.Valid {
		a.Notes = notes.String
	}
	return a, nil
}

// attemptJSON is the data column: the snapshots, without the notes.
func attemptJSON(a domain.Attempt) string { return storedjson.EncodeAttempt(a) }

func scores(a domain.Attempt) (self, tutor any) {
	if a.Self != nil {
		self = a.Self.Score
	}
	if a.Grade != nil {
		tutor = a.Grade.Score
	}
	return self, tutor
}

// attemptRowColumns are the columns of an attempt row, in the order of
// attemptRow's values.
const attemptRowColumns = `id, student_id, student_email, student_name, group_id, tutor_email, degree_id,
	case_id, case_title, area, mode, status, self_score, tutor_score, data, created_at, finished_at, version, notes`

// attemptRow is the values of a's row, stored with version.
func attemptRow(a domain.Attempt, version int) []any {
	self, tutor := scores(a)
	return []any{a.ID, a.StudentID, domain.NormalizeEmail(a.StudentEmail), a.StudentName, a.GroupID, domain.NormalizeEmail(a.TutorEmail),
		a.DegreeID, a.Case.ID, a.Case.Title, a.Case.Area, string(a.Mode), string(a.Status), self, tutor, attemptJSON(a),
		ms(a.CreatedAt), nullMS(a.FinishedAt), version, a.Notes}
}

func (s *DB) CreateAttempt(ctx context.Context, a domain.Attempt) error {
	row := attemptRow(a, 1)
	_, err := s.exec(ctx, `INSERT INTO attempts (`+attemptRowColumns+`) VALUES (`+placeholders(len(row))+`)`, row...)
	return err
}

func (s *DB) GetAttempt(ctx context.Context, id string) (domain.Attempt, error) {
	a, err := scanAttempt(s.queryRow(ctx, `SELECT `+attemptColumns+` FROM attempts WHERE id = ?`, id))
	return a, s.mapErr(err)
}

func (s *DB) InProgressAttempt(ctx context.Context, studentID string) (domain.Attempt, error) {
	a, err := scanAttempt(s.queryRow(ctx, `SELECT `+attemptColumns+` FROM attempts WHERE student_id = ? AND status = 'in_progress'`, studentID))
	return a, s.mapErr(err)
}

func (s *DB) UpdateAttempt(ctx context.Context, a domain.Attempt) error {
	self, tutor := scores(a)
	n, err := s.execCount(ctx, `UPDATE attempts SET status = ?, self_score = ?, tutor_score = ?, data = ?, finished_at = ?, notes = ?,
		version = version + 1 WHERE id = ? AND version = ?`,
		string(a.Status), self, tutor, attemptJSON(a), nullMS(a.FinishedAt), a.Notes, a.ID, a.Version)
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("attempt %s changed since it was read: %w", a.ID, domain.ErrConflict)
	}
	return nil
}

func (s *DB) SaveNotes(ctx context.Context, attemptID, studentID, notes string) error {
	res, err := s.exec(ctx, `UPDATE attempts SET notes = ?, version = version + 1 WHERE id = ? AND student_id = ? AND status = ?`,
		notes, attemptID, studentID, string(domain.AttemptInProgress))
	if err := s.expectOne(res, err); err != nil {
		return fmt.Errorf("attempt %s of %s in progress: %w", attemptID, studentID, err)
	}
	return nil
}

func (s *DB) ListAttempts(ctx context.Context, f store.AttemptFilter) ([]domain.AttemptSummary, error) {
	q := `SELECT id, student_id, student_email, student_name, group_id, mode, status, case_title, area, self_score, tutor_score,
		created_at, finished_at, version FROM attempts WHERE 1 = 1`
	var args []any
	for _, c := range []struct {
		col, v string
	}{{"student_id", f.StudentID}, {"student_email", domain.NormalizeEmail(f.StudentEmail)}, {"tutor_email", domain.NormalizeEmail(f.TutorEmail)},
		{"group_id", f.GroupID}, {"status", string(f.Status)}, {"mode", string(f.Mode)}} {
		if c.v != "" {
			q += ` AND ` + c.col + ` = ?`
			args = append(args, c.v)
		}
	}
	if f.Ungraded {
		q += ` AND tutor_score IS NULL`
	}
	if !f.Since.IsZero() {
		q += ` AND created_at >= ?`
		args = append(args, ms(f.Since))
	}
	q += ` ORDER BY created_at DESC, id`
	if f.Limit > 0 {
		q += fmt.Sprintf(` LIMIT %d`, f.Limit)
	}
	out, err := queryAll(ctx, s, scanSummary, q, args...)
	return domain.NonNil(out), err
}

func scanSummary(r scanner) (domain.AttemptSummary, error) {
	var a domain.AttemptSummary
	var mode, status string
	var self, tutor sql.NullFloat64
	var created int64
	var finished sql.NullInt64
	if err := r.Scan(&a.ID, &a.StudentID, &a.StudentEmail, &a.StudentName, &a.GroupID, &mode, &status, &a.CaseTitle, &a.Area,
		&self, &tutor, &created, &finished, &a.Version); err != nil {
		return a, err
	}
	a.Mode, a.Status = domain.Mode(mode), domain.AttemptStatus(status)
	if self.Valid {
		a.SelfScore = &self.Float64
	}
	if tutor.Valid {
		a.TutorScore = &tutor.Float64
	}
	a.CreatedAt, a.FinishedAt = fromMS(created), fromNullMS(finished)
	return a, nil
}

func (s *DB) RecentCaseIDs(ctx context.Context, studentID string, n int) ([]string, error) {
	return queryAll(ctx, s, scanString, fmt.Sprintf(`SELECT case_id FROM attempts WHERE student_id = ? ORDER BY created_at DESC LIMIT %d`, n), studentID)
}

// recordingColumns read a recording with its chunks' count and bytes,
// which the recording's row keeps up to date (chunk_count, chunk_bytes,
// changed with the chunks in one transaction), so reading a recording
// costs the same however long it is.
const recordingColumns = `r.attempt_id, r.id, r.phase, r.mime_type, r.duration_ms, r.levels, r.complete, r.deleted, r.composed, r.created_at,
	r.chunk_count, r.chunk_bytes`

func scanRecording(sc scanner) (domain.Recording, error) {
	var r domain.Recording
	var levels string
	var created int64
	if err := sc.Scan(&r.AttemptID, &r.ID, &r.Phase, &r.MimeType, &r.DurationMs, &levels, &r.Complete, &r.Deleted, &r.Composed, &created, &r.Chunks, &r.Bytes); err != nil {
		return r, err
	}
	if err := json.Unmarshal([]byte(levels), &r.Levels); err != nil {
		return r, err
	}
	r.CreatedAt = fromMS(created)
	return r, nil
}

// recordingRowColumns are the columns of a recording row, in the order of
// recordingRow's values.
const recordingRowColumns = `attempt_id, id, phase, mime_type, duration_ms, levels, complete, deleted, composed, created_at`

func recordingRow(r domain.Recording) []any {
	return []any{r.AttemptID, r.ID, r.Phase, r.MimeType, r.DurationMs, mustJSON(domain.NonNil(r.Levels)), r.Complete, r.Deleted, r.Composed, ms(r.CreatedAt)}
}

func (s *DB) CreateRecording(ctx context.Context, r domain.Recording) (domain.Recording, error) {
	row := recordingRow(r)
	_, err := s.exec(ctx, `INSERT INTO recordings (`+recordingRowColumns+`) VALUES (`+placeholders(len(row))+`)
		ON CONFLICT (attempt_id, id) DO NOTHING`, row...)
	if err != nil {
		return r, err
	}
	return s.GetRecording(ctx, r.AttemptID, r.ID)
}

func (s *DB) GetRecording(ctx context.Context, attemptID, id string) (domain.Recording, error) {
	r, err := scanRecording(s.queryRow(ctx, `SELECT `+recordingColumns+` FROM recordings r WHERE r.attempt_id = ? AND r.id = ?`, attemptID, id))
	return r, s.mapErr(err)
}

func (s *DB) ListRecordings(ctx context.Context, attemptID string) ([]domain.Recording, error) {
	return s.listRecordings(ctx, `SELECT `+recordingColumns+` FROM recordings r WHERE r.attempt_id = ? ORDER BY r.phase, r.created_at, r.id`, attemptID)
}

func (s *DB) RecordingsOlderThan(ctx context.Context, t time.Time, limit int) ([]domain.Recording, error) {
	return s.listRecordings(ctx, fmt.Sprintf(`SELECT `+recordingColumns+` FROM recordings r WHERE r.deleted = ? AND r.created_at < ?
		ORDER BY r.created_at LIMIT %d`, limit), false, ms(t))
}

func (s *DB) RecordingsToCompose(ctx context.Context, limit int) ([]domain.Recording, error) {
	return s.listRecordings(ctx, fmt.Sprintf(`SELECT `+recordingColumns+` FROM recordings r
		WHERE r.complete = ? AND r.deleted = ? AND r.composed = ?
		ORDER BY r.created_at, r.attempt_id, r.id LIMIT %d`, max(limit, 0)), true, false, false)
}

func (s *DB) MarkRecordingComposed(ctx context.Context, attemptID, id string) error {
	res, err := s.exec(ctx, `UPDATE recordings SET composed = ? WHERE attempt_id = ? AND id = ? AND deleted = ?`, true, attemptID, id, false)
	return s.expectOne(res, err)
}

func (s *DB) listRecordings(ctx context.Context, q string, args ...any) ([]domain.Recording, error) {
	out, err := queryAll(ctx, s, scanRecording, q, args...)
	return domain.NonNil(out), err
}

func (s *DB) UpdateRecording(ctx context.Context, r domain.Recording) error {
	res, err := s.exec(ctx, `UPDATE recordings SET duration_ms = ?, levels = ?, complete = ?, deleted = ? WHERE attempt_id = ? AND id = ?`,
		r.DurationMs, mustJSON(domain.NonNil(r.Levels)), r.Complete, r.Deleted, r.AttemptID, r.ID)
	return s.expectOne(res, err)
}

func (s *DB) CreateTake(ctx context.Context, r domain.Recording, maxPerPhase int) (domain.Recording, error) {
	var stored domain.Recording
	err := s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		// A no-op write on the attempt row takes its lock (PostgreSQL) or
		// the write lock (SQLite): registrations of the same attempt run
		// one after another, so the count below stays true until the insert.
		res, err := tx.exec(ctx, `UPDATE attempts SET version = version WHERE id = ?`, r.AttemptID)
		if err := tx.expectOne(res, err); err != nil {
			return fmt.Errorf("attempt %s: %w", r.AttemptID, err)
		}
		if stored, err = tx.GetRecording(ctx, r.AttemptID, r.ID); err == nil {
			return nil // a retry: the take is registered already
		} else if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		if maxPerPhase > 0 {
			var n int
			if err := tx.queryRow(ctx, `SELECT COUNT(*) FROM recordings WHERE attempt_id = ? AND phase = ?`, r.AttemptID, r.Phase).Scan(&n); err != nil {
				return err
			}
			if n >= maxPerPhase {
				return fmt.Errorf("phase %d of attempt %s has %d takes: %w", r.Phase, r.AttemptID, n, store.ErrTakeLimit)
			}
		}
		stored, err = tx.CreateRecording(ctx, r)
		return err
	})
	return stored, err
}

func (s *DB) AddChunk(ctx context.Context, attemptID, recordingID string, c domain.ChunkInfo) error {
	return s.addChunk(ctx, &chunkReq{attemptID: attemptID, recordingID: recordingID, c: c})
}

func (s *DB) AddChunkWithin(ctx context.Context, attemptID, recordingID string, c domain.ChunkInfo, l store.ChunkLimits) error {
	return s.addChunk(ctx, &chunkReq{attemptID: attemptID, recordingID: recordingID, c: c, l: l, open: true})
}

// addChunk records a chunk: inside a transaction at once, otherwise in
// the next batch of the chunk committer (see chunkBatcher), which commits
// the chunks of concurrent uploads together.
func (s *DB) addChunk(ctx context.Context, r *chunkReq) error {
	if s.tx != nil {
		if err := s.addChunks(ctx, []*chunkReq{r}); err != nil {
			return err
		}
		return r.err
	}
	return s.chunks.add(ctx, r)
}

// chunkReq is one chunk to record and, once done, its outcome.
type chunkReq struct {
	attemptID, recordingID string
	c                      domain.ChunkInfo
	l                      store.ChunkLimits
	open                   bool // the recording must be neither complete nor deleted
	student                string
	err                    error // the chunk's own refusal (limits, conflict, not found)
	done                   chan struct{}
}

// addChunks records chunks in the transaction s, each within its limits,
// and counts their bytes in their recordings' rows and in their students'
// storage_usage rows. The students' rows are locked first, in sorted
// order (PostgreSQL; on SQLite the transaction holds the write lock
// already): every chunk added to, or deleted from, a student's recordings
// waits for that row, so the sums read after the lock stay true until the
// commit, and two batches lock in the same order. A chunk refused for
// itself gets its error in its req and changes nothing; an error returned
// is the database's, and the transaction must be rolled back.
func (s *DB) addChunks(ctx context.Context, reqs []*chunkReq) error {
	var students []string
	for _, r := range reqs {
		r.err = nil
		err := s.queryRow(ctx, `SELECT a.student_id FROM recordings r JOIN attempts a ON a.id = r.attempt_id
			WHERE r.attempt_id = ? AND r.id = ?`, r.attemptID, r.recordingID).Scan(&r.student)
		if err := s.mapErr(err); errors.Is(err, domain.ErrNotFound) {
			r.err = fmt.Errorf("recording %s/%s: %w", r.attemptID, r.recordingID, err)
			continue
		} else if err != nil {
			return err
		}
		students = append(students, r.student)
	}
	slices.Sort(students)
	for _, st := range slices.Compact(students) {
		if err := s.lockStorage(ctx, st); err != nil {
			return err
		}
	}
	for _, r := range reqs {
		if r.err != nil {
			continue
		}
		var exists, complete, deleted bool
		var recordingBytes, used int64
		err := s.queryRow(ctx, `SELECT
			EXISTS (SELECT 1 FROM recording_chunks WHERE attempt_id = ? AND recording_id = ? AND seq = ?),
			r.complete, r.deleted, r.chunk_bytes,
			(SELECT bytes FROM storage_usage WHERE student_id = ?)
			FROM recordings r WHERE r.attempt_id = ? AND r.id = ?`,
			r.attemptID, r.recordingID, r.c.Seq, r.student, r.attemptID, r.recordingID).Scan(&exists, &complete, &deleted, &recordingBytes, &used)
		if err != nil {
			return s.mapErr(err)
		}
		switch {
		case exists:
			r.err = fmt.Errorf("chunk %d of %s/%s: %w", r.c.Seq, r.attemptID, r.recordingID, domain.ErrConflict)
		case r.open && (complete || deleted):
			r.err = fmt.Errorf("recording %s/%s: %w", r.attemptID, r.recordingID, store.ErrRecordingClosed)
		case r.l.RecordingBytes > 0 && recordingBytes+r.c.Bytes > r.l.RecordingBytes:
			r.err = fmt.Errorf("recording %s/%s holds %d bytes: %w", r.attemptID, r.recordingID, recordingBytes, store.ErrRecordingFull)
		case r.l.StudentBytes > 0 && used+r.c.Bytes > r.l.StudentBytes:
			r.err = fmt.Errorf("student %s holds %d bytes: %w", r.student, used, store.ErrStorageQuota)
		}
		if r.err != nil {
			continue
		}
		if _, err := s.exec(ctx, `INSERT INTO recording_chunks (attempt_id, recording_id, seq, bytes, sha256) VALUES (?, ?, ?, ?, ?)`,
			r.attemptID, r.recordingID, r.c.Seq, r.c.Bytes, r.c.SHA256); err != nil {
			return err
		}
		if _, err := s.exec(ctx, `UPDATE recordings SET chunk_count = chunk_count + 1, chunk_bytes = chunk_bytes + ?
			WHERE attempt_id = ? AND id = ?`, r.c.Bytes, r.attemptID, r.recordingID); err != nil {
			return err
		}
		if _, err := s.exec(ctx, `UPDATE storage_usage SET bytes = bytes + ? WHERE student_id = ?`, r.c.Bytes, r.student); err != nil {
			return err
		}
	}
	return nil
}

// lockStorage creates the student's storage_usage row if missing and, in
// the same statement, locks it until the transaction ends (PostgreSQL; on
// SQLite the transaction holds the write lock already).
func (s *DB) lockStorage(ctx context.Context, studentID string) error {
	_, err := s.exec(ctx, `INSERT INTO storage_usage (student_id, bytes) VALUES (?, 0)
		ON CONFLICT (student_id) DO UPDATE SET bytes = storage_usage.bytes`, studentID)
	return err
}

func (s *DB) StorageUsed(ctx context.Context, studentID string) (int64, error) {
	var used int64
	err := s.queryRow(ctx, `SELECT COALESCE((SELECT bytes FROM storage_usage WHERE student_id = ?), 0)`, studentID).Scan(&used)
	return used, err
}

func (s *DB) GetChunk(ctx context.Context, attemptID, recordingID string, seq int) (domain.ChunkInfo, error) {
	var c domain.ChunkInfo
	err := s.queryRow(ctx, `SELECT seq, bytes, sha256 FROM recording_chunks WHERE attempt_id = ? AND recording_id = ? AND seq = ?`,
		attemptID, recordingID, seq).Scan(&c.Seq, &c.Bytes, &c.SHA256)
	return c, s.mapErr(err)
}

func (s *DB) ListChunks(ctx context.Context, attemptID, recordingID string) ([]domain.ChunkInfo, error) {
	out, err := queryAll(ctx, s, func(r scanner) (domain.ChunkInfo, error) {
		var c domain.ChunkInfo
		err := r.Scan(&c.Seq, &c.Bytes, &c.SHA256)
		return c, err
	}, `SELECT seq, bytes, sha256 FROM recording_chunks WHERE attempt_id = ? AND recording_id = ? ORDER BY seq`, attemptID, recordingID)
	return domain.NonNil(out), err
}

func (s *DB) DeleteChunks(ctx context.Context, attemptID, recordingID string) error {
	return s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		var student string
		err := tx.queryRow(ctx, `SELECT student_id FROM attempts WHERE id = ?`, attemptID).Scan(&student)
		if err != nil && !errors.Is(tx.mapErr(err), domain.ErrNotFound) {
			return err
		}
		if student != "" {
			if err := tx.lockStorage(ctx, student); err != nil {
				return err
			}
		}
		var freed int64
		if err := tx.queryRow(ctx, `SELECT COALESCE(SUM(bytes), 0) FROM recording_chunks WHERE attempt_id = ? AND recording_id = ?`,
			attemptID, recordingID).Scan(&freed); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `DELETE FROM recording_chunks WHERE attempt_id = ? AND recording_id = ?`, attemptID, recordingID); err != nil {
			return err
		}
		if _, err := tx.exec(ctx, `UPDATE recordings SET chunk_count = 0, chunk_bytes = 0 WHERE attempt_id = ? AND id = ?`, attemptID, recordingID); err != nil {
			return err
		}
		if student == "" || freed == 0 {
			return nil
		}
		_, err = tx.exec(ctx, `UPDATE storage_usage SET bytes = CASE WHEN bytes > ? THEN bytes - ? ELSE 0 END WHERE student_id = ?`, freed, freed, student)
		return err
	})
}
