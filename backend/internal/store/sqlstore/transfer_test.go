package sqlstore_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"github.com/utpl/simulador/backend/internal/store/sqlite"
	"github.com/utpl/simulador/backend/internal/store/sqlstore"
)

// notMigrated are the tables no kind of record is exported from, and why
// (docs/migrate-data.md, "What is copied").
var notMigrated = map[string]string{
	"sessions":           "short-lived; everyone signs in again after a move",
	"one_time_tokens":    "reset links (an hour) and sign-ins waiting for their code (5 minutes): short-lived secrets, issued again",
	"lti_once":           "LTI login states, used nonces, hand-off codes, deep-linking requests: an hour at most; a launch under way starts again",
	"group_students":     "exported with its group",
	"active_memberships": "derived: an imported active group claims its students' memberships",
	"recording_chunks":   "exported with its recording",
	"storage_usage":      "derived: an imported recording's chunks are counted for its student",
	"mfa_recovery_codes": "exported with its user's second factor (mfa)",
	"goose_db_version":   "the schema's own bookkeeping",
	"counters":           "sign-in throttle and rate-limit counts: they expire within the hour and a move starts them afresh",
}

// TestEveryTableIsMigrated: a new table is either a kind of record that
// migrate-data copies (sqlstore/transfer.go, and the same kind in the
// Firestore store) or listed above with the reason it is not.
func TestEveryTableIsMigrated(t *testing.T) {
	ctx := context.Background()
	s, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "schema.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.SQL().QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	exported := sqlstore.TransferTables()
	for rows.Next() {
		var table string
		if err := rows.Scan(&table); err != nil {
			t.Fatal(err)
		}
		if _, skipped := notMigrated[table]; !skipped && !slices.Contains(exported, table) {
			t.Errorf("table %s is not migrated by migrate-data: add a kind of record for it (docs/migrate-data.md, \"Extending\") "+
				"or list it in notMigrated with the reason", table)
		}
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
}
