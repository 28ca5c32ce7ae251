package firestore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"cloud.google.com/go/firestore"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/storedjson"
)

// attempts/{id} keeps the summary fields lists filter and show beside the
// snapshots (case, blueprint, rubric, phases, assessments) as JSON text
// in data, which lists never read (they select the summary fields).
// inProgressAttempts/{student} names the student's attempt in progress:
// created with the attempt, deleted when it leaves in_progress, so two
// tabs starting at once cannot both succeed. version is the attempt's
// optimistic lock, compared and incremented in the saving transaction.
//
// attempts/{id}/recordings/{id} counts its chunks (chunks, bytes) as they
// are added, so lists need not read attempts/{id}/recordings/{id}/chunks;
// attempts/{id}/transcripts/{recording} holds a recording's transcript.

// An attempt's data field is JSON text in package storedjson's format:
// the snapshots, the phase clock and the notes.

// attemptChanges are the fields a saved attempt may change.
func attemptChanges(a domain.Attempt) map[string]any {
	var self, tutor *float64
	if a.Self != nil {
		self = &a.Self.Score
	}
	if a.Grade != nil {
		tutor = &a.Grade.Score
	}
	return map[string]any{
		"status":     string(a.Status),
		"selfScore":  floatOrNull(self),
		"tutorScore": floatOrNull(tutor),
		"data":       storedjson.EncodeAttemptWithNotes(a),
		"finishedAt": tsPtr(a.FinishedAt),
	}
}

func attemptFields(a domain.Attempt) map[string]any {
	f := attemptChanges(a)
	for k, v := range map[string]any{
		"studentId":    a.StudentID,
		"studentEmail": domain.NormalizeEmail(a.StudentEmail),
		"studentName":  a.StudentName,
		"groupId":      a.GroupID,
		"tutorEmail":   domain.NormalizeEmail(a.TutorEmail),
		"degreeId":     a.DegreeID,
		"caseId":       a.Case.ID,
		"caseTitle":    a.Case.Title,
		"area":         a.Case.Area,
		"mode":         string(a.Mode),
		"createdAt":    ts(a.CreatedAt),
		"version":      int64(1),
	} {
		f[k] = v
	}
	return f
}

func attemptFrom(d doc) (domain.Attempt, error) {
	f := d.data
	a := domain.Attempt{
		ID: d.ref.ID, StudentID: f.str("studentId"), StudentEmail: f.str("studentEmail"), StudentName: f.str("studentName"),
		GroupID: f.str("groupId"), TutorEmail: f.str("tutorEmail"), DegreeID: f.str("degreeId"),
		Mode: domain.Mode(f.str("mode")), Status: domain.AttemptStatus(f.str("status")),
		CreatedAt: f.time("createdAt"), FinishedAt: f.timePtr("finishedAt"), Version: int(f.int("version")),
	}
	if err := storedjson.DecodeAttempt([]byte(f.str("data")), &a); err != nil {
		return domain.Attempt{}, fmt.Errorf("attempt %s: field data: %w", d.ref.ID, err)
	}
	return a, nil
}

var summaryFields = []string{"studentId", "studentEmail", "studentName", "groupId", "mode", "status", "caseTitle", "area",
	"selfScore", "tutorScore", "createdAt", "finishedAt", "version"}

func summaryFrom(d doc) (domain.AttemptSummary, error) {
	f := d.data
	return domain.AttemptSummary{
		ID: d.ref.ID, StudentID: f.str("studentId"), StudentEmail: f.str("studentEmail"), StudentName: f.str("studentName"),
		GroupID: f.str("groupId"), Mode: domain.Mode(f.str("mode")), Status: domain.AttemptStatus(f.str("status")),
		CaseTitle: f.str("caseTitle"), Area: f.str("area"), SelfScore: f.floatPtr("selfScore"), TutorScore: f.floatPtr("tutorScore"),
		CreatedAt: f.time("createdAt"), FinishedAt: f.timePtr("finishedAt"), Version: int(f.int("version")),
	}, nil
}

