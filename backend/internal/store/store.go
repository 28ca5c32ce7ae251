// Package store declares the persistence interfaces the capability packages
// depend on. Adapters implement them: sqlite and postgres on top of the
// shared SQL implementation in sqlstore, firestore on Cloud Firestore; the
// contract suite in storetest runs against every adapter.
package store

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// Users persists profiles and their credentials.
type Users interface {
	// CreateUser inserts a profile; domain.ErrConflict when the mail is taken.
	CreateUser(ctx context.Context, u domain.User) error
	GetUser(ctx context.Context, id string) (domain.User, error)
	GetUserByMail(ctx context.Context, mail string) (domain.User, error)
	// ListUsersByMail returns the profiles of the given emails, in one lookup
	// ("mail in [...]").
	ListUsersByMail(ctx context.Context, mails []string) ([]domain.User, error)
	ListUsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error)
	UpdateUser(ctx context.Context, u domain.User) error
	// PasswordHash returns "" when the user has no local password.
	PasswordHash(ctx context.Context, userID string) (string, error)
	SetPasswordHash(ctx context.Context, userID, hash string) error

	LinkIdentity(ctx context.Context, id domain.Identity) error
	UserByIdentity(ctx context.Context, provider, subject string) (domain.User, error)
}

// Sessions persists sign-in sessions by token hash.
type Sessions interface {
	// CreateSession inserts s and, in the same transaction, sets the user's
	// LastLoginAt to s.CreatedAt: a new session is a sign-in.
	CreateSession(ctx context.Context, s domain.Session) error
	GetSession(ctx context.Context, tokenHash string) (domain.Session, error)
	TouchSession(ctx context.Context, tokenHash string, at time.Time) error
	DeleteSession(ctx context.Context, tokenHash string) error
	DeleteUserSessions(ctx context.Context, userID string) error
	DeleteExpiredSessions(ctx context.Context, now time.Time, idle time.Duration) (int64, error)
	// ListUserSessions returns the user's sessions, newest first (expired
	// ones too, until a sweep deletes them).
	ListUserSessions(ctx context.Context, userID string) ([]domain.Session, error)
}

// Accounts persists what keeps accounts safe beyond the password: one-time
// tokens (password resets, sign-ins waiting for a second factor) and second
// factors. (Rate limits count with Counters.)
type Accounts interface {
	// CreateToken stores t; domain.ErrConflict when its hash exists.
	CreateToken(ctx context.Context, t domain.OneTimeToken) error
	GetToken(ctx context.Context, hash string) (domain.OneTimeToken, error)
	// UseToken marks the token used at `at`: domain.ErrNotFound when it
	// does not exist, domain.ErrConflict when it was already used. Of
	// racing calls exactly one succeeds. Expiry is the caller's to check.
	UseToken(ctx context.Context, hash string, at time.Time) error
	// DeleteUserTokens deletes the user's tokens of kind.
	DeleteUserTokens(ctx context.Context, userID string, kind domain.TokenKind) error
	// DeleteExpiredTokens deletes tokens that expired at or before now.
	DeleteExpiredTokens(ctx context.Context, now time.Time) (int64, error)

	// GetMFA returns the user's second factor; domain.ErrNotFound when none.
	GetMFA(ctx context.Context, userID string) (domain.MFA, error)
	// PutMFA stores m in place of the user's second factor, if any, with
	// its recovery codes.
	PutMFA(ctx context.Context, m domain.MFA) error
	// DeleteMFA removes the user's second factor (none is not an error).
	DeleteMFA(ctx context.Context, userID string) error
	// UseTOTPStep records that a code of TOTP time step `step` was
	// accepted, only if step is after the last one recorded: otherwise
	// domain.ErrConflict (a replayed code), and domain.ErrNotFound when the
	// user has no second factor. Of racing calls for a step one succeeds.
	UseTOTPStep(ctx context.Context, userID string, step int64) error
	// UseRecoveryCode marks the user's unused recovery code with that hash
	// used; domain.ErrNotFound when there is no such unused code. Of racing
	// calls for a code one succeeds.
	UseRecoveryCode(ctx context.Context, userID, hash string, at time.Time) error
}

