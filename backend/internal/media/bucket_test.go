package media_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"cloud.google.com/go/storage"
	"google.golang.org/api/iterator"

	"github.com/utpl/simulador/backend/internal/gcloud"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/media/mediatest"
	"github.com/utpl/simulador/backend/internal/testsupport/gcstest"
)

// newBucket starts fake-gcs-server with the bucket and returns the store,
// reached the way the server reaches it: through the Firebase Admin SDK
// and STORAGE_EMULATOR_HOST.
func newBucket(t *testing.T, name string) (*media.Bucket, *storage.BucketHandle) {
	t.Helper()
	gcstest.New(t, name)
	return bucketOf(t, name)
}

// bucketOf is the store of bucket name on the running fake server.
func bucketOf(t *testing.T, name string) (*media.Bucket, *storage.BucketHandle) {
	t.Helper()
	ctx := context.Background()
	app, err := gcloud.NewApp(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	client, err := app.Storage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	handle, err := client.Bucket(name)
	if err != nil {
		t.Fatal(err)
	}
	return media.NewBucket(handle, name), handle
}

func TestBucketContract(t *testing.T) {
	mediatest.Run(t, func(t *testing.T) mediatest.Harness {
		b, handle := newBucket(t, "grabaciones")
		return mediatest.Harness{
			Store: b,
			Names: func(t *testing.T, key string) []string {
				prefix := "recordings/" + key + "/"
				var names []string
				it := handle.Objects(context.Background(), &storage.Query{Prefix: prefix})
				for {
					attrs, err := it.Next()
					if errors.Is(err, iterator.Done) {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					names = append(names, strings.TrimPrefix(attrs.Name, prefix))
				}
				slices.Sort(names)
				return names
			},
			IsChunk:      func(name string) bool { return strings.HasPrefix(name, "chunk-") },
			ComposedName: "recording",
		}
	})
}

func TestBucketCheck(t *testing.T) {
	b, handle := newBucket(t, "grabaciones")
	if err := b.Check(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The check leaves nothing behind.
	if _, err := handle.Objects(context.Background(), nil).Next(); !errors.Is(err, iterator.Done) {
		t.Fatalf("objects left after the check: %v", err)
	}
	// Instances starting together each write their own probe object, and
	// a probe another instance is still checking with is left to it.
	other := handle.Object("recordings/.startup-check-otherinstance").NewWriter(context.Background())
	if _, err := other.Write([]byte("ok")); err != nil {
		t.Fatal(err)
	}
	if err := other.Close(); err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 3)
	for range 3 {
		go func() { errs <- b.Check(context.Background()) }()
	}
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent starts: %v", err)
		}
	}
	it := handle.Objects(context.Background(), nil)
	if attrs, err := it.Next(); err != nil || attrs.Name != "recordings/.startup-check-otherinstance" {
		t.Fatalf("after concurrent checks: %v %v", attrs, err)
	}
	if attrs, err := it.Next(); !errors.Is(err, iterator.Done) {
		t.Fatalf("a probe left behind: %v", attrs.Name)
	}
	if got := b.String(); got != "bucket gs://grabaciones" {
		t.Errorf("String() = %q", got)
	}

	missing, _ := bucketOf(t, "no-existe")
	if err := missing.Check(context.Background()); !errors.Is(err, storage.ErrBucketNotExist) {
		t.Fatalf("check of a missing bucket: %v", err)
	}
}