func (s *Store) CreateAttempt(ctx context.Context, a domain.Attempt) error {
	return s.write(ctx, func(t *txn) error {
		ref, lock := s.ref(colAttempts, a.ID), s.ref(colInProgress, a.StudentID)
		docs, err := t.getAll(ctx, []*firestoreRef{ref, lock})
		if err != nil {
			return err
		}
		if docs[0].exists {
			return fmt.Errorf("attempt %s: %w", a.ID, domain.ErrConflict)
		}
		if a.Status == domain.AttemptInProgress {
			if docs[1].exists {
				cur, err := t.get(ctx, s.ref(colAttempts, docs[1].data.str("attemptId")))
				if err != nil {
					return err
				}
				if cur.exists && cur.data.str("status") == string(domain.AttemptInProgress) {
					return fmt.Errorf("student %s has an attempt in progress: %w", a.StudentID, domain.ErrConflict)
				}
			}
			t.set(lock, map[string]any{"attemptId": a.ID})
		}
		t.create(ref, attemptFields(a))
		return nil
	})
}

func (s *Store) GetAttempt(ctx context.Context, id string) (domain.Attempt, error) {
	return getOne(ctx, s.read(), s.ref(colAttempts, id), attemptFrom)
}

func (s *Store) InProgressAttempt(ctx context.Context, studentID string) (domain.Attempt, error) {
	r := s.read()
	lock, err := r.get(ctx, s.ref(colInProgress, studentID))
	if err != nil {
		return domain.Attempt{}, err
	}
	if lock.exists {
		d, err := r.get(ctx, s.ref(colAttempts, lock.data.str("attemptId")))
		if err != nil {
			return domain.Attempt{}, err
		}
		if d.exists && d.data.str("status") == string(domain.AttemptInProgress) {
			return attemptFrom(d)
		}
	}
	return domain.Attempt{}, fmt.Errorf("attempt in progress of %s: %w", studentID, domain.ErrNotFound)
}

// UpdateAttempt compares the version inside its transaction, so of two
// saves of the same version exactly one succeeds.
func (s *Store) UpdateAttempt(ctx context.Context, a domain.Attempt) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.get(ctx, s.ref(colAttempts, a.ID))
		if err != nil {
			return err
		}
		if !d.exists || d.data.int("version") != int64(a.Version) {
			return fmt.Errorf("attempt %s changed since it was read: %w", a.ID, domain.ErrConflict)
		}
		if d.data.str("status") == string(domain.AttemptInProgress) && a.Status != domain.AttemptInProgress {
			lock := s.ref(colInProgress, d.data.str("studentId"))
			l, err := t.get(ctx, lock)
			if err != nil {
				return err
			}
			if l.exists && l.data.str("attemptId") == a.ID {
				t.delete(lock)
			}
		}
		changes := attemptChanges(a)
		changes["version"] = int64(a.Version) + 1
		t.update(d, changes)
		return nil
	})
}

// SaveNotes rewrites data with the new notes in a transaction that checks
// the owner, the status and increments the version.
func (s *Store) SaveNotes(ctx context.Context, attemptID, studentID, notes string) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.get(ctx, s.ref(colAttempts, attemptID))
		if err != nil {
			return err
		}
		if !d.exists || d.data.str("studentId") != studentID || d.data.str("status") != string(domain.AttemptInProgress) {
			return fmt.Errorf("attempt %s of %s in progress: %w", attemptID, studentID, domain.ErrNotFound)
		}
		var a domain.Attempt
		if err := storedjson.DecodeAttempt([]byte(d.data.str("data")), &a); err != nil {
			return fmt.Errorf("attempt %s: field data: %w", attemptID, err)
		}
		a.Notes = notes
		t.update(d, map[string]any{"data": storedjson.EncodeAttemptWithNotes(a), "version": d.data.int("version") + 1})
		return nil
	})
}

