package migrate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
)

// The audio of a recording is in the media store under the recording's key
// ("attempt/recording"), as the chunks 0…n-1 while it is not composed and
// as one composed object once it is (Recording.Composed). What is copied
// is what the source holds, in the same form: the composed object of a
// composed recording (stored at the destination with PutComposed), each
// chunk of one that is not (committed as the server commits an upload).

// audio is what a recording's audio is made of.
type audio struct {
	key      string
	composed bool
	// chunks are what the audio must be, in order: for a composed
	// recording the chunks 0…n-1 it was composed of; otherwise every
	// stored chunk (an upload may have left a gap).
	chunks []domain.ChunkInfo
}

// audioOf says what a recording's audio is; ok is false when it has none
// (deleted, or no chunk arrived).
func audioOf(v store.RecordingRecord) (a audio, ok bool) {
	rec := v.Recording
	if rec.Deleted || len(v.Chunks) == 0 {
		return a, false
	}
	a = audio{key: store.RecordingKey(rec.AttemptID, rec.ID), composed: rec.Composed}
	for i, c := range v.Chunks {
		if a.composed && c.Seq != i {
			break // the server composes the chunks up to the first gap
		}
		a.chunks = append(a.chunks, c)
	}
	return a, true
}

func mediaChunks(cs []domain.ChunkInfo) []media.Chunk {
	out := make([]media.Chunk, len(cs))
	for i, c := range cs {
		out[i] = media.Chunk{Bytes: c.Bytes, SHA256: c.SHA256}
	}
	return out
}

func (a audio) bytes() int64 {
	var n int64
	for _, c := range a.chunks {
		n += c.Bytes
	}
	return n
}

// mediaJob is a recording whose audio is to be copied.
type mediaJob struct {
	audio
	// missing lists the chunks to copy (not composed).
	missing []domain.ChunkInfo
	// replace deletes the destination's audio first (--overwrite over
	// audio that differs).
	replace bool
}

// state is what a store holds of a recording's audio.
type state int

const (
	stateMissing   state = iota // nothing, or some chunks are missing
	statePresent                // all of it, matching the chunks' sizes and hashes
	stateDifferent              // something else
)

// inspect reads what m holds of a's audio and checks it against the
// chunks. For audio not composed it also lists the chunks that are
// missing. sum is the SHA-256 of the whole audio when it is present.
func inspect(r *run, m media.Transfer, a audio) (st state, missing []domain.ChunkInfo, sum string, err error) {
	whole := sha256.New()
	if a.composed {
		rc, err := m.ReadComposed(r.ctx, a.key)
		if errors.Is(err, media.ErrNotFound) {
			return stateMissing, nil, "", nil
		}
		if err != nil {
			return 0, nil, "", err
		}
		defer rc.Close()
		v := media.NewVerifier(mediaChunks(a.chunks))
		if _, err := io.Copy(io.MultiWriter(v, whole), rc); err != nil && !errors.Is(err, media.ErrMismatch) {
			return 0, nil, "", err
		}
		if v.Check() != nil {
			return stateDifferent, nil, "", nil
		}
		return statePresent, nil, hex.EncodeToString(whole.Sum(nil)), nil
	}
	st = statePresent
	for _, c := range a.chunks {
		b, err := readChunk(r, m, a.key, c)
		switch {
		case errors.Is(err, media.ErrNotFound):
			missing = append(missing, c)
			st = min(st, stateMissing)
		case errors.Is(err, media.ErrMismatch):
			return stateDifferent, nil, "", nil
		case err != nil:
			return 0, nil, "", err
		default:
			whole.Write(b)
		}
	}
	if st != statePresent {
		return st, missing, "", nil
	}
	return statePresent, nil, hex.EncodeToString(whole.Sum(nil)), nil
}

// readChunk reads one stored chunk and checks it against c (ErrMismatch).
func readChunk(r *run, m media.Transfer, key string, c domain.ChunkInfo) ([]byte, error) {
	rc, err := m.ReadChunk(r.ctx, key, c.Seq)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	// A chunk is at most 2 MiB: read one byte more than recorded to see a
	// longer one.
	b, err := io.ReadAll(io.LimitReader(rc, c.Bytes+1))
	if err != nil {
		return nil, err
	}
	v := media.NewVerifier(mediaChunks([]domain.ChunkInfo{c}))
	if _, err := v.Write(b); err != nil {
		return nil, err
	}
	return b, v.Check()
}

// eachAudio calls fn for every source recording that has audio, a few at
// a time; the first error stops it.
func (r *run) eachAudio(fn func(a audio) error) error {
	var mu sync.Mutex
	var firstErr error
	jobs := make(chan audio)
	var wg sync.WaitGroup
	for range mediaWorkers {
		wg.Go(func() {
			for a := range jobs {
				if err := fn(a); err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
				}
			}
		})
	}
	err := eachPage(r.ctx, r.From.Store, store.KindRecordings, func(recs []store.Record) error {
		for _, rec := range recs {
			mu.Lock()
			stop := firstErr
			mu.Unlock()
			if stop != nil {
				return stop
			}
			if a, ok := audioOf(rec.Value.(store.RecordingRecord)); ok {
				jobs <- a
			}
		}
		return nil
	})
	close(jobs)
	wg.Wait()
	if err != nil {
		return err
	}
	return firstErr
}

