package transcribe

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/store"
)

// JobKind names transcription jobs in the job table.
const JobKind = "transcribe"

type payload struct {
	AttemptID   string `json:"attemptId"`
	RecordingID string `json:"recordingId"`
}

// Worker runs transcription jobs one at a time.
type Worker struct {
	store    store.Store
	exams    *exams.Service
	feedback *feedback.Service
	client   *Client
	log      *slog.Logger

	MaxAttempts int           // then the job fails for good
	BaseBackoff time.Duration // doubled at each retry, with jitter
	MaxBackoff  time.Duration
	Poll        time.Duration // how often to look for due jobs when idle
	Lease       time.Duration // how long a claimed job is ours (beyond: a crash)
	// Queueing a job is not atomic with completing its recording (another
	// package does that, then calls Enqueue): a crash in between loses the
	// job. Run sweeps at start and then every SweepEvery for recordings
	// created in the last SweepWindow that were completed with audio and
	// have neither a server transcript, a correction nor a job.
	SweepEvery  time.Duration
	SweepWindow time.Duration

	now  func() time.Time
	wake chan struct{}
}

// NewWorker wires a worker.
func NewWorker(s store.Store, e *exams.Service, f *feedback.Service, c *Client, log *slog.Logger) *Worker {
	return &Worker{store: s, exams: e, feedback: f, client: c, log: log, MaxAttempts: 6, BaseBackoff: 30 * time.Second,
		MaxBackoff: time.Hour, Poll: 10 * time.Second, Lease: c.cfg.Timeout + time.Minute,
		SweepEvery: 10 * time.Minute, SweepWindow: 7 * 24 * time.Hour, now: time.Now, wake: make(chan struct{}, 1)}
}

// SetClock replaces the clock (tests).
func (w *Worker) SetClock(now func() time.Time) { w.now = now }

// Enqueue queues the transcription of a completed recording; it is the
// exams service's completion hook. A recording already queued (or done)
// is not queued again.
func (w *Worker) Enqueue(ctx context.Context, r domain.Recording) error {
	_, err := w.enqueue(ctx, r)
	if errors.Is(err, domain.ErrConflict) {
		return nil
	}
	return err
}

func (w *Worker) enqueue(ctx context.Context, r domain.Recording) (string, error) {
	p, _ := json.Marshal(payload{AttemptID: r.AttemptID, RecordingID: r.ID})
	now := w.now().UTC()
	id := domain.NewID()
	if err := w.store.EnqueueJob(ctx, domain.Job{ID: id, Kind: JobKind, Subject: domain.RecordingSubject(r.AttemptID, r.ID),
		Payload: string(p), NextRunAt: now, CreatedAt: now}); err != nil {
		return "", err
	}
	select {
	case w.wake <- struct{}{}:
	default:
	}
	return id, nil
}

// sweepBatch bounds one sweep; the next one takes the rest.
const sweepBatch = 200

// Sweep queues the recordings whose job was lost (see SweepWindow) and
// returns how many it queued.
func (w *Worker) Sweep(ctx context.Context) (int, error) {
	recs, err := w.store.RecordingsWithoutJob(ctx, JobKind, w.now().Add(-w.SweepWindow), sweepBatch)
	if err != nil {
		return 0, err
	}
	queued := 0
	for _, r := range recs {
		switch _, err := w.enqueue(ctx, r); {
		case err == nil:
			queued++
		case errors.Is(err, domain.ErrConflict): // its completion hook got there first
		default:
			return queued, err
		}
	}
	if queued > 0 {
		w.log.Info("queued the transcription of recordings whose job was lost", "recordings", queued)
	}
	return queued, nil
}

