package httpapi_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"cloud.google.com/go/storage"
	"google.golang.org/api/iterator"

	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/gcloud"
	"github.com/utpl/simulador/backend/internal/httpapi"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/testsupport/gcstest"
)

// mediaStore is one media.Store the recording tests run on, with a way to
// list what it holds for a recording.
type mediaStore struct {
	name string
	open func(t *testing.T) (media.Store, func(t *testing.T, key string) []string)
}

var mediaStores = []mediaStore{
	{"directory", func(t *testing.T) (media.Store, func(*testing.T, string) []string) {
		root := t.TempDir()
		d, err := media.NewDir(root)
		if err != nil {
			t.Fatal(err)
		}
		d.Sync = false
		return d, func(t *testing.T, key string) []string {
			var names []string
			dir := filepath.Join(root, filepath.FromSlash(key))
			_ = filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
				if err == nil && !e.IsDir() {
					names = append(names, filepath.Base(path))
				}
				return nil
			})
			slices.Sort(names)
			return names
		}
	}},
	{"bucket", func(t *testing.T) (media.Store, func(*testing.T, string) []string) {
		gcstest.New(t, "grabaciones")
		ctx := context.Background()
		app, err := gcloud.NewApp(ctx, "")
		if err != nil {
			t.Fatal(err)
		}
		client, err := app.Storage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		handle, err := client.Bucket("grabaciones")
		if err != nil {
			t.Fatal(err)
		}
		return media.NewBucket(handle, "grabaciones"), func(t *testing.T, key string) []string {
			var names []string
			it := handle.Objects(ctx, &storage.Query{Prefix: "recordings/" + key + "/"})
			for {
				attrs, err := it.Next()
				if errors.Is(err, iterator.Done) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, strings.TrimPrefix(attrs.Name, "recordings/"+key+"/"))
			}
			slices.Sort(names)
			return names
		}
	}},
}

// flakyMedia fails Compose or Delete while told to, as an outage of the
// media store would.
type flakyMedia struct {
	media.Store
	failCompose, failDelete atomic.Bool
}

var errOutage = errors.New("media store unavailable")

func (f *flakyMedia) Compose(ctx context.Context, key string, chunks []media.Chunk) error {
	if f.failCompose.Load() {
		return errOutage
	}
	return f.Store.Compose(ctx, key, chunks)
}

func (f *flakyMedia) Delete(ctx context.Context, key string) error {
	if f.failDelete.Load() {
		return errOutage
	}
	return f.Store.Delete(ctx, key)
}

// withMedia rewires e's services and API over m, as the server does at
// start with MEDIA_BUCKET or DATA_DIR/media.
func withMedia(e *env, m media.Store) {
	cat := catalog.NewService(e.store, e.cfg.AllowShortTimings)
	e.exams = exams.NewService(e.store, cat, e.groups, m)
	e.exams.SetClock(e.clock.Now)
	e.handler = httpapi.New(httpapi.Deps{Config: e.cfg, Store: e.store, Auth: e.auth, Groups: e.groups, Catalog: cat, Exams: e.exams,
		Feedback: feedback.NewService(e.store), Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Now: e.clock.Now})
}

// uploadTake registers a take of the presentation of a new attempt and
// uploads n chunks; it returns the recording's URL, key and whole audio.
func uploadTake(e *env, n int) (base, key string, whole []byte) {
	e.t.Helper()
	a := e.start(studentInGrp, "simulacro")
	e.mustAttempt(studentInGrp, http.MethodPost, "/api/attempts/"+a.ID+"/advance", map[string]int{"from": 0}, http.StatusOK)
	base = "/api/attempts/" + a.ID + "/recordings/" + recID
	if res := e.do(studentInGrp, http.MethodPut, base, map[string]any{"phase": 1, "mimeType": "audio/webm;codecs=opus"}); res.Code != 200 {
		e.t.Fatalf("register take: %d %s", res.Code, res.Body)
	}
	for i := range n {
		chunk := []byte(fmt.Sprintf("fragmento-%03d|%s", i, strings.Repeat("a", i%7)))
		if res := e.do(studentInGrp, http.MethodPut, fmt.Sprintf("%s/chunks/%d", base, i), chunk); res.Code != 200 {
			e.t.Fatalf("chunk %d: %d %s", i, res.Code, res.Body)
		}
		whole = append(whole, chunk...)
	}
	return base, a.ID + "/" + recID, whole
}