// ListAttempts filters in Firestore and orders newest first, then by ID;
// every combination of filters the services use has its composite index
// in firestore.indexes.json.
func (s *Store) ListAttempts(ctx context.Context, f store.AttemptFilter) ([]domain.AttemptSummary, error) {
	q := collection(colAttempts)
	for _, c := range []struct{ field, v string }{
		{"studentId", f.StudentID}, {"studentEmail", domain.NormalizeEmail(f.StudentEmail)},
		{"tutorEmail", domain.NormalizeEmail(f.TutorEmail)}, {"groupId", f.GroupID},
		{"status", string(f.Status)}, {"mode", string(f.Mode)},
	} {
		if c.v != "" {
			q = q.whereEq(c.field, c.v)
		}
	}
	if f.Ungraded {
		q = q.whereEq("tutorScore", nil)
	}
	if !f.Since.IsZero() {
		// A range on the field the list is ordered by: the same index.
		q = q.with(cond{"createdAt", ">=", ts(f.Since)})
	}
	q = q.orderBy("createdAt", true).orderBy(firestore.DocumentID, false).selecting(summaryFields...)
	if f.Limit > 0 {
		q = q.take(f.Limit)
	}
	docs, err := s.read().query(ctx, q)
	if err != nil {
		return nil, err
	}
	return decodeAll(docs, summaryFrom)
}

func (s *Store) RecentCaseIDs(ctx context.Context, studentID string, n int) ([]string, error) {
	if n <= 0 {
		return nil, nil
	}
	// Ordered as ListAttempts orders, so both use one index.
	docs, err := s.read().query(ctx, collection(colAttempts).whereEq("studentId", studentID).
		orderBy("createdAt", true).orderBy(firestore.DocumentID, false).take(n).selecting("caseId"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range docs {
		out = append(out, d.data.str("caseId"))
	}
	return out, nil
}

func (s *Store) recordingRef(attemptID, id string) *firestoreRef {
	return s.ref(colAttempts, attemptID).Collection(colRecordings).Doc(docID(id))
}

func recordingFrom(d doc) (domain.Recording, error) {
	f := d.data
	r := domain.Recording{
		ID: d.ref.ID, AttemptID: d.ref.Parent.Parent.ID, Phase: int(f.int("phase")), MimeType: f.str("mimeType"),
		Chunks: int(f.int("chunks")), Bytes: f.int("bytes"), DurationMs: f.int("durationMs"),
		Complete: f.bool("complete"), Deleted: f.bool("deleted"), Composed: f.bool("composed"), CreatedAt: f.time("createdAt"),
	}
	if err := f.json("levels", &r.Levels); err != nil {
		return r, fmt.Errorf("recording %s: %w", d.ref.Path, err)
	}
	r.Levels = domain.NonNil(r.Levels)
	return r, nil
}

// recordingFields is a recording's document; chunks and bytes count the
// documents of its chunks subcollection.
func recordingFields(r domain.Recording) map[string]any {
	return map[string]any{
		"phase": int64(r.Phase), "mimeType": r.MimeType, "durationMs": r.DurationMs, "levels": jsonText(domain.NonNil(r.Levels)),
		"complete": r.Complete, "deleted": r.Deleted, "composed": r.Composed, "createdAt": ts(r.CreatedAt),
		"chunks": int64(r.Chunks), "bytes": r.Bytes,
	}
}

func (s *Store) CreateRecording(ctx context.Context, r domain.Recording) (domain.Recording, error) {
	var stored domain.Recording
	err := s.write(ctx, func(t *txn) error {
		var err error
		stored, err = s.createRecording(ctx, t, r)
		return err
	})
	return stored, err
}

// createRecording creates r unless it exists and returns what is stored.
func (s *Store) createRecording(ctx context.Context, t *txn, r domain.Recording) (domain.Recording, error) {
	ref := s.recordingRef(r.AttemptID, r.ID)
	d, err := t.get(ctx, ref)
	if err != nil {
		return domain.Recording{}, err
	}
	if !d.exists {
		r.Composed, r.Chunks, r.Bytes = false, 0, 0
		t.create(ref, recordingFields(r))
		if d, err = t.get(ctx, ref); err != nil {
			return domain.Recording{}, err
		}
	}
	return recordingFrom(d)
}

func (s *Store) GetRecording(ctx context.Context, attemptID, id string) (domain.Recording, error) {
	return getOne(ctx, s.read(), s.recordingRef(attemptID, id), recordingFrom)
}

func (s *Store) ListRecordings(ctx context.Context, attemptID string) ([]domain.Recording, error) {
	docs, err := s.read().query(ctx, subcollection(s.ref(colAttempts, attemptID), colRecordings))
	if err != nil {
		return nil, err
	}
	out, err := decodeAll(docs, recordingFrom)
	slices.SortFunc(out, func(a, b domain.Recording) int {
		return cmp.Or(cmp.Compare(a.Phase, b.Phase), a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
	})
	return out, err
}

func (s *Store) RecordingsOlderThan(ctx context.Context, t time.Time, limit int) ([]domain.Recording, error) {
	if limit <= 0 {
		return []domain.Recording{}, nil
	}
	docs, err := s.read().query(ctx, collectionGroup(colRecordings).whereEq("deleted", false).
		with(cond{"createdAt", "<", t}).orderBy("createdAt", false).take(limit))
	if err != nil {
		return nil, err
	}
	return decodeAll(docs, recordingFrom)
}

// RecordingsToCompose lists complete, undeleted recordings whose chunks
// are not yet joined into one media object, oldest first.
func (s *Store) RecordingsToCompose(ctx context.Context, limit int) ([]domain.Recording, error) {
	if limit <= 0 {
		return []domain.Recording{}, nil
	}
	docs, err := s.read().query(ctx, collectionGroup(colRecordings).whereEq("complete", true).whereEq("deleted", false).
		whereEq("composed", false).orderBy("createdAt", false).take(limit))
	if err != nil {
		return nil, err
	}
	return decodeAll(docs, recordingFrom)
}

// MarkRecordingComposed sets the flag on an undeleted recording, in a
// transaction so that a deletion racing it wins (ErrNotFound).
func (s *Store) MarkRecordingComposed(ctx context.Context, attemptID, id string) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.get(ctx, s.recordingRef(attemptID, id))
		if err != nil {
			return err
		}
		if !d.exists || d.data.bool("deleted") {
			return fmt.Errorf("recording %s/%s: %w", attemptID, id, domain.ErrNotFound)
		}
		t.update(d, map[string]any{"composed": true})
		return nil
	})
}

