package firestore

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/utpl/simulador/backend/internal/domain"
)

// users/{id}: the profile, with the earlier app's field names. The
// password hash lives apart in credentials/{id}, so the profile can be
// shown or exported without it. userMails/{mail} holds the user ID and
// makes mails unique.

func userFields(u domain.User) map[string]any {
	return map[string]any{
		"id":          u.ID,
		"mail":        domain.NormalizeEmail(u.Mail),
		"displayName": u.DisplayName,
		"givenName":   u.GivenName,
		"surname":     u.Surname,
		"photo_url":   u.PhotoURL,
		"role":        string(u.Role),
		"createdAt":   ts(u.CreatedAt),
		"lastLoginAt": ts(u.LastLoginAt),
	}
}

func userFrom(d doc) (domain.User, error) {
	f := d.data
	return domain.User{
		ID:          d.ref.ID,
		Mail:        domain.NormalizeEmail(f.str("mail")),
		DisplayName: f.str("displayName"),
		GivenName:   f.str("givenName"),
		Surname:     f.str("surname"),
		PhotoURL:    f.str("photo_url"),
		Role:        domain.Role(f.str("role")),
		CreatedAt:   f.time("createdAt"),
		LastLoginAt: f.time("lastLoginAt"),
	}, nil
}

func (s *Store) CreateUser(ctx context.Context, u domain.User) error {
	return s.write(ctx, func(t *txn) error {
		if err := s.claimMail(ctx, t, u.Mail, u.ID); err != nil {
			return err
		}
		ref := s.ref(colUsers, u.ID)
		d, err := t.get(ctx, ref)
		if err != nil {
			return err
		}
		if d.exists {
			return fmt.Errorf("user %s: %w", u.ID, domain.ErrConflict)
		}
		t.create(ref, userFields(u))
		return nil
	})
}

// claimMail makes mail point at userID, or reports domain.ErrConflict when
// another profile has it: by its userMails document, or (a profile the
// earlier app wrote, which has none) by a query on users.mail.
func (s *Store) claimMail(ctx context.Context, t *txn, mail, userID string) error {
	mail = domain.NormalizeEmail(mail)
	key := s.ref(colUserMails, mail)
	k, err := t.get(ctx, key)
	if err != nil {
		return err
	}
	if k.exists && k.data.str("userId") != userID {
		return fmt.Errorf("mail %s: %w", mail, domain.ErrConflict)
	}
	same, err := t.query(ctx, collection(colUsers).whereEq("mail", mail).take(2))
	if err != nil {
		return err
	}
	for _, d := range same {
		if d.ref.ID != userID {
			return fmt.Errorf("mail %s: %w", mail, domain.ErrConflict)
		}
	}
	if !k.exists {
		t.create(key, map[string]any{"userId": userID})
	}
	return nil
}

func (s *Store) GetUser(ctx context.Context, id string) (domain.User, error) {
	return getOne(ctx, s.read(), s.ref(colUsers, id), userFrom)
}

// GetUserByMail queries users.mail, so profiles written by the earlier app
// are found too.
func (s *Store) GetUserByMail(ctx context.Context, mail string) (domain.User, error) {
	docs, err := s.read().query(ctx, collection(colUsers).whereEq("mail", domain.NormalizeEmail(mail)).take(1))
	if err != nil {
		return domain.User{}, err
	}
	if len(docs) == 0 {
		return domain.User{}, fmt.Errorf("user %s: %w", domain.NormalizeEmail(mail), domain.ErrNotFound)
	}
	return userFrom(docs[0])
}

// inLimit is the most values Firestore takes in one "in" filter.
const inLimit = 30

func (s *Store) ListUsersByMail(ctx context.Context, mails []string) ([]domain.User, error) {
	if len(mails) == 0 {
		return nil, nil
	}
	norm := make([]string, 0, len(mails))
	for _, m := range mails {
		norm = append(norm, domain.NormalizeEmail(m))
	}
	slices.Sort(norm)
	norm = slices.Compact(norm)
	var queries []query
	for chunk := range slices.Chunk(norm, inLimit) {
		queries = append(queries, collection(colUsers).with(cond{"mail", "in", chunk}))
	}
	docs, err := queryAll(ctx, s.read(), queries)
	if err != nil {
		return nil, err
	}
	out, err := decodeAll(docs, userFrom)
	slices.SortFunc(out, func(a, b domain.User) int { return strings.Compare(a.Mail, b.Mail) })
	return out, err
}

