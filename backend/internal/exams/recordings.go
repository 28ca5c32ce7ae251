package exams

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
)

// Limits of the chunked upload; the configurable ones are in Limits.
const (
	MaxChunkBytes = 2 << 20 // one chunk (2 s of Opus is about 8 kB)
	MaxChunks     = 4000
	maxLevels     = 15 * 60 * 5 // 15 minutes at one level every 200 ms
)

var recordingIDPattern = regexp.MustCompile(`^[A-Za-z0-9-]{8,64}$`)

func recordingNotFound() error {
	return domain.NotFound("recording_not_found", "La grabación no existe.")
}

func mediaKey(attemptID, recordingID string) string { return attemptID + "/" + recordingID }

// PutRecording registers a take of a recorded phase. The id is made by the
// browser, so a retried call finds the same recording. A new take is
// refused for a phase that has not started, once the tutor graded the
// attempt, and when the phase has as many takes as the mode allows; one
// registered after its phase ended is kept (uploads lag behind recording)
// and reported late.
func (s *Service) PutRecording(ctx context.Context, u domain.User, attemptID, rid string, phase int, mimeType string) (domain.Recording, error) {
	if !recordingIDPattern.MatchString(rid) {
		return domain.Recording{}, domain.Invalid("invalid_recording_id", "El identificador de la grabación no es válido.")
	}
	a, err := s.loadOwn(ctx, u, attemptID)
	if err != nil {
		return domain.Recording{}, err
	}
	if !a.IsPhaseRecorded(phase) {
		return domain.Recording{}, domain.Invalid("phase_not_recorded", "Esa fase no se graba.")
	}
	mimeType, ok := domain.ParseAudioType(mimeType)
	if !ok {
		return domain.Recording{}, domain.Invalid("invalid_mime", "Formato de audio no admitido.")
	}
	// Server time decides which phases have started; the attempt is not
	// saved here (reading it closes the same phases again).
	now := s.now()
	a.Sync(now)
	if existing, err := s.store.GetRecording(ctx, a.ID, rid); err == nil {
		existing.Late = a.TakeLate(existing)
		return existing, nil // a retry
	} else if !errors.Is(err, domain.ErrNotFound) {
		return existing, err
	}
	if err := a.AcceptsTake(phase); err != nil {
		return domain.Recording{}, err
	}
	r, err := s.store.CreateTake(ctx, domain.Recording{ID: rid, AttemptID: a.ID, Phase: phase, MimeType: mimeType, CreatedAt: now.UTC()}, s.takeLimit(a))
	if errors.Is(err, store.ErrTakeLimit) {
		return domain.Recording{}, tooManyTakes(a, s.takeLimit(a))
	}
	r.Late = a.TakeLate(r)
	return r, err
}

// ownRecording loads a recording of the student's own attempt, with the
// attempt (synced to server time).
func (s *Service) ownRecording(ctx context.Context, u domain.User, attemptID, rid string) (domain.Recording, domain.Attempt, error) {
	a, err := s.loadOwn(ctx, u, attemptID)
	if err != nil {
		return domain.Recording{}, a, err
	}
	a.Sync(s.now())
	r, err := s.store.GetRecording(ctx, a.ID, rid)
	if errors.Is(err, domain.ErrNotFound) {
		return r, a, recordingNotFound()
	}
	r.Late = a.TakeLate(r)
	return r, a, err
}

// uploadTarget is ownRecording for a chunk upload, which needs neither the
// attempt nor its phase clock: only that the user owns the attempt. The
// owner of an attempt never changes, so it is kept in memory after the
// first chunk (see owners), and a chunk reads the recording alone.
func (s *Service) uploadTarget(ctx context.Context, u domain.User, attemptID, rid string) (domain.Recording, string, error) {
	if owner, ok := s.owners.get(attemptID); !ok || owner != u.ID {
		// Unknown, or another user's: the full check gives the right answer.
		a, err := s.loadOwn(ctx, u, attemptID)
		if err != nil {
			return domain.Recording{}, "", err
		}
		s.owners.put(a.ID, a.StudentID)
	}
	r, err := s.store.GetRecording(ctx, attemptID, rid)
	if errors.Is(err, domain.ErrNotFound) {
		return r, "", recordingNotFound()
	}
	return r, u.ID, err
}

