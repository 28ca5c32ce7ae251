package media

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Dir is the default Store: a directory under DATA_DIR, one directory per
// recording holding its chunk files (000000.chunk, …) and, once composed,
// the file "recording".
type Dir struct {
	root string
	dirs sync.Map // recording directories known to exist
	// Sync makes Commit and Compose fsync what they write, so an
	// acknowledged chunk survives a power cut (the browser deletes its copy
	// on acknowledgement).
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

func (d *Dir) String() string { return "directory " + d.root }

func removeFile(path string) error { return os.Remove(path) }

// memStageMax is the largest chunk Stage keeps in memory (2 s of Opus is
// about 8 kB); a larger one is streamed to a file in the staging directory,
// so a chunk of up to 2 MB is never held whole in memory.
const memStageMax = 32 << 10

// Stage reads the chunk and hashes it: into a pooled buffer when it is
// small, else into a file in the staging directory.
func (d *Dir) Stage(r io.Reader, max int64) (*Staged, error) {
	buf := chunkBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	release := func() {
		if buf.Cap() <= maxPooledBuffer {
			chunkBuffers.Put(buf)
		}
	}
	h := sha256.New()
	lr := io.LimitReader(r, max+1)
	n, err := io.CopyN(io.MultiWriter(buf, h), lr, memStageMax+1)
	if errors.Is(err, io.EOF) {
		if n > max {
			release()
			return nil, ErrTooLarge
		}
		return &Staged{Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil)), data: buf.Bytes(), release: release}, nil
	}
	if err != nil {
		release()
		return nil, err
	}
	// Larger than memStageMax: what was read goes to a file, then the rest.
	f, err := os.CreateTemp(filepath.Join(d.root, ".staging"), "chunk-*")
	if err != nil {
		release()
		return nil, err
	}
	s := &Staged{path: f.Name()}
	_, err = f.Write(buf.Bytes())
	release()
	var rest int64
	if err == nil {
		rest, err = io.Copy(io.MultiWriter(f, h), lr)
		n += rest
	}
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

func (d *Dir) recordingDir(key string) string { return filepath.Join(d.root, filepath.FromSlash(key)) }

func (d *Dir) chunkPath(key string, seq int) string {
	return filepath.Join(d.recordingDir(key), fmt.Sprintf("%06d.chunk", seq))
}

func (d *Dir) composedPath(key string) string { return filepath.Join(d.recordingDir(key), "recording") }

func (d *Dir) Commit(_ context.Context, s *Staged, key string, seq int) error {
	defer s.Discard()
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	dst := d.chunkPath(key, seq)
	if err := d.mkdir(filepath.Dir(dst)); err != nil {
		return err
	}
	// The chunk gets its name only once it is complete, by a hard link,
	// which never replaces an existing file (unlike a rename): a stored
	// chunk cannot be overwritten, whoever commits first, and a crash never
	// leaves part of a chunk under its name.
	var err error
	if s.path != "" {
		err = os.Link(s.path, dst)
	} else {
		err = linkNew(filepath.Dir(dst), dst, s.data)
	}
	if errors.Is(err, fs.ErrExist) {
		sum, herr := hashFile(dst)
		if herr != nil {
			return herr
		}
		if sum != s.SHA256 {
			return ErrConflict
		}
		// The same chunk sent again: the first commit may have crashed
		// before its fsync.
	} else if err != nil {
		return err
	}
	if d.Sync {
		// After the link: on ext4 the fsync commits the journal with the
		// new directory entry too.
		return syncFile(dst)
	}
	return nil
}

// mkdir creates a recording's directory once; the directories made are
// remembered, so a chunk does not stat its directory again.
func (d *Dir) mkdir(dir string) error {
	if _, ok := d.dirs.Load(dir); ok {
		return nil
	}
	if err := os.MkdirAll(dir, 0o750); err != nil {
		return err
	}
	d.dirs.Store(dir, true)
	return nil
}

func (d *Dir) Open(_ context.Context, key string, sizes []int64, composed bool) (io.ReadSeekCloser, error) {
	if !ValidKey(key) {
		return nil, fmt.Errorf("invalid media key %q", key)
	}
	return newRecordingReader(dirSource{d, key}, sizes, composed), nil
}

type dirSource struct {
	d   *Dir
	key string
}

func (s dirSource) chunk(seq int, off int64) (io.ReadCloser, error) {
	return openAt(s.d.chunkPath(s.key, seq), off)
}

func (s dirSource) composed(off int64) (io.ReadCloser, error) {
	return openAt(s.d.composedPath(s.key), off)
}

