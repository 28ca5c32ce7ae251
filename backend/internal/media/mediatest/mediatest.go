// Package mediatest is the contract suite of media.Store: every adapter
// (the directory, the Cloud Storage bucket) runs the same tests.
package mediatest

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/media"
)

// Harness is one adapter under test.
type Harness struct {
	Store media.Store
	// Names lists what the adapter holds for key (file or object names
	// relative to the recording), sorted, so tests see chunks, intermediate
	// and composed objects come and go.
	Names func(t *testing.T, key string) []string
	// ChunkNames and ComposedName say which of those names are chunks and
	// which is the composed recording.
	IsChunk      func(name string) bool
	ComposedName string
}

// Run runs the contract suite; newHarness makes a fresh, empty adapter.
func Run(t *testing.T, newHarness func(t *testing.T) Harness) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, h Harness)
	}{
		{"StageCommitOpen", testStageCommitOpen},
		{"StageRefusesOversizedChunks", testStageTooLarge},
		{"SameBytesAgainAreAcknowledged", testSameBytesAgain},
		{"DifferentBytesAreRefused", testDifferentBytes},
		{"KeysCannotEscape", testInvalidKeys},
		{"RangeReadsAcrossChunkBoundaries", testRangeReads},
		{"PartialUploadPlaysUpToItsFirstGap", testPartialUpload},
		{"ComposeSeventyChunks", testComposeMany},
		{"ComposeVerifiesBeforeDeleting", testComposeVerifies},
		{"ComposeOfNothing", testComposeEmpty},
		{"TwoComposesAtOnce", testComposeConcurrent},
		{"DeleteAndRetry", testDeleteAndRetry},
		{"DeleteKeepsOtherRecordings", testDeleteIsolation},
		{"TransferReadsStoredPieces", testTransferReads},
		{"PutComposed", testPutComposed},
		{"PutComposedRefusesWrongStreams", testPutComposedRefuses},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newHarness(t)) })
	}
}

var ctx = context.Background()

// chunkData makes n chunks of varied sizes (some of one byte) from a
// deterministic generator.
func chunkData(n int, seed uint64) [][]byte {
	rng := rand.New(rand.NewPCG(seed, 7))
	out := make([][]byte, n)
	for i := range out {
		size := 1 + rng.IntN(300)
		if i%5 == 0 {
			size = 1
		}
		b := make([]byte, size)
		for j := range b {
			b[j] = byte(rng.UintN(256))
		}
		out[i] = b
	}
	return out
}

func sha(b []byte) string { s := sha256.Sum256(b); return hex.EncodeToString(s[:]) }