// PutChunk stores chunk seq of a recording, streaming body to the media
// store. The same chunk sent again (a retry after a lost response) is
// acknowledged; different content under the same number is refused, also
// once the recording is complete. Chunks are accepted after the phase
// ended: uploads lag behind recording.
//
// The recording's and the student's byte limits are checked twice: before
// the media write, from what was read (so that a student over a limit
// writes nothing), and in the store's transaction that records the chunk
// (so that uploads racing each other cannot pass them together). A chunk
// refused by the second check has been written to the media store under
// its number; it stays there unacknowledged, as after a crash, and goes
// with the recording. Only uploads in flight at the moment a limit is
// reached can leave one, 2 MB at most each.
func (s *Service) PutChunk(ctx context.Context, u domain.User, attemptID, rid string, seq int, body io.Reader, sha string) (domain.ChunkInfo, error) {
	if seq < 0 || seq >= MaxChunks {
		return domain.ChunkInfo{}, domain.Invalid("invalid_seq", "Número de fragmento no válido.")
	}
	r, studentID, err := s.uploadTarget(ctx, u, attemptID, rid)
	if err != nil {
		return domain.ChunkInfo{}, err
	}
	if r.Deleted {
		return domain.ChunkInfo{}, recordingClosed()
	}
	if r.Complete {
		// Only a stored number may be sent again; the body is read only
		// then, to tell a retry from other bytes.
		if _, err := s.store.GetChunk(ctx, attemptID, rid, seq); errors.Is(err, domain.ErrNotFound) {
			return domain.ChunkInfo{}, recordingClosed()
		} else if err != nil {
			return domain.ChunkInfo{}, err
		}
	}
	staged, err := s.media.Stage(body, MaxChunkBytes)
	if errors.Is(err, media.ErrTooLarge) {
		return domain.ChunkInfo{}, &domain.UserError{Kind: domain.ErrTooLarge, Code: "chunk_too_large", Message: "El fragmento de audio supera los 2 MB."}
	}
	if err != nil {
		return domain.ChunkInfo{}, err
	}
	if sha != "" && !strings.EqualFold(sha, staged.SHA256) {
		staged.Discard()
		return domain.ChunkInfo{}, domain.Invalid("chunk_corrupt", "El fragmento llegó dañado; se reintentará.")
	}
	info := domain.ChunkInfo{Seq: seq, Bytes: staged.Bytes, SHA256: staged.SHA256}
	if existing, err := s.store.GetChunk(ctx, attemptID, rid, seq); err == nil {
		// A retry (acknowledged again, even once the recording is
		// complete), or other bytes under a stored number (refused).
		staged.Discard()
		return existing, sameChunk(existing, info)
	} else if !errors.Is(err, domain.ErrNotFound) {
		staged.Discard()
		return info, err
	}
	if err := s.checkRoom(ctx, r, studentID, info); err != nil {
		staged.Discard()
		return info, err
	}
	if err := s.media.Commit(ctx, staged, mediaKey(attemptID, rid), seq); errors.Is(err, media.ErrConflict) {
		// Other bytes are stored under this number with no entry in the
		// database (stored, then a crash before the entry was written).
		return info, chunkConflict(seq)
	} else if err != nil {
		return info, err
	}
	l := s.limits
	err = s.store.AddChunkWithin(ctx, attemptID, rid, info, store.ChunkLimits{RecordingBytes: l.RecordingBytes, StudentBytes: l.StudentBytes})
	switch {
	case err == nil:
		return info, nil
	case errors.Is(err, domain.ErrConflict): // a concurrent retry stored it first
		existing, gerr := s.store.GetChunk(ctx, attemptID, rid, seq)
		if gerr != nil {
			return info, gerr
		}
		return existing, sameChunk(existing, info)
	case errors.Is(err, store.ErrRecordingClosed):
		return info, recordingClosed()
	case errors.Is(err, store.ErrRecordingFull):
		return info, recordingTooLarge(l.RecordingBytes)
	case errors.Is(err, store.ErrStorageQuota):
		return info, storageQuotaExceeded(l.StudentBytes)
	}
	return info, err
}

