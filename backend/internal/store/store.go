// Package store declares the persistence interfaces the capability packages
// depend on. Adapters (sqlite, postgres) implement them on top of the shared
// SQL implementation in sqlstore; the contract suite in storetest runs against
// every adapter.
package store

import (
	"context"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
)

// Users persists profiles and their credentials.
type Users interface {
	// CreateUser inserts a profile; domain.ErrConflict when the mail is taken.
	CreateUser(ctx context.Context, u domain.User) error
	GetUser(ctx context.Context, id string) (domain.User, error)
	GetUserByMail(ctx context.Context, mail string) (domain.User, error)
	// ListUsersByMail is the spec's "users where mail in [...]" lookup.
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
	CreateSession(ctx context.Context, s domain.Session) error
	GetSession(ctx context.Context, tokenHash string) (domain.Session, error)
	TouchSession(ctx context.Context, tokenHash string, at time.Time) error
	DeleteSession(ctx context.Context, tokenHash string) error
	DeleteUserSessions(ctx context.Context, userID string) error
	DeleteExpiredSessions(ctx context.Context, now time.Time, idle time.Duration) (int64, error)
}

// Degrees persists degree programmes.
type Degrees interface {
	ListDegrees(ctx context.Context) ([]domain.Degree, error)
	GetDegree(ctx context.Context, id string) (domain.Degree, error)
	GetDegreeByName(ctx context.Context, nombre string) (domain.Degree, error)
	CreateDegree(ctx context.Context, d domain.Degree) error
}

// Groups persists tutors' groups of students.
type Groups interface {
	// CreateGroup inserts a group with its students; domain.ErrConflict when
	// the tutor already has an active group (enforced by a unique index, so
	// concurrent creations cannot both succeed).
	CreateGroup(ctx context.Context, g domain.Group) error
	GetGroup(ctx context.Context, id string) (domain.Group, error)
	ActiveGroupByTutor(ctx context.Context, tutorEmail string) (domain.Group, error)
	ListGroupsByTutor(ctx context.Context, tutorEmail string) ([]domain.Group, error)
	ActiveGroupsByStudent(ctx context.Context, email string) ([]domain.Group, error)
	// AddGroupStudents appends students, ignoring ones already present, and
	// returns how many were added.
	AddGroupStudents(ctx context.Context, groupID string, students []domain.GroupStudent) (int, error)
	// FinalizeGroup sets an active group to finalizado; ErrNotFound when the
	// group is not active.
	FinalizeGroup(ctx context.Context, groupID string, at time.Time) error
}

// Store is everything the server persists.
type Store interface {
	Users
	Sessions
	Degrees
	Groups

	// InTx runs fn in one transaction; fn's Store sees and writes only
	// through it. Nested calls join the outer transaction.
	InTx(ctx context.Context, fn func(Store) error) error
	Ping(ctx context.Context) error
	Close() error
}
