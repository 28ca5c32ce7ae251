package main

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/testsupport/gcstest"
)

func TestServeSaysWhereRecordingsAreKept(t *testing.T) {
	dir := cliEnv(t)
	r := serveUntilReady(t)
	if want := `media="directory ` + filepath.Join(dir, "media") + `"`; !strings.Contains(r.stderr, want) {
		t.Errorf("the start-up log does not say %s:\n%s", want, r.stderr)
	}

	gcstest.New(t, "grabaciones-utpl")
	t.Setenv("MEDIA_BUCKET", "grabaciones-utpl")
	r = serveUntilReady(t)
	if want := `media="bucket gs://grabaciones-utpl"`; !strings.Contains(r.stderr, want) {
		t.Errorf("the start-up log does not say %s:\n%s", want, r.stderr)
	}
}

func TestServeStopsWhenTheBucketCannotBeUsed(t *testing.T) {
	cliEnv(t)
	gcstest.New(t, "grabaciones-utpl")
	t.Setenv("MEDIA_BUCKET", "otro-bucket")
	r := fails(t, `MEDIA_BUCKET="otro-bucket": the bucket does not exist`, "serve")
	if strings.Contains(r.stderr, "msg=serving") {
		t.Errorf("the server started:\n%s", r.stderr)
	}

	// Nothing listens where the emulator should be.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("STORAGE_EMULATOR_HOST", ln.Addr().String())
	ln.Close()
	t.Setenv("MEDIA_BUCKET", "grabaciones-utpl")
	fails(t, `MEDIA_BUCKET="grabaciones-utpl": the bucket cannot be used`, "serve")
}

// The terminal commands do not need the bucket.
func TestCommandsDoNotOpenTheBucket(t *testing.T) {
	cliEnv(t)
	t.Setenv("STORAGE_EMULATOR_HOST", "127.0.0.1:1")
	t.Setenv("MEDIA_BUCKET", "grabaciones-utpl")
	mustIn(t, "una-clave-segura\n", "users", "create", "--email", "a@utpl.edu.ec", "--role", "tutor")
}
