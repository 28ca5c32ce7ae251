package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"cloud.google.com/go/storage"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/catalog"
	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/exams"
	"github.com/utpl/simulador/backend/internal/feedback"
	"github.com/utpl/simulador/backend/internal/gcloud"
	"github.com/utpl/simulador/backend/internal/groups"
	"github.com/utpl/simulador/backend/internal/lti"
	"github.com/utpl/simulador/backend/internal/mail"
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
	// media keeps the recordings' audio; nil in the terminal commands.
	media media.Store
	// transcriber is nil unless TRANSCRIBE_URL is set.
	transcriber *transcribe.Worker
	// logs batches the server's log lines (nil in the terminal commands).
	logs *logBuffer
}

// newApp reads the configuration, opens the store and wires the services;
// the log goes to logOut (standard error). Only the server opens the media
// store (withMedia): the terminal commands never touch recordings, and a
// bucket is checked over the network.
func newApp(ctx context.Context, logOut io.Writer, withMedia bool) (_ *app, err error) {
	cfg, err := config.FromEnv()
	if err != nil {
		return nil, err
	}
	var logs *logBuffer
	if withMedia { // the server: many lines, batched
		logs = newLogBuffer(logOut)
		logOut = logs
		defer func() {
			if err != nil {
				logs.Close()
			}
		}()
	}
	log := newLogger(cfg, logOut)
	slog.SetDefault(log)
	if withMedia {
		setMemoryLimit(log)
	}
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
	var mediaStore media.Store
	if withMedia {
		if mediaStore, err = openMedia(ctx, cfg); err != nil {
			st.Close()
			return nil, err
		}
	}
	sessions := auth.NewSessions(st, cfg.SessionIdle, cfg.SessionMax)
	if cfg.StoreKind() == config.StoreSQLite {
		// One process owns the database file: every sign-out and revocation
		// passes through it, so resolved sessions may be kept a second.
		sessions.CacheResolved()
	}
	a := &app{
		cfg:     cfg,
		log:     log,
		logs:    logs,
		store:   st,
		auth:    auth.NewService(st, sessions, ms),
		groups:  groups.NewService(st),
		catalog: catalog.NewService(st, cfg.AllowShortTimings),
		media:   mediaStore,
	}
	var mailer mail.Sender
	if m := mail.NewSMTP(cfg.Mail); m != nil {
		mailer = m
	}
	a.auth.Configure(auth.Options{Log: log, Mailer: mailer, PublicURL: cfg.Mail.PublicURL, TutorsRequireMicrosoft: cfg.TutorsRequireMicrosoft})
	a.catalog.SetImportMaxRows(cfg.CaseImportMaxRows)
	a.catalog.SetMaxCasesPerDegree(cfg.MaxCasesPerDegree)
	a.exams = exams.NewService(st, a.catalog, a.groups, mediaStore)
	a.exams.SetLimits(exams.Limits{
		RecordingBytes:    int64(cfg.MaxRecordingMB) << 20,
		StudentBytes:      int64(cfg.StudentStorageQuotaMB) << 20,
		TakesPerPhase:     cfg.MaxTakesPerPhase,
		MockTakesPerPhase: cfg.MaxMockTakesPerPhase,
		AttemptsPerDay:    cfg.MaxAttemptsPerDay,
	})
	a.feedback = feedback.NewService(st)
	a.lti = lti.NewService(st, a.groups, lti.Options{Log: log, TutorsRequireMicrosoft: cfg.TutorsRequireMicrosoft})
	a.exams.OnGraded(a.lti.OnGraded)
	if t := cfg.Transcribe; t.Enabled() {
		client := transcribe.NewClient(transcribe.Config{URL: t.URL, Model: t.Model, APIKey: t.APIKey, Language: t.Language, Timeout: t.Timeout})
		a.transcriber = transcribe.NewWorker(st, a.exams, a.feedback, client, log)
		a.exams.OnRecordingComplete(a.transcriber.Enqueue)
	}
	// A fresh install gets the demo case bank once, so it can be used at
	// once; an install with the first edition gets the second one.
	if res, err := a.catalog.ImportDemoBank(ctx); err != nil {
		st.Close()
		return nil, err
	} else if res.Created > 0 || res.Updated > 0 {
		log.Info("demo case bank loaded", "cases", res.Created, "updated", res.Updated)
	}
	return a, nil
}

func (a *app) Close() error {
	err := a.store.Close()
	if a.logs != nil {
		a.logs.Close()
	}
	return err
}

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

// openMedia opens where recordings are kept: the Cloud Storage bucket
// MEDIA_BUCKET, checked at once so that a wrong name or a missing role stops
// the server at start, or else DATA_DIR/media.
func openMedia(ctx context.Context, cfg config.Config) (media.Store, error) {
	if cfg.MediaBucket == "" {
		d, err := media.NewDir(filepath.Join(cfg.DataDir, "media"))
		if err != nil {
			return nil, fmt.Errorf("media directory: %w", err)
		}
		return d, nil
	}
	b, err := openBucket(ctx, cfg.MediaBucket, true)
	if err != nil {
		return nil, fmt.Errorf("MEDIA_BUCKET=%q: %w", cfg.MediaBucket, err)
	}
	return b, nil
}

// openBucket opens the Cloud Storage bucket name through the Firebase
// Admin SDK (STORAGE_EMULATOR_HOST points it at an emulator) and, with
// check, makes sure at once that it exists and can be used.
func openBucket(ctx context.Context, name string, check bool) (*media.Bucket, error) {
	fb, err := gcloud.NewApp(ctx, "")
	if err != nil {
		return nil, err
	}
	client, err := fb.Storage(ctx)
	if err != nil {
		return nil, fmt.Errorf("creating the Cloud Storage client: %w", err)
	}
	handle, err := client.Bucket(name)
	if err != nil {
		return nil, err
	}
	b := media.NewBucket(handle, name)
	if !check {
		return b, nil
	}
	checkCtx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := b.Check(checkCtx); errors.Is(err, storage.ErrBucketNotExist) {
		return nil, errors.New("the bucket does not exist (create it, or name an existing one)")
	} else if err != nil {
		return nil, fmt.Errorf("the bucket cannot be used: %w", err)
	}
	return b, nil
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
