package store

import (
	"context"
	"net/url"
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
	KindUsers           Kind = "users"             // UserRecord; key: user ID
	KindMFA             Kind = "mfa"               // domain.MFA (TOTP secret, hashed recovery codes); key: user ID
	KindIdentities      Kind = "identities"        // domain.Identity; key: IdentityKey
	KindDegrees         Kind = "degrees"           // domain.Degree; key: degree ID
	KindGroups          Kind = "groups"            // domain.Group with its students (by email); key: group ID
	KindCases           Kind = "cases"             // domain.Case; key: case ID
	KindBlueprints      Kind = "blueprints"        // BlueprintRecord; key: degree ID
	KindRubrics         Kind = "rubrics"           // RubricRecord; key: degree ID
	KindMeta            Kind = "meta"              // MetaRecord; key: its key
	KindLTIPlatforms    Kind = "lti_platforms"     // domain.LTIPlatform; key: platform ID
	KindLTIKeys         Kind = "lti_keys"          // domain.LTIKey, private key included; key: key ID (kid)
	KindLTICourses      Kind = "lti_courses"       // domain.LTICourse (LaunchedAt unset); key: course ID
	KindLTICourseTutors Kind = "lti_course_tutors" // LTICourseTutorRecord; key: LTICourseTutorKey
	KindLTISubjects     Kind = "lti_subjects"      // domain.LTISubject; key: LTISubjectKey
	KindLTIGroupLinks   Kind = "lti_group_links"   // domain.LTIGroupLink; key: group ID
	KindAttempts        Kind = "attempts"          // domain.Attempt (Version as stored); key: attempt ID
	KindRecordings      Kind = "recordings"        // RecordingRecord; key: RecordingKey
	KindTranscripts     Kind = "transcripts"       // domain.Transcript; key: RecordingKey
	KindJobs            Kind = "jobs"              // JobRecord; key: job ID
)

// Kinds lists every kind in the order an import must follow: what a record
// refers to (the user of a second factor, an identity or an attempt, the
// degree of a group or a case, the course and the user of a course's
// tutor, the group and the course of a group link, the attempt of a
// recording, the recording of a transcript) comes before it.
//
// Some data is not a kind. Sessions, one-time tokens (reset links, sign-ins
// waiting for a code), rate-limit counters and LTI single-use records are
// short-lived and not migrated. Active memberships and storage totals are
// derived on import: a group claims its students' memberships as
// CreateGroup does, a recording counts its chunks for its student as
// AddChunk does (docs/migrate-data.md, "What is copied").
var Kinds = []Kind{
	KindUsers, KindMFA, KindIdentities, KindDegrees, KindGroups, KindCases, KindBlueprints, KindRubrics, KindMeta,
	KindLTIPlatforms, KindLTIKeys, KindLTICourses, KindLTICourseTutors, KindLTISubjects, KindLTIGroupLinks,
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

// LTICourseTutorRecord is a tutor's launch from a course as its
// instructor: the course, the user, and when they last launched.
type LTICourseTutorRecord struct {
	CourseID, UserID string
	LaunchedAt       time.Time
}

// IdentityKey is the key of an identity. Its provider is path-escaped:
// an LTI identity's provider is "lti:" and the platform's issuer URL.
func IdentityKey(provider, subject string) string { return url.PathEscape(provider) + "/" + subject }

// RecordingKey is the key of a recording or of its transcript.
func RecordingKey(attemptID, recordingID string) string { return attemptID + "/" + recordingID }

// LTICourseTutorKey is the key of a tutor's link to a course.
func LTICourseTutorKey(courseID, userID string) string { return courseID + "/" + userID }

// LTISubjectKey is the key of a person's subject on a platform, by their
// normalized email (platform IDs hold no "/").
func LTISubjectKey(platformID, email string) string { return platformID + "/" + email }

// SplitKey splits a key of two parts (IdentityKey, RecordingKey,
// LTICourseTutorKey, LTISubjectKey) at its first "/" and unescapes the
// first part (the IDs that begin the other keys read the same escaped or
// not).
func SplitKey(key string) (first, second string) {
	first, second, _ = strings.Cut(key, "/")
	if f, err := url.PathUnescape(first); err == nil {
		first = f
	}
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
	// a tutor's active group, a student's membership of an active group,
	// a student's attempt in progress, a job's subject, a platform's
	// issuer and client ID, the one current LTI key) is refused with
	// domain.ErrConflict. What the store derives is kept as its own
	// methods keep it: an imported group claims (or, no longer active,
	// gives up) its students' memberships, and an imported recording's
	// chunks count in its student's storage in place of those it replaces.
	ImportRecords(ctx context.Context, records []Record) error
}

// Transfer is a store that can be migrated from and to.
type Transfer interface {
	Store
	Exporter
	Importer
}