// checkRoom refuses, before anything is written, a chunk for a closed
// recording or one that would pass the recording's or the student's
// limit as last read.
func (s *Service) checkRoom(ctx context.Context, r domain.Recording, studentID string, c domain.ChunkInfo) error {
	if r.Complete {
		return recordingClosed()
	}
	if r.Bytes+c.Bytes > s.limits.RecordingBytes {
		return recordingTooLarge(s.limits.RecordingBytes)
	}
	used, err := s.store.StorageUsed(ctx, studentID)
	if err != nil {
		return err
	}
	if used+c.Bytes > s.limits.StudentBytes {
		return storageQuotaExceeded(s.limits.StudentBytes)
	}
	return nil
}

func recordingClosed() error {
	return domain.Conflict("recording_closed", "La grabación ya está completa o fue eliminada.")
}

func sameChunk(stored, got domain.ChunkInfo) error {
	if stored.SHA256 == got.SHA256 {
		return nil
	}
	return chunkConflict(got.Seq)
}

func chunkConflict(seq int) error {
	return domain.Conflict("chunk_conflict", fmt.Sprintf("El fragmento %d ya se recibió con otro contenido.", seq))
}

// Complete closes a recording once chunks 0..n-1 are all stored.
func (s *Service) Complete(ctx context.Context, u domain.User, attemptID, rid string, n int, durationMs int64, levels []float64) (domain.Recording, error) {
	r, a, err := s.ownRecording(ctx, u, attemptID, rid)
	if err != nil {
		return r, err
	}
	if r.Deleted {
		return r, domain.Conflict("recording_closed", "La grabación fue eliminada.")
	}
	if n < 0 || n > MaxChunks || durationMs < 0 || durationMs > int64(4*time.Hour/time.Millisecond) {
		return r, domain.Invalid("invalid_complete", "Datos de cierre de la grabación no válidos.")
	}
	chunks, err := s.store.ListChunks(ctx, attemptID, rid)
	if err != nil {
		return r, err
	}
	have := make(map[int]bool, len(chunks))
	for _, c := range chunks {
		have[c.Seq] = true
	}
	var missing []int
	for i := range n {
		if !have[i] {
			missing = append(missing, i)
		}
	}
	if len(missing) > 0 {
		return r, &domain.UserError{Kind: domain.ErrConflict, Code: "chunks_missing",
			Message: "Faltan fragmentos de la grabación; se enviarán de nuevo.", Details: map[string][]int{"missing": missing}}
	}
	if len(levels) > maxLevels {
		levels = levels[:maxLevels]
	}
	for i, l := range levels {
		levels[i] = min(max(l, 0), 1)
	}
	wasComplete := r.Complete
	r.Complete, r.DurationMs, r.Levels = true, durationMs, levels
	if err := s.store.UpdateRecording(ctx, r); err != nil {
		return r, err
	}
	if !r.Composed {
		s.compose(ctx, r)
	}
	if !wasComplete && s.onComplete != nil {
		if err := s.onComplete(ctx, r); err != nil {
			// The recording is safe; only its server transcript is delayed.
			s.log.Warn("recording completed but its follow-up failed", "attempt", attemptID, "recording", rid, "err", err)
		}
	}
	r, err = s.store.GetRecording(ctx, attemptID, rid)
	r.Late = a.TakeLate(r)
	return r, err
}

// OnRecordingComplete registers what to do once a recording is complete
// (e.g. queue its server transcription).
func (s *Service) OnRecordingComplete(f func(context.Context, domain.Recording) error) {
	s.onComplete = f
}

