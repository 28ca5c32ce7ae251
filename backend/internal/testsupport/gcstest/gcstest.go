// Package gcstest runs fake-gcs-server (github.com/fsouza/fake-gcs-server),
// Cloud Storage's JSON and XML APIs in memory, inside the test process or
// in bin/gcs-test-server. Clients reach it through STORAGE_EMULATOR_HOST.
//
// What it does faithfully and what the media store relies on: single-request
// uploads with CRC32C and DoesNotExist preconditions, compose (at most 32
// sources), range reads, listing by prefix and deletes. Its resumable upload
// sessions are not faithful: nothing here uses them.
package gcstest

import (
	"fmt"
	"net"
	"strconv"
	"testing"

	"github.com/fsouza/fake-gcs-server/fakestorage"
)

// Server is a running fake Cloud Storage.
type Server struct {
	*fakestorage.Server
	// Host is host:port, the value for STORAGE_EMULATOR_HOST.
	Host string
}

// Start serves on host:port (port 0 picks a free one), with the buckets
// created and empty.
func Start(host string, port uint16, buckets ...string) (*Server, error) {
	return StartIn("", host, port, buckets...)
}

// StartIn is Start with the objects kept as files under root (fake-gcs-server's
// file-system backend) instead of in memory; root "" keeps them in memory.
// The in-memory backend scans every object of the bucket on each write
// (20 ms a write at 20,000 objects here, under one lock); the file-system
// backend does not slow down as objects pile up.
func StartIn(root, host string, port uint16, buckets ...string) (*Server, error) {
	if port == 0 {
		// The server's reads are routed by host name, which must carry the
		// port: pick the port first.
		ln, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
		if err != nil {
			return nil, err
		}
		port = uint16(ln.Addr().(*net.TCPAddr).Port)
		ln.Close()
	}
	hostPort := net.JoinHostPort(host, strconv.Itoa(int(port)))
	srv, err := fakestorage.NewServerWithOptions(fakestorage.Options{
		Scheme: "http", Host: host, Port: port, PublicHost: hostPort, StorageRoot: root,
	})
	if err != nil {
		return nil, fmt.Errorf("fake-gcs-server on %s: %w", hostPort, err)
	}
	for _, b := range buckets {
		srv.CreateBucketWithOpts(fakestorage.CreateBucketOpts{Name: b})
	}
	return &Server{Server: srv, Host: hostPort}, nil
}

// New starts a server for tb with the buckets, points STORAGE_EMULATOR_HOST
// at it for the rest of the test, and stops it when the test ends.
func New(tb testing.TB, buckets ...string) *Server {
	tb.Helper()
	srv, err := Start("127.0.0.1", 0, buckets...)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(srv.Stop)
	tb.Setenv("STORAGE_EMULATOR_HOST", srv.Host)
	return srv
}
