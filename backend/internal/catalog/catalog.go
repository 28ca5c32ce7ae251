// Package catalog owns what is examined: degrees, and per degree the case
// bank, the exam blueprint (phase timings) and the rubric.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/unicode/norm"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// Service reads and edits the catalog.
type Service struct {
	store         store.Store
	bounds        domain.BlueprintBounds
	importMaxRows int
	maxCases      int // per degree; 0 is DefaultMaxCasesPerDegree
	now           func() time.Time
}

// NewService returns the catalog service. shortTimings allows phases of a
// few seconds (ALLOW_SHORT_TIMINGS, for demonstrations and tests).
func NewService(s store.Store, shortTimings bool) *Service {
	b := domain.DefaultBounds()
	if shortTimings {
		b = domain.ShortBounds()
	}
	return &Service{store: s, bounds: b, importMaxRows: DefaultImportMaxRows, now: time.Now}
}

// Degrees lists every degree by name.
func (s *Service) Degrees(ctx context.Context) ([]domain.Degree, error) {
	return s.store.ListDegrees(ctx)
}

// Degree returns one degree.
func (s *Service) Degree(ctx context.Context, id string) (domain.Degree, error) {
	d, err := s.store.GetDegree(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return d, domain.NotFound("degree_not_found", "La carrera no existe.")
	}
	return d, err
}

// DegreeByName finds a degree ignoring case, accents and spacing.
func (s *Service) DegreeByName(ctx context.Context, name string) (domain.Degree, error) {
	all, err := s.store.ListDegrees(ctx)
	if err != nil {
		return domain.Degree{}, err
	}
	for _, d := range all {
		if fold(d.Nombre) == fold(name) {
			return d, nil
		}
	}
	return domain.Degree{}, domain.NotFound("degree_not_found", fmt.Sprintf("La carrera «%s» no existe.", name))
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

// Bounds are the timing ranges tutors may choose from.
func (s *Service) Bounds() domain.BlueprintBounds { return s.bounds }

// Blueprint returns the degree's exam format (the defaults until a tutor
// changes it).
func (s *Service) Blueprint(ctx context.Context, degreeID string) (domain.Blueprint, error) {
	b, err := s.store.GetBlueprint(ctx, degreeID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.DefaultBlueprint(degreeID), nil
	}
	return b, err
}

// SetBlueprint validates and saves a degree's exam format.
func (s *Service) SetBlueprint(ctx context.Context, b domain.Blueprint) (domain.Blueprint, error) {
	if _, err := s.Degree(ctx, b.DegreeID); err != nil {
		return b, err
	}
	if err := b.Validate(s.bounds); err != nil {
		return b, err
	}
	return b, s.store.PutBlueprint(ctx, b, s.now())
}

// Rubric returns the degree's rubric (the default until a tutor changes it).
func (s *Service) Rubric(ctx context.Context, degreeID string) (domain.Rubric, error) {
	r, err := s.store.GetRubric(ctx, degreeID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.DefaultRubric(degreeID), nil
	}
	return r, err
}

// SetRubric validates and saves a new version of a degree's rubric. Attempts
// already made keep the version they were made with.
func (s *Service) SetRubric(ctx context.Context, degreeID string, criteria []domain.Criterion, passScore float64) (domain.Rubric, error) {
	if _, err := s.Degree(ctx, degreeID); err != nil {
		return domain.Rubric{}, err
	}
	var out domain.Rubric
	err := s.store.InTx(ctx, func(tx store.Store) error {
		cur, err := tx.GetRubric(ctx, degreeID)
		if errors.Is(err, domain.ErrNotFound) {
			cur, err = domain.DefaultRubric(degreeID), nil
		}
		if err != nil {
			return err
		}
		for i := range criteria {
			criteria[i].ID = strings.TrimSpace(criteria[i].ID)
			criteria[i].Name = strings.TrimSpace(criteria[i].Name)
		}
		out = domain.Rubric{DegreeID: degreeID, Version: cur.Version + 1, PassScore: passScore, Criteria: criteria}
		if err := out.Validate(); err != nil {
			return err
		}
		return tx.PutRubric(ctx, out, s.now())
	})
	return out, err
}

// CaseQuery filters the case bank for tutors.
type CaseQuery struct {
	DegreeID string
	Area     string
	Status   domain.CaseStatus
	Text     string // matched against title and facts, ignoring case and accents
}

// Cases lists the case bank.
func (s *Service) Cases(ctx context.Context, q CaseQuery) ([]domain.Case, error) {
	all, err := s.store.ListCases(ctx, store.CaseFilter{DegreeID: q.DegreeID, Area: q.Area, Status: q.Status})
	if err != nil || q.Text == "" {
		return all, err
	}
	needle := fold(q.Text)
	out := []domain.Case{}
	for _, c := range all {
		if strings.Contains(fold(c.Title), needle) || strings.Contains(fold(c.Facts), needle) {
			out = append(out, c)
		}
	}
	return out, nil
}

// Case returns one case.
func (s *Service) Case(ctx context.Context, id string) (domain.Case, error) {
	c, err := s.store.GetCase(ctx, id)
	if errors.Is(err, domain.ErrNotFound) {
		return c, domain.NotFound("case_not_found", "El caso no existe.")
	}
	return c, err
}

// CreateCase validates and adds a case to a degree's bank.
func (s *Service) CreateCase(ctx context.Context, c domain.Case) (domain.Case, error) {
	c.ID = domain.NewID()
	c.CreatedAt, c.UpdatedAt = s.now().UTC(), s.now().UTC()
	if err := s.validateCase(ctx, &c); err != nil {
		return c, err
	}
	if err := s.checkBankRoom(ctx, s.store, c.DegreeID, 1); err != nil {
		return c, err
	}
	if err := s.store.CreateCase(ctx, c); err != nil {
		return c, duplicateTitle(err, c.Title)
	}
	return c, nil
}

// UpdateCase validates and saves changes to a case (retiring is a status
// change: cases are never deleted, attempts refer to them).
func (s *Service) UpdateCase(ctx context.Context, id string, c domain.Case) (domain.Case, error) {
	cur, err := s.Case(ctx, id)
	if err != nil {
		return c, err
	}
	c.ID, c.CreatedAt, c.UpdatedAt = cur.ID, cur.CreatedAt, s.now().UTC()
	if err := s.validateCase(ctx, &c); err != nil {
		return c, err
	}
	if err := s.store.UpdateCase(ctx, c); err != nil {
		return c, duplicateTitle(err, c.Title)
	}
	return c, nil
}

func (s *Service) validateCase(ctx context.Context, c *domain.Case) error {
	c.Normalize()
	if _, err := s.Degree(ctx, c.DegreeID); err != nil {
		return err
	}
	if ps := append(c.Validate(), checkNorms(c)...); len(ps) > 0 {
		return &domain.UserError{Code: "invalid_case", Message: "El caso tiene datos incompletos o no válidos.", Details: ps}
	}
	return nil
}

func duplicateTitle(err error, title string) error {
	if errors.Is(err, domain.ErrConflict) {
		return domain.Conflict("case_title_taken", fmt.Sprintf("Ya existe un caso con el título «%s» en esta carrera.", title))
	}
	return err
}

// Areas lists the areas of a degree's active cases, known areas first.
func (s *Service) Areas(ctx context.Context, degreeID string) ([]string, error) {
	cases, err := s.store.ListCases(ctx, store.CaseFilter{DegreeID: degreeID, Status: domain.CaseActive})
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	out := []string{}
	for _, c := range cases {
		if !seen[c.Area] {
			seen[c.Area] = true
			out = append(out, c.Area)
		}
	}
	rank := func(a string) int {
		if i := slices.Index(domain.Areas, a); i >= 0 {
			return i
		}
		return len(domain.Areas)
	}
	slices.SortStableFunc(out, func(a, b string) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		return strings.Compare(a, b)
	})
	return out, nil
}

