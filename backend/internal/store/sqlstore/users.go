package sqlstore

import (
	"context"
	"database/sql"

	"github.com/utpl/simulador/backend/internal/domain"
)

const userColumns = `id, mail, display_name, given_name, surname, photo_url, role, created_at, last_login_at`

type scanner interface{ Scan(dest ...any) error }

func scanUser(r scanner) (domain.User, error) {
	var u domain.User
	var role string
	var created int64
	var lastLogin sql.NullInt64
	if err := r.Scan(&u.ID, &u.Mail, &u.DisplayName, &u.GivenName, &u.Surname, &u.PhotoURL, &role, &created, &lastLogin); err != nil {
		return u, err
	}
	u.Role = domain.Role(role)
	u.CreatedAt = fromMS(created)
	if lastLogin.Valid {
		u.LastLoginAt = fromMS(lastLogin.Int64)
	}
	return u, nil
}

// userArgs are u's values in userColumns' order; a user never signed in
// has no last sign-in time.
func userArgs(u domain.User) []any {
	var lastLogin any
	if !u.LastLoginAt.IsZero() {
		lastLogin = ms(u.LastLoginAt)
	}
	return []any{u.ID, domain.NormalizeEmail(u.Mail), u.DisplayName, u.GivenName, u.Surname, u.PhotoURL, string(u.Role), ms(u.CreatedAt), lastLogin}
}

func (s *DB) CreateUser(ctx context.Context, u domain.User) error {
	args := userArgs(u)
	_, err := s.exec(ctx, `INSERT INTO users (`+userColumns+`, password_hash) VALUES (`+placeholders(len(args))+`, '')`, args...)
	return err
}

func (s *DB) GetUser(ctx context.Context, id string) (domain.User, error) {
	u, err := scanUser(s.queryRow(ctx, `SELECT `+userColumns+` FROM users WHERE id = ?`, id))
	return u, s.mapErr(err)
}

func (s *DB) GetUserByMail(ctx context.Context, mail string) (domain.User, error) {
	u, err := scanUser(s.queryRow(ctx, `SELECT `+userColumns+` FROM users WHERE mail = ?`, domain.NormalizeEmail(mail)))
	return u, s.mapErr(err)
}

func (s *DB) ListUsersByMail(ctx context.Context, mails []string) ([]domain.User, error) {
	if len(mails) == 0 {
		return nil, nil
	}
	var out []domain.User
	// Chunked to stay under SQLite's and PostgreSQL's parameter limits.
	const chunk = 500
	for start := 0; start < len(mails); start += chunk {
		end := min(start+chunk, len(mails))
		args := make([]any, 0, end-start)
		for _, m := range mails[start:end] {
			args = append(args, domain.NormalizeEmail(m))
		}
		users, err := s.listUsers(ctx, `SELECT `+userColumns+` FROM users WHERE mail IN (`+placeholders(len(args))+`) ORDER BY mail`, args...)
		if err != nil {
			return nil, err
		}
		out = append(out, users...)
	}
	return out, nil
}

func (s *DB) ListUsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error) {
	return s.listUsers(ctx, `SELECT `+userColumns+` FROM users WHERE role = ? ORDER BY display_name, mail`, string(role))
}

func (s *DB) listUsers(ctx context.Context, q string, args ...any) ([]domain.User, error) {
	return queryAll(ctx, s, scanUser, q, args...)
}

func (s *DB) UpdateUser(ctx context.Context, u domain.User) error {
	res, err := s.exec(ctx, `UPDATE users SET mail = ?, display_name = ?, given_name = ?, surname = ?, photo_url = ?, role = ? WHERE id = ?`,
		domain.NormalizeEmail(u.Mail), u.DisplayName, u.GivenName, u.Surname, u.PhotoURL, string(u.Role), u.ID)
	return s.expectOne(res, err)
}

func (s *DB) PasswordHash(ctx context.Context, userID string) (string, error) {
	var h string
	err := s.queryRow(ctx, `SELECT password_hash FROM users WHERE id = ?`, userID).Scan(&h)
	return h, s.mapErr(err)
}

func (s *DB) SetPasswordHash(ctx context.Context, userID, hash string) error {
	res, err := s.exec(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, hash, userID)
	return s.expectOne(res, err)
}

func (s *DB) LinkIdentity(ctx context.Context, id domain.Identity) error {
	_, err := s.exec(ctx, `INSERT INTO identities (provider, subject, user_id) VALUES (?, ?, ?)`, id.Provider, id.Subject, id.UserID)
	return err
}

func (s *DB) UserByIdentity(ctx context.Context, provider, subject string) (domain.User, error) {
	u, err := scanUser(s.queryRow(ctx, `SELECT u.id, u.mail, u.display_name, u.given_name, u.surname, u.photo_url, u.role, u.created_at, u.last_login_at
		FROM identities i JOIN users u ON u.id = i.user_id WHERE i.provider = ? AND i.subject = ?`, provider, subject))
	return u, s.mapErr(err)
}

// expectOne turns "no row changed" into ErrNotFound.
func (s *DB) expectOne(res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return domain.ErrNotFound
	}
	return nil
}