// SeedDegree is the degree a fresh store holds, so that one command runs a
// fresh machine: the SQL schemas insert it, and a Firestore store creates it
// when no degree of that name exists. A migration treats it as the
// destination's own rather than as data: an imported degree of the same
// name under another ID (the earlier app's Derecho) replaces it while
// nothing refers to it.
var SeedDegree = domain.Degree{ID: "derecho", Nombre: "Derecho"}

// Degrees persists degree programmes.
type Degrees interface {
	ListDegrees(ctx context.Context) ([]domain.Degree, error)
	GetDegree(ctx context.Context, id string) (domain.Degree, error)
	GetDegreeByName(ctx context.Context, nombre string) (domain.Degree, error)
	CreateDegree(ctx context.Context, d domain.Degree) error
}

// Groups persists tutors' groups of students.
//
// A student is a member of at most one active group: creating an active
// group or adding students refuses, with *MembersTakenError and nothing
// written, any student who is a member of another active group, and the
// store decides races (two tutors adding the same student at once: one
// wins). Finalizing a group, or removing a student from it, ends the
// membership in the same transaction.
type Groups interface {
	// CreateGroup inserts a group with its students; domain.ErrConflict when
	// the tutor already has an active group (enforced by the store, so
	// concurrent creations cannot both succeed), *MembersTakenError when
	// the group is active and some student is a member of another active
	// group.
	CreateGroup(ctx context.Context, g domain.Group) error
	GetGroup(ctx context.Context, id string) (domain.Group, error)
	ActiveGroupByTutor(ctx context.Context, tutorEmail string) (domain.Group, error)
	ListGroupsByTutor(ctx context.Context, tutorEmail string) ([]domain.Group, error)
	// IsActiveGroupMember reports whether email (case-insensitively) is a
	// member of an active group: one lookup by key, no roster is read.
	IsActiveGroupMember(ctx context.Context, email string) (bool, error)
	// ActiveGroupOfStudent returns the active group email is a member of,
	// WITHOUT its students (Estudiantes is nil); domain.ErrNotFound when
	// there is none.
	ActiveGroupOfStudent(ctx context.Context, email string) (domain.Group, error)
	// AddGroupStudents appends students, ignoring ones already present, and
	// returns how many were added. It re-checks inside its transaction that
	// the group is active: domain.ErrNotFound when it is not (finalized in
	// between), and then nothing is added. *MembersTakenError when some
	// student is a member of another active group: nothing is added.
	AddGroupStudents(ctx context.Context, groupID string, students []domain.GroupStudent) (int, error)
	// RemoveGroupStudent takes a student out of an active group and ends
	// their membership; domain.ErrNotFound when the group is not active or
	// does not list the student. Attempts made in the group keep it.
	RemoveGroupStudent(ctx context.Context, groupID, email string) error
	// FinalizeGroup sets an active group to finalizado and ends its
	// students' memberships; ErrNotFound when the group is not active.
	FinalizeGroup(ctx context.Context, groupID string, at time.Time) error
}

// MembersTakenError lists students (normalised emails, in the order they
// were given) who are members of another active group. It says nothing of
// which group: that is another tutor's business. It is not a
// domain.ErrConflict, which CreateGroup keeps for "the tutor has an
// active group".
type MembersTakenError struct {
	Emails []string
}

func (e *MembersTakenError) Error() string {
	return fmt.Sprintf("already members of another active group: %s", strings.Join(e.Emails, ", "))
}

// CaseFilter selects cases; empty fields match everything.
type CaseFilter struct {
	DegreeID   string
	Area       string
	Status     domain.CaseStatus
	Difficulty domain.Difficulty
}

