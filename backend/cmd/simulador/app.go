package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/firestore"
	"github.com/utpl/simulador/backend/internal/store/postgres"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
	"github.com/utpl/simulador/backend/internal/transcribe"
)

// app is the wired application, shared by the server and the commands.
type app struct {
	cfg      config.Config
	log      *slog.Logger
	store    store.Store
	auth     *auth.Service
	groups   *groups.Service
	catalog  *catalog.Service
	exams    *exams.Service
	feedback *feedback.Service
	lti      *lti.Service
	// transcriber is nil unless TRANSCRIBE_URL is set.
	transcriber *transcribe.Worker
}

// newApp reads the configuration, opens the store and wires the services;
// the log goes to logOut (standard error).
func newApp(ctx context.Context, logOut io.Writer) (*app, error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return nil, err
	}
	log := newLogger(cfg, logOut)
	slog.SetDefault(log)
	st, err := openStore(ctx, cfg, log)
	if err != nil {
		return nil, err
	}
	ms, err := auth.NewMicrosoftVerifier(cfg.Microsoft)
	if err != nil {
		st.Close()
		return nil, err
	}
	ms.SetLogger(log)
	mediaStore, err := media.NewDir(filepath.Join(cfg.DataDir, "media"))
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("media directory: %w", err)
	}
	sessions := auth.NewSessions(st, cfg.SessionIdle, cfg.SessionMax)
	a := &app{
		cfg:     cfg,
		log:     log,
		store:   st,
		auth:    auth.NewService(st, sessions, ms),
		groups:  groups.NewService(st),
		catalog: catalog.NewService(st, cfg.AllowShortTimings),
	}
	a.catalog.SetImportMaxRows(cfg.CaseImportMaxRows)
	a.exams = exams.NewService(st, a.catalog, a.groups, mediaStore)
	a.feedback = feedback.NewService(st)
	a.lti = lti.NewService(st, a.groups, lti.Options{Log: log})
	a.exams.OnGraded(a.lti.OnGraded)
	if t := cfg.Transcribe; t.Enabled() {
		client := transcribe.NewClient(transcribe.Config{URL: t.URL, Model: t.Model, APIKey: t.APIKey, Language: t.Language, Timeout: t.Timeout})
		a.transcriber = transcribe.NewWorker(st, a.exams, a.feedback, client, log)
		a.exams.OnRecordingComplete(a.transcriber.Enqueue)
	}
	// A fresh install gets the demo case bank once, so it can be used at once.
	if res, err := a.catalog.ImportDemoBank(ctx); err != nil {
		st.Close()
		return nil, err
	} else if res.Created > 0 {
		log.Info("demo case bank loaded", "cases", res.Created)
	}
	return a, nil
}

func (a *app) Close() error { return a.store.Close() }

// storeStartTimeout bounds how long the start waits for a store on the
// network (Firestore retries an unreachable server until its context ends).
var storeStartTimeout = 30 * time.Second

// openStore opens the store DATABASE_URL selects and logs which one it is
// (never a password). A store that cannot be reached stops the start.
func openStore(ctx context.Context, cfg config.Config, log *slog.Logger) (store.Store, error) {
	switch cfg.StoreKind() {
	case config.StorePostgres:
		server := postgresServer(cfg.DatabaseURL)
		log.Info("store", "kind", "postgres", "server", server)
		st, err := postgres.Open(ctx, cfg.DatabaseURL)
		if err != nil {
			return nil, fmt.Errorf("DATABASE_URL: cannot use PostgreSQL at %s: %w", server, err)
		}
		return st, nil
	case config.StoreFirestore:
		project := cfg.FirestoreProject()
		attrs := []any{"kind", "firestore", "project", project}
		if host := os.Getenv("FIRESTORE_EMULATOR_HOST"); host != "" {
			attrs = append(attrs, "emulator", host)
		}
		log.Info("store", attrs...)
		octx, cancel := context.WithTimeout(ctx, storeStartTimeout)
		defer cancel()
		st, err := firestore.Open(octx, project)
		if err != nil {
			return nil, fmt.Errorf("DATABASE_URL: cannot use Firestore (gave up after %s): %w", storeStartTimeout, err)
		}
		return st, nil
	}
	log.Info("store", "kind", "sqlite", "file", cfg.SQLitePath())
	st, err := sqlite.Open(ctx, cfg.SQLitePath())
	if err != nil {
		return nil, fmt.Errorf("open SQLite store in %s: %w", cfg.DataDir, err)
	}
	return st, nil
}

// postgresServer names a PostgreSQL URL's server and database, without
// its password or parameters (which may hold one).
func postgresServer(databaseURL string) string {
	u, err := url.Parse(databaseURL)
	if err != nil {
		return "(an unreadable URL)"
	}
	server := u.Host + u.Path
	if name := u.User.Username(); name != "" {
		server = name + "@" + server
	}
	return server
}

func newLogger(cfg config.Config, w io.Writer) *slog.Logger {
	var level slog.Level
	_ = level.UnmarshalText([]byte(cfg.LogLevel))
	opts := &slog.HandlerOptions{Level: level}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}
