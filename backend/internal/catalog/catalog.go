// Package catalog owns what is examined: degrees, and per degree the case
// bank, the exam blueprint (phase timings) and the rubric.
package catalog

import (
	"context"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// Service reads and edits the catalog.
type Service struct {
	store store.Store
}

// NewService returns the catalog service.
func NewService(s store.Store) *Service { return &Service{store: s} }

// Degrees lists every degree by name.
func (s *Service) Degrees(ctx context.Context) ([]domain.Degree, error) {
	return s.store.ListDegrees(ctx)
}

// DegreeNames maps degree ids to names, for listings.
func (s *Service) DegreeNames(ctx context.Context) (map[string]string, error) {
	ds, err := s.store.ListDegrees(ctx)
	if err != nil {
		return nil, err
	}
	m := make(map[string]string, len(ds))
	for _, d := range ds {
		m[d.ID] = d.Nombre
	}
	return m, nil
}
