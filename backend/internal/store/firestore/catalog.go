package firestore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/storedjson"
)

// cases/{id}, with caseTitles/{degree|title} holding the case ID: it makes
// titles unique per degree and turns GetCaseByTitle into two reads by ID.
// blueprints/{degree} and rubrics/{degree} keep the settings as JSON;
// meta/{key} small values.

func caseFields(c domain.Case) map[string]any {
	bases := make([]any, 0, len(c.LegalBases))
	for _, b := range c.LegalBases {
		base := map[string]any{"norm": b.Norm, "article": b.Article}
		if b.Note != "" {
			base["note"] = b.Note
		}
		bases = append(bases, base)
	}
	links := make([]any, 0, len(c.FollowUpKeyPoints))
	for _, k := range c.FollowUpKeyPoints {
		links = append(links, int64(k))
	}
	difficulty := c.Difficulty
	if difficulty == "" {
		difficulty = domain.DefaultDifficulty
	}
	// review is null until a tutor marks the case reviewed.
	var review any
	if r := c.Review; r != nil {
		review = map[string]any{"by": r.By, "byName": r.ByName, "at": ts(r.At)}
	}
	return map[string]any{
		"followUpKeyPoints": links,
		"difficulty":        string(difficulty),
		"review":            review,
		"degreeId":          c.DegreeID,
		"area":              c.Area,
		"title":             c.Title,
		"facts":             c.Facts,
		"questions":         domain.NonNil(c.Questions),
		"followUps":         domain.NonNil(c.FollowUps),
		"keyPoints":         domain.NonNil(c.KeyPoints),
		"legalBases":        bases,
		"status":            string(c.Status),
		"demo":              c.Demo,
		"createdAt":         ts(c.CreatedAt),
		"updatedAt":         ts(c.UpdatedAt),
	}
}

func caseFrom(d doc) (domain.Case, error) {
	f := d.data
	c := domain.Case{
		ID:         d.ref.ID,
		DegreeID:   f.str("degreeId"),
		Area:       f.str("area"),
		Title:      f.str("title"),
		Facts:      f.str("facts"),
		Questions:  f.strs("questions"),
		FollowUps:  f.strs("followUps"),
		KeyPoints:  f.strs("keyPoints"),
		LegalBases: []domain.LegalBase{},
		Status:     domain.CaseStatus(f.str("status")),
		Demo:       f.bool("demo"),
		CreatedAt:  f.time("createdAt"),
		UpdatedAt:  f.time("updatedAt"),
	}
	for _, b := range f.list("legalBases") {
		c.LegalBases = append(c.LegalBases, domain.LegalBase{Norm: b.str("norm"), Article: b.str("article"), Note: b.str("note")})
	}
	if links, ok := f["followUpKeyPoints"].([]any); ok && len(links) > 0 {
		c.FollowUpKeyPoints = make([]int, 0, len(links))
		for _, k := range links {
			n, _ := k.(int64)
			c.FollowUpKeyPoints = append(c.FollowUpKeyPoints, int(n))
		}
	}
	// Cases stored before difficulties existed read as the default.
	c.Difficulty = domain.Difficulty(cmp.Or(f.str("difficulty"), string(domain.DefaultDifficulty)))
	if r := f.sub("review"); r != nil {
		c.Review = &domain.CaseReview{By: r.str("by"), ByName: r.str("byName"), At: r.time("at")}
	}
	return c, nil
}

func (s *Store) caseTitleRef(degreeID, title string) *firestoreRef {
	return s.ref(colCaseTitles, degreeID, title)
}

// ListCases reads a degree's bank (or every case) and filters it here:
// a bank is a few hundred cases, and no composite index is needed.
func (s *Store) ListCases(ctx context.Context, f store.CaseFilter) ([]domain.Case, error) {
	q := collection(colCases)
	if f.DegreeID != "" {
		q = q.whereEq("degreeId", f.DegreeID)
	}
	docs, err := s.read().query(ctx, q)
	if err != nil {
		return nil, err
	}
	all, err := decodeAll(docs, caseFrom)
	if err != nil {
		return nil, err
	}
	out := all[:0]
	for _, c := range all {
		if (f.Area == "" || c.Area == f.Area) && (f.Status == "" || c.Status == f.Status) &&
			(f.Difficulty == "" || c.Difficulty == f.Difficulty) {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b domain.Case) int {
		return cmp.Or(strings.Compare(a.Area, b.Area), strings.Compare(a.Title, b.Title))
	})
	return out, nil
}

