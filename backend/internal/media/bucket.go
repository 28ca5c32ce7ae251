package media

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"sync"
	"time"

	"cloud.google.com/go/storage"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/iterator"
)

// Bucket keeps recordings in a Cloud Storage bucket, under the prefix
// "recordings/": recordings/ATTEMPT/RECORDING/chunk-000000, … while the
// recording is uploaded, the intermediate objects of a compose
// (compose-L-GGGG) for a moment, and recordings/ATTEMPT/RECORDING/recording
// once composed. Every instance of the server sees the same objects, so a
// recording uploaded through one plays from any other, and a restart loses
// nothing.
//
// Playback streams the objects through the server (range reads), rather
// than handing the browser a signed URL: the server already checks who may
// listen, signing would need a private key or the IAM signBlob permission,
// and a recording still uploading is several objects anyway.
type Bucket struct {
	bucket *storage.BucketHandle
	name   string
}

// NewBucket returns the store for bucket name, reached through handle (the
// Firebase Admin SDK's, so STORAGE_EMULATOR_HOST points it at an emulator).
func NewBucket(handle *storage.BucketHandle, name string) *Bucket {
	return &Bucket{bucket: handle, name: name}
}

func (b *Bucket) String() string { return "bucket gs://" + b.name }

const (
	objectPrefix = "recordings/"
	// maxComposeSources is Cloud Storage's limit of sources per compose.
	maxComposeSources = 32
	// parallelRequests bounds the concurrent composes and deletes of one
	// recording.
	parallelRequests = 8
	// probePrefix starts the objects Check writes and deletes; no key can
	// name them. Each start writes its own (a random suffix): Cloud
	// Storage allows about one write a second to one object name, so
	// instances starting together must not share one.
	probePrefix = objectPrefix + ".startup-check-"
	// staleProbe is how old a probe object must be before a start deletes
	// it as left behind by an instance that stopped mid-check.
	staleProbe = time.Hour
)

func (b *Bucket) recordingPrefix(key string) string { return objectPrefix + key + "/" }

func (b *Bucket) chunkName(key string, seq int) string {
	return fmt.Sprintf("%schunk-%06d", b.recordingPrefix(key), seq)
}

func (b *Bucket) composedName(key string) string { return b.recordingPrefix(key) + "recording" }

// Check makes sure at start that the bucket exists and that the server may
// list, create and delete objects in it, so a wrong MEDIA_BUCKET or a
// missing IAM role stops the server instead of failing the first upload.
func (b *Bucket) Check(ctx context.Context) error {
	// A few tries, not the library's patient default: an unreachable
	// bucket should stop the server in seconds.
	bucket := b.bucket.Retryer(storage.WithMaxAttempts(3))
	it := bucket.Objects(ctx, &storage.Query{Prefix: objectPrefix})
	it.PageInfo().MaxSize = 1
	if _, err := it.Next(); err != nil && !errors.Is(err, iterator.Done) {
		return checkFailed("list objects", err)
	}
	var suffix [8]byte
	if _, err := rand.Read(suffix[:]); err != nil {
		return err
	}
	probe := probePrefix + hex.EncodeToString(suffix[:])
	// DoesNotExist makes the write safe to retry, so the library retries
	// it on a 429 or 503 like any idempotent call.
	w := bucket.Object(probe).If(storage.Conditions{DoesNotExist: true}).NewWriter(ctx)
	w.ChunkSize = 0
	if _, err := io.WriteString(w, "ok"); err != nil {
		return checkFailed("write a test object", err)
	}
	if err := w.Close(); err != nil {
		return checkFailed("write a test object", err)
	}
	if err := b.deleteObject(ctx, probe); err != nil {
		return checkFailed("delete the test object", err)
	}
	b.deleteStaleProbes(ctx, bucket)
	return nil
}

// deleteStaleProbes deletes the probe objects of starts that stopped
// between writing and deleting theirs. Best effort: a probe left now is
// deleted at a later start.
func (b *Bucket) deleteStaleProbes(ctx context.Context, bucket *storage.BucketHandle) {
	it := bucket.Objects(ctx, &storage.Query{Prefix: probePrefix})
	for {
		attrs, err := it.Next()
		if err != nil {
			return
		}
		if time.Since(attrs.Created) > staleProbe {
			_ = b.deleteObject(ctx, attrs.Name)
		}
	}
}

