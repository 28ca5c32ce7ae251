package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// LTI 1.3 (docs/lti.md). Lists that are only ever read whole (a
// platform's deployments and frame origins, a course's scopes) are JSON
// text.

const platformColumns = `id, issuer, client_id, deployment_ids, auth_url, token_url, jwks_url, frame_origins, allow_tutors, created_at`

func jsonList(v []string) string {
	if v == nil {
		v = []string{}
	}
	b, _ := json.Marshal(v)
	return string(b)
}

func fromJSONList(s string) ([]string, error) {
	out := []string{}
	if s == "" {
		return out, nil
	}
	err := json.Unmarshal([]byte(s), &out)
	return out, err
}

func scanPlatform(r scanner) (domain.LTIPlatform, error) {
	var p domain.LTIPlatform
	var deployments, origins string
	var created int64
	if err := r.Scan(&p.ID, &p.Issuer, &p.ClientID, &deployments, &p.AuthURL, &p.TokenURL, &p.JWKSURL, &origins, &p.AllowTutors, &created); err != nil {
		return p, err
	}
	p.CreatedAt = fromMS(created)
	var err error
	if p.DeploymentIDs, err = fromJSONList(deployments); err != nil {
		return p, fmt.Errorf("platform %s deployments: %w", p.ID, err)
	}
	if p.FrameOrigins, err = fromJSONList(origins); err != nil {
		return p, fmt.Errorf("platform %s frame origins: %w", p.ID, err)
	}
	return p, nil
}

func platformArgs(p domain.LTIPlatform) []any {
	return []any{p.ID, p.Issuer, p.ClientID, jsonList(p.DeploymentIDs), p.AuthURL, p.TokenURL, p.JWKSURL, jsonList(p.FrameOrigins),
		p.AllowTutors, ms(p.CreatedAt)}
}

func (s *DB) CreateLTIPlatform(ctx context.Context, p domain.LTIPlatform) error {
	// DO NOTHING rather than a failed insert: in PostgreSQL a unique
	// violation would abort an enclosing transaction.
	n, err := s.execCount(ctx, `INSERT INTO lti_platforms (`+platformColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		platformArgs(p)...)
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: platform %s with client id %s is registered", domain.ErrConflict, p.Issuer, p.ClientID)
	}
	return nil
}

func (s *DB) GetLTIPlatform(ctx context.Context, id string) (domain.LTIPlatform, error) {
	p, err := scanPlatform(s.queryRow(ctx, `SELECT `+platformColumns+` FROM lti_platforms WHERE id = ?`, id))
	return p, s.mapErr(err)
}

func (s *DB) ListLTIPlatforms(ctx context.Context) ([]domain.LTIPlatform, error) {
	return queryAll(ctx, s, scanPlatform, `SELECT `+platformColumns+` FROM lti_platforms ORDER BY issuer, client_id`)
}

func (s *DB) DeleteLTIPlatform(ctx context.Context, id string) error {
	res, err := s.exec(ctx, `DELETE FROM lti_platforms WHERE id = ?`, id)
	if err := s.expectOne(res, err); err != nil {
		return fmt.Errorf("platform %s: %w", id, err)
	}
	return nil
}

// AddLTIKey retires the current keys and inserts k. A concurrent rotation
// may insert its key after this one's UPDATE looked (PostgreSQL's
// statements see what was committed when they started): the unique index
// on the current key then refuses the second insert, and the rotation runs
// again, now seeing the other key to retire.
func (s *DB) AddLTIKey(ctx context.Context, k domain.LTIKey, retireAt time.Time) error {
	for try := 1; ; try++ {
		err := s.InTx(ctx, func(st store.Store) error {
			tx := st.(*DB)
			if _, err := tx.exec(ctx, `UPDATE lti_keys SET retired_at = ? WHERE retired_at IS NULL`, ms(retireAt)); err != nil {
				return err
			}
			_, err := tx.exec(ctx, `INSERT INTO lti_keys (`+ltiKeyColumns+`) VALUES (?, ?, ?, ?)`,
				k.ID, k.PrivateKeyPEM, ms(k.CreatedAt), nullMS(k.RetiredAt))
			return err
		})
		if !errors.Is(err, domain.ErrConflict) || s.tx != nil || try == 5 {
			return err
		}
	}
}

func (s *DB) ListLTIKeys(ctx context.Context) ([]domain.LTIKey, error) {
	return queryAll(ctx, s, scanLTIKey, `SELECT `+ltiKeyColumns+` FROM lti_keys ORDER BY created_at DESC, id DESC`)
}

const ltiKeyColumns = `id, private_key, created_at, retired_at`

