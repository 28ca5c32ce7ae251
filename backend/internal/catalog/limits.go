package catalog

import (
	"cmp"
	"context"
	"fmt"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// DefaultMaxCasesPerDegree is how many cases (active or retired) a degree's
// bank may hold unless MAX_CASES_PER_DEGREE says otherwise: far above a
// real bank, low enough that a careless or hostile import cannot make every
// list of the bank heavy for everyone.
const DefaultMaxCasesPerDegree = 10000

// SetMaxCasesPerDegree sets how many cases a degree's bank may hold (n > 0).
func (s *Service) SetMaxCasesPerDegree(n int) {
	if n > 0 {
		s.maxCases = n
	}
}

func (s *Service) maxCasesPerDegree() int { return cmp.Or(s.maxCases, DefaultMaxCasesPerDegree) }

// checkBankRoom refuses adding cases to a degree whose bank would then hold
// more than the limit. It reads the bank through st (a transaction that
// may already hold the new cases, then adding is 0). Two tutors adding at
// the very same moment may pass it together by a few cases: a bound on
// size, not an invariant.
func (s *Service) checkBankRoom(ctx context.Context, st store.Store, degreeID string, adding int) error {
	cases, err := st.ListCases(ctx, store.CaseFilter{DegreeID: degreeID})
	if err != nil {
		return err
	}
	if max := s.maxCasesPerDegree(); len(cases)+adding > max {
		return domain.Conflict("case_bank_full", fmt.Sprintf(
			"El banco de casos de la carrera no puede tener más de %d casos (tiene %d). Retire o reutilice casos existentes; no se guardó nada.", max, len(cases)))
	}
	return nil
}