func checkFailed(step string, err error) error {
	if isStatus(err, http.StatusForbidden) || isStatus(err, http.StatusUnauthorized) {
		return fmt.Errorf("%s: %w (the server's service account needs the role roles/storage.objectUser on the bucket)", step, err)
	}
	return fmt.Errorf("%s: %w", step, err)
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// chunkBuffers recycles the buffers of staged chunks (8 kB each for 2 s of
// Opus, so they are worth keeping; big ones are left to the collector).
var chunkBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

const maxPooledBuffer = 64 << 10

// Stage reads the chunk into memory, hashing it (SHA-256 for the browser's
// check, CRC32C for Cloud Storage's) as it streams in. Memory rather than a
// temporary file: on Cloud Run the file system is memory too, a chunk is
// at most the chunk cap (2 MiB, and 8 kB in practice), and the upload needs
// the whole chunk at hand anyway — it is sent in one request, and a
// checksum mismatch must be known before anything is written under the
// chunk's final name, where it could never be replaced.
func (b *Bucket) Stage(r io.Reader, max int64) (*Staged, error) {
	buf := chunkBuffers.Get().(*bytes.Buffer)
	buf.Reset()
	release := func() {
		if buf.Cap() <= maxPooledBuffer {
			chunkBuffers.Put(buf)
		}
	}
	sha, crc := sha256.New(), crc32.New(castagnoli)
	n, err := buf.ReadFrom(io.TeeReader(io.LimitReader(r, max+1), io.MultiWriter(sha, crc)))
	if err == nil && n > max {
		err = ErrTooLarge
	}
	if err != nil {
		release()
		return nil, err
	}
	return &Staged{Bytes: n, SHA256: hex.EncodeToString(sha.Sum(nil)), data: buf.Bytes(), crc32c: crc.Sum32(), release: release}, nil
}

// Commit uploads the chunk in one request, on condition that no object has
// its name yet. A write to Cloud Storage is durable once acknowledged, so
// the chunk is safe when Commit returns. When the object exists (a retry
// whose first try was stored but not acknowledged, or a concurrent retry),
// its bytes are compared with the chunk's.
func (b *Bucket) Commit(ctx context.Context, s *Staged, key string, seq int) error {
	defer s.Discard()
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	obj := b.bucket.Object(b.chunkName(key, seq))
	var err error
	// A one-request upload is not retried by the client library (it keeps
	// no copy of the data); the chunk is in memory, so retry here. The
	// precondition makes a retry of a write that did happen harmless.
	for attempt := range 3 {
		if err = upload(ctx, obj, s); err == nil || !storage.ShouldRetry(err) {
			break
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(attempt+1) * 100 * time.Millisecond):
		}
	}
	if isStatus(err, http.StatusPreconditionFailed) {
		return sameBytes(ctx, obj, s)
	}
	return err
}

func upload(ctx context.Context, obj *storage.ObjectHandle, s *Staged) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := obj.If(storage.Conditions{DoesNotExist: true}).NewWriter(ctx)
	w.ChunkSize = 0 // one request, no resumable session: chunks are small
	w.ContentType = "application/octet-stream"
	w.CRC32C, w.SendCRC32C = s.crc32c, true
	if _, err := w.Write(s.data); err != nil {
		cancel() // abandons the upload
		_ = w.Close()
		return err
	}
	return w.Close()
}

// sameBytes reports whether the stored object holds the staged chunk.
func sameBytes(ctx context.Context, obj *storage.ObjectHandle, s *Staged) error {
	r, err := obj.NewReader(ctx)
	if err != nil {
		return err
	}
	defer r.Close()
	h := sha256.New()
	n, err := io.Copy(h, io.LimitReader(r, s.Bytes+1))
	if err != nil {
		return err
	}
	if n != s.Bytes || hex.EncodeToString(h.Sum(nil)) != s.SHA256 {
		return ErrConflict
	}
	return nil
}

func (b *Bucket) Open(ctx context.Context, key string, sizes []int64, composed bool) (io.ReadSeekCloser, error) {
	if !ValidKey(key) {
		return nil, fmt.Errorf("invalid media key %q", key)
	}
	return newRecordingReader(bucketSource{ctx: ctx, b: b, key: key}, sizes, composed), nil
}

type bucketSource struct {
	ctx context.Context
	b   *Bucket
	key string
}

func (s bucketSource) chunk(seq int, off int64) (io.ReadCloser, error) {
	return s.b.readFrom(s.ctx, s.b.chunkName(s.key, seq), off)
}

func (s bucketSource) composed(off int64) (io.ReadCloser, error) {
	return s.b.readFrom(s.ctx, s.b.composedName(s.key), off)
}

func (b *Bucket) readFrom(ctx context.Context, name string, off int64) (io.ReadCloser, error) {
	r, err := b.bucket.Object(name).NewRangeReader(ctx, off, -1)
	if errors.Is(err, storage.ErrObjectNotExist) {
		return nil, fmt.Errorf("%w: %s", errGone, name)
	}
	return r, err
}

