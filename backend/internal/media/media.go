// Package media keeps the audio of recordings. A recording arrives as
// numbered chunks, each stored as its own file or object the moment it is
// acknowledged; once the recording is complete its chunks are joined into
// one object (composed), checked, and only then removed. Playback reads the
// chunks or the composed object as one seekable stream.
//
// Two adapters implement Store: Dir, a directory under DATA_DIR (the
// default), and Bucket, a Cloud Storage bucket (MEDIA_BUCKET). docs/media.md
// explains the design and its failure cases.
package media

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"regexp"
)

var (
	// ErrTooLarge is returned when a chunk exceeds its size limit.
	ErrTooLarge = errors.New("chunk too large")
	// ErrConflict is returned by Commit when different bytes are already
	// stored under the chunk's number.
	ErrConflict = errors.New("a different chunk is stored under that number")
	// ErrMismatch is returned by Compose when the stored chunks or the
	// composed object do not match the chunks' sizes and hashes.
	ErrMismatch = errors.New("stored media does not match its chunks")
	// ErrNotFound is returned when a chunk or a composed recording is not
	// stored.
	ErrNotFound = errors.New("media object not found")
)

// Store keeps recording chunks. Keys are "attempt/recording".
type Store interface {
	// Stage reads one chunk from r (at most max bytes), hashing it, and
	// holds it until Commit or Discard. It makes no network call.
	Stage(r io.Reader, max int64) (*Staged, error)
	// Commit stores a staged chunk as chunk seq of key, durably: once it
	// returns nil the chunk survives a crash of this process. It never
	// overwrites a stored chunk: the same bytes again succeed, different
	// bytes fail with ErrConflict. Commit consumes s (success or not).
	Commit(ctx context.Context, s *Staged, key string, seq int) error
	// Open returns the recording of key as one seekable stream of the
	// chunks 0..len(sizes)-1. When composed is true it reads the composed
	// object; otherwise the chunks, switching to the composed object if a
	// chunk is gone because a compose finished meanwhile. Reads happen
	// lazily, under ctx.
	Open(ctx context.Context, key string, sizes []int64, composed bool) (io.ReadSeekCloser, error)
	// Compose joins chunks 0..len(chunks)-1 of key into one object,
	// verifies it against the chunks' sizes and SHA-256 hashes, and only
	// then removes the chunks. It is safe to call again after a failure or
	// a success (it finishes or repeats the job); on error the chunks are
	// kept and can still be read.
	Compose(ctx context.Context, key string, chunks []Chunk) error
	// Delete removes everything stored for key: chunks, intermediate and
	// composed objects. Deleting what is already gone succeeds, so a failed
	// deletion can simply be retried.
	Delete(ctx context.Context, key string) error
	// String names where the media lives, for the start-up log.
	String() string
}

// Transfer is what copying recordings to another store needs beyond Store
// (`simulador migrate-data`, docs/migrate-data.md): reading one stored
// piece whole, and storing a composed recording read from elsewhere.
type Transfer interface {
	Store
	// ReadChunk reads chunk seq of key as stored, whole; ErrNotFound when
	// it is not there.
	ReadChunk(ctx context.Context, key string, seq int) (io.ReadCloser, error)
	// ReadComposed reads the composed recording of key as stored, whole;
	// ErrNotFound when there is none.
	ReadComposed(ctx context.Context, key string) (io.ReadCloser, error)
	// PutComposed stores what r holds as the composed recording of key. r
	// must be exactly the chunks, in order: each segment's size and SHA-256
	// are checked as it streams in and the stored object is checked again;
	// on a mismatch (ErrMismatch) or a failing r nothing is stored and what
	// was there stays. Once it is stored, the key's chunks and intermediate
	// objects are removed. Calling it again is harmless.
	PutComposed(ctx context.Context, key string, r io.Reader, chunks []Chunk) error
}

// Chunk is what the database knows of a stored chunk: its size and the
// SHA-256 (hex) of its bytes, as acknowledged to the browser.
type Chunk struct {
	Bytes  int64
	SHA256 string
}

// Staged is a chunk read from the request, hashed, not yet committed.
type Staged struct {
	Bytes  int64
	SHA256 string // hex

	path    string // Dir: the staging file
	data    []byte // Bucket: the chunk's bytes
	crc32c  uint32 // Bucket: sent with the upload so Cloud Storage checks it
	release func() // gives data back to its pool
	done    bool
}

// Discard frees a staged chunk that will not be committed. It may be
// called more than once, and after Commit.
func (s *Staged) Discard() {
	if s == nil || s.done {
		return
	}
	s.done = true
	if s.path != "" {
		_ = removeFile(s.path)
	}
	if s.release != nil {
		s.release()
	}
	s.data = nil
}

var keyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}/[A-Za-z0-9_-]{1,64}$`)

// ValidKey reports whether key is safe to use as a path or object name.
func ValidKey(key string) bool { return keyPattern.MatchString(key) }

// Verifier checks a stream, as it is written to it, against the chunks it
// must be: each segment's size and SHA-256, and nothing after the last.
// Write fails at the first segment that differs; Check says whether the
// whole stream was right once it has ended.
type Verifier struct {
	chunks []Chunk
	i      int       // the segment being written
	n      int64     // its bytes so far
	h      hash.Hash // its hash so far
	total  int64
	err    error
}

// NewVerifier checks a stream against chunks.
func NewVerifier(chunks []Chunk) *Verifier {
	return &Verifier{chunks: chunks, h: sha256.New()}
}

func (v *Verifier) Write(p []byte) (int, error) {
	if v.err != nil {
		return 0, v.err
	}
	written := 0
	for len(p) > 0 {
		if v.i >= len(v.chunks) {
			v.err = fmt.Errorf("%w: longer than its chunks", ErrMismatch)
			return written, v.err
		}
		c := v.chunks[v.i]
		take := min(int64(len(p)), c.Bytes-v.n)
		v.h.Write(p[:take])
		v.n += take
		v.total += take
		written += int(take)
		p = p[take:]
		if v.n == c.Bytes {
			if hex.EncodeToString(v.h.Sum(nil)) != c.SHA256 {
				v.err = fmt.Errorf("%w: chunk %d", ErrMismatch, v.i)
				return written, v.err
			}
			v.i, v.n = v.i+1, 0
			v.h.Reset()
		}
	}
	return written, nil
}

// Check reports whether everything written was exactly the chunks.
func (v *Verifier) Check() error {
	if v.err != nil {
		return v.err
	}
	// Chunks of zero bytes at the end were never written to.
	for v.i < len(v.chunks) && v.chunks[v.i].Bytes == 0 && v.n == 0 {
		if hex.EncodeToString(v.h.Sum(nil)) != v.chunks[v.i].SHA256 {
			return fmt.Errorf("%w: chunk %d", ErrMismatch, v.i)
		}
		v.i++
	}
	if v.i < len(v.chunks) {
		return fmt.Errorf("%w: shorter than its chunks (chunk %d)", ErrMismatch, v.i)
	}
	return nil
}

// Bytes is how many bytes were written.
func (v *Verifier) Bytes() int64 { return v.total }