func scanLTIKey(r scanner) (domain.LTIKey, error) {
	var k domain.LTIKey
	var created int64
	var retired sql.NullInt64
	err := r.Scan(&k.ID, &k.PrivateKeyPEM, &created, &retired)
	k.CreatedAt, k.RetiredAt = fromMS(created), fromNullMS(retired)
	return k, err
}

func (s *DB) PutLTIOnce(ctx context.Context, o domain.LTIOnce) error {
	n, err := s.execCount(ctx, `INSERT INTO lti_once (kind, key_hash, data, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		o.Kind, o.Key, o.Data, ms(o.ExpiresAt))
	if err != nil {
		return err
	}
	if n == 0 {
		return fmt.Errorf("%w: %s record exists", domain.ErrConflict, o.Kind)
	}
	return nil
}

// TakeLTIOnce deletes the row and reads it in one statement, so of two
// concurrent takes only one deletes (and gets) it.
func (s *DB) TakeLTIOnce(ctx context.Context, kind, key string, now time.Time) (domain.LTIOnce, error) {
	o := domain.LTIOnce{Kind: kind, Key: key}
	var expires int64
	// A DELETE ... RETURNING writes: it runs in a transaction, on the
	// writer, never on a read-only connection of the pool.
	err := s.InTx(ctx, func(st store.Store) error {
		return st.(*DB).queryRow(ctx, `DELETE FROM lti_once WHERE kind = ? AND key_hash = ? RETURNING data, expires_at`, kind, key).Scan(&o.Data, &expires)
	})
	if err != nil {
		return domain.LTIOnce{}, fmt.Errorf("%s record: %w", kind, s.mapErr(err))
	}
	o.ExpiresAt = fromMS(expires)
	if !now.Before(o.ExpiresAt) {
		return domain.LTIOnce{}, fmt.Errorf("%s record expired: %w", kind, domain.ErrNotFound)
	}
	return o, nil
}

func (s *DB) DeleteExpiredLTIOnce(ctx context.Context, now time.Time) (int64, error) {
	return s.execCount(ctx, `DELETE FROM lti_once WHERE expires_at <= ?`, ms(now))
}

const courseColumns = `id, platform_id, deployment_id, context_id, title, label, memberships_url, lineitems_url, service_scopes, degree, updated_at`

func scanCourse(r scanner, extra ...any) (domain.LTICourse, error) {
	var c domain.LTICourse
	var scopes string
	var updated int64
	dest := append([]any{&c.ID, &c.PlatformID, &c.DeploymentID, &c.ContextID, &c.Title, &c.Label, &c.MembershipsURL, &c.LineItemsURL,
		&scopes, &c.Degree, &updated}, extra...)
	if err := r.Scan(dest...); err != nil {
		return c, err
	}
	c.UpdatedAt = fromMS(updated)
	var err error
	if c.ServiceScopes, err = fromJSONList(scopes); err != nil {
		return c, fmt.Errorf("course %s scopes: %w", c.ID, err)
	}
	return c, nil
}

func (s *DB) PutLTICourse(ctx context.Context, c domain.LTICourse) error {
	_, err := s.exec(ctx, `INSERT INTO lti_courses (`+courseColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO UPDATE SET platform_id = excluded.platform_id, deployment_id = excluded.deployment_id,
		context_id = excluded.context_id, title = excluded.title, label = excluded.label, memberships_url = excluded.memberships_url,
		lineitems_url = excluded.lineitems_url, service_scopes = excluded.service_scopes, degree = excluded.degree, updated_at = excluded.updated_at`,
		c.ID, c.PlatformID, c.DeploymentID, c.ContextID, c.Title, c.Label, c.MembershipsURL, c.LineItemsURL,
		jsonList(c.ServiceScopes), c.Degree, ms(c.UpdatedAt))
	return err
}

func (s *DB) GetLTICourse(ctx context.Context, id string) (domain.LTICourse, error) {
	c, err := scanCourse(s.queryRow(ctx, `SELECT `+courseColumns+` FROM lti_courses WHERE id = ?`, id))
	return c, s.mapErr(err)
}

func (s *DB) LinkLTICourseTutor(ctx context.Context, courseID, userID string, at time.Time) error {
	_, err := s.exec(ctx, `INSERT INTO lti_course_tutors (course_id, user_id, launched_at) VALUES (?, ?, ?)
		ON CONFLICT (course_id, user_id) DO UPDATE SET launched_at = excluded.launched_at`, courseID, userID, ms(at))
	return s.mapErr(err)
}

func (s *DB) ListLTICoursesOfTutor(ctx context.Context, userID string) ([]domain.LTICourse, error) {
	return queryAll(ctx, s, func(r scanner) (domain.LTICourse, error) {
		var launched int64
		c, err := scanCourse(r, &launched)
		c.LaunchedAt = fromMS(launched)
		return c, err
	}, `SELECT c.id, c.platform_id, c.deployment_id, c.context_id, c.title, c.label, c.memberships_url,
		c.lineitems_url, c.service_scopes, c.degree, c.updated_at, t.launched_at
		FROM lti_course_tutors t JOIN lti_courses c ON c.id = t.course_id
		WHERE t.user_id = ? ORDER BY t.launched_at DESC, c.id`, userID)
}

func (s *DB) PutLTISubjects(ctx context.Context, subjects []domain.LTISubject) error {
	const batch = 200 // 4 parameters a row stays well under engine limits
	return s.InTx(ctx, func(st store.Store) error {
		tx := st.(*DB)
		for start := 0; start < len(subjects); start += batch {
			part := dedupeSubjects(subjects[start:min(start+batch, len(subjects))])
			q := `INSERT INTO lti_subjects (platform_id, email, subject, updated_at) VALUES `
			args := make([]any, 0, 4*len(part))
			for i, sub := range part {
				if i > 0 {
					q += ", "
				}
				q += "(?, ?, ?, ?)"
				args = append(args, sub.PlatformID, domain.NormalizeEmail(sub.Email), sub.Subject, ms(sub.UpdatedAt))
			}
			if _, err := tx.exec(ctx, q+` ON CONFLICT (platform_id, email) DO UPDATE SET subject = excluded.subject, updated_at = excluded.updated_at`,
				args...); err != nil {
				return err
			}
		}
		return nil
	})
}

// dedupeSubjects keeps the last of each platform and email: one INSERT
// may not update the same row twice.
func dedupeSubjects(in []domain.LTISubject) []domain.LTISubject {
	last := map[[2]string]int{}
	for i, sub := range in {
		last[[2]string{sub.PlatformID, domain.NormalizeEmail(sub.Email)}] = i
	}
	out := make([]domain.LTISubject, 0, len(last))
	for i, sub := range in {
		if last[[2]string{sub.PlatformID, domain.NormalizeEmail(sub.Email)}] == i {
			out = append(out, sub)
		}
	}
	return out
}

const subjectColumns = `platform_id, email, subject, updated_at`

func scanSubject(r scanner) (domain.LTISubject, error) {
	var sub domain.LTISubject
	var updated int64
	err := r.Scan(&sub.PlatformID, &sub.Email, &sub.Subject, &updated)
	sub.UpdatedAt = fromMS(updated)
	return sub, err
}

func (s *DB) LTISubjectByEmail(ctx context.Context, platformID, email string) (domain.LTISubject, error) {
	sub, err := scanSubject(s.queryRow(ctx, `SELECT `+subjectColumns+` FROM lti_subjects WHERE platform_id = ? AND email = ?`,
		platformID, domain.NormalizeEmail(email)))
	if err != nil {
		return domain.LTISubject{}, s.mapErr(err)
	}
	return sub, nil
}

const groupLinkColumns = `group_id, course_id, lineitem_url, lineitem_label, created_at, updated_at`

func groupLinkArgs(l domain.LTIGroupLink) []any {
	return []any{l.GroupID, l.CourseID, l.LineItemURL, l.LineItemLabel, ms(l.CreatedAt), ms(l.UpdatedAt)}
}

func scanGroupLink(r scanner) (domain.LTIGroupLink, error) {
	var l domain.LTIGroupLink
	var created, updated int64
	err := r.Scan(&l.GroupID, &l.CourseID, &l.LineItemURL, &l.LineItemLabel, &created, &updated)
	l.CreatedAt, l.UpdatedAt = fromMS(created), fromMS(updated)
	return l, err
}

func (s *DB) PutLTIGroupLink(ctx context.Context, l domain.LTIGroupLink) error {
	_, err := s.exec(ctx, `INSERT INTO lti_group_links (`+groupLinkColumns+`)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (group_id) DO UPDATE SET course_id = excluded.course_id,
		lineitem_url = excluded.lineitem_url, lineitem_label = excluded.lineitem_label, updated_at = excluded.updated_at`,
		groupLinkArgs(l)...)
	return s.mapErr(err)
}

func (s *DB) GetLTIGroupLink(ctx context.Context, groupID string) (domain.LTIGroupLink, error) {
	l, err := scanGroupLink(s.queryRow(ctx, `SELECT `+groupLinkColumns+` FROM lti_group_links WHERE group_id = ?`, groupID))
	if err != nil {
		return domain.LTIGroupLink{}, s.mapErr(err)
	}
	return l, nil
}