func (s *Store) ListUsersByRole(ctx context.Context, role domain.Role) ([]domain.User, error) {
	docs, err := s.read().query(ctx, collection(colUsers).whereEq("role", string(role)))
	if err != nil {
		return nil, err
	}
	out, err := decodeAll(docs, userFrom)
	slices.SortFunc(out, func(a, b domain.User) int {
		if c := strings.Compare(a.DisplayName, b.DisplayName); c != 0 {
			return c
		}
		return strings.Compare(a.Mail, b.Mail)
	})
	return out, err
}

func (s *Store) UpdateUser(ctx context.Context, u domain.User) error {
	return s.write(ctx, func(t *txn) error {
		d, err := t.existing(ctx, s.ref(colUsers, u.ID), "user "+u.ID)
		if err != nil {
			return err
		}
		old := domain.NormalizeEmail(d.data.str("mail"))
		if mail := domain.NormalizeEmail(u.Mail); mail != old {
			if err := s.claimMail(ctx, t, mail, u.ID); err != nil {
				return err
			}
			if err := s.releaseMail(ctx, t, old, u.ID); err != nil {
				return err
			}
		}
		changes := userFields(u)
		// Sign-ins and creation are not the caller's to change.
		delete(changes, "createdAt")
		delete(changes, "lastLoginAt")
		t.update(d, changes)
		return nil
	})
}

// releaseMail deletes mail's userMails document if it names userID.
func (s *Store) releaseMail(ctx context.Context, t *txn, mail, userID string) error {
	key := s.ref(colUserMails, mail)
	k, err := t.get(ctx, key)
	if err != nil {
		return err
	}
	if k.exists && k.data.str("userId") == userID {
		t.delete(key)
	}
	return nil
}

// PasswordHash reads the profile and its credentials together: a missing
// profile is domain.ErrNotFound, a profile without a password "".
func (s *Store) PasswordHash(ctx context.Context, userID string) (string, error) {
	docs, err := s.read().getAll(ctx, s.refs2(colUsers, colCredentials, userID))
	if err != nil {
		return "", err
	}
	if !docs[0].exists {
		return "", fmt.Errorf("user %s: %w", userID, domain.ErrNotFound)
	}
	return docs[1].data.str("passwordHash"), nil
}

func (s *Store) SetPasswordHash(ctx context.Context, userID, hash string) error {
	return s.write(ctx, func(t *txn) error {
		if _, err := t.existing(ctx, s.ref(colUsers, userID), "user "+userID); err != nil {
			return err
		}
		t.set(s.ref(colCredentials, userID), map[string]any{"passwordHash": hash})
		return nil
	})
}

// identities/{provider|subject} links an external account to a user; its
// ID makes the link unique.

func (s *Store) LinkIdentity(ctx context.Context, id domain.Identity) error {
	return s.write(ctx, func(t *txn) error {
		ref := s.ref(colIdentities, id.Provider, id.Subject)
		d, err := t.get(ctx, ref)
		if err != nil {
			return err
		}
		if d.exists {
			return fmt.Errorf("identity %s %s: %w", id.Provider, id.Subject, domain.ErrConflict)
		}
		t.create(ref, map[string]any{"provider": id.Provider, "subject": id.Subject, "userId": id.UserID})
		return nil
	})
}

func (s *Store) UserByIdentity(ctx context.Context, provider, subject string) (domain.User, error) {
	r := s.read()
	d, err := r.get(ctx, s.ref(colIdentities, provider, subject))
	if err != nil {
		return domain.User{}, err
	}
	if !d.exists {
		return domain.User{}, fmt.Errorf("identity %s %s: %w", provider, subject, domain.ErrNotFound)
	}
	return s.GetUser(ctx, d.data.str("userId"))
}

// refs2 is the documents with the same ID in two collections.
func (s *Store) refs2(a, b, id string) []*firestoreRef {
	return []*firestoreRef{s.ref(a, id), s.ref(b, id)}
}
