package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/utpl/simulador/backend/internal/media"
	"github.com/utpl/simulador/backend/internal/migrate"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/firestore"
	"github.com/utpl/simulador/backend/internal/store/postgres"
	"github.com/utpl/simulador/backend/internal/store/sqlite"
)

const migrateUsage = `Usage: simulador migrate-data --from URL --to URL [--from-media URL] [--to-media URL]
                             [--overwrite] [--dry-run] [--list]

Copies every record (users with their passwords and linked Microsoft accounts,
degrees, groups and their students, cases, exam formats, rubrics, settings,
attempts, recordings, transcripts, background jobs) and every recording's audio
from one store to another, keeping IDs; then reads both sides again and checks
that they match (counts and contents per kind, size and SHA-256 of every
recording's audio). Sign-in sessions are not copied: everyone signs in again.

Stop the server on both sides first. The server must not run against the
destination while it is migrated, and what the source receives meanwhile may
be missed (run the command again afterwards: it copies only what is new).

Running it again copies nothing new and says so; a run that was stopped
finishes when run again. A destination that holds other data under the same
IDs, or records the source does not have, is refused before anything is
written.

Stores (--from, --to):
  sqlite:///path/to/DATA_DIR   the SQLite database DATA_DIR/simulador.db, with the
                               audio in DATA_DIR/media (sqlite:data for a relative path)
  postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=…
                               PostgreSQL (the password is never printed)
  firestore://PROJECT_ID       Cloud Firestore, the project's (default) database
                               (FIRESTORE_EMULATOR_HOST selects the emulator)
The destination's schema is created or brought up to date first.

Audio (--from-media, --to-media; required with postgres:// and firestore://,
optional with sqlite:, whose default is DATA_DIR/media):
  dir:///path/to/media         a directory, as DATA_DIR/media
  gs://BUCKET                  a Cloud Storage bucket, as MEDIA_BUCKET
                               (STORAGE_EMULATOR_HOST selects an emulator)
The same audio store on both sides is allowed (it is checked, not copied).

Flags:
`

// migrateStopAfter stops a migration after that many records and
// recordings, as a kill would (tests).
var migrateStopAfter int

func migrateCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("migrate-data", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, migrateUsage)
		fs.PrintDefaults()
	}
	from := fs.String("from", "", "the store to copy from (see above)")
	to := fs.String("to", "", "the store to copy to")
	fromMedia := fs.String("from-media", "", "where the source's audio is: dir:///PATH or gs://BUCKET")
	toMedia := fs.String("to-media", "", "where the audio goes: dir:///PATH or gs://BUCKET")
	overwrite := fs.Bool("overwrite", false, "replace destination records and audio that differ from the source's (e.g. a second run after the source changed)")
	dryRun := fs.Bool("dry-run", false, "compare and say what would be copied, writing nothing")
	list := fs.Bool("list", false, "also print every recording's audio with its size and SHA-256 on both sides")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := noArguments("migrate-data", fs); err != nil {
		return err
	}
	if *from == "" || *to == "" {
		fs.Usage()
		return errors.New("migrate-data: --from and --to are required")
	}
	src, err := parseLocation("--from", *from, "--from-media", *fromMedia)
	if err != nil {
		return err
	}
	dst, err := parseLocation("--to", *to, "--to-media", *toMedia)
	if err != nil {
		return err
	}
	if src.storeID == dst.storeID && src.mediaID == dst.mediaID {
		return fmt.Errorf("migrate-data: --from and --to name the same store (%s, audio in %s)", src.name, src.mediaName)
	}

	fromSide, closeFrom, err := src.open(ctx, false)
	if err != nil {
		return fmt.Errorf("--from %s: %w", src.name, err)
	}
	defer closeFrom()
	toSide, closeTo, err := dst.open(ctx, !*dryRun)
	if err != nil {
		return fmt.Errorf("--to %s: %w", dst.name, err)
	}
	defer closeTo()
	if src.storeID == dst.storeID {
		fmt.Fprintf(stderr, "the records stay where they are (%s): only the audio is copied\n", src.name)
	}

	report, err := migrate.Run(ctx, migrate.Options{From: fromSide, To: toSide, Overwrite: *overwrite, DryRun: *dryRun,
		Progress: stderr, StopAfter: migrateStopAfter})
	report.WriteSummary(stdout, *list)
	return err
}

// location is a parsed --from or --to with its audio.
type location struct {
	flag string
	kind string // sqlite, postgres, firestore
	// target is the SQLite file, the PostgreSQL URL or the project ID.
	target string
	// name says which store it is, without a password.
	name string
	// storeID and mediaID identify the stores, to refuse copying onto itself.
	storeID, mediaID string
	mediaKind        string // dir or gs
	mediaTarget      string // the directory or the bucket
	mediaName        string
}