func openAt(path string, off int64) (io.ReadCloser, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s", errGone, filepath.Base(path))
	}
	if err != nil {
		return nil, err
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Compose concatenates the chunk files into the file "recording". Each
// chunk is hashed as it is copied and compared with what the browser was
// told: the composed file is then a byte-exact, fsynced copy of verified
// chunks, so it is not read back (a local disk does not change bytes
// between write and read the way a remote compose could).
func (d *Dir) Compose(_ context.Context, key string, chunks []Chunk) error {
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	if len(chunks) == 0 {
		return nil
	}
	final := d.composedPath(key)
	// A previous run may have composed and then failed while removing
	// chunks: a composed file that still matches is kept.
	if err := verifyFile(final, chunks); err == nil {
		return d.removeChunks(key, len(chunks))
	}
	if err := d.composeTo(final, key, chunks); err != nil {
		// A concurrent compose of the same recording may have finished
		// first and removed the chunks this one was reading.
		if verifyFile(final, chunks) == nil {
			return d.removeChunks(key, len(chunks))
		}
		return err
	}
	return d.removeChunks(key, len(chunks))
}

// composeTo writes the chunks, concatenated, to final through a temporary
// file renamed into place.
func (d *Dir) composeTo(final, key string, chunks []Chunk) error {
	tmp, err := os.CreateTemp(filepath.Join(d.root, ".staging"), "compose-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	err = d.concatenate(tmp, key, chunks)
	if err == nil && d.Sync {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return err
	}
	if d.Sync {
		return syncFile(filepath.Dir(final))
	}
	return nil
}

func (d *Dir) concatenate(w io.Writer, key string, chunks []Chunk) error {
	for i, c := range chunks {
		f, err := os.Open(d.chunkPath(key, i))
		if err != nil {
			return fmt.Errorf("chunk %d: %w", i, err)
		}
		h := sha256.New()
		n, err := io.Copy(io.MultiWriter(w, h), io.LimitReader(f, c.Bytes+1))
		f.Close()
		if err != nil {
			return fmt.Errorf("chunk %d: %w", i, err)
		}
		if n != c.Bytes || hex.EncodeToString(h.Sum(nil)) != c.SHA256 {
			return fmt.Errorf("%w: chunk %d", ErrMismatch, i)
		}
	}
	return nil
}

// verifyFile checks that the file at path is the chunks, in order.
func verifyFile(path string, chunks []Chunk) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	return verifyStream(f, chunks)
}

// verifyStream reads r to its end and checks that it is the chunks, in
// order: each segment's size and SHA-256, and nothing after the last.
func verifyStream(r io.Reader, chunks []Chunk) error {
	for i, c := range chunks {
		h := sha256.New()
		n, err := io.CopyN(h, r, c.Bytes)
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		if n != c.Bytes || hex.EncodeToString(h.Sum(nil)) != c.SHA256 {
			return fmt.Errorf("%w: chunk %d", ErrMismatch, i)
		}
	}
	var one [1]byte
	if n, _ := io.ReadFull(r, one[:]); n != 0 {
		return fmt.Errorf("%w: longer than its chunks", ErrMismatch)
	}
	return nil
}

func (d *Dir) removeChunks(key string, n int) error {
	var errs []error
	for i := range n {
		if err := os.Remove(d.chunkPath(key, i)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func (d *Dir) Delete(_ context.Context, key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	dir := d.recordingDir(key)
	d.dirs.Delete(dir)
	return os.RemoveAll(dir)
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func syncFile(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

var _ Transfer = (*Dir)(nil)

func (d *Dir) ReadChunk(_ context.Context, key string, seq int) (io.ReadCloser, error) {
	if !ValidKey(key) {
		return nil, fmt.Errorf("invalid media key %q", key)
	}
	return openAt(d.chunkPath(key, seq), 0)
}

func (d *Dir) ReadComposed(_ context.Context, key string) (io.ReadCloser, error) {
	if !ValidKey(key) {
		return nil, fmt.Errorf("invalid media key %q", key)
	}
	return openAt(d.composedPath(key), 0)
}

// PutComposed writes r to a temporary file, checking it against the
// chunks as it is copied, fsyncs it and renames it into place: the file
// "recording" is either what it was or the whole, verified copy. Then the
// recording's chunk files go.
func (d *Dir) PutComposed(_ context.Context, key string, r io.Reader, chunks []Chunk) error {
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	tmp, err := os.CreateTemp(filepath.Join(d.root, ".staging"), "import-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	v := NewVerifier(chunks)
	_, err = io.Copy(tmp, io.TeeReader(r, v))
	if err == nil {
		err = v.Check()
	}
	if err == nil && d.Sync {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	final := d.composedPath(key)
	if err := os.MkdirAll(filepath.Dir(final), 0o750); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), final); err != nil {
		return err
	}
	if d.Sync {
		if err := syncFile(filepath.Dir(final)); err != nil {
			return err
		}
	}
	names, err := filepath.Glob(filepath.Join(d.recordingDir(key), "*.chunk"))
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range names {
		if err := os.Remove(n); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// linkViaTemp writes data to a temporary file in dir, links it as dst
// (which must not exist: fs.ErrExist otherwise) and removes the temporary
// name.
func linkViaTemp(dir, dst string, data []byte) error {
	f, err := os.CreateTemp(dir, ".new-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return os.Link(f.Name(), dst)
}
