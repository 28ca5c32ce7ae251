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
	intN          func(int) int // random integer in [0, n): the draw's dice
}

// NewService returns the catalog service. shortTimings allows phases of a
// few seconds (ALLOW_SHORT_TIMINGS, for demonstrations and tests).
func NewService(s store.Store, shortTimings bool) *Service {
	b := domain.DefaultBounds()
	if shortTimings {
		b = domain.ShortBounds()
	}
	return &Service{store: s, bounds: b, importMaxRows: DefaultImportMaxRows, now: time.Now, intN: rand.IntN}
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
	if d, ok := degreeNamed(all, name); ok {
		return d, nil
	}
	return domain.Degree{}, domain.NotFound("degree_not_found", fmt.Sprintf("La carrera «%s» no existe.", name))
}

func degreeNamed(degrees []domain.Degree, name string) (domain.Degree, bool) {
	for _, d := range degrees {
		if domain.FoldName(d.Nombre) == domain.FoldName(name) {
			return d, true
		}
	}
	return domain.Degree{}, false
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
	b.DifficultyMix = b.DifficultyMix.OrDefault()
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
	b.DifficultyMix = b.DifficultyMix.OrDefault()
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
	DegreeID   string
	Area       string
	Status     domain.CaseStatus
	Difficulty domain.Difficulty
	// Reviewed: "si" only reviewed cases, "no" only unreviewed ones, ""
	// both.
	Reviewed string
	Text     string // matched against title and facts, ignoring case and accents
}