func parseLocation(flagName, raw, mediaFlag, mediaRaw string) (location, error) {
	l := location{flag: flagName}
	switch {
	case strings.HasPrefix(raw, "sqlite:"):
		dir, err := absPath(strings.TrimPrefix(raw, "sqlite:"))
		if err != nil {
			return l, fmt.Errorf("%s: %w", flagName, err)
		}
		l.kind, l.target = "sqlite", filepath.Join(dir, "simulador.db")
		l.name, l.storeID = "SQLite "+l.target, "sqlite:"+l.target
		if mediaRaw == "" {
			mediaRaw = "dir://" + filepath.Join(dir, "media")
		}
	case strings.HasPrefix(raw, "postgres://"), strings.HasPrefix(raw, "postgresql://"):
		u, err := url.Parse(raw)
		if err != nil || u.Host == "" {
			// The value may hold a password: never echo it.
			return l, fmt.Errorf("%s: not a valid PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=…)", flagName)
		}
		host, port := u.Hostname(), u.Port()
		if port == "" {
			port = "5432"
		}
		l.kind, l.target = "postgres", raw
		l.name = "PostgreSQL " + postgresServer(raw)
		l.storeID = "postgres:" + net.JoinHostPort(host, port) + u.Path
	case strings.HasPrefix(raw, "firestore://"):
		project := strings.TrimSuffix(strings.TrimPrefix(raw, "firestore://"), "/")
		if project == "" || strings.ContainsAny(project, "/?#@:") {
			return l, fmt.Errorf("%s %s: expected firestore://PROJECT_ID", flagName, raw)
		}
		l.kind, l.target = "firestore", project
		l.name, l.storeID = "Firestore project "+project, "firestore:"+os.Getenv("FIRESTORE_EMULATOR_HOST")+"/"+project
		if host := os.Getenv("FIRESTORE_EMULATOR_HOST"); host != "" {
			l.name += " (emulator " + host + ")"
		}
	default:
		return l, fmt.Errorf("%s: expected sqlite:///DATA_DIR, postgres://… or firestore://PROJECT_ID", flagName)
	}
	switch {
	case mediaRaw == "":
		return l, fmt.Errorf("%s: say where the audio of %s is (dir:///PATH or gs://BUCKET)", mediaFlag, l.name)
	case strings.HasPrefix(mediaRaw, "dir:"):
		dir, err := absPath(strings.TrimPrefix(mediaRaw, "dir:"))
		if err != nil {
			return l, fmt.Errorf("%s: %w", mediaFlag, err)
		}
		l.mediaKind, l.mediaTarget = "dir", dir
		l.mediaName, l.mediaID = "directory "+dir, "dir:"+dir
	case strings.HasPrefix(mediaRaw, "gs://"):
		bucket := strings.TrimSuffix(strings.TrimPrefix(mediaRaw, "gs://"), "/")
		if bucket == "" || strings.Contains(bucket, "/") {
			return l, fmt.Errorf("%s %s: expected gs://BUCKET (recordings are kept under recordings/ in it)", mediaFlag, mediaRaw)
		}
		l.mediaKind, l.mediaTarget = "gs", bucket
		l.mediaName, l.mediaID = "bucket gs://"+bucket, "gs:"+os.Getenv("STORAGE_EMULATOR_HOST")+"/"+bucket
	default:
		return l, fmt.Errorf("%s %s: expected dir:///PATH or gs://BUCKET", mediaFlag, mediaRaw)
	}
	return l, nil
}

// absPath turns the path of a sqlite: or dir: URL ("///abs", "rel",
// "//rel") into an absolute, clean path.
func absPath(p string) (string, error) {
	p = strings.TrimPrefix(p, "//")
	if p == "" {
		return "", errors.New("a path is needed, e.g. sqlite:///srv/simulador/data")
	}
	return filepath.Abs(p)
}

// open opens the store and the audio store. A source must exist (a typo
// must not migrate an empty database it just created); a destination is
// created when missing, its schema brought up to date, and a bucket
// checked when it will be written.
func (l location) open(ctx context.Context, writable bool) (migrate.Side, func(), error) {
	side := migrate.Side{Name: l.name, MediaName: l.mediaName}
	source := l.flag == "--from"
	var st store.Store
	var err error
	switch l.kind {
	case "sqlite":
		if _, serr := os.Stat(l.target); source && serr != nil {
			return side, nil, fmt.Errorf("no database there: %w", serr)
		}
		st, err = sqlite.Open(ctx, l.target)
	case "postgres":
		st, err = postgres.Open(ctx, l.target)
	case "firestore":
		octx, cancel := context.WithTimeout(ctx, storeStartTimeout)
		defer cancel()
		st, err = firestore.Open(octx, l.target)
	}
	if err != nil {
		return side, nil, err
	}
	tr, ok := st.(store.Transfer)
	if !ok {
		st.Close()
		return side, nil, fmt.Errorf("%s cannot be migrated", l.name)
	}
	side.Store = tr
	var m media.Transfer
	switch l.mediaKind {
	case "dir":
		if info, serr := os.Stat(l.mediaTarget); source && (serr != nil || !info.IsDir()) {
			err = errors.New("no such directory (the server creates DATA_DIR/media at its first start: create it empty if the source never served)")
			break
		}
		m, err = media.NewDir(l.mediaTarget)
	case "gs":
		m, err = openBucket(ctx, l.mediaTarget, writable && !source)
	}
	if err != nil {
		st.Close()
		return side, nil, fmt.Errorf("%s: %w", l.mediaName, err)
	}
	side.Media = m
	return side, func() { st.Close() }, nil
}