func (s *Store) GetCase(ctx context.Context, id string) (domain.Case, error) {
	return getOne(ctx, s.read(), s.ref(colCases, id), caseFrom)
}

func (s *Store) GetCaseByTitle(ctx context.Context, degreeID, title string) (domain.Case, error) {
	k, err := s.read().get(ctx, s.caseTitleRef(degreeID, title))
	if err != nil {
		return domain.Case{}, err
	}
	if !k.exists {
		return domain.Case{}, fmt.Errorf("case %q: %w", title, domain.ErrNotFound)
	}
	return s.GetCase(ctx, k.data.str("caseId"))
}

func (s *Store) CreateCase(ctx context.Context, c domain.Case) error {
	return s.write(ctx, func(t *txn) error {
		docs, err := t.getAll(ctx, []*firestoreRef{s.ref(colCases, c.ID), s.caseTitleRef(c.DegreeID, c.Title)})
		if err != nil {
			return err
		}
		if docs[0].exists || docs[1].exists {
			return fmt.Errorf("case %s %q: %w", c.ID, c.Title, domain.ErrConflict)
		}
		t.create(docs[0].ref, caseFields(c))
		t.create(docs[1].ref, map[string]any{"caseId": c.ID})
		return nil
	})
}

func (s *Store) UpdateCase(ctx context.Context, c domain.Case) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.existing(ctx, s.ref(colCases, c.ID), "case "+c.ID)
		if err != nil {
			return err
		}
		oldKey, newKey := s.caseTitleRef(d.data.str("degreeId"), d.data.str("title")), s.caseTitleRef(c.DegreeID, c.Title)
		if oldKey.Path != newKey.Path {
			keys, err := t.getAll(ctx, []*firestoreRef{oldKey, newKey})
			if err != nil {
				return err
			}
			if keys[1].exists && keys[1].data.str("caseId") != c.ID {
				return fmt.Errorf("case %q: %w", c.Title, domain.ErrConflict)
			}
			if keys[0].exists && keys[0].data.str("caseId") == c.ID {
				t.delete(oldKey)
			}
			t.create(newKey, map[string]any{"caseId": c.ID})
		}
		changes := caseFields(c)
		delete(changes, "createdAt")
		t.update(d, changes)
		return nil
	})
}

func (s *Store) GetBlueprint(ctx context.Context, degreeID string) (domain.Blueprint, error) {
	data, err := s.getData(ctx, s.ref(colBlueprints, degreeID))
	if err != nil {
		return domain.Blueprint{}, err
	}
	return storedjson.DecodeBlueprint(data)
}

func (s *Store) PutBlueprint(ctx context.Context, b domain.Blueprint, at time.Time) error {
	return s.write(ctx, func(t *txn) error {
		t.set(s.ref(colBlueprints, b.DegreeID), map[string]any{"degreeId": b.DegreeID, "data": storedjson.EncodeBlueprint(b), "updatedAt": ts(at)})
		return nil
	})
}

func (s *Store) GetRubric(ctx context.Context, degreeID string) (domain.Rubric, error) {
	data, err := s.getData(ctx, s.ref(colRubrics, degreeID))
	if err != nil {
		return domain.Rubric{}, err
	}
	return storedjson.DecodeRubric(data)
}

func (s *Store) PutRubric(ctx context.Context, r domain.Rubric, at time.Time) error {
	return s.write(ctx, func(t *txn) error {
		t.set(s.ref(colRubrics, r.DegreeID), map[string]any{"degreeId": r.DegreeID, "version": int64(r.Version), "data": storedjson.EncodeRubric(r), "updatedAt": ts(at)})
		return nil
	})
}

// getData reads the data field (JSON text) of the document at ref.
func (s *Store) getData(ctx context.Context, ref *firestoreRef) ([]byte, error) {
	d, err := s.read().get(ctx, ref)
	if err != nil {
		return nil, err
	}
	if !d.exists {
		return nil, fmt.Errorf("%s: %w", ref.Path, domain.ErrNotFound)
	}
	return []byte(d.data.str("data")), nil
}

func (s *Store) GetMeta(ctx context.Context, key string) (string, error) {
	d, err := s.read().get(ctx, s.ref(colMeta, key))
	if err != nil {
		return "", err
	}
	if !d.exists {
		return "", fmt.Errorf("meta %s: %w", key, domain.ErrNotFound)
	}
	return d.data.str("value"), nil
}

func (s *Store) SetMeta(ctx context.Context, key, value string) error {
	return s.write(ctx, func(t *txn) error {
		t.set(s.ref(colMeta, key), map[string]any{"value": value})
		return nil
	})
}
