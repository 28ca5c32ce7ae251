package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/httpapi"
	"github.com/utpl/simulador/backend/internal/webui"
)

// serving, when set (tests), is told the listening address once the
// server accepts requests.
var serving func(addr net.Addr)

func serve(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArguments("serve", fs); err != nil {
		return err
	}
	a, err := newApp(ctx, stderr, true)
	if err != nil {
		return err
	}
	defer a.Close()
	// The tool's LTI signing key: made on the first start (and kept in the
	// store), so /lti/jwks always has one.
	if err := a.lti.Keys().Ensure(ctx); err != nil {
		return fmt.Errorf("LTI signing key: %w", err)
	}

	srv := &http.Server{
		Addr: a.cfg.Addr,
		Handler: httpapi.New(httpapi.Deps{
			Config: a.cfg, Store: a.store, Auth: a.auth, Groups: a.groups, Catalog: a.catalog, Exams: a.exams, Feedback: a.feedback, LTI: a.lti, Log: a.log,
		}),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      5 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	ln, err := net.Listen("tcp", a.cfg.Addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", a.cfg.Addr, err)
	}

	if err := startDebug(ctx, a.cfg.DebugAddr, a.log); err != nil {
		return fmt.Errorf("DEBUG_ADDR=%s: %w", a.cfg.DebugAddr, err)
	}
	// Background work runs until the server stops (bg ends), and the
	// shutdown waits for it: the transcription worker gives back the job
	// it holds, a compose under way stops and is left to the sweep.
	bg, stopBackground := context.WithCancel(context.WithoutCancel(ctx))
	defer stopBackground()
	var background sync.WaitGroup
	background.Go(func() { a.sweepExpired(bg) })
	a.exams.StartComposer(bg, &background)
	background.Go(func() { a.sweepMedia(bg) })
	if a.cfg.RecordingRetention > 0 {
		background.Go(func() { a.sweepRecordings(bg) })
	}
	if a.transcriber != nil {
		background.Go(func() { a.transcriber.Run(bg) })
	}
	// Simulacro grades to the courses' gradebooks, and the sweep of
	// expired LTI login states and codes.
	background.Go(func() { a.lti.Run(bg) })
	a.log.Info("serving", "url", "http://"+displayAddr(ln.Addr()), "data", a.cfg.DataDir, "media", a.media.String(),
		"microsoft", a.cfg.Microsoft.Enabled(), "tutorsRequireMicrosoft", a.cfg.TutorsRequireMicrosoft, "mail", a.cfg.Mail.Enabled(),
		"transcription", a.cfg.Transcribe.Enabled(), "frontend", webui.Built(), "clientAddress", a.cfg.ClientAddressRule())
	if !webui.Built() {
		a.log.Warn("this binary was built without the frontend; run `make build`")
	}
	// The hint goes through the log's writer, which serializes every
	// write to standard error: written beside it, it raced its flushes.
	hintOut := stderr
	if a.logs != nil {
		hintOut = a.logs
	}
	firstRunHint(ctx, a, hintOut)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if serving != nil {
		serving(ln.Addr())
	}
	select {
	case err := <-errc:
		stopBackground()
		background.Wait()
		return err
	case <-ctx.Done():
	}
	return shutdown(a, srv, errc, stopBackground, &background)
}

// Cloud Run gives an instance 10 seconds between SIGTERM and SIGKILL. The
// shutdown fits in shutdownGrace: requestGrace for the requests under way
// (a chunk upload takes well under a second), the rest for the
// background work to let go of what it holds.
var (
	shutdownGrace = 9 * time.Second
	requestGrace  = 7 * time.Second
)

// shutdown stops the server in order: no new connections; the requests
// under way (chunk uploads, their transactions) finish and are answered;
// background work stops, and the transcription job being worked on goes
// back to pending for another instance; then the store closes (deferred
// by serve). A chunk acknowledged before the signal is already durable;
// one being uploaded is acknowledged or refused, never half stored.
func shutdown(a *app, srv *http.Server, errc <-chan error, stopBackground func(), background *sync.WaitGroup) error {
	started := time.Now()
	a.log.Info("shutting down: finishing requests under way")
	// Background work stops at once and in parallel with the requests:
	// what it holds is released while the requests finish.
	stopBackground()
	reqCtx, cancel := context.WithTimeout(context.Background(), requestGrace)
	defer cancel()
	err := srv.Shutdown(reqCtx)
	if err != nil {
		// Requests still running after the grace are cut: their clients
		// get no answer and retry (an unacknowledged chunk is sent again).
		a.log.Warn("shutdown: requests still running were cut", "err", err)
		_ = srv.Close()
	}
	done := make(chan struct{})
	go func() { background.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Until(started.Add(shutdownGrace))):
		a.log.Warn("shutdown: background work did not stop in time")
	}
	if serr := <-errc; !errors.Is(serr, http.ErrServerClosed) {
		return serr
	}
	a.log.Info("stopped", "after", time.Since(started).Round(time.Millisecond))
	return nil
}