// Cases lists the case bank.
func (s *Service) Cases(ctx context.Context, q CaseQuery) ([]domain.Case, error) {
	all, err := s.store.ListCases(ctx, store.CaseFilter{DegreeID: q.DegreeID, Area: q.Area, Status: q.Status, Difficulty: q.Difficulty})
	if err != nil || (q.Text == "" && q.Reviewed == "") {
		return all, err
	}
	needle := domain.FoldName(q.Text)
	out := []domain.Case{}
	for _, c := range all {
		if q.Reviewed != "" && (c.Review != nil) != (q.Reviewed == "si") {
			continue
		}
		if strings.Contains(domain.FoldName(c.Title), needle) || strings.Contains(domain.FoldName(c.Facts), needle) {
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

// CreateCase validates and adds a case to a degree's bank. A new case is
// never reviewed: that takes MarkReviewed.
func (s *Service) CreateCase(ctx context.Context, c domain.Case) (domain.Case, error) {
	c.ID = domain.NewID()
	c.Review = nil
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
// change: cases are never deleted, attempts refer to them). The review mark
// is kept, unless the case is marked as demo content again.
func (s *Service) UpdateCase(ctx context.Context, id string, c domain.Case) (domain.Case, error) {
	cur, err := s.Case(ctx, id)
	if err != nil {
		return c, err
	}
	c.ID, c.CreatedAt, c.UpdatedAt = cur.ID, cur.CreatedAt, s.now().UTC()
	c.Review = keptReview(cur.Review, c.Demo)
	if err := s.validateCase(ctx, &c); err != nil {
		return c, err
	}
	if err := s.store.UpdateCase(ctx, c); err != nil {
		return c, duplicateTitle(err, c.Title)
	}
	return c, nil
}

// keptReview is the review a saved case keeps: none once it is demo content
// again, since demo means "not reviewed yet".
func keptReview(cur *domain.CaseReview, demo bool) *domain.CaseReview {
	if demo {
		return nil
	}
	return cur
}

// MarkReviewed records that the tutor checked the case's content: it stops
// being demo content, and the bank shows who reviewed it and when. Marking
// a reviewed case again records the new reviewer.
func (s *Service) MarkReviewed(ctx context.Context, id string, by domain.User) (domain.Case, error) {
	var out domain.Case
	err := s.store.InTx(ctx, func(tx store.Store) error {
		c, err := tx.GetCase(ctx, id)
		if errors.Is(err, domain.ErrNotFound) {
			return domain.NotFound("case_not_found", "El caso no existe.")
		}
		if err != nil {
			return err
		}
		now := s.now().UTC()
		c.Demo = false
		c.Review = &domain.CaseReview{By: by.Mail, ByName: by.DisplayName, At: now}
		c.UpdatedAt = now
		if err := tx.UpdateCase(ctx, c); err != nil {
			return err
		}
		out = c
		return nil
	})
	return out, err
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

// DrawRequest says what a draw may pick from.
type DrawRequest struct {
	DegreeID string
	// Area and Difficulty narrow a training draw ("" = any).
	Area       string
	Difficulty domain.Difficulty
	// Mix, for a mock exam, picks the difficulty first: by its weights among
	// the difficulties that have active cases (see drawDifficulty).
	Mix *domain.DifficultyMix
	// Recent are the student's latest cases, newest first, to avoid.
	Recent []string
}

// Difficulties lists the difficulties of a degree's active cases, in
// display order.
func (s *Service) Difficulties(ctx context.Context, degreeID string) ([]domain.Difficulty, error) {
	cases, err := s.store.ListCases(ctx, store.CaseFilter{DegreeID: degreeID, Status: domain.CaseActive})
	if err != nil {
		return nil, err
	}
	out := []domain.Difficulty{}
	for _, d := range domain.Difficulties {
		if slices.ContainsFunc(cases, func(c domain.Case) bool { return c.Difficulty == d }) {
			out = append(out, d)
		}
	}
	return out, nil
}

// SetRandom replaces the draw's dice, a function returning an integer in
// [0, n) (tests make draws predictable with it).
func (s *Service) SetRandom(intN func(n int) int) { s.intN = intN }

// DrawRequest says of the degree as the request narrows it,
// avoiding the recent cases; when every candidate is recent, the least
// recently seen one is drawn.
func (s *Service) Draw(ctx context.Context, r DrawRequest) (domain.Case, error) {
	cases, err := s.store.ListCases(ctx, store.CaseFilter{DegreeID: r.DegreeID, Area: r.Area, Status: domain.CaseActive, Difficulty: r.Difficulty})
	if err != nil {
		return domain.Case{}, err
	}
	if len(cases) == 0 {
		return domain.Case{}, noCases(r)
	}
	if r.Mix != nil {
		byDifficulty := map[domain.Difficulty][]domain.Case{}
		for _, c := range cases {
			byDifficulty[c.Difficulty] = append(byDifficulty[c.Difficulty], c)
		}
		cases = byDifficulty[s.drawDifficulty(*r.Mix, byDifficulty)]
	}
	var fresh []domain.Case
	for _, c := range cases {
		if !slices.Contains(r.Recent, c.ID) {
			fresh = append(fresh, c)
		}
	}
	if len(fresh) > 0 {
		return fresh[s.intN(len(fresh))], nil
	}
	// Every candidate was seen lately: the one seen longest ago.
	best, bestAge := cases[0], -1
	for _, c := range cases {
		if age := slices.Index(r.Recent, c.ID); age > bestAge {
			best, bestAge = c, age
		}
	}
	return best, nil
}

func noCases(r DrawRequest) error {
	var what []string
	if r.Area != "" {
		what = append(what, fmt.Sprintf("del área «%s»", r.Area))
	}
	if r.Difficulty != "" {
		what = append(what, fmt.Sprintf("de dificultad %s", strings.ToLower(r.Difficulty.Label())))
	}
	if len(what) > 0 {
		return domain.NotFound("no_cases", fmt.Sprintf("No hay casos activos %s. Elija otra opción.", strings.Join(what, " y ")))
	}
	return domain.NotFound("no_cases", "No hay casos activos para esta carrera. Consulte a su tutor.")
}

// drawDifficulty rolls the mix's dice over the difficulties that have
// cases (pool is never empty). A difficulty without cases gives its share
// to the others in proportion; when the mix gives no weight to any
// difficulty that has cases, each of those is equally likely.
func (s *Service) drawDifficulty(mix domain.DifficultyMix, pool map[domain.Difficulty][]domain.Case) domain.Difficulty {
	weights := make([]int, len(domain.Difficulties))
	total := 0
	for i, d := range domain.Difficulties {
		if len(pool[d]) > 0 {
			weights[i] = mix.Weight(d)
			total += weights[i]
		}
	}
	if total == 0 {
		for i, d := range domain.Difficulties {
			if len(pool[d]) > 0 {
				weights[i], total = 1, total+1
			}
		}
	}
	if total == 0 { // cases of no known difficulty: take whatever is there
		for d := range pool {
			return d
		}
	}
	roll := s.intN(total)
	for i, w := range weights {
		if roll < w {
			return domain.Difficulties[i]
		}
		roll -= w
	}
	return domain.Difficulties[len(domain.Difficulties)-1]
}