// Run processes jobs until ctx ends, sweeping for lost jobs at start and
// every SweepEvery.
func (w *Worker) Run(ctx context.Context) {
	var lastSweep time.Time
	for {
		if lastSweep.IsZero() || w.now().Sub(lastSweep) >= w.SweepEvery {
			if _, err := w.Sweep(ctx); err != nil && ctx.Err() == nil {
				w.log.Warn("transcription sweep error", "err", err)
			}
			lastSweep = w.now()
		}
		for {
			worked, err := w.RunOnce(ctx)
			if err != nil && ctx.Err() == nil {
				w.log.Warn("transcription queue error", "err", err)
			}
			if !worked || ctx.Err() != nil {
				break
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-w.wake:
		case <-time.After(w.Poll):
		}
	}
}

// RunOnce claims and processes one due job; it reports whether there was one.
func (w *Worker) RunOnce(ctx context.Context) (bool, error) {
	now := w.now()
	if _, err := w.store.ReleaseExpiredLeases(ctx, now); err != nil {
		return false, err
	}
	job, err := w.store.ClaimJob(ctx, JobKind, now, now.Add(w.Lease))
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	err = w.process(ctx, job)
	finished := w.now()
	if ctx.Err() != nil {
		return true, w.release(ctx, job, err)
	}
	switch {
	case err == nil:
		return true, w.finish(ctx, job, domain.JobDone, "", finished, finished)
	case isPermanent(err) || job.Attempts >= w.MaxAttempts:
		w.log.Warn("transcription failed for good; the audio is kept", "job", job.ID, "attempts", job.Attempts, "err", err)
		return true, w.finish(ctx, job, domain.JobFailed, err.Error(), finished, finished)
	default:
		delay := w.backoff(job.Attempts)
		w.log.Info("transcription will be retried", "job", job.ID, "attempt", job.Attempts, "in", delay, "err", err)
		return true, w.finish(ctx, job, domain.JobPending, err.Error(), finished.Add(delay), finished)
	}
}

// releaseTimeout bounds giving a job back at shutdown (the instance has
// seconds left).
const releaseTimeout = 2 * time.Second

// release gives back a job interrupted by the server's shutdown (ctx
// ended): it is pending again at once, so another instance takes it now
// rather than when the lease would have ended. Its claim still counts as
// an attempt.
func (w *Worker) release(ctx context.Context, job domain.Job, cause error) error {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), releaseTimeout)
	defer cancel()
	now := w.now()
	msg := "interrupted by the server's shutdown"
	if cause != nil {
		msg += ": " + cause.Error()
	}
	if err := w.finish(rctx, job, domain.JobPending, msg, now, now); err != nil {
		return fmt.Errorf("give back job %s at shutdown: %w", job.ID, err)
	}
	w.log.Info("transcription job given back at shutdown", "job", job.ID)
	return nil
}

// finish records a job's outcome; a worker that outlived its lease (its job
// was claimed again) leaves the outcome to the worker holding it now.
func (w *Worker) finish(ctx context.Context, job domain.Job, status, lastError string, retryAt, now time.Time) error {
	err := w.store.FinishJob(ctx, job.ID, job.Attempts, status, lastError, retryAt, now)
	if errors.Is(err, domain.ErrConflict) {
		w.log.Info("transcription job was claimed again after its lease ended", "job", job.ID, "attempt", job.Attempts)
		return nil
	}
	return err
}

func (w *Worker) backoff(attempt int) time.Duration {
	d := w.BaseBackoff << min(attempt-1, 16)
	if d > w.MaxBackoff || d <= 0 {
		d = w.MaxBackoff
	}
	// ±20 % jitter so retries of many recordings do not arrive together.
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

func isPermanent(err error) bool {
	var pe *PermanentError
	return errors.As(err, &pe)
}

func (w *Worker) process(ctx context.Context, job domain.Job) error {
	var p payload
	if err := json.Unmarshal([]byte(job.Payload), &p); err != nil {
		return &PermanentError{fmt.Errorf("bad payload: %w", err)}
	}
	m, r, err := w.exams.OpenRecording(ctx, p.AttemptID, p.RecordingID)
	if errors.Is(err, domain.ErrNotFound) {
		return nil // deleted by its student: nothing to transcribe
	}
	if err != nil {
		return err
	}
	defer m.Content.Close()
	lang, segs, err := w.client.Transcribe(ctx, m.Content, "grabacion"+transcriptionExtension(r.MimeType), r.DurationMs)
	if err != nil {
		return err
	}
	stored, err := w.feedback.SaveServerTranscript(ctx, p.AttemptID, p.RecordingID, lang, segs)
	if err == nil && !stored {
		w.log.Info("server transcript not stored: empty, or the recording has a correction", "job", job.ID)
	}
	return err
}

// transcriptionExtension names the file sent for transcription after the
// take's type, so the service decodes MP4 (Safari) and Ogg takes as such; a
// type the server does not know is sent as WebM, the common case.
func transcriptionExtension(mimeType string) string {
	if ext := domain.AudioExtension(mimeType); ext != "" {
		return ext
	}
	return ".webm"
}
