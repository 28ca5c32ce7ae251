// Package postgres is the scale-out store: the same SQL implementation as
// the embedded default, on PostgreSQL through pgx, with its own migrations.
package postgres

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/utpl/simulador/backend/internal/store/sqlstore"
)

//go:embed migrations/*.sql
var migrations embed.FS

var dialect = sqlstore.Dialect{
	Name:     "postgres",
	Numbered: true,
	IsUniqueViolation: func(err error) bool {
		var pe *pgconn.PgError
		return errors.As(err, &pe) && pe.Code == "23505"
	},
}

// maxConns bounds the connections one instance opens (PostgreSQL's
// default max_connections is 100, shared by every instance).
const maxConns = 20

// Open connects to url (postgres://...) and migrates the schema.
func Open(ctx context.Context, url string) (*sqlstore.DB, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, err
	}
	// As many idle connections as open ones: database/sql keeps 2 by
	// default, so under load most queries would open a new backend (a
	// process on the server, a TLS and auth handshake) and close it again.
	db.SetMaxOpenConns(maxConns)
	db.SetMaxIdleConns(maxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	pingCtx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if err := db.PingContext(pingCtx); err != nil {
		db.Close()
		var bad *pgconn.ParseConfigError
		if errors.As(err, &bad) {
			// Its message quotes the URL, password masked only on a best
			// effort: say what is wrong without it.
			return nil, errors.New("not a valid PostgreSQL URL (postgres://USER:PASSWORD@HOST:PORT/DATABASE?sslmode=…)")
		}
		return nil, fmt.Errorf("connect to PostgreSQL: %w", err)
	}
	if err := migrate(ctx, db, 0); err != nil {
		db.Close()
		return nil, err
	}
	return sqlstore.New(db, dialect), nil
}

// migrate applies the migrations up to version (all of them when 0): the
// numbered files embedded from migrations/ and sqlstore's Go migrations.
// Instances starting at once on an empty database (a deployment that
// scales out) take turns: goose holds a PostgreSQL advisory lock while it
// migrates, and the next one finds the schema up to date.
func migrate(ctx context.Context, db *sql.DB, version int64) error {
	locker, err := lock.NewPostgresSessionLocker()
	if err != nil {
		return err
	}
	return sqlstore.Migrate(ctx, goose.DialectPostgres, db, migrations, version, goose.WithSessionLocker(locker))
}
