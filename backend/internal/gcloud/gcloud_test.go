package gcloud_test

import (
	"context"
	"io"
	"strings"
	"testing"

	"github.com/fsouza/fake-gcs-server/fakestorage"

	"github.com/utpl/simulador/backend/internal/gcloud"
)

// The Admin SDK's storage client follows STORAGE_EMULATOR_HOST without
// looking for credentials.
func TestNewAppReachesStorageEmulator(t *testing.T) {
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{Scheme: "http", Host: "127.0.0.1", PublicHost: "127.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Stop()
	srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: "grabaciones"})
	t.Setenv("STORAGE_EMULATOR_HOST", strings.TrimPrefix(srv.URL(), "http://"))

	ctx := context.Background()
	app, err := gcloud.NewApp(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	client, err := app.Storage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bucket, err := client.Bucket("grabaciones")
	if err != nil {
		t.Fatal(err)
	}
	w := bucket.Object("hola").NewWriter(ctx)
	if _, err := w.Write([]byte("audio")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := bucket.Object("hola").NewReader(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if b, _ := io.ReadAll(r); string(b) != "audio" {
		t.Fatalf("read %q", b)
	}
}