// UpdateRecording saves what a Complete or a deletion changes; it never
// writes Composed, which only MarkRecordingComposed sets.
func (s *Store) UpdateRecording(ctx context.Context, r domain.Recording) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.existing(ctx, s.recordingRef(r.AttemptID, r.ID), "recording "+r.AttemptID+"/"+r.ID)
		if err != nil {
			return err
		}
		t.update(d, map[string]any{"durationMs": r.DurationMs, "levels": jsonText(domain.NonNil(r.Levels)), "complete": r.Complete, "deleted": r.Deleted})
		return nil
	})
}

func (s *Store) chunkRef(attemptID, recordingID string, seq int) *firestoreRef {
	return s.recordingRef(attemptID, recordingID).Collection(colChunks).Doc(strconv.Itoa(seq))
}

func chunkFields(c domain.ChunkInfo) map[string]any {
	return map[string]any{"seq": int64(c.Seq), "bytes": c.Bytes, "sha256": c.SHA256}
}

func chunkFrom(d doc) (domain.ChunkInfo, error) {
	return domain.ChunkInfo{Seq: int(d.data.int("seq")), Bytes: d.data.int("bytes"), SHA256: d.data.str("sha256")}, nil
}

// CreateTake counts the phase's recordings in the transaction that creates
// the take. The count is a query, which does not stop another transaction
// from adding a recording meanwhile, so each registration also reads and
// writes attempts/{id}/takes/{phase}: of two at once, one commits and the
// other runs again and counts the winner's take.
//
// The attempt is checked before the transaction (attempts are not deleted),
// so that phase changes, which write it, do not conflict with takes.
func (s *Store) CreateTake(ctx context.Context, r domain.Recording, maxPerPhase int) (domain.Recording, error) {
	if _, err := s.studentOf(ctx, r.AttemptID); err != nil {
		return domain.Recording{}, err
	}
	var stored domain.Recording
	err := s.write(ctx, func(t *txn) error {
		attempt := s.ref(colAttempts, r.AttemptID)
		docs, err := t.getAll(ctx, []*firestoreRef{s.recordingRef(r.AttemptID, r.ID), attempt.Collection(colTakes).Doc(strconv.Itoa(r.Phase))})
		if err != nil {
			return err
		}
		rec, counter := docs[0], docs[1]
		if rec.exists { // a retry: the take is registered already
			stored, err = recordingFrom(rec)
			return err
		}
		takes, err := t.query(ctx, subcollection(attempt, colRecordings).whereEq("phase", int64(r.Phase)))
		if err != nil {
			return err
		}
		if maxPerPhase > 0 && len(takes) >= maxPerPhase {
			return fmt.Errorf("phase %d of attempt %s has %d takes: %w", r.Phase, r.AttemptID, len(takes), store.ErrTakeLimit)
		}
		t.set(counter.ref, map[string]any{"phase": int64(r.Phase), "count": int64(len(takes) + 1)})
		stored, err = s.createRecording(ctx, t, r)
		return err
	})
	return stored, err
}