// Catalog persists case banks, blueprints, rubrics and small settings.
type Catalog interface {
	ListCases(ctx context.Context, f CaseFilter) ([]domain.Case, error)
	GetCase(ctx context.Context, id string) (domain.Case, error)
	GetCaseByTitle(ctx context.Context, degreeID, title string) (domain.Case, error)
	// CreateCase inserts a case; domain.ErrConflict when the degree already
	// has a case with that title.
	CreateCase(ctx context.Context, c domain.Case) error
	UpdateCase(ctx context.Context, c domain.Case) error
	// GetBlueprint and GetRubric return domain.ErrNotFound when the degree
	// uses the defaults.
	GetBlueprint(ctx context.Context, degreeID string) (domain.Blueprint, error)
	PutBlueprint(ctx context.Context, b domain.Blueprint, at time.Time) error
	GetRubric(ctx context.Context, degreeID string) (domain.Rubric, error)
	PutRubric(ctx context.Context, r domain.Rubric, at time.Time) error
	GetMeta(ctx context.Context, key string) (string, error)
	SetMeta(ctx context.Context, key, value string) error
}

// AttemptFilter selects attempt summaries; empty fields match everything.
type AttemptFilter struct {
	StudentID    string
	StudentEmail string
	TutorEmail   string
	GroupID      string
	Status       domain.AttemptStatus
	Mode         domain.Mode
	Ungraded     bool      // only attempts without a tutor grade
	Since        time.Time // only attempts started at or after it; zero = all
	Limit        int       // 0 = no limit
}

// Attempts persists rehearsals and their recordings.
type Attempts interface {
	// CreateAttempt inserts an attempt; domain.ErrConflict when the student
	// already has one in progress (the store decides races).
	CreateAttempt(ctx context.Context, a domain.Attempt) error
	GetAttempt(ctx context.Context, id string) (domain.Attempt, error)
	InProgressAttempt(ctx context.Context, studentID string) (domain.Attempt, error)
	// UpdateAttempt saves a, which must carry the version it was read with;
	// domain.ErrConflict when someone saved it in between. The stored
	// version is incremented.
	UpdateAttempt(ctx context.Context, a domain.Attempt) error
	// SaveNotes replaces the notes of studentID's attempt in progress,
	// reading and writing nothing else of it, and increments its version
	// (so a concurrent UpdateAttempt of the older version fails with
	// domain.ErrConflict instead of undoing the notes). domain.ErrNotFound
	// when there is no such attempt, it is another student's, or it is not
	// in progress.
	SaveNotes(ctx context.Context, attemptID, studentID, notes string) error
	ListAttempts(ctx context.Context, f AttemptFilter) ([]domain.AttemptSummary, error)
	// RecentCaseIDs returns the case ids of the student's last n attempts.
	RecentCaseIDs(ctx context.Context, studentID string, n int) ([]string, error)

	// CreateRecording inserts r unless it exists (client-made ids make the
	// call idempotent); it returns the stored recording.
	CreateRecording(ctx context.Context, r domain.Recording) (domain.Recording, error)
	GetRecording(ctx context.Context, attemptID, id string) (domain.Recording, error)
	ListRecordings(ctx context.Context, attemptID string) ([]domain.Recording, error)
	// UpdateRecording saves r's duration, levels, complete and deleted
	// flags; Composed changes only through MarkRecordingComposed.
	UpdateRecording(ctx context.Context, r domain.Recording) error
	// MarkRecordingComposed records that the recording's chunks were joined
	// into one verified media object (Recording.Composed). It changes a
	// recording that is not deleted only, in one statement, and returns
	// domain.ErrNotFound for a missing or deleted one (a deletion won the
	// race: the caller removes the media again).
	MarkRecordingComposed(ctx context.Context, attemptID, id string) error
	// RecordingsToCompose lists up to limit complete, undeleted recordings
	// that are not composed yet, oldest first (for the sweep that retries
	// a compose that failed).
	RecordingsToCompose(ctx context.Context, limit int) ([]domain.Recording, error)
	// CreateTake is CreateRecording for a new take of a student: it inserts
	// r unless it exists (then it returns the stored one, whatever the
	// limit), and refuses with ErrTakeLimit when r's phase of the attempt
	// already has maxPerPhase recordings (deleted ones count). The count
	// and the insert are one transaction, so racing registrations cannot
	// exceed the limit; maxPerPhase <= 0 means no limit.
	CreateTake(ctx context.Context, r domain.Recording, maxPerPhase int) (domain.Recording, error)
	// AddChunk records a stored chunk; domain.ErrConflict when seq exists.
	// The chunk's bytes count towards the attempt's student's storage
	// (StorageUsed), without any limit.
	AddChunk(ctx context.Context, attemptID, recordingID string, c domain.ChunkInfo) error
	// AddChunkWithin is AddChunk within limits, checked in the transaction
	// that records the chunk and counts its bytes, so racing uploads can
	// exceed neither: ErrRecordingClosed when the recording is complete or
	// deleted, ErrRecordingFull when its chunks would hold more than
	// l.RecordingBytes, ErrStorageQuota when the student's recordings would
	// hold more than l.StudentBytes; domain.ErrNotFound for a missing
	// recording, domain.ErrConflict when seq exists. A limit <= 0 is none.
	AddChunkWithin(ctx context.Context, attemptID, recordingID string, c domain.ChunkInfo, l ChunkLimits) error
	GetChunk(ctx context.Context, attemptID, recordingID string, seq int) (domain.ChunkInfo, error)
	ListChunks(ctx context.Context, attemptID, recordingID string) ([]domain.ChunkInfo, error)
	// DeleteChunks forgets a recording's chunks and gives their bytes back
	// to the student's storage, in one transaction.
	DeleteChunks(ctx context.Context, attemptID, recordingID string) error
	// StorageUsed returns the bytes of the chunks the student's recordings
	// hold (deleted recordings hold none).
	StorageUsed(ctx context.Context, studentID string) (int64, error)
	// RecordingsOlderThan lists undeleted recordings created before t
	// (for the retention period).
	RecordingsOlderThan(ctx context.Context, t time.Time, limit int) ([]domain.Recording, error)
}