// Compose joins the chunk objects with Cloud Storage's compose, which
// takes at most 32 sources: groups of 32 chunks become intermediate
// objects, groups of 32 of those the next level, and so on, until 32 or
// fewer make the composed object (4,000 chunks need two levels).
//
// The composed object is then read back and each segment's SHA-256
// compared with the chunk's, the hash acknowledged to the browser: that
// checks the bytes a listener will get against the bytes the student's
// browser sent, end to end, without trusting the compose step or combining
// CRC32Cs (a composite object has a CRC32C but no MD5). It costs one read
// of the recording (about 4 MB for 15 minutes) within the region, once.
// Only then are the chunks and intermediates deleted.
func (b *Bucket) Compose(ctx context.Context, key string, chunks []Chunk) error {
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	if len(chunks) == 0 {
		return nil
	}
	final := b.bucket.Object(b.composedName(key))
	var total int64
	for _, c := range chunks {
		total += c.Bytes
	}
	// A previous run may have composed and verified the recording and then
	// failed while deleting its chunks: finish that run's job.
	attrs, err := final.Attrs(ctx)
	switch {
	case err == nil && attrs.Size == total:
		if b.verify(ctx, final, chunks) == nil {
			return b.deleteUnder(ctx, key, final.ObjectName())
		}
	case err != nil && !errors.Is(err, storage.ErrObjectNotExist):
		return err
	}

	if err := b.composeAll(ctx, key, final, chunks); err != nil {
		// Another instance may have composed the same recording at the
		// same moment (the background composer of one and the sweep of
		// another) and deleted the chunks this run was reading: when the
		// composed object is whole, the job is done.
		if attrs, aerr := final.Attrs(ctx); aerr == nil && attrs.Size == total && b.verify(ctx, final, chunks) == nil {
			return b.deleteUnder(ctx, key, final.ObjectName())
		}
		return err
	}
	// Deleting comes after every object this run wrote, so whatever it
	// wrote (or a concurrent run wrote before) goes too.
	return b.deleteUnder(ctx, key, final.ObjectName())
}

// composeAll composes the chunks into final, level by level, and verifies
// it.
func (b *Bucket) composeAll(ctx context.Context, key string, final *storage.ObjectHandle, chunks []Chunk) error {
	sources := make([]string, len(chunks))
	for i := range chunks {
		sources[i] = b.chunkName(key, i)
	}
	for level := 1; len(sources) > maxComposeSources; level++ {
		next := make([]string, (len(sources)+maxComposeSources-1)/maxComposeSources)
		err := parallel(len(next), func(g int) error {
			next[g] = fmt.Sprintf("%scompose-%d-%04d", b.recordingPrefix(key), level, g)
			return b.compose(ctx, next[g], sources[g*maxComposeSources:min((g+1)*maxComposeSources, len(sources))])
		})
		if err != nil {
			return err
		}
		sources = next
	}
	if err := b.compose(ctx, final.ObjectName(), sources); err != nil {
		return err
	}
	return b.verify(ctx, final, chunks)
}

func (b *Bucket) compose(ctx context.Context, dst string, srcs []string) error {
	handles := make([]*storage.ObjectHandle, len(srcs))
	for i, s := range srcs {
		handles[i] = b.bucket.Object(s)
	}
	// Composing the same sources into the same name again gives the same
	// object, so a retry is safe even without a precondition. The tries are
	// bounded: a source deleted by a concurrent compose of the same
	// recording is an error that does not go away (Cloud Storage answers
	// 404, fake-gcs-server 500, which the library would retry until ctx
	// ends).
	c := b.bucket.Object(dst).Retryer(storage.WithPolicy(storage.RetryAlways), storage.WithMaxAttempts(4)).ComposerFrom(handles...)
	c.ContentType = "application/octet-stream"
	if _, err := c.Run(ctx); err != nil {
		return fmt.Errorf("compose %s: %w", dst, err)
	}
	return nil
}

// verify reads obj back and checks it is the chunks, in order.
func (b *Bucket) verify(ctx context.Context, obj *storage.ObjectHandle, chunks []Chunk) error {
	r, err := obj.NewReader(ctx)
	if err != nil {
		return err
	}
	defer r.Close()
	return verifyStream(r, chunks)
}

// Delete removes every object of the recording. Objects already gone are
// not an error, so a deletion that failed half way can be run again.
func (b *Bucket) Delete(ctx context.Context, key string) error {
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	return b.deleteUnder(ctx, key, "")
}