// expectMedia checks the recording plays whole and by ranges, as the
// student and as the tutor.
func expectMedia(e *env, base string, whole []byte) {
	e.t.Helper()
	for _, role := range []string{studentInGrp, tutor} {
		if res := e.do(role, http.MethodGet, base+"/media", nil); res.Code != 200 || res.Body.String() != string(whole) {
			e.t.Fatalf("media as %s = %d, %d bytes of %d", role, res.Code, res.Body.Len(), len(whole))
		}
	}
	for _, r := range [][2]int{{0, 0}, {10, 40}, {len(whole) - 30, len(whole) - 1}, {len(whole) / 3, 2 * len(whole) / 3}} {
		res := e.do(tutor, http.MethodGet, base+"/media", nil, "Range", fmt.Sprintf("bytes=%d-%d", r[0], r[1]))
		if res.Code != http.StatusPartialContent || res.Body.String() != string(whole[r[0]:r[1]+1]) {
			e.t.Fatalf("range %v = %d %q", r, res.Code, res.Body)
		}
	}
}

func chunkNames(names []string) int {
	n := 0
	for _, name := range names {
		if strings.Contains(name, "chunk") {
			n++
		}
	}
	return n
}

// A completed recording is composed into one object; when that fails the
// chunks keep playing and the sweep finishes the job. Deleting it removes
// every object, and a deletion that failed is retried.
func TestRecordingMediaIsComposedThenDeleted(t *testing.T) {
	for _, ms := range mediaStores {
		t.Run(ms.name, func(t *testing.T) {
			e := newEnv(t)
			store, names := ms.open(t)
			flaky := &flakyMedia{Store: store}
			withMedia(e, flaky)
			ctx := context.Background()
			base, key, whole := uploadTake(e, 70)
			attemptID, _, _ := strings.Cut(key, "/")
			expectMedia(e, base, whole) // while uploading

			flaky.failCompose.Store(true)
			res := e.do(studentInGrp, http.MethodPost, base+"/complete", map[string]any{"chunks": 70, "durationMs": 140000})
			if r := decode[recordingResp](t, res); res.Code != 200 || !r.Complete || r.Chunks != 70 {
				t.Fatalf("complete while the media store fails = %d %s", res.Code, res.Body)
			}
			if r, _ := e.store.GetRecording(ctx, attemptID, recID); r.Composed {
				t.Fatal("marked composed although the compose failed")
			}
			if n := chunkNames(names(t, key)); n != 70 {
				t.Fatalf("%d chunks left of 70 after a failed compose", n)
			}
			expectMedia(e, base, whole)

			flaky.failCompose.Store(false)
			if n, err := e.exams.ComposePending(ctx); n != 1 || err != nil {
				t.Fatalf("ComposePending = %d, %v", n, err)
			}
			if r, _ := e.store.GetRecording(ctx, attemptID, recID); !r.Composed || r.Chunks != 70 {
				t.Fatalf("after the sweep: %+v", r)
			}
			if got := names(t, key); !slices.Equal(got, []string{"recording"}) {
				t.Fatalf("after the sweep the recording holds %v", got)
			}
			expectMedia(e, base, whole)
			if n, err := e.exams.ComposePending(ctx); n != 0 || err != nil {
				t.Fatalf("second sweep = %d, %v", n, err)
			}
			// A retried complete call and a retried chunk are still answered.
			if res := e.do(studentInGrp, http.MethodPost, base+"/complete", map[string]any{"chunks": 70, "durationMs": 140000}); res.Code != 200 {
				t.Fatalf("complete again = %d %s", res.Code, res.Body)
			}
			if res := e.do(studentInGrp, http.MethodPut, base+"/chunks/3", []byte("fragmento-003|aaa")); res.Code != 200 {
				t.Fatalf("late retry of a chunk = %d %s", res.Code, res.Body)
			}
			expectMedia(e, base, whole)

			flaky.failDelete.Store(true)
			if res := e.do(studentInGrp, http.MethodDelete, base, nil); res.Code != 500 {
				t.Fatalf("delete while the media store fails = %d %s", res.Code, res.Body)
			}
			if r, _ := e.store.GetRecording(ctx, attemptID, recID); r.Deleted {
				t.Fatal("marked deleted although its audio is still there: nothing would retry")
			}
			flaky.failDelete.Store(false)
			for range 2 {
				if res := e.do(studentInGrp, http.MethodDelete, base, nil); res.Code != 204 {
					t.Fatalf("delete = %d %s", res.Code, res.Body)
				}
			}
			if got := names(t, key); len(got) != 0 {
				t.Fatalf("after delete the recording holds %v", got)
			}
			if res := e.do(tutor, http.MethodGet, base+"/media", nil); res.Code != 404 {
				t.Fatalf("deleted media = %d", res.Code)
			}
		})
	}
}

