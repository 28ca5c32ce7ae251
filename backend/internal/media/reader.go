package media

import (
	"errors"
	"io"
)

// errGone marks a chunk or object that does not exist (any more).
var errGone = ErrNotFound

// source opens the stored pieces of one recording for reading.
type source interface {
	// chunk reads chunk seq from byte off to its end.
	chunk(seq int, off int64) (io.ReadCloser, error)
	// composed reads the composed recording from byte off to its end.
	composed(off int64) (io.ReadCloser, error)
}

// recordingReader reads a recording as one seekable stream, opening one
// piece at a time and only when read: a Seek costs nothing, so a Range
// request opens the piece where its range starts (a range read of the
// object in a bucket).
type recordingReader struct {
	src      source
	sizes    []int64
	total    int64
	pos      int64
	composed bool

	cur    io.ReadCloser
	curPos int64 // where cur is
	curEnd int64 // where cur's piece ends
}

func newRecordingReader(src source, sizes []int64, composed bool) *recordingReader {
	r := &recordingReader{src: src, sizes: sizes, composed: composed}
	for _, s := range sizes {
		r.total += s
	}
	return r
}

func (r *recordingReader) Read(p []byte) (int, error) {
	if r.pos >= r.total {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	if r.cur == nil || r.curPos != r.pos {
		if err := r.open(); err != nil {
			return 0, err
		}
	}
	limit := min(int64(len(p)), r.curEnd-r.pos)
	n, err := r.cur.Read(p[:limit])
	r.pos += int64(n)
	r.curPos += int64(n)
	if r.pos == r.curEnd {
		r.closeCurrent()
		if errors.Is(err, io.EOF) {
			err = nil
		}
	}
	if errors.Is(err, io.EOF) {
		if n > 0 {
			return n, nil
		}
		return 0, io.ErrUnexpectedEOF // a piece is shorter than recorded
	}
	return n, err
}

// open opens the piece that holds r.pos.
func (r *recordingReader) open() error {
	r.closeCurrent()
	if !r.composed {
		i, off := r.locate(r.pos)
		rc, err := r.src.chunk(i, off)
		if err == nil {
			r.cur, r.curPos, r.curEnd = rc, r.pos, r.pos-off+r.sizes[i]
			return nil
		}
		if !errors.Is(err, errGone) {
			return err
		}
		// The chunk was removed by a compose that finished after this
		// recording was looked up: the composed object has its bytes.
		r.composed = true
	}
	rc, err := r.src.composed(r.pos)
	if err != nil {
		return err
	}
	r.cur, r.curPos, r.curEnd = rc, r.pos, r.total
	return nil
}

// locate finds the chunk and offset of absolute position pos < total.
func (r *recordingReader) locate(pos int64) (int, int64) {
	for i, s := range r.sizes {
		if pos < s {
			return i, pos
		}
		pos -= s
	}
	return len(r.sizes) - 1, r.sizes[len(r.sizes)-1]
}

func (r *recordingReader) Seek(offset int64, whence int) (int64, error) {
	var abs int64
	switch whence {
	case io.SeekStart:
		abs = offset
	case io.SeekCurrent:
		abs = r.pos + offset
	case io.SeekEnd:
		abs = r.total + offset
	default:
		return 0, errors.New("invalid whence")
	}
	if abs < 0 {
		return 0, errors.New("negative position")
	}
	r.pos = abs
	return abs, nil
}

func (r *recordingReader) closeCurrent() {
	if r.cur != nil {
		_ = r.cur.Close()
		r.cur = nil
	}
}

func (r *recordingReader) Close() error {
	r.closeCurrent()
	return nil
}