// deleteUnder deletes the objects of the recording except the one named
// keep (when not empty).
func (b *Bucket) deleteUnder(ctx context.Context, key, keep string) error {
	q := &storage.Query{Prefix: b.recordingPrefix(key)}
	if err := q.SetAttrSelection([]string{"Name"}); err != nil {
		return err
	}
	var names []string
	it := b.bucket.Objects(ctx, q)
	for {
		attrs, err := it.Next()
		if errors.Is(err, iterator.Done) {
			break
		}
		if err != nil {
			return fmt.Errorf("list %s: %w", q.Prefix, err)
		}
		if attrs.Name != keep {
			names = append(names, attrs.Name)
		}
	}
	return parallel(len(names), func(i int) error { return b.deleteObject(ctx, names[i]) })
}

func (b *Bucket) deleteObject(ctx context.Context, name string) error {
	// Deleting twice leaves nothing either: retried on transient errors.
	err := b.bucket.Object(name).Retryer(storage.WithPolicy(storage.RetryAlways)).Delete(ctx)
	if err != nil && !errors.Is(err, storage.ErrObjectNotExist) {
		return fmt.Errorf("delete %s: %w", name, err)
	}
	return nil
}

// parallel runs fn(0..n-1), parallelRequests at a time, and joins their
// errors.
func parallel(n int, fn func(i int) error) error {
	errs := make([]error, n)
	sem := make(chan struct{}, parallelRequests)
	var wg sync.WaitGroup
	for i := range n {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			errs[i] = fn(i)
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

func isStatus(err error, code int) bool {
	var gerr *googleapi.Error
	return errors.As(err, &gerr) && gerr.Code == code
}

var _ Transfer = (*Bucket)(nil)

func (b *Bucket) ReadChunk(ctx context.Context, key string, seq int) (io.ReadCloser, error) {
	if !ValidKey(key) {
		return nil, fmt.Errorf("invalid media key %q", key)
	}
	return b.readFrom(ctx, b.chunkName(key, seq), 0)
}

func (b *Bucket) ReadComposed(ctx context.Context, key string) (io.ReadCloser, error) {
	if !ValidKey(key) {
		return nil, fmt.Errorf("invalid media key %q", key)
	}
	return b.readFrom(ctx, b.composedName(key), 0)
}

// composedUploadChunk is the size of each request of PutComposed's
// resumable upload (a multiple of 256 KiB), held in memory while it is sent.
const composedUploadChunk = 8 << 20

// PutComposed uploads r in a resumable upload, checking it against the
// chunks as it streams: at the first wrong segment, or if r fails, ends
// short or runs long, the upload is abandoned before its last request, and
// Cloud Storage keeps the object that was there (or none). The stored
// object is then read back and checked, as Compose does, before the chunks
// and intermediates go.
//
// Not one request: when a single-request upload's body fails, the client
// library still ends the multipart body with its closing boundary before
// the error, and a server that reads up to that boundary may store what was
// sent (fake-gcs-server did, under -race: a stream one byte too long stored
// whole). A resumable upload is finished only by a request that the client
// sends after its source has ended cleanly.
func (b *Bucket) PutComposed(ctx context.Context, key string, r io.Reader, chunks []Chunk) error {
	if !ValidKey(key) {
		return fmt.Errorf("invalid media key %q", key)
	}
	obj := b.bucket.Object(b.composedName(key))
	uctx, cancel := context.WithCancel(ctx)
	w := obj.NewWriter(uctx)
	w.ChunkSize = composedUploadChunk
	w.ContentType = "application/octet-stream"
	v := NewVerifier(chunks)
	_, err := io.Copy(w, io.TeeReader(r, v))
	if err == nil {
		err = v.Check()
	}
	if err != nil {
		// Abandon the upload: its source fails, so the client never sends
		// the request that finishes it. Cancelling the context alone is not
		// enough: the client sees a cancel in a goroutine of its own, and a
		// Close that came first ended the source cleanly, which finishes the
		// upload. CloseWithError is what that goroutine calls, done here
		// first.
		_ = w.CloseWithError(err) //nolint:staticcheck // SA1019: its documented replacement, a cancel, races with Close (above)
		cancel()
		_ = w.Close() // waits for the upload to end
		// Should a bucket keep something all the same, what it holds under
		// the name is checked and removed unless it is the recording, as
		// after a mismatch below.
		if errors.Is(b.verify(context.WithoutCancel(ctx), obj, chunks), ErrMismatch) {
			_ = b.deleteObject(context.WithoutCancel(ctx), obj.ObjectName())
		}
		return err
	}
	err = w.Close()
	cancel()
	if err != nil {
		return fmt.Errorf("upload %s: %w", obj.ObjectName(), err)
	}
	if err := b.verify(ctx, obj, chunks); err != nil {
		if errors.Is(err, ErrMismatch) {
			_ = b.deleteObject(ctx, obj.ObjectName())
		}
		return err
	}
	return b.deleteUnder(ctx, key, obj.ObjectName())
}
