// Package groups owns tutors' groups of students: loading a group from a
// roster, adding students, finalizing, and the membership that opens the
// simulator to a student.
package groups

import (
	"context"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// Service applies the group rules.
type Service struct {
	store store.Store
	now   func() time.Time
}

// NewService returns the groups service.
func NewService(s store.Store) *Service {
	return &Service{store: s, now: time.Now}
}

// CanEnterTest reports whether u may use the simulator (/test): a tutor, or a
// student listed in an active group (by email, case-insensitively).
func (s *Service) CanEnterTest(ctx context.Context, u domain.User) (bool, error) {
	if u.IsTutor() {
		return true, nil
	}
	groups, err := s.store.ActiveGroupsByStudent(ctx, u.Mail)
	if err != nil {
		return false, err
	}
	return len(groups) > 0, nil
}