// firstRunHint tells a newcomer how to create the first tutor.
func firstRunHint(ctx context.Context, a *app, w io.Writer) {
	tutors, err := a.store.ListUsersByRole(ctx, domain.RoleTutor)
	if err != nil || len(tutors) > 0 {
		return
	}
	fmt.Fprintf(w, `
  No tutor account exists yet. Create the first one from another terminal,
  with your own email and name:

    %s bin/simulador users create --email nombre.apellido@utpl.edu.ec --role tutor --name "Nombre Apellido"

  It asks for the password (at least 8 characters, not a common one), then
  sign in at http://%s/login with that email and password.

`, storeEnv(a.cfg), hostForHint(a.cfg.Addr))
}

// storeEnv is the environment that points a command at the server's store.
func storeEnv(cfg config.Config) string {
	switch cfg.StoreKind() {
	case config.StorePostgres:
		return "DATABASE_URL=<the server's DATABASE_URL>" // it holds a password
	case config.StoreFirestore:
		env := "DATABASE_URL=" + cfg.DatabaseURL
		if host := os.Getenv("FIRESTORE_EMULATOR_HOST"); host != "" {
			env = "FIRESTORE_EMULATOR_HOST=" + host + " " + env
		}
		return env
	}
	return "DATA_DIR=" + cfg.DataDir
}

// sweepExpired deletes expired sessions and sign-in throttle counters
// every 10 minutes. Every instance sweeps: the deletions are idempotent.
func (a *app) sweepExpired(ctx context.Context) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			if n, err := a.auth.Sessions().Sweep(ctx); err != nil {
				a.log.Warn("session sweep failed", "err", err)
			} else if n > 0 {
				a.log.Debug("expired sessions removed", "count", n)
			}
			if n, err := a.auth.SweepExpired(ctx); err != nil {
				a.log.Warn("token and counter sweep failed", "err", err)
			} else if n > 0 {
				a.log.Debug("expired tokens and counters removed", "count", n)
			}
		}
	}
}

// sweepMedia composes, every 10 minutes from the start, the complete
// recordings whose chunks were not composed when they completed (a failure
// of the media store, a crash, or recordings older than composing).
func (a *app) sweepMedia(ctx context.Context) {
	t := time.NewTicker(10 * time.Minute)
	defer t.Stop()
	for {
		n, err := a.exams.ComposePending(ctx)
		if err != nil && ctx.Err() == nil {
			a.log.Warn("media compose sweep failed", "composed", n, "err", err)
		} else if n > 0 {
			a.log.Info("recordings composed by the sweep", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// sweepRecordings deletes the audio of recordings older than the retention
// period (RECORDING_RETENTION_DAYS), hourly.
func (a *app) sweepRecordings(ctx context.Context) {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		n, err := a.exams.DeleteOlderThan(ctx, time.Now().Add(-a.cfg.RecordingRetention))
		if err != nil {
			a.log.Warn("recording retention sweep failed", "err", err)
		} else if n > 0 {
			a.log.Info("recordings past retention deleted", "count", n)
		}
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

func displayAddr(addr net.Addr) string { return hostForHint(addr.String()) }

// hostForHint turns a listen address into one a browser can open.
func hostForHint(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return addr
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port)
}