// ChunkLimits bound AddChunkWithin, in bytes; 0 is no limit.
type ChunkLimits struct {
	RecordingBytes int64 // one recording's chunks
	StudentBytes   int64 // the chunks of all of a student's recordings
}

// Refusals of the recording limits (not domain.ErrConflict, which
// AddChunk keeps for "this seq exists").
var (
	ErrTakeLimit       = errors.New("the phase has as many takes as allowed")
	ErrRecordingClosed = errors.New("the recording is complete or deleted")
	ErrRecordingFull   = errors.New("the recording holds as many bytes as allowed")
	ErrStorageQuota    = errors.New("the student's recordings hold as many bytes as allowed")
)

// Feedback persists transcripts and background jobs.
type Feedback interface {
	// PutTranscript inserts or replaces the recording's transcript.
	PutTranscript(ctx context.Context, t domain.Transcript) error
	// PutTranscriptOver inserts t, or replaces the recording's transcript
	// only when its source is one of over, atomically (so a correction
	// saved meanwhile is never overwritten); it reports whether t was
	// stored.
	PutTranscriptOver(ctx context.Context, t domain.Transcript, over ...string) (bool, error)
	GetTranscript(ctx context.Context, attemptID, recordingID string) (domain.Transcript, error)
	ListTranscripts(ctx context.Context, attemptID string) ([]domain.Transcript, error)
	// RecordingsWithoutJob lists up to limit complete, undeleted recordings
	// with audio, created at or after since, that have neither a
	// transcript from the server or a person nor a job of kind with their
	// domain.RecordingSubject (in any state), oldest first.
	RecordingsWithoutJob(ctx context.Context, kind string, since time.Time, limit int) ([]domain.Recording, error)

	// EnqueueJob queues j; domain.ErrConflict when a job of the same kind
	// and non-empty subject exists (whatever its state).
	EnqueueJob(ctx context.Context, j domain.Job) error
	// ClaimJob takes the oldest due pending job of kind, marking it running
	// until lease; domain.ErrNotFound when none is due. Two workers never
	// claim the same job.
	ClaimJob(ctx context.Context, kind string, now, lease time.Time) (domain.Job, error)
	// FinishJob records the outcome of a claimed job: done, or back to
	// pending at retryAt, or failed for good. attempt is the job's Attempts
	// when it was claimed: a worker whose lease ended and whose job was
	// claimed again gets domain.ErrConflict and changes nothing.
	FinishJob(ctx context.Context, id string, attempt int, status, lastError string, retryAt, now time.Time) error
	// ReleaseExpiredLeases returns running jobs whose lease ended (their
	// worker died) to pending.
	ReleaseExpiredLeases(ctx context.Context, now time.Time) (int64, error)
	GetJob(ctx context.Context, id string) (domain.Job, error)
	// GetJobBySubject returns the job of kind about subject;
	// domain.ErrNotFound when there is none.
	GetJobBySubject(ctx context.Context, kind, subject string) (domain.Job, error)
	// RetryJob puts a job that is not running back in the queue: pending,
	// due at now, its last error cleared. Its Attempts are kept (so a
	// worker whose lease ended still cannot finish it); a worker that gives
	// up after some number of attempts then makes one more.
	// domain.ErrNotFound when it does not exist, domain.ErrConflict when a
	// worker holds it.
	RetryJob(ctx context.Context, id string, now time.Time) error
}

