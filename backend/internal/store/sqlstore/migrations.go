package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"io/fs"
	"log/slog"

	"github.com/pressly/goose/v3"
)

// Migrate applies an adapter's numbered files (migrations/ in files) and
// goMigrations up to version (all of them when 0).
func Migrate(ctx context.Context, dialect goose.Dialect, db *sql.DB, files fs.FS, version int64, opts ...goose.ProviderOption) error {
	sub, err := fs.Sub(files, "migrations")
	if err != nil {
		return err
	}
	p, err := goose.NewProvider(dialect, db, sub, append(opts, goose.WithGoMigrations(goMigrations()...))...)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if version > 0 {
		_, err = p.UpTo(ctx, version)
	} else {
		_, err = p.Up(ctx)
	}
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	return nil
}

// goMigrations are the schema changes written in Go rather than in the
// adapters' numbered SQL files, because they report what they did in the
// log. The statements work on SQLite and PostgreSQL alike; Migrate
// registers them next to each adapter's own files.
func goMigrations() []*goose.Migration {
	return []*goose.Migration{
		goose.NewGoMigration(10, &goose.GoFunc{RunTx: upLimits}, &goose.GoFunc{RunTx: downLimits}),
	}
}

// upLimits (00010) adds:
//   - active_memberships: one row per student of an active group, keyed by
//     email, so a student is in at most one active group even when two
//     tutors add them at once;
//   - storage_usage: the bytes of each student's recording chunks, the row
//     every chunk upload locks and updates, so the storage quota holds
//     under racing uploads.
//
// Data stored before may list a student in several active groups (the
// newest was the one they practised in). The newest is kept, ties going to
// the smaller group id as before; the student is taken out of the others
// and each removal is logged as a warning. Their attempts keep the group
// they were made in.
func upLimits(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{
		`CREATE TABLE active_memberships (
			email    TEXT PRIMARY KEY,
			group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE
		)`,
		`CREATE INDEX active_memberships_group ON active_memberships (group_id)`,
		`INSERT INTO active_memberships (email, group_id)
		SELECT gs.email, gs.group_id FROM group_students gs JOIN groups g ON g.id = gs.group_id
		WHERE g.status = 'activo' AND NOT EXISTS (
			SELECT 1 FROM group_students o JOIN groups og ON og.id = o.group_id
			WHERE o.email = gs.email AND og.status = 'activo' AND og.id <> g.id
			  AND (og.created_at > g.created_at OR (og.created_at = g.created_at AND og.id < g.id)))`,
		`CREATE TABLE storage_usage (
			student_id TEXT PRIMARY KEY,
			bytes      BIGINT NOT NULL
		)`,
		`INSERT INTO storage_usage (student_id, bytes)
		SELECT a.student_id, SUM(c.bytes) FROM recording_chunks c JOIN attempts a ON a.id = c.attempt_id
		GROUP BY a.student_id`,
	} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return releaseDuplicateMemberships(ctx, tx)
}

// releaseDuplicateMemberships takes students out of the active groups that
// are not their membership, logging each.
func releaseDuplicateMemberships(ctx context.Context, tx *sql.Tx) error {
	rows, err := tx.QueryContext(ctx, `SELECT gs.email, gs.group_id, g.docente_email, m.group_id, mg.docente_email
		FROM group_students gs JOIN groups g ON g.id = gs.group_id
		JOIN active_memberships m ON m.email = gs.email JOIN groups mg ON mg.id = m.group_id
		WHERE g.status = 'activo' AND m.group_id <> gs.group_id
		ORDER BY gs.email, gs.group_id`)
	if err != nil {
		return err
	}
	type release struct{ email, group, tutor, kept, keptTutor string }
	out, err := collect(rows, func(r scanner) (release, error) {
		var rel release
		err := r.Scan(&rel.email, &rel.group, &rel.tutor, &rel.kept, &rel.keptTutor)
		return rel, err
	})
	if err != nil {
		return err
	}
	for _, r := range out {
		slog.Default().Warn("migration 00010: a student was in several active groups; kept in the newest, taken out of this one (their attempts keep their group)",
			"student", r.email, "removedFromGroup", r.group, "removedFromTutor", r.tutor, "keptGroup", r.kept, "keptTutor", r.keptTutor)
	}
	if len(out) == 0 {
		return nil
	}
	slog.Default().Warn("migration 00010: students taken out of older active groups", "count", len(out))
	_, err = tx.ExecContext(ctx, `DELETE FROM group_students
		WHERE EXISTS (SELECT 1 FROM groups g WHERE g.id = group_students.group_id AND g.status = 'activo')
		  AND EXISTS (SELECT 1 FROM active_memberships m WHERE m.email = group_students.email AND m.group_id <> group_students.group_id)`)
	return err
}

func downLimits(ctx context.Context, tx *sql.Tx) error {
	for _, q := range []string{`DROP TABLE storage_usage`, `DROP TABLE active_memberships`} {
		if _, err := tx.ExecContext(ctx, q); err != nil {
			return err
		}
	}
	return nil
}
