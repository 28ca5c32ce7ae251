package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
	"github.com/utpl/simulador/backend/internal/store/storedjson"
)

const caseColumns = `id, degree_id, area, title, facts, questions, follow_ups, key_points, legal_bases, follow_up_key_points, difficulty,
	status, demo, reviewed_by, reviewed_by_name, reviewed_at, created_at, updated_at`

func scanCase(r scanner) (domain.Case, error) {
	var c domain.Case
	var questions, followUps, keyPoints, bases, answers, difficulty, status, reviewedBy, reviewedByName string
	var reviewedAt sql.NullInt64
	var created, updated int64
	if err := r.Scan(&c.ID, &c.DegreeID, &c.Area, &c.Title, &c.Facts, &questions, &followUps, &keyPoints, &bases, &answers, &difficulty,
		&status, &c.Demo, &reviewedBy, &reviewedByName, &reviewedAt, &created, &updated); err != nil {
		return c, err
	}
	for _, f := range []struct {
		src string
		dst any
	}{{questions, &c.Questions}, {followUps, &c.FollowUps}, {keyPoints, &c.KeyPoints}, {answers, &c.FollowUpKeyPoints}} {
		if err := json.Unmarshal([]byte(f.src), f.dst); err != nil {
			return c, fmt.Errorf("case %s: %w", c.ID, err)
		}
	}
	var err error
	if c.LegalBases, err = storedjson.DecodeLegalBases([]byte(bases)); err != nil {
		return c, fmt.Errorf("case %s: %w", c.ID, err)
	}
	if len(c.FollowUpKeyPoints) == 0 {
		c.FollowUpKeyPoints = nil
	}
	c.Difficulty = domain.Difficulty(difficulty)
	c.Status = domain.CaseStatus(status)
	if at := fromNullMS(reviewedAt); at != nil {
		c.Review = &domain.CaseReview{By: reviewedBy, ByName: reviewedByName, At: *at}
	}
	c.CreatedAt, c.UpdatedAt = fromMS(created), fromMS(updated)
	return c, nil
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err) // only plain data is marshalled here
	}
	return string(b)
}

// updateCase sets every column of caseColumns but the key and the
// creation time, in caseArgs' order followed by updated_at.
var updateCase = `UPDATE cases SET ` + strings.Join(assignments(caseColumns, func(string) string { return "?" }, "id", "created_at"), ", ") + ` WHERE id = ?`

// caseArgs are c's values for caseColumns from degree_id to reviewed_at.
func caseArgs(c domain.Case) []any {
	difficulty := c.Difficulty
	if difficulty == "" {
		difficulty = domain.DefaultDifficulty
	}
	var reviewedBy, reviewedByName string
	var reviewedAt *time.Time
	if c.Review != nil {
		reviewedBy, reviewedByName, reviewedAt = c.Review.By, c.Review.ByName, &c.Review.At
	}
	return []any{c.DegreeID, c.Area, c.Title, c.Facts, mustJSON(domain.NonNil(c.Questions)), mustJSON(domain.NonNil(c.FollowUps)),
		mustJSON(domain.NonNil(c.KeyPoints)), storedjson.EncodeLegalBases(c.LegalBases), mustJSON(domain.NonNil(c.FollowUpKeyPoints)), string(difficulty),
		string(c.Status), c.Demo, reviewedBy, reviewedByName, nullMS(reviewedAt)}
}

func (s *DB) ListCases(ctx context.Context, f store.CaseFilter) ([]domain.Case, error) {
	q := `SELECT ` + caseColumns + ` FROM cases WHERE 1 = 1`
	var args []any
	if f.DegreeID != "" {
		q += ` AND degree_id = ?`
		args = append(args, f.DegreeID)
	}
	if f.Area != "" {
		q += ` AND area = ?`
		args = append(args, f.Area)
	}
	if f.Status != "" {
		q += ` AND status = ?`
		args = append(args, string(f.Status))
	}
	if f.Difficulty != "" {
		q += ` AND difficulty = ?`
		args = append(args, string(f.Difficulty))
	}
	out, err := queryAll(ctx, s, scanCase, q+` ORDER BY area, title`, args...)
	return domain.NonNil(out), err
}

func (s *DB) GetCase(ctx context.Context, id string) (domain.Case, error) {
	c, err := scanCase(s.queryRow(ctx, `SELECT `+caseColumns+` FROM cases WHERE id = ?`, id))
	return c, s.mapErr(err)
}

func (s *DB) GetCaseByTitle(ctx context.Context, degreeID, title string) (domain.Case, error) {
	c, err := scanCase(s.queryRow(ctx, `SELECT `+caseColumns+` FROM cases WHERE degree_id = ? AND title = ?`, degreeID, title))
	return c, s.mapErr(err)
}

func (s *DB) CreateCase(ctx context.Context, c domain.Case) error {
	args := append([]any{c.ID}, caseArgs(c)...)
	args = append(args, ms(c.CreatedAt), ms(c.UpdatedAt))
	_, err := s.exec(ctx, `INSERT INTO cases (`+caseColumns+`) VALUES (`+placeholders(len(args))+`)`, args...)
	return err
}

func (s *DB) UpdateCase(ctx context.Context, c domain.Case) error {
	args := append(caseArgs(c), ms(c.UpdatedAt), c.ID)
	res, err := s.exec(ctx, updateCase, args...)
	return s.expectOne(res, err)
}

func (s *DB) GetBlueprint(ctx context.Context, degreeID string) (domain.Blueprint, error) {
	data, err := s.getData(ctx, `SELECT data FROM blueprints WHERE degree_id = ?`, degreeID)
	if err != nil {
		return domain.Blueprint{}, err
	}
	return storedjson.DecodeBlueprint(data)
}

func (s *DB) PutBlueprint(ctx context.Context, b domain.Blueprint, at time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO blueprints (degree_id, data, updated_at) VALUES (?, ?, ?)
		ON CONFLICT (degree_id) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at`, b.DegreeID, storedjson.EncodeBlueprint(b), ms(at))
	return err
}

func (s *DB) GetRubric(ctx context.Context, degreeID string) (domain.Rubric, error) {
	data, err := s.getData(ctx, `SELECT data FROM rubrics WHERE degree_id = ?`, degreeID)
	if err != nil {
		return domain.Rubric{}, err
	}
	return storedjson.DecodeRubric(data)
}

func (s *DB) PutRubric(ctx context.Context, r domain.Rubric, at time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO rubrics (degree_id, version, data, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (degree_id) DO UPDATE SET version = excluded.version, data = excluded.data, updated_at = excluded.updated_at`,
		r.DegreeID, r.Version, storedjson.EncodeRubric(r), ms(at))
	return err
}

// getData reads a settings row's JSON data.
func (s *DB) getData(ctx context.Context, q string, args ...any) ([]byte, error) {
	var data string
	if err := s.queryRow(ctx, q, args...).Scan(&data); err != nil {
		return nil, s.mapErr(err)
	}
	return []byte(data), nil
}

func (s *DB) GetMeta(ctx context.Context, key string) (string, error) {
	var v string
	err := s.queryRow(ctx, `SELECT value FROM meta WHERE key = ?`, key).Scan(&v)
	return v, s.mapErr(err)
}

func (s *DB) SetMeta(ctx context.Context, key, value string) error {
	_, err := s.exec(ctx, `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}
