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
	"errors"
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