// Draw picks a random active case of the degree (in area, when given),
// avoiding the cases in recent; when every candidate is recent, the least
// recently seen one is drawn.
func (s *Service) Draw(ctx context.Context, degreeID, area string, recent []string) (domain.Case, error) {
	cases, err := s.store.ListCases(ctx, store.CaseFilter{DegreeID: degreeID, Area: area, Status: domain.CaseActive})
	if err != nil {
		return domain.Case{}, err
	}
	if len(cases) == 0 {
		if area != "" {
			return domain.Case{}, domain.NotFound("no_cases", fmt.Sprintf("No hay casos activos del área «%s».", area))
		}
		return domain.Case{}, domain.NotFound("no_cases", "No hay casos activos para esta carrera. Consulte a su tutor.")
	}
	var fresh []domain.Case
	for _, c := range cases {
		if !slices.Contains(recent, c.ID) {
			fresh = append(fresh, c)
		}
	}
	if len(fresh) > 0 {
		return fresh[rand.IntN(len(fresh))], nil
	}
	// Every candidate was seen lately: the one seen longest ago.
	best, bestAge := cases[0], -1
	for _, c := range cases {
		if age := slices.Index(recent, c.ID); age > bestAge {
			best, bestAge = c, age
		}
	}
	return best, nil
}

// fold compares names ignoring case, accents and spacing.
func fold(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(strings.ToLower(strings.Join(strings.Fields(s), " "))) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}
