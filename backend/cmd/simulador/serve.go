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

	srv := &http.Server{
		Addr: a.cfg.Addr,
		Handler: httpapi.New(httpapi.Deps{
			Config: a.cfg, Store: a.store, Auth: a.auth, Groups: a.groups, Catalog: a.catalog, Exams: a.exams, Feedback: a.feedback, Log: a.log,
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
	go a.sweepSessions(ctx)
	a.exams.StartComposer(ctx)
	go a.sweepMedia(ctx)
	if a.cfg.RecordingRetention > 0 {
		go a.sweepRecordings(ctx)
	}
	if a.transcriber != nil {
		go a.transcriber.Run(ctx)
	}
	a.log.Info("serving", "url", "http://"+displayAddr(ln.Addr()), "data", a.cfg.DataDir, "media", a.media.String(),
		"microsoft", a.cfg.Microsoft.Enabled(), "transcription", a.cfg.Transcribe.Enabled(), "frontend", webui.Built())
	if !webui.Built() {
		a.log.Warn("this binary was built without the frontend; run `make build`")
	}
	firstRunHint(ctx, a, stderr)

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	if serving != nil {
		serving(ln.Addr())
	}
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	a.log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
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

func (a *app) sweepSessions(ctx context.Context) {
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