// AddChunk stores the chunk and counts it on the recording and in the
// student's storage, in one transaction.
func (s *Store) AddChunk(ctx context.Context, attemptID, recordingID string, c domain.ChunkInfo) error {
	return s.addChunk(ctx, attemptID, recordingID, c, store.ChunkLimits{}, false)
}

func (s *Store) AddChunkWithin(ctx context.Context, attemptID, recordingID string, c domain.ChunkInfo, l store.ChunkLimits) error {
	return s.addChunk(ctx, attemptID, recordingID, c, l, true)
}

// addChunk reads the recording, the chunk and the student's storageUsage
// document in its transaction and writes all three: two chunks at once,
// to one recording or to two of the student's, cannot both commit on
// what they read, so the limits hold. open asks for the recording to be
// neither complete nor deleted.
func (s *Store) addChunk(ctx context.Context, attemptID, recordingID string, c domain.ChunkInfo, l store.ChunkLimits, open bool) error {
	student, err := s.studentOf(ctx, attemptID)
	if err != nil {
		return err
	}
	return s.write(ctx, func(t *txn) error {
		docs, err := t.getAll(ctx, []*firestoreRef{s.recordingRef(attemptID, recordingID), s.chunkRef(attemptID, recordingID, c.Seq)})
		if err != nil {
			return err
		}
		rec, chunk := docs[0], docs[1]
		switch {
		case !rec.exists:
			return fmt.Errorf("recording %s/%s: %w", attemptID, recordingID, domain.ErrNotFound)
		case chunk.exists:
			return fmt.Errorf("chunk %d of %s/%s: %w", c.Seq, attemptID, recordingID, domain.ErrConflict)
		case open && (rec.data.bool("complete") || rec.data.bool("deleted")):
			return fmt.Errorf("recording %s/%s: %w", attemptID, recordingID, store.ErrRecordingClosed)
		case l.RecordingBytes > 0 && rec.data.int("bytes")+c.Bytes > l.RecordingBytes:
			return fmt.Errorf("recording %s/%s holds %d bytes: %w", attemptID, recordingID, rec.data.int("bytes"), store.ErrRecordingFull)
		}
		used, err := s.storageUsed(ctx, t, student)
		if err != nil {
			return err
		}
		if l.StudentBytes > 0 && used+c.Bytes > l.StudentBytes {
			return fmt.Errorf("student %s holds %d bytes: %w", student, used, store.ErrStorageQuota)
		}
		t.create(chunk.ref, chunkFields(c))
		t.update(rec, map[string]any{"chunks": rec.data.int("chunks") + 1, "bytes": rec.data.int("bytes") + c.Bytes})
		t.set(s.ref(colStorage, student), map[string]any{"bytes": used + c.Bytes})
		return nil
	})
}

