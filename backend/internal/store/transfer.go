package store

import (
	"context"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// The export and import below exist for one job: copying a whole store to
// another (`simulador migrate-data`, docs/migrate-data.md). They are kept
// out of Store, which the services use: a store that can be migrated also
// implements Transfer, and the command asserts it.

// Kind is a kind of record a migration copies.
type Kind string

// The kinds, each with the type of its Record.Value and its Record.Key.
const (
	KindUsers       Kind = "users"       // UserRecord; key: user ID
	KindIdentities  Kind = "identities"  // domain.Identity; key: IdentityKey
	KindDegrees     Kind = "degrees"     // domain.Degree; key: degree ID
	KindGroups      Kind = "groups"      // domain.Group with its students (by email); key: group ID
	KindCases       Kind = "cases"       // domain.Case; key: case ID
	KindBlueprints  Kind = "blueprints"  // BlueprintRecord; key: degree ID
	KindRubrics     Kind = "rubrics"     // RubricRecord; key: degree ID
	KindMeta        Kind = "meta"        // MetaRecord; key: its key
	KindAttempts    Kind = "attempts"    // domain.Attempt (Version as stored); key: attempt ID
	KindRecordings  Kind = "recordings"  // RecordingRecord; key: RecordingKey
	KindTranscripts Kind = "transcripts" // domain.Transcript; key: RecordingKey
	KindJobs        Kind = "jobs"        // JobRecord; key: job ID
)

// Kinds lists every kind in the order an import must follow: what a record
// refers to (the user of an identity or an attempt, the degree of a group
// or a case, the attempt of a recording, the recording of a transcript)
// comes before it. Sessions are not a kind: they are not migrated.
var Kinds = []Kind{
	KindUsers, KindIdentities, KindDegrees, KindGroups, KindCases, KindBlueprints, KindRubrics, KindMeta,
	KindAttempts, KindRecordings, KindTranscripts, KindJobs,
}

// Record is one record of a kind. Key identifies it within its kind, the
// same way in every store; Value is the type its Kind names.
type Record struct {
	Kind  Kind
	Key   string
	Value any
}

// UserRecord is a profile with its local password hash ("" when none).
type UserRecord struct {
	User         domain.User
	PasswordHash string
}

// BlueprintRecord is a degree's exam format with when it was saved.
type BlueprintRecord struct {
	Blueprint domain.Blueprint
	UpdatedAt time.Time
}

// RubricRecord is a degree's rubric with when it was saved.
type RubricRecord struct {
	Rubric    domain.Rubric
	UpdatedAt time.Time
}

// MetaRecord is one small setting.
type MetaRecord struct {
	Key, Value string
}

// RecordingRecord is a take with the metadata of its stored chunks, in
// order of Seq. The audio itself is in the media store.
type RecordingRecord struct {
	Recording domain.Recording
	Chunks    []domain.ChunkInfo
}

// JobRecord is a background job with its lease and last change.
type JobRecord struct {
	Job         domain.Job
	LockedUntil time.Time
	UpdatedAt   time.Time
}

// IdentityKey is the key of an identity (provider names hold no "/").
func IdentityKey(provider, subject string) string { return provider + "/" + subject }

// RecordingKey is the key of a recording or of its transcript.
func RecordingKey(attemptID, recordingID string) string { return attemptID + "/" + recordingID }

// SplitKey splits an IdentityKey or a RecordingKey at its first "/".
func SplitKey(key string) (first, second string) {
	first, second, _ = strings.Cut(key, "/")
	return first, second
}

// Exporter reads every record of a kind, a page at a time.
type Exporter interface {
	// ExportPage returns up to limit records of kind, starting after
	// cursor ("" for the first page), and the cursor of the next page (""
	// when there is none). The order is the store's own and stable while
	// nothing is written; in a group the students are ordered by email,
	// in a recording the chunks by Seq.
	ExportPage(ctx context.Context, kind Kind, cursor string, limit int) (records []Record, next string, err error)
	// ExportKeys returns the records of kind with these keys that exist,
	// in any order.
	ExportKeys(ctx context.Context, kind Kind, keys []string) ([]Record, error)
	// CountRecords says how many records of kind the store holds.
	CountRecords(ctx context.Context, kind Kind) (int64, error)
}

// Importer writes records as they are.
type Importer interface {
	// ImportRecords stores each record with its key and every field as
	// given (IDs, versions, flags, password hashes, a group's students, a
	// recording's chunks): created when missing, replaced whole when
	// present. Records must come in the order of Kinds. Each record is
	// stored whole or not at all; a call may store some records and fail
	// on a later one. A record that would break a uniqueness rule held by
	// another record (a mail, a degree name, a case title in its degree,
	// a tutor's active group, a student's attempt in progress, a job's
	// subject) is refused with domain.ErrConflict.
	ImportRecords(ctx context.Context, records []Record) error
}

// Transfer is a store that can be migrated from and to.
type Transfer interface {
	Store
	Exporter
	Importer
}