// put stages and commits chunks[i] as chunk i of key, for each i in seqs
// (all when seqs is empty).
func put(t *testing.T, st media.Store, key string, chunks [][]byte, seqs ...int) {
	t.Helper()
	if len(seqs) == 0 {
		for i := range chunks {
			seqs = append(seqs, i)
		}
	}
	for _, i := range seqs {
		s, err := st.Stage(bytes.NewReader(chunks[i]), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if s.Bytes != int64(len(chunks[i])) || s.SHA256 != sha(chunks[i]) {
			t.Fatalf("staged chunk %d: %d bytes, sha %s", i, s.Bytes, s.SHA256)
		}
		if err := st.Commit(ctx, s, key, i); err != nil {
			t.Fatalf("commit chunk %d: %v", i, err)
		}
	}
}

func sizes(chunks [][]byte) []int64 {
	out := make([]int64, len(chunks))
	for i, c := range chunks {
		out[i] = int64(len(c))
	}
	return out
}

func described(chunks [][]byte) []media.Chunk {
	out := make([]media.Chunk, len(chunks))
	for i, c := range chunks {
		out[i] = media.Chunk{Bytes: int64(len(c)), SHA256: sha(c)}
	}
	return out
}

func readAll(t *testing.T, st media.Store, key string, sz []int64, composed bool) ([]byte, error) {
	t.Helper()
	r, err := st.Open(ctx, key, sz, composed)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return io.ReadAll(r)
}

func mustRead(t *testing.T, st media.Store, key string, sz []int64, composed bool, want []byte) {
	t.Helper()
	got, err := readAll(t, st, key, sz, composed)
	if err != nil {
		t.Fatalf("read (composed=%v): %v", composed, err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("read (composed=%v) %d bytes, want %d (equal prefix %d)", composed, len(got), len(want), commonPrefix(got, want))
	}
}

func commonPrefix(a, b []byte) int {
	n := 0
	for n < len(a) && n < len(b) && a[n] == b[n] {
		n++
	}
	return n
}

func chunkNames(h Harness, names []string) []string {
	var out []string
	for _, n := range names {
		if h.IsChunk(n) {
			out = append(out, n)
		}
	}
	return out
}

func testStageCommitOpen(t *testing.T, h Harness) {
	parts := []string{"hola ", "tribunal, ", "buenos días"}
	var chunks [][]byte
	for _, p := range parts {
		chunks = append(chunks, []byte(p))
	}
	put(t, h.Store, "att1/rec1", chunks)
	if n := len(chunkNames(h, h.Names(t, "att1/rec1"))); n != 3 {
		t.Fatalf("%d chunks stored, want 3: %v", n, h.Names(t, "att1/rec1"))
	}
	whole := strings.Join(parts, "")
	r, err := h.Store.Open(ctx, "att1/rec1", sizes(chunks), false)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if all, err := io.ReadAll(r); err != nil || string(all) != whole {
		t.Fatalf("read %q, %v", all, err)
	}
	// Seeking across chunk boundaries (what a Range request does).
	if _, err := r.Seek(3, io.SeekStart); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	n, _ := io.ReadFull(r, buf)
	if string(buf[:n]) != "a tribunal" {
		t.Fatalf("after seek: %q", buf[:n])
	}
	if end, _ := r.Seek(-4, io.SeekEnd); end != int64(len(whole))-4 {
		t.Fatalf("seek end = %d", end)
	}
	if rest, _ := io.ReadAll(r); string(rest) != whole[len(whole)-4:] {
		t.Fatalf("tail = %q", rest)
	}
}

func testStageTooLarge(t *testing.T, h Harness) {
	if _, err := h.Store.Stage(bytes.NewReader(make([]byte, 101)), 100); !errors.Is(err, media.ErrTooLarge) {
		t.Fatalf("err = %v", err)
	}
	s, err := h.Store.Stage(bytes.NewReader(make([]byte, 100)), 100)
	if err != nil || s.Bytes != 100 {
		t.Fatalf("a chunk of exactly the limit: %+v, %v", s, err)
	}
	s.Discard()
	s.Discard() // twice is harmless
}

func testSameBytesAgain(t *testing.T, h Harness) {
	chunks := chunkData(2, 1)
	put(t, h.Store, "att/rec", chunks)
	// A retry after a lost acknowledgement, and a third time for luck.
	put(t, h.Store, "att/rec", chunks, 1)
	put(t, h.Store, "att/rec", chunks, 1)
	mustRead(t, h.Store, "att/rec", sizes(chunks), false, slices.Concat(chunks...))
}

func testDifferentBytes(t *testing.T, h Harness) {
	chunks := chunkData(2, 2)
	put(t, h.Store, "att/rec", chunks)
	for _, other := range [][]byte{[]byte("otro audio"), chunks[1][:len(chunks[1])-1], append(bytes.Clone(chunks[1]), 0)} {
		s, err := h.Store.Stage(bytes.NewReader(other), 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Store.Commit(ctx, s, "att/rec", 1); !errors.Is(err, media.ErrConflict) {
			t.Fatalf("different bytes under a stored number: %v", err)
		}
	}
	// The stored chunk is untouched.
	mustRead(t, h.Store, "att/rec", sizes(chunks), false, slices.Concat(chunks...))
}

func testInvalidKeys(t *testing.T, h Harness) {
	for _, k := range []string{"../x/y", "a/../../b", "a", "a/b/c", "a/b c", "a/.b", ""} {
		s, err := h.Store.Stage(strings.NewReader("x"), 10)
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Store.Commit(ctx, s, k, 0); err == nil {
			t.Errorf("Commit with key %q accepted", k)
		}
		if _, err := h.Store.Open(ctx, k, []int64{1}, false); err == nil {
			t.Errorf("Open with key %q accepted", k)
		}
		if err := h.Store.Compose(ctx, k, []media.Chunk{{Bytes: 1, SHA256: sha([]byte("x"))}}); err == nil {
			t.Errorf("Compose with key %q accepted", k)
		}
		if err := h.Store.Delete(ctx, k); err == nil {
			t.Errorf("Delete with key %q accepted", k)
		}
	}
}

// checkRanges reads random ranges, as a player seeking would, and compares
// them with want.
func checkRanges(t *testing.T, st media.Store, key string, sz []int64, composed bool, want []byte) {
	t.Helper()
	r, err := st.Open(ctx, key, sz, composed)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rng := rand.New(rand.NewPCG(uint64(len(want)), 3))
	for range 40 {
		start := rng.IntN(len(want))
		length := 1 + rng.IntN(min(len(want)-start, 700))
		if _, err := r.Seek(int64(start), io.SeekStart); err != nil {
			t.Fatal(err)
		}
		got := make([]byte, length)
		if _, err := io.ReadFull(r, got); err != nil {
			t.Fatalf("range %d+%d (composed=%v): %v", start, length, composed, err)
		}
		if !bytes.Equal(got, want[start:start+length]) {
			t.Fatalf("range %d+%d (composed=%v) differs", start, length, composed)
		}
	}
	// Reading on past the end ends cleanly.
	if _, err := r.Seek(int64(len(want)-1), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	if rest, err := io.ReadAll(r); err != nil || len(rest) != 1 {
		t.Fatalf("last byte: %d bytes, %v", len(rest), err)
	}
	if n, err := r.Read(make([]byte, 8)); n != 0 || err != io.EOF {
		t.Fatalf("read at the end: %d, %v", n, err)
	}
}

func testRangeReads(t *testing.T, h Harness) {
	chunks := chunkData(40, 4)
	put(t, h.Store, "att/rec", chunks)
	want := slices.Concat(chunks...)
	checkRanges(t, h.Store, "att/rec", sizes(chunks), false, want)
	if err := h.Store.Compose(ctx, "att/rec", described(chunks)); err != nil {
		t.Fatal(err)
	}
	checkRanges(t, h.Store, "att/rec", sizes(chunks), true, want)
}

func testPartialUpload(t *testing.T, h Harness) {
	chunks := chunkData(6, 5)
	put(t, h.Store, "att/rec", chunks, 0, 1, 2, 4) // 3 has not arrived yet
	mustRead(t, h.Store, "att/rec", sizes(chunks[:3]), false, slices.Concat(chunks[:3]...))
	checkRanges(t, h.Store, "att/rec", sizes(chunks[:3]), false, slices.Concat(chunks[:3]...))
	// Reading past the gap fails rather than inventing audio.
	if _, err := readAll(t, h.Store, "att/rec", sizes(chunks[:4]), false); err == nil {
		t.Fatal("a missing chunk was read")
	}
}

func testComposeMany(t *testing.T, h Harness) {
	chunks := chunkData(70, 6) // three groups of 32 at the first level
	put(t, h.Store, "att/rec", chunks)
	want := slices.Concat(chunks...)
	if err := h.Store.Compose(ctx, "att/rec", described(chunks)); err != nil {
		t.Fatal(err)
	}
	if names := h.Names(t, "att/rec"); !slices.Equal(names, []string{h.ComposedName}) {
		t.Fatalf("after compose the recording holds %v, want only %s", names, h.ComposedName)
	}
	mustRead(t, h.Store, "att/rec", sizes(chunks), true, want)
	// A reader that looked the recording up before the compose finished
	// still plays it: the chunks are gone, the composed object has them.
	mustRead(t, h.Store, "att/rec", sizes(chunks), false, want)
	// Composing again (a retry, or a sweep racing the first run) is harmless.
	if err := h.Store.Compose(ctx, "att/rec", described(chunks)); err != nil {
		t.Fatalf("second compose: %v", err)
	}
	mustRead(t, h.Store, "att/rec", sizes(chunks), true, want)
}

// testComposeConcurrent: two server instances compose the same recording
// at the same moment (one's background composer, the other's sweep). Both
// succeed, the recording plays whole, and nothing but the composed object
// is left, however their steps interleave.
func testComposeConcurrent(t *testing.T, h Harness) {
	for round := range 4 {
		key := fmt.Sprintf("att/rec%d", round)
		chunks := chunkData(70, uint64(20+round)) // intermediate objects too
		put(t, h.Store, key, chunks)
		errs := make(chan error, 2)
		start := make(chan struct{})
		for range 2 {
			go func() {
				<-start
				errs <- h.Store.Compose(ctx, key, described(chunks))
			}()
		}
		close(start)
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatalf("round %d: a compose racing another failed: %v", round, err)
			}
		}
		if names := h.Names(t, key); !slices.Equal(names, []string{h.ComposedName}) {
			t.Fatalf("round %d: after two composes at once the recording holds %v, want only %s", round, names, h.ComposedName)
		}
		mustRead(t, h.Store, key, sizes(chunks), true, slices.Concat(chunks...))
	}
}

func testComposeVerifies(t *testing.T, h Harness) {
	chunks := chunkData(40, 8)
	put(t, h.Store, "att/rec", chunks)
	want := slices.Concat(chunks...)
	for name, wrong := range map[string]func([]media.Chunk){
		"hash":  func(c []media.Chunk) { c[33].SHA256 = sha([]byte("otra cosa")) },
		"size":  func(c []media.Chunk) { c[7].Bytes++ },
		"short": func(c []media.Chunk) { c[39].Bytes-- },
	} {
		expect := described(chunks)
		wrong(expect)
		if err := h.Store.Compose(ctx, "att/rec", expect); !errors.Is(err, media.ErrMismatch) {
			t.Fatalf("compose against a wrong %s: %v", name, err)
		}
		// Nothing was deleted: the recording still plays from its chunks.
		if n := len(chunkNames(h, h.Names(t, "att/rec"))); n != len(chunks) {
			t.Fatalf("after a failed compose (%s) %d chunks are left of %d", name, n, len(chunks))
		}
		mustRead(t, h.Store, "att/rec", sizes(chunks), false, want)
	}
	// A later try with the right description finishes the job.
	if err := h.Store.Compose(ctx, "att/rec", described(chunks)); err != nil {
		t.Fatal(err)
	}
	if names := h.Names(t, "att/rec"); !slices.Equal(names, []string{h.ComposedName}) {
		t.Fatalf("after compose: %v", names)
	}
	mustRead(t, h.Store, "att/rec", sizes(chunks), true, want)
}

func testComposeEmpty(t *testing.T, h Harness) {
	if err := h.Store.Compose(ctx, "att/empty", nil); err != nil {
		t.Fatal(err)
	}
	for _, composed := range []bool{false, true} {
		if got, err := readAll(t, h.Store, "att/empty", nil, composed); err != nil || len(got) != 0 {
			t.Fatalf("empty recording: %d bytes, %v", len(got), err)
		}
	}
}

func testDeleteAndRetry(t *testing.T, h Harness) {
	chunks := chunkData(70, 9)
	put(t, h.Store, "att/rec", chunks)
	// A failed compose leaves intermediate objects behind (in a bucket):
	// deleting the recording removes them too.
	expect := described(chunks)
	expect[69].SHA256 = sha(nil)
	if err := h.Store.Compose(ctx, "att/rec", expect); err == nil {
		t.Fatal("compose against a wrong hash succeeded")
	}
	if err := h.Store.Delete(ctx, "att/rec"); err != nil {
		t.Fatal(err)
	}
	if names := h.Names(t, "att/rec"); len(names) != 0 {
		t.Fatalf("after delete: %v", names)
	}
	if _, err := readAll(t, h.Store, "att/rec", sizes(chunks), false); err == nil {
		t.Fatal("deleted media still readable")
	}
	// Deleting again (a retry after a lost answer) succeeds.
	if err := h.Store.Delete(ctx, "att/rec"); err != nil {
		t.Fatalf("second delete: %v", err)
	}
	// A composed recording is deleted whole as well, and never existing is
	// no error either.
	put(t, h.Store, "att/rec2", chunks[:3])
	if err := h.Store.Compose(ctx, "att/rec2", described(chunks[:3])); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"att/rec2", "att/rec2", "att/nunca"} {
		if err := h.Store.Delete(ctx, key); err != nil {
			t.Fatalf("delete %s: %v", key, err)
		}
	}
	if names := h.Names(t, "att/rec2"); len(names) != 0 {
		t.Fatalf("after delete: %v", names)
	}
	if _, err := readAll(t, h.Store, "att/rec2", sizes(chunks[:3]), true); err == nil {
		t.Fatal("deleted composed media still readable")
	}
}

func testDeleteIsolation(t *testing.T, h Harness) {
	a, b := chunkData(3, 10), chunkData(3, 11)
	put(t, h.Store, "att/rec1", a)
	put(t, h.Store, "att/rec10", b) // shares rec1's name as a prefix
	if err := h.Store.Delete(ctx, "att/rec1"); err != nil {
		t.Fatal(err)
	}
	mustRead(t, h.Store, "att/rec10", sizes(b), false, slices.Concat(b...))
	if got := fmt.Sprint(h.Names(t, "att/rec10")); !strings.Contains(got, "000002") {
		t.Fatalf("rec10 holds %s", got)
	}
}

func transfer(t *testing.T, h Harness) media.Transfer {
	t.Helper()
	tr, ok := h.Store.(media.Transfer)
	if !ok {
		t.Fatalf("%T does not implement media.Transfer", h.Store)
	}
	return tr
}

func readPiece(rc io.ReadCloser, err error) ([]byte, error) {
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

func testTransferReads(t *testing.T, h Harness) {
	tr := transfer(t, h)
	chunks := chunkData(5, 12)
	put(t, h.Store, "att/rec", chunks, 0, 1, 2, 4) // 3 is missing: 4 is read all the same
	for _, i := range []int{0, 2, 4} {
		got, err := readPiece(tr.ReadChunk(ctx, "att/rec", i))
		if err != nil || !bytes.Equal(got, chunks[i]) {
			t.Fatalf("ReadChunk(%d) = %d bytes, %v", i, len(got), err)
		}
	}
	if _, err := readPiece(tr.ReadChunk(ctx, "att/rec", 3)); !errors.Is(err, media.ErrNotFound) {
		t.Fatalf("a missing chunk: %v", err)
	}
	if _, err := readPiece(tr.ReadComposed(ctx, "att/rec")); !errors.Is(err, media.ErrNotFound) {
		t.Fatalf("a recording not composed: %v", err)
	}
	put(t, h.Store, "att/rec", chunks, 3)
	if err := h.Store.Compose(ctx, "att/rec", described(chunks)); err != nil {
		t.Fatal(err)
	}
	if got, err := readPiece(tr.ReadComposed(ctx, "att/rec")); err != nil || !bytes.Equal(got, slices.Concat(chunks...)) {
		t.Fatalf("ReadComposed = %d bytes, %v", len(got), err)
	}
	if _, err := readPiece(tr.ReadChunk(ctx, "att/rec", 0)); !errors.Is(err, media.ErrNotFound) {
		t.Fatalf("a chunk after the compose: %v", err)
	}
	for _, k := range []string{"../x/y", "a"} {
		if _, err := tr.ReadChunk(ctx, k, 0); err == nil {
			t.Errorf("ReadChunk with key %q accepted", k)
		}
		if _, err := tr.ReadComposed(ctx, k); err == nil {
			t.Errorf("ReadComposed with key %q accepted", k)
		}
		if err := tr.PutComposed(ctx, k, strings.NewReader("x"), []media.Chunk{{Bytes: 1, SHA256: sha([]byte("x"))}}); err == nil {
			t.Errorf("PutComposed with key %q accepted", k)
		}
	}
}

func testPutComposed(t *testing.T, h Harness) {
	tr := transfer(t, h)
	chunks := chunkData(70, 13)
	whole := slices.Concat(chunks...)
	// Into an empty store: one object, which plays as the composed recording.
	if err := tr.PutComposed(ctx, "att/copia", bytes.NewReader(whole), described(chunks)); err != nil {
		t.Fatal(err)
	}
	if names := h.Names(t, "att/copia"); !slices.Equal(names, []string{h.ComposedName}) {
		t.Fatalf("after PutComposed: %v", names)
	}
	mustRead(t, h.Store, "att/copia", sizes(chunks), true, whole)
	checkRanges(t, h.Store, "att/copia", sizes(chunks), true, whole)
	// Again: harmless.
	if err := tr.PutComposed(ctx, "att/copia", bytes.NewReader(whole), described(chunks)); err != nil {
		t.Fatalf("again: %v", err)
	}
	mustRead(t, h.Store, "att/copia", sizes(chunks), true, whole)
	// Over a recording whose chunks were copied before (by an earlier run):
	// the chunks go, the composed object stays.
	put(t, h.Store, "att/antes", chunks[:10])
	if err := tr.PutComposed(ctx, "att/antes", bytes.NewReader(whole), described(chunks)); err != nil {
		t.Fatal(err)
	}
	if names := h.Names(t, "att/antes"); !slices.Equal(names, []string{h.ComposedName}) {
		t.Fatalf("after PutComposed over chunks: %v", names)
	}
	mustRead(t, h.Store, "att/antes", sizes(chunks), false, whole)
}

// failingReader gives n bytes of data, then an error.
type failingReader struct {
	data []byte
	n    int
}

var errSourceBroke = errors.New("source broke")

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n == 0 {
		return 0, errSourceBroke
	}
	k := copy(p, f.data[:min(len(f.data), f.n)])
	f.data, f.n = f.data[k:], f.n-k
	return k, nil
}

func testPutComposedRefuses(t *testing.T, h Harness) {
	tr := transfer(t, h)
	chunks := chunkData(40, 14)
	whole := slices.Concat(chunks...)
	flipped := bytes.Clone(whole)
	flipped[len(flipped)/2] ^= 0xff
	for name, stream := range map[string]io.Reader{
		"a changed byte": bytes.NewReader(flipped),
		"short":          bytes.NewReader(whole[:len(whole)-1]),
		"long":           bytes.NewReader(append(bytes.Clone(whole), 'x')),
		"failing":        &failingReader{data: whole, n: len(whole) / 2},
	} {
		err := tr.PutComposed(ctx, "att/rota", stream, described(chunks))
		if err == nil {
			t.Fatalf("%s stream stored", name)
		}
		if name == "failing" && !errors.Is(err, errSourceBroke) {
			t.Errorf("failing stream: %v", err)
		} else if name != "failing" && !errors.Is(err, media.ErrMismatch) {
			t.Errorf("%s stream: %v, want ErrMismatch", name, err)
		}
		if names := h.Names(t, "att/rota"); len(names) != 0 {
			t.Fatalf("a refused %s stream left %v", name, names)
		}
	}
	// What was stored stays when a later copy is refused.
	put(t, h.Store, "att/buena", chunks)
	if err := tr.PutComposed(ctx, "att/buena", bytes.NewReader(flipped), described(chunks)); !errors.Is(err, media.ErrMismatch) {
		t.Fatalf("a changed byte over stored chunks: %v", err)
	}
	if n := len(chunkNames(h, h.Names(t, "att/buena"))); n != len(chunks) {
		t.Fatalf("%d chunks left after a refused copy, want %d", n, len(chunks))
	}
	mustRead(t, h.Store, "att/buena", sizes(chunks), false, whole)
}