// LTI persists what LTI 1.3 launches and services need (docs/lti.md).
type LTI interface {
	// CreateLTIPlatform registers a platform; domain.ErrConflict when its
	// issuer and client id are registered already.
	CreateLTIPlatform(ctx context.Context, p domain.LTIPlatform) error
	GetLTIPlatform(ctx context.Context, id string) (domain.LTIPlatform, error)
	// ListLTIPlatforms returns every registration, by issuer then client id.
	ListLTIPlatforms(ctx context.Context) ([]domain.LTIPlatform, error)
	// DeleteLTIPlatform removes a registration; domain.ErrNotFound when
	// there is none. What was linked to it stays (courses, group links).
	DeleteLTIPlatform(ctx context.Context, id string) error

	// AddLTIKey stores k and, in the same transaction, retires every key
	// not yet retired at retireAt: k becomes the only current key.
	AddLTIKey(ctx context.Context, k domain.LTIKey, retireAt time.Time) error
	// ListLTIKeys returns every key, newest first.
	ListLTIKeys(ctx context.Context) ([]domain.LTIKey, error)

	// PutLTIOnce stores a single-use record; domain.ErrConflict when one
	// of the same kind and key exists (even expired: a nonce stays used).
	PutLTIOnce(ctx context.Context, o domain.LTIOnce) error
	// TakeLTIOnce deletes the record of kind and key and returns it;
	// domain.ErrNotFound when there is none or it expired by now. Of two
	// concurrent takes, one gets the record.
	TakeLTIOnce(ctx context.Context, kind, key string, now time.Time) (domain.LTIOnce, error)
	// DeleteExpiredLTIOnce removes the records that expired before now.
	DeleteExpiredLTIOnce(ctx context.Context, now time.Time) (int64, error)

	// PutLTICourse inserts or replaces a course (by ID).
	PutLTICourse(ctx context.Context, c domain.LTICourse) error
	GetLTICourse(ctx context.Context, id string) (domain.LTICourse, error)
	// LinkLTICourseTutor records that userID launched from the course as
	// its instructor at at (the latest launch is kept).
	LinkLTICourseTutor(ctx context.Context, courseID, userID string, at time.Time) error
	// ListLTICoursesOfTutor returns the courses userID launched from as an
	// instructor, last launch first, with LaunchedAt set.
	ListLTICoursesOfTutor(ctx context.Context, userID string) ([]domain.LTICourse, error)

	// PutLTISubjects inserts or replaces the subjects of emails on a
	// platform (by platform and email).
	PutLTISubjects(ctx context.Context, subjects []domain.LTISubject) error
	LTISubjectByEmail(ctx context.Context, platformID, email string) (domain.LTISubject, error)

	// PutLTIGroupLink inserts or replaces a group's link (by group).
	PutLTIGroupLink(ctx context.Context, l domain.LTIGroupLink) error
	GetLTIGroupLink(ctx context.Context, groupID string) (domain.LTIGroupLink, error)
}

// Counter is a small count kept in the store under a string key, so that
// every instance of the server sees the same value. It is the one way the
// server counts events over time: sign-in throttling (auth.Throttle) and
// the rate limits of account features (auth's limits.go) both keep their
// counts here, under keys of their own. What the fields mean beyond Count
// and ExpiresAt is the caller's policy.
type Counter struct {
	Count int64
	// Start is when the count began (the start of the caller's window).
	Start time.Time
	// Until is a deadline the caller keeps with the count (e.g. "refuse
	// attempts until").
	Until time.Time
	// ExpiresAt is when the store forgets the counter: from then on it
	// reads as the zero Counter, and the sweep deletes it.
	ExpiresAt time.Time
}