// The retention period removes the objects of composed and uncomposed
// recordings alike.
func TestRetentionDeletesRecordingMedia(t *testing.T) {
	for _, ms := range mediaStores {
		t.Run(ms.name, func(t *testing.T) {
			e := newEnv(t)
			store, names := ms.open(t)
			withMedia(e, store)
			ctx := context.Background()
			base, key, _ := uploadTake(e, 40)
			if res := e.do(studentInGrp, http.MethodPost, base+"/complete", map[string]any{"chunks": 40, "durationMs": 80000}); res.Code != 200 {
				t.Fatalf("complete = %d %s", res.Code, res.Body)
			}
			if got := names(t, key); !slices.Equal(got, []string{"recording"}) {
				t.Fatalf("after complete the recording holds %v", got)
			}
			e.mustAttempt(studentInGrp, http.MethodPost, "/api/attempts/"+strings.Split(key, "/")[0]+"/abandon", nil, 200)
			base2, key2, _ := uploadTake(e, 3) // never completed
			if n, err := e.exams.DeleteOlderThan(ctx, e.clock.Now().Add(time.Hour)); n != 2 || err != nil {
				t.Fatalf("DeleteOlderThan = %d, %v", n, err)
			}
			for _, k := range []string{key, key2} {
				if got := names(t, k); len(got) != 0 {
					t.Fatalf("after retention %s holds %v", k, got)
				}
			}
			for _, b := range []string{base, base2} {
				if res := e.do(tutor, http.MethodGet, b+"/media", nil); res.Code != 404 {
					t.Fatalf("media past retention = %d", res.Code)
				}
			}
		})
	}
}

// TestTwoRetentionSweepsAtOnce: every instance of a deployment runs the
// retention sweep; two at the same moment over one store and one bucket
// both finish without error, every old recording's audio is gone, and no
// recording is counted more than once by each.
func TestTwoRetentionSweepsAtOnce(t *testing.T) {
	for _, ms := range mediaStores {
		t.Run(ms.name, func(t *testing.T) {
			e := newEnv(t)
			store, names := ms.open(t)
			withMedia(e, store)
			other := exams.NewService(e.store, catalog.NewService(e.store, e.cfg.AllowShortTimings), e.groups, store)
			other.SetClock(e.clock.Now)
			var keys []string
			for range 3 {
				base, key, _ := uploadTake(e, 8)
				if res := e.do(studentInGrp, http.MethodPost, base+"/complete", map[string]any{"chunks": 8, "durationMs": 16000}); res.Code != 200 {
					t.Fatalf("complete = %d %s", res.Code, res.Body)
				}
				e.mustAttempt(studentInGrp, http.MethodPost, "/api/attempts/"+strings.Split(key, "/")[0]+"/abandon", nil, 200)
				keys = append(keys, key)
			}
			cutoff := e.clock.Now().Add(time.Hour)
			counts := make([]int, 2)
			errs := make([]error, 2)
			var wg sync.WaitGroup
			for i, svc := range []*exams.Service{e.exams, other} {
				wg.Go(func() { counts[i], errs[i] = svc.DeleteOlderThan(context.Background(), cutoff) })
			}
			wg.Wait()
			for i := range 2 {
				if errs[i] != nil || counts[i] > len(keys) {
					t.Fatalf("sweep %d: %d deleted, err %v", i, counts[i], errs[i])
				}
			}
			if counts[0]+counts[1] < len(keys) {
				t.Fatalf("the two sweeps deleted %v of %d", counts, len(keys))
			}
			for _, k := range keys {
				if got := names(t, k); len(got) != 0 {
					t.Fatalf("after two sweeps %s holds %v", k, got)
				}
			}
			if n, err := e.exams.DeleteOlderThan(context.Background(), cutoff); n != 0 || err != nil {
				t.Fatalf("a third sweep found %d, err %v", n, err)
			}
		})
	}
}

// With the background composer (as the server runs), complete answers at
// once and the recording is composed shortly after.
func TestBackgroundComposer(t *testing.T) {
	for _, ms := range mediaStores {
		t.Run(ms.name, func(t *testing.T) {
			e := newEnv(t)
			store, names := ms.open(t)
			withMedia(e, store)
			ctx, cancel := context.WithCancel(context.Background())
			var composers sync.WaitGroup
			defer composers.Wait()
			defer cancel()
			e.exams.StartComposer(ctx, &composers)
			base, key, whole := uploadTake(e, 35)
			attemptID, _, _ := strings.Cut(key, "/")
			if res := e.do(studentInGrp, http.MethodPost, base+"/complete", map[string]any{"chunks": 35, "durationMs": 70000}); res.Code != 200 {
				t.Fatalf("complete = %d %s", res.Code, res.Body)
			}
			deadline := time.Now().Add(10 * time.Second)
			for {
				if r, _ := e.store.GetRecording(ctx, attemptID, recID); r.Composed {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("not composed after 10 s; the recording holds %v", names(t, key))
				}
				time.Sleep(20 * time.Millisecond)
			}
			if got := names(t, key); !slices.Equal(got, []string{"recording"}) {
				t.Fatalf("after compose the recording holds %v", got)
			}
			expectMedia(e, base, whole)
		})
	}
}