// studentOf returns the id of the attempt's student. An attempt's student
// never changes, so outside a transaction it is read before one starts,
// and the chunk transactions do not lock the attempt (which phase
// changes write).
func (s *Store) studentOf(ctx context.Context, attemptID string) (string, error) {
	d, err := s.read().get(ctx, s.ref(colAttempts, attemptID))
	if err != nil {
		return "", err
	}
	if !d.exists {
		return "", fmt.Errorf("attempt %s: %w", attemptID, domain.ErrNotFound)
	}
	return d.data.str("studentId"), nil
}

// storageUsed reads the student's storageUsage document in the
// transaction. A student whose recordings were stored before the
// document existed has none yet: their recordings' bytes are added up
// (in the same transaction) and the caller writes the document.
func (s *Store) storageUsed(ctx context.Context, t *txn, student string) (int64, error) {
	d, err := t.get(ctx, s.ref(colStorage, student))
	if err != nil || d.exists {
		return d.data.int("bytes"), err
	}
	attempts, err := t.query(ctx, collection(colAttempts).whereEq("studentId", student).selecting("studentId"))
	if err != nil {
		return 0, err
	}
	var used int64
	for _, a := range attempts {
		recs, err := t.query(ctx, subcollection(a.ref, colRecordings).selecting("bytes"))
		if err != nil {
			return 0, err
		}
		for _, r := range recs {
			used += r.data.int("bytes")
		}
	}
	return used, nil
}

func (s *Store) StorageUsed(ctx context.Context, studentID string) (int64, error) {
	if s.tx == nil { // one read, the usual case (it is asked before each chunk)
		d, err := direct{s.c}.get(ctx, s.ref(colStorage, studentID))
		if err != nil || d.exists {
			return d.data.int("bytes"), err
		}
	}
	var used int64
	// A transaction, because a student without a storageUsage document has
	// their recordings added up, which must be read consistently.
	err := s.write(ctx, func(t *txn) error {
		var err error
		used, err = s.storageUsed(ctx, t, studentID)
		return err
	})
	return used, err
}

func (s *Store) GetChunk(ctx context.Context, attemptID, recordingID string, seq int) (domain.ChunkInfo, error) {
	return getOne(ctx, s.read(), s.chunkRef(attemptID, recordingID, seq), chunkFrom)
}

func (s *Store) ListChunks(ctx context.Context, attemptID, recordingID string) ([]domain.ChunkInfo, error) {
	docs, err := s.read().query(ctx, subcollection(s.recordingRef(attemptID, recordingID), colChunks))
	if err != nil {
		return nil, err
	}
	out, err := decodeAll(docs, chunkFrom)
	slices.SortFunc(out, func(a, b domain.ChunkInfo) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, err
}

// DeleteChunks deletes the chunks and gives their bytes back to the
// student's storageUsage document (when it exists; one made later adds up
// the recordings, which then hold nothing of these), in one transaction.
func (s *Store) DeleteChunks(ctx context.Context, attemptID, recordingID string) error {
	student, err := s.studentOf(ctx, attemptID)
	if err != nil && !isNotFound(err) {
		return err
	}
	return s.write(ctx, func(t *txn) error {
		rec, err := t.get(ctx, s.recordingRef(attemptID, recordingID))
		if err != nil {
			return err
		}
		chunks, err := t.query(ctx, subcollection(rec.ref, colChunks))
		if err != nil {
			return err
		}
		var freed int64
		for _, c := range chunks {
			freed += c.data.int("bytes")
			t.delete(c.ref)
		}
		if rec.exists {
			t.update(rec, map[string]any{"chunks": int64(0), "bytes": int64(0)})
		}
		if student == "" || freed == 0 {
			return nil
		}
		usage, err := t.get(ctx, s.ref(colStorage, student))
		if err != nil || !usage.exists {
			return err
		}
		t.update(usage, map[string]any{"bytes": max(usage.data.int("bytes")-freed, 0)})
		return nil
	})
}