// Normalized is c as every store keeps it: times in UTC to the
// millisecond (the zero time stays zero), so all stores return the same
// values.
func (c Counter) Normalized() Counter {
	return Counter{Count: c.Count, Start: toMillisecond(c.Start), Until: toMillisecond(c.Until), ExpiresAt: toMillisecond(c.ExpiresAt)}
}

func toMillisecond(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC().Truncate(time.Millisecond)
}

// UniqueStudents normalises the students' emails and keeps the first of
// each, as every store keeps a group's students.
func UniqueStudents(students []domain.GroupStudent) []domain.GroupStudent {
	seen := make(map[string]bool, len(students))
	out := make([]domain.GroupStudent, 0, len(students))
	for _, st := range students {
		st.Email = domain.NormalizeEmail(st.Email)
		if !seen[st.Email] {
			seen[st.Email] = true
			out = append(out, st)
		}
	}
	return out
}

// IsZero reports whether c is the zero Counter (none stored).
func (c Counter) IsZero() bool { return c == Counter{} }

// Counters keeps Counter values shared by every instance of the server.
// Times are stored to the millisecond: callers compare what the store
// returned, not the times they passed in.
type Counters interface {
	// GetCounter returns key's counter; the zero Counter when none is
	// stored or it expired at now.
	GetCounter(ctx context.Context, key string, now time.Time) (Counter, error)
	// UpdateCounter reads key's counter as GetCounter does, passes it to
	// fn and stores fn's result, atomically: concurrent updates of one key,
	// from any number of goroutines and instances, are serialised, so none
	// is lost and each fn sees the previous one's result. fn may run more
	// than once (see Store.InTx) and must only compute. A result equal to
	// what was read is not written; one whose ExpiresAt is not after now
	// deletes the counter (the zero Counter resets it). It returns what is
	// stored afterwards.
	UpdateCounter(ctx context.Context, key string, now time.Time, fn func(Counter) Counter) (Counter, error)
	// DeleteExpiredCounters removes counters expired at now (the periodic
	// sweep that keeps the table small) and returns how many.
	DeleteExpiredCounters(ctx context.Context, now time.Time) (int64, error)
}

// CountInWindow counts one event on key in a fixed window: the window
// starts with the key's first event and is forgotten when it ends. It
// returns the counter afterwards (Count events so far, ExpiresAt the
// window's end): the rate limits of every capability count this way.
func CountInWindow(ctx context.Context, c Counters, key string, now time.Time, window time.Duration) (Counter, error) {
	return c.UpdateCounter(ctx, key, now, func(ct Counter) Counter {
		if ct.IsZero() {
			ct = Counter{Start: now, ExpiresAt: now.Add(window)}
		}
		ct.Count++
		return ct
	})
}

// Store is everything the server persists.
type Store interface {
	Users
	Sessions
	Accounts
	Degrees
	Groups
	Catalog
	Attempts
	Feedback
	LTI
	Counters

	// InTx runs fn in one transaction; fn's Store sees and writes only
	// through it. What holds, on every store:
	//   - Every read inside fn (by ID, by a unique key such as a mail or a
	//     title, or a list) sees what fn wrote before it in the same
	//     transaction.
	//   - Nothing fn wrote is stored unless fn returns nil and the commit
	//     succeeds; an error from fn is returned as is.
	//   - Nested calls join the outer transaction.
	//   - fn may run more than once: a store that finds another transaction
	//     touched what fn read (Firestore) discards the attempt and runs fn
	//     again from the start. So fn must be safe to re-run: reset at its
	//     start whatever it accumulates in variables outside it, and cause
	//     nothing outside the store (mail, files, another Store) that a
	//     discarded run would leave behind.
	//   - When a method inside fn fails, return its error rather than go
	//     on: on PostgreSQL a failed statement aborts the transaction.
	InTx(ctx context.Context, fn func(Store) error) error
	Ping(ctx context.Context) error
	Close() error
}