// OpenRecording opens a recording for internal use (transcription), with
// no viewer check.
func (s *Service) OpenRecording(ctx context.Context, attemptID, rid string) (Media, domain.Recording, error) {
	r, err := s.store.GetRecording(ctx, attemptID, rid)
	if err != nil {
		return Media{}, r, err
	}
	if r.Deleted {
		return Media{}, r, recordingNotFound()
	}
	m, err := s.openChunks(ctx, r)
	return m, r, err
}

func (s *Service) openChunks(ctx context.Context, r domain.Recording) (Media, error) {
	chunks, err := s.playableChunks(ctx, r)
	if err != nil {
		return Media{}, err
	}
	sizes := make([]int64, len(chunks))
	var total int64
	for i, c := range chunks {
		sizes[i] = c.Bytes
		total += c.Bytes
	}
	rc, err := s.media.Open(ctx, mediaKey(r.AttemptID, r.ID), sizes, r.Composed)
	if err != nil {
		return Media{}, err
	}
	return Media{Content: rc, MimeType: domain.CanonicalAudioType(r.MimeType), Size: total}, nil
}

// playableChunks lists the recording's chunks from 0 up to its first gap.
func (s *Service) playableChunks(ctx context.Context, r domain.Recording) ([]media.Chunk, error) {
	chunks, err := s.store.ListChunks(ctx, r.AttemptID, r.ID)
	if err != nil {
		return nil, err
	}
	out := make([]media.Chunk, 0, len(chunks))
	for i, c := range chunks {
		if c.Seq != i {
			break
		}
		out = append(out, media.Chunk{Bytes: c.Bytes, SHA256: c.SHA256})
	}
	return out, nil
}

// Background composing: recordings that end together (a class sitting a
// mock exam at once) must not slow the acknowledgement of other students'
// chunks, nor hold up the browser's upload queue, which waits for the
// complete call before sending the next take's chunks.
const (
	composeWorkers  = 2
	composeQueueLen = 1000
	composeTimeout  = 5 * time.Minute
)

// StartComposer composes completed recordings in the background,
// composeWorkers at a time, until ctx ends (wg counts its goroutines);
// call it before serving. Without
// it (tests, terminal commands) Complete composes before it answers. What
// the composer has not done when the server stops, or could not queue, the
// sweep (ComposePending) does.
func (s *Service) StartComposer(ctx context.Context, wg *sync.WaitGroup) {
	s.composeQueue = make(chan domain.Recording, composeQueueLen)
	for range composeWorkers {
		wg.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case r := <-s.composeQueue:
					cctx, cancel := context.WithTimeout(ctx, composeTimeout)
					if err := s.composeMedia(cctx, r); err != nil && ctx.Err() == nil {
						s.log.Warn("recording completed but its chunks were not composed; the sweep will retry", "attempt", r.AttemptID, "recording", r.ID, "err", err)
					}
					cancel()
				}
			}
		})
	}
}

// compose composes a recording that was just completed, in the background
// when StartComposer runs.
func (s *Service) compose(ctx context.Context, r domain.Recording) {
	if s.composeQueue != nil {
		select {
		case s.composeQueue <- r:
		default:
			s.log.Warn("compose queue full; the sweep will compose the recording", "attempt", r.AttemptID, "recording", r.ID)
		}
		return
	}
	if err := s.composeMedia(ctx, r); err != nil {
		// The chunks stay and play; the sweep (ComposePending) retries.
		s.log.Warn("recording completed but its chunks were not composed", "attempt", r.AttemptID, "recording", r.ID, "err", err)
	}
}

// composeMedia joins a complete recording's chunks into one media object,
// verified before the chunks are removed, and records it. On failure the
// chunks stay and keep playing; calling it again finishes the job.
func (s *Service) composeMedia(ctx context.Context, r domain.Recording) error {
	r, err := s.store.GetRecording(ctx, r.AttemptID, r.ID)
	if err != nil || r.Deleted || r.Composed || !r.Complete {
		return err // gone, or done by another instance or an earlier run
	}
	chunks, err := s.playableChunks(ctx, r)
	if err != nil {
		return err
	}
	key := mediaKey(r.AttemptID, r.ID)
	if err := s.media.Compose(ctx, key, chunks); err != nil {
		return err
	}
	if err := s.store.MarkRecordingComposed(ctx, r.AttemptID, r.ID); errors.Is(err, domain.ErrNotFound) {
		// Deleted while it was composed: remove what the compose wrote.
		return s.media.Delete(ctx, key)
	} else if err != nil {
		return err
	}
	return nil
}

