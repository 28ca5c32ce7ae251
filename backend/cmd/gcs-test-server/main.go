// Command gcs-test-server runs fake-gcs-server (package gcstest) as a
// process, for the browser tests and the upload benchmark, which run
// bin/simulador with recordings in a bucket: MEDIA_BUCKET=BUCKET and
// STORAGE_EMULATOR_HOST=HOST:PORT.
//
// FOR TESTS ONLY: it checks no credentials. Objects are kept in memory
// (lost when it exits), or with -dir as files under DIR: the in-memory
// backend scans every object on each write, so a long benchmark with tens
// of thousands of chunks wants -dir.
//
// It prints one JSON line on stdout once it is listening,
//
//	{"host":"127.0.0.1:PORT","bucket":"grabaciones"}
//
// and exits on SIGTERM or SIGINT.
//
//	gcs-test-server -addr 127.0.0.1:0 -bucket grabaciones [-dir DIR]
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"

	"github.com/utpl/simulador/backend/internal/testsupport/gcstest"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "gcs-test-server:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:0", "listen address (port 0: a free port)")
	bucket := flag.String("bucket", "grabaciones", "the bucket to create")
	dir := flag.String("dir", "", "keep objects as files under this directory (default: in memory)")
	flag.Parse()
	host, portText, err := net.SplitHostPort(*addr)
	if err != nil {
		return fmt.Errorf("-addr: %w", err)
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return fmt.Errorf("-addr: port %q: %w", portText, err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	srv, err := gcstest.StartIn(*dir, host, uint16(port), *bucket)
	if err != nil {
		return err
	}
	defer srv.Stop()
	ready := struct {
		Host   string `json:"host"`
		Bucket string `json:"bucket"`
	}{srv.Host, *bucket}
	if err := json.NewEncoder(os.Stdout).Encode(ready); err != nil {
		return err
	}
	<-ctx.Done()
	return nil
}
