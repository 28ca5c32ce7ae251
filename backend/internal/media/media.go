// Package media stores recordings as numbered chunk files. Chunks are
// streamed to disk as they arrive (never a whole recording in memory) and
// read back as one seekable stream for playback.
package media

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
)

// ErrTooLarge is returned when a chunk exceeds its size limit.
var ErrTooLarge = errors.New("chunk too large")

// Store keeps recording chunks. Keys are "attempt/recording".
type Store interface {
	// Stage streams r (at most max bytes) into a staging file, hashing it.
	Stage(r io.Reader, max int64) (*Staged, error)
	// Commit moves a staged chunk into place as chunk seq of key.
	Commit(s *Staged, key string, seq int) error
	// Open returns the chunks 0..len(sizes)-1 of key as one stream.
	Open(key string, sizes []int64) (io.ReadSeekCloser, error)
	// Delete removes every chunk of key.
	Delete(key string) error
}

// Staged is a chunk written to staging, not yet committed.
type Staged struct {
	path   string
	Bytes  int64
	SHA256 string
}

// Discard removes a staged chunk that will not be committed.
func (s *Staged) Discard() { _ = os.Remove(s.path) }

// Dir is the default Store: a directory under DATA_DIR.
type Dir struct {
	root string
	// Sync makes Commit fsync the chunk, so an acknowledged chunk survives a
	// power cut (the browser deletes its copy on acknowledgement).
	Sync bool
}

// NewDir creates (when missing) and returns a directory store.
func NewDir(root string) (*Dir, error) {
	for _, d := range []string{root, filepath.Join(root, ".staging")} {
		if err := os.MkdirAll(d, 0o750); err != nil {
			return nil, err
		}
	}
	return &Dir{root: root, Sync: true}, nil
}

var keyPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}/[A-Za-z0-9_-]{1,64}$`)

// ValidKey reports whether key is safe to use as a path.
func ValidKey(key string) bool { return keyPattern.MatchString(key) }

func (d *Dir) Stage(r io.Reader, max int64) (*Staged, error) {
	f, err := os.CreateTemp(filepath.Join(d.root, ".staging"), "chunk-*")
	if err != nil {
		return nil, err
	}
	s := &Staged{path: f.Name()}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(r, max+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > max {
		err = ErrTooLarge
	}
	if err != nil {
		s.Discard()
		return nil, err
	}
	s.Bytes, s.SHA256 = n, hex.EncodeToString(h.Sum(nil))
	return s, nil
}

func (d *Dir) chunkPath(key string, seq int) string {
	return filepath.Join(d.root, filepath.FromSlash(key), fmt.Sprintf("%06d.chunk", seq))
}

func (d *Dir) Commit(s *Staged, key string, seq int) error {
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	dst := d.chunkPath(key, seq)
	if err := os.MkdirAll(filepath.Dir(dst), 0o750); err != nil {
		return err
	}
	if d.Sync {
		f, err := os.Open(s.path)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return os.Rename(s.path, dst)
}

func (d *Dir) Delete(key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	return os.RemoveAll(filepath.Join(d.root, filepath.FromSlash(key)))
}

func (d *Dir) Open(key string, sizes []int64) (io.ReadSeekCloser, error) {
	if !ValidKey(key) {
		return nil, fmt.Errorf("invalid media key %q", key)
	}
	paths := make([]string, len(sizes))
	for i := range sizes {
		paths[i] = d.chunkPath(key, i)
	}
	return newMultiFile(paths, sizes), nil
}

// multiFile reads several files as one seekable stream, opening one file at
// a time.
type multiFile struct {
	paths []string
	sizes []int64
	total int64
	pos   int64
	cur   *os.File
	curI  int
}

func newMultiFile(paths []string, sizes []int64) *multiFile {
	m := &multiFile{paths: paths, sizes: sizes, curI: -1}
	for _, s := range sizes {
		m.total += s
	}
	return m
}

func (m *multiFile) Read(p []byte) (int, error) {
	if m.pos >= m.total {
		return 0, io.EOF
	}
	i, off := m.locate(m.pos)
	if m.curI != i {
		if m.cur != nil {
			m.cur.Close()
			m.cur = nil
		}
		f, err := os.Open(m.paths[i])
		if err != nil {
			return 0, err
		}
		m.cur, m.curI = f, i
	}
	if _, err := m.cur.Seek(off, io.SeekStart); err != nil {
		return 0, err
	}
	limit := min(int64(len(p)), m.sizes[i]-off)
	n, err := m.cur.Read(p[:limit])
	m.pos += int64(n)
	if errors.Is(err, io.EOF) && n > 0 {
		err = nil
	}
	if errors.Is(err, io.EOF) {
		return n, io.ErrUnexpectedEOF // a chunk is shorter than recorded
	}
	return n, err
}

// locate finds the file and offset of absolute position pos.
func (m *multiFile) locate(pos int64) (int, int64) {
	for i, s := range m.sizes {
		if pos < s {
			return i, pos
		}
		pos -= s
	}
	return len(m.sizes) - 1, m.sizes[len(m.sizes)-1]
}

func (m *multiFile) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = m.pos + offset
	case io.SeekEnd:
		abs = m.total + offset
	default:
		return 0, errors.New("invalid whence")
	}
	if abs < 0 {
		return 0, errors.New("negative position")
	}
	m.pos = abs
	return abs, nil
}

func (m *multiFile) Close() error {
	if m.cur != nil {
		return m.cur.Close()
	}
	return nil
}