// planMedia checks, for every recording with audio, what the destination
// holds of it.
func (r *run) planMedia() error {
	m := &r.report.Media
	if r.report.SameMedia {
		r.logf("plan: audio is in the same place on both sides (%s): nothing to copy", r.From.MediaName)
		return nil
	}
	var mu sync.Mutex
	var conflicts []string
	err := r.eachAudio(func(a audio) error {
		st, missing, _, err := inspect(r, r.To.Media, a)
		if err != nil {
			return fmt.Errorf("read the audio of recording %s at the destination: %w", a.key, err)
		}
		mu.Lock()
		defer mu.Unlock()
		m.Source++
		m.SourceBytes += a.bytes()
		switch {
		case st == statePresent:
			m.Present++
		case st == stateMissing:
			m.ToCopy++
			r.mediaPlan = append(r.mediaPlan, mediaJob{audio: a, missing: missing})
		case r.Overwrite:
			m.ToCopy++
			r.mediaPlan = append(r.mediaPlan, mediaJob{audio: a, missing: a.chunks, replace: true})
		default:
			conflicts = append(conflicts, a.key)
		}
		return nil
	})
	if err != nil {
		return err
	}
	if len(conflicts) > 0 {
		r.problem("audio: %d recordings hold other audio at the destination (e.g. %s); --overwrite replaces it with the source's", len(conflicts), sample(conflicts))
	}
	r.logf("plan: %-17s %6d in the source, %6d already at the destination, %6d to copy", "audio", m.Source, m.Present, m.ToCopy)
	return nil
}

// copyMedia copies the planned audio, a few recordings at a time. Audio
// that does not match its chunks at the source is not copied: it is
// reported, and the run goes on with the others.
func (r *run) copyMedia() error {
	if len(r.mediaPlan) == 0 {
		return nil
	}
	var mu sync.Mutex
	var firstErr error
	jobs := make(chan mediaJob)
	var wg sync.WaitGroup
	for range mediaWorkers {
		wg.Go(func() {
			for j := range jobs {
				err := r.copyAudio(j)
				mu.Lock()
				switch {
				case errors.Is(err, errSourceAudio):
					// The verification reports it.
					r.report.Media.Skipped++
					r.logf("skip: %v", err)
				case err != nil:
					if firstErr == nil {
						firstErr = fmt.Errorf("copy the audio of recording %s: %w", j.key, err)
					}
				default:
					r.report.Media.Copied++
					if cerr := r.count(1); cerr != nil && firstErr == nil {
						firstErr = cerr
					}
				}
				mu.Unlock()
			}
		})
	}
	for _, j := range r.mediaPlan {
		mu.Lock()
		stop := firstErr
		mu.Unlock()
		if stop != nil {
			break
		}
		jobs <- j
	}
	close(jobs)
	wg.Wait()
	if r.report.Media.Copied > 0 {
		r.logf("copy: %-17s %6d recordings written", "audio", r.report.Media.Copied)
	}
	return firstErr
}

// errSourceAudio marks audio that does not match its chunks at the source.
var errSourceAudio = errors.New("the source's audio does not match its chunks' sizes and SHA-256")

func (r *run) copyAudio(j mediaJob) error {
	if j.replace {
		if err := r.To.Media.Delete(r.ctx, j.key); err != nil {
			return err
		}
	}
	if j.composed {
		rc, err := r.From.Media.ReadComposed(r.ctx, j.key)
		if errors.Is(err, media.ErrNotFound) {
			return fmt.Errorf("recording %s: %w (its composed audio is missing)", j.key, errSourceAudio)
		}
		if err != nil {
			return err
		}
		defer rc.Close()
		// The source is checked as it is read, so that a mismatch is
		// known to be the source's (PutComposed checks again).
		src := &checkedReader{r: rc, v: media.NewVerifier(mediaChunks(j.chunks))}
		err = r.To.Media.PutComposed(r.ctx, j.key, src, mediaChunks(j.chunks))
		if src.bad != nil {
			return fmt.Errorf("recording %s: %w (%v)", j.key, errSourceAudio, src.bad)
		}
		return err
	}
	for _, c := range j.missing {
		b, err := readChunk(r, r.From.Media, j.key, c)
		if errors.Is(err, media.ErrNotFound) || errors.Is(err, media.ErrMismatch) {
			return fmt.Errorf("recording %s chunk %d: %w (%v)", j.key, c.Seq, errSourceAudio, err)
		}
		if err != nil {
			return err
		}
		staged, err := r.To.Media.Stage(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			return err
		}
		if err := r.To.Media.Commit(r.ctx, staged, j.key, c.Seq); err != nil {
			return fmt.Errorf("chunk %d: %w", c.Seq, err)
		}
	}
	return nil
}

// checkedReader passes r on, checking it with v; a mismatch ends it with
// bad set.
type checkedReader struct {
	r   io.Reader
	v   *media.Verifier
	bad error
}

func (c *checkedReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		if _, verr := c.v.Write(p[:n]); verr != nil {
			c.bad = verr
			return n, verr
		}
	}
	if errors.Is(err, io.EOF) {
		if verr := c.v.Check(); verr != nil {
			c.bad = verr
			return n, verr
		}
	}
	return n, err
}
