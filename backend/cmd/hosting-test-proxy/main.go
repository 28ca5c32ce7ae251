// Command hosting-test-proxy runs package hostingproxy's stand-in for
// Firebase Hosting as a process, for the browser tests (Playwright
// project "hosting") and scripts/post-deploy-check.sh: it serves the
// public directory of firebase.json and sends its "run" rewrites to a
// local server, as Hosting documents.
//
// FOR TESTS ONLY.
//
// It prints one JSON line on stdout once it is listening,
//
//	{"url":"http://127.0.0.1:PORT"}
//
// and exits on SIGTERM or SIGINT. The server behind it needs PUBLIC_URL
// set to the proxy's address: pick a free port for -addr first.
//
//	hosting-test-proxy -config firebase.json -service http://127.0.0.1:8080 [-cut 60s]
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/utpl/simulador/backend/internal/deploy"
	"github.com/utpl/simulador/backend/internal/testsupport/hostingproxy"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "hosting-test-proxy:", err)
		os.Exit(1)
	}
}

func run() error {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	config := flag.String("config", "firebase.json", "the firebase.json to apply (its public directory is relative to it)")
	generate := flag.Bool("generate", false, "apply what `make firebase-config` would write with this environment (MS_AUTHORITY, INTRO_VIDEO_URL) instead of the file's content")
	service := flag.String("service", "", "the local server the run rewrites go to (http://host:port)")
	cut := flag.Duration("cut", hostingproxy.DefaultCut, "how long the service may take before the answer is 504")
	flag.Parse()
	if *service == "" {
		return errors.New("-service is required")
	}
	u, err := url.Parse(*service)
	if err != nil || u.Host == "" {
		return fmt.Errorf("-service %q: not a URL", *service)
	}
	opts := hostingproxy.Options{Config: *config, Service: u, Cut: *cut}
	if *generate {
		// A test's Microsoft issuer is another origin, which the pages'
		// Content-Security-Policy must allow, as README's step 5 says.
		cfg, err := deploy.ReferenceConfig(os.LookupEnv)
		if err != nil {
			return err
		}
		if opts.JSON, err = deploy.Firebase(deploy.DefaultService, cfg); err != nil {
			return err
		}
	}
	p, err := hostingproxy.New(opts)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := json.NewEncoder(os.Stdout).Encode(map[string]string{"url": "http://" + ln.Addr().String()}); err != nil {
		return err
	}
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