// composeBatch is how many recordings one ComposePending pass looks at.
const composeBatch = 50

// ComposePending composes complete recordings whose compose failed or never
// ran (a crash, an outage of the media store, recordings from before
// composing existed), oldest first, and returns how many it composed.
func (s *Service) ComposePending(ctx context.Context) (int, error) {
	list, err := s.store.RecordingsToCompose(ctx, composeBatch)
	if err != nil {
		return 0, err
	}
	n := 0
	var errs []error
	for _, r := range list {
		if err := s.composeMedia(ctx, r); err != nil {
			errs = append(errs, fmt.Errorf("recording %s/%s: %w", r.AttemptID, r.ID, err))
			continue
		}
		n++
	}
	return n, errors.Join(errs...)
}

// Media is a recording opened for playback.
type Media struct {
	Content  io.ReadSeekCloser
	MimeType string
	Size     int64
}

// OpenMedia opens a recording for its student or the group's tutor. Only
// the contiguous chunks from 0 are served (a recording still uploading
// plays up to its first gap).
func (s *Service) OpenMedia(ctx context.Context, u domain.User, attemptID, rid string) (Media, error) {
	a, err := s.load(ctx, u, attemptID)
	if err != nil {
		return Media{}, err
	}
	r, err := s.store.GetRecording(ctx, a.ID, rid)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && r.Deleted) {
		return Media{}, recordingNotFound()
	}
	if err != nil {
		return Media{}, err
	}
	return s.openChunks(ctx, r)
}

// DeleteRecording removes a recording's audio at its student's request; the
// attempt keeps its scores and the recording's entry says it was deleted.
func (s *Service) DeleteRecording(ctx context.Context, u domain.User, attemptID, rid string) error {
	r, _, err := s.ownRecording(ctx, u, attemptID, rid)
	if err != nil {
		return err
	}
	return s.deleteMedia(ctx, r)
}

func (s *Service) deleteMedia(ctx context.Context, r domain.Recording) error {
	if r.Deleted {
		if r.Chunks > 0 { // an earlier deletion stopped after marking it
			return s.store.DeleteChunks(ctx, r.AttemptID, r.ID)
		}
		return nil
	}
	key := mediaKey(r.AttemptID, r.ID)
	// The audio goes first: when that fails, the recording is not marked
	// deleted, so the student's retry or the next retention sweep finds it
	// and deletes it again (deleting what is gone is no error).
	if err := s.media.Delete(ctx, key); err != nil {
		return err
	}
	r.Deleted, r.Levels = true, nil
	if err := s.store.UpdateRecording(ctx, r); err != nil {
		return err
	}
	if err := s.store.DeleteChunks(ctx, r.AttemptID, r.ID); err != nil {
		return err
	}
	// A compose that was under way may have written its object after the
	// first pass and before the mark; one started later is refused its
	// mark and removes its own output (composeMedia).
	if err := s.media.Delete(ctx, key); err != nil {
		s.log.Warn("recording deleted but a second pass over its media failed", "attempt", r.AttemptID, "recording", r.ID, "err", err)
	}
	return nil
}

// DeleteOlderThan removes the audio of recordings made before t (the
// configured retention period) and returns how many it removed.
func (s *Service) DeleteOlderThan(ctx context.Context, t time.Time) (int, error) {
	n := 0
	for {
		old, err := s.store.RecordingsOlderThan(ctx, t, 100)
		if err != nil || len(old) == 0 {
			return n, err
		}
		for _, r := range old {
			if err := s.deleteMedia(ctx, r); err != nil {
				return n, err
			}
			n++
		}
	}
}

// MediaWriteTimeout bounds serving one recording (a long take on a slow
// phone connection).
const MediaWriteTimeout = 30 * time.Minute
