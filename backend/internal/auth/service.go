// Package auth owns sign-in: local passwords, Microsoft (Entra ID) tokens,
// profiles created at first sign-in, and server-side sessions.
package auth

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// Error codes the frontend maps to its fixed dialogs (docs/product.md, "Texts
// that must not change").
const (
	CodeMissingCredentials = "missing_credentials"
	CodeInvalidCredentials = "invalid_credentials"
	CodeTooManyAttempts    = "too_many_attempts"
	CodeMicrosoftDisabled  = "microsoft_not_configured"
	CodeMicrosoftRejected  = "microsoft_token_rejected"
	CodeServerBusy         = "server_busy"
)

// Service signs users in and manages profiles.
type Service struct {
	store     store.Store
	sessions  *Sessions
	accounts  *Throttle // failures per account
	addresses *Throttle // failures per client address
	microsoft *MicrosoftVerifier
	now       func() time.Time

	hashing *hashQueue // the argon2id computations, bounded, with their queue
	verify  func(hash, password string) (bool, error)
}

// NewService wires the sign-in service. microsoft may be nil (not configured).
func NewService(s store.Store, sessions *Sessions, microsoft *MicrosoftVerifier) *Service {
	return &Service{
		store:     s,
		sessions:  sessions,
		accounts:  NewThrottle(5, 15*time.Minute),
		addresses: NewThrottle(20, 15*time.Minute),
		microsoft: microsoft,
		now:       time.Now,
		hashing:   newHashQueue(maxHashing()),
		verify:    VerifyPassword,
	}
}

// Sessions returns the session manager.
func (s *Service) Sessions() *Sessions { return s.sessions }

// MicrosoftEnabled reports whether the university sign-in is configured.
func (s *Service) MicrosoftEnabled() bool { return s.microsoft != nil }

// LoginPassword checks an email and password. Every failure looks the same to
// the caller (the one "incorrect" dialog), and repeated failures
// per account or address are slowed down.
func (s *Service) LoginPassword(ctx context.Context, email, password, ip string) (u domain.User, err error) {
	email = domain.NormalizeEmail(email)
	if email == "" || password == "" {
		return domain.User{}, domain.Invalid(CodeMissingCredentials, "Debe ingresar un correo y contraseña")
	}
	// Both attempts are counted before the (slow) password check, so a burst
	// of parallel guesses gets no more checks than sequential ones would.
	account, wait := s.accounts.Reserve("mail:" + email)
	if wait > 0 {
		return domain.User{}, tooMany(wait)
	}
	address, wait := s.addresses.Reserve("ip:" + ip)
	if wait > 0 {
		account.Cancel()
		return domain.User{}, tooMany(wait)
	}
	failed := false
	defer func() {
		switch {
		case failed:
			// Both attempts stay counted.
		case err == nil:
			s.accounts.Reset("mail:" + email)
			address.Cancel()
		default: // not the caller's fault (store, shutdown): nothing is counted
			account.Cancel()
			address.Cancel()
		}
	}()
	fail := func() (domain.User, error) {
		failed = true
		return domain.User{}, &domain.UserError{Kind: domain.ErrUnauthenticated, Code: CodeInvalidCredentials,
			Message: "El correo o la constraseña son incorrectos"}
	}

	release, err := s.hashingSlot(ctx)
	if err != nil {
		return domain.User{}, err
	}
	defer release()
	u, err = s.store.GetUserByMail(ctx, email)
	hash := dummyHash // an unknown email costs a hash too, so timing does not tell accounts apart
	switch {
	case errors.Is(err, domain.ErrNotFound):
		u = domain.User{}
	case err != nil:
		return domain.User{}, err
	default:
		stored, err := s.store.PasswordHash(ctx, u.ID)
		if err != nil {
			return domain.User{}, err
		}
		if stored != "" { // "" is a Microsoft-only account
			hash = stored
		}
	}
	ok, err := s.verify(hash, password)
	if err != nil {
		return domain.User{}, fmt.Errorf("verify password of %q: %w", u.ID, err)
	}
	if !ok || u.ID == "" || hash == dummyHash {
		return fail()
	}
	return u, nil
}

// hashingSlot waits for one of the maxHashing argon2id computations
// allowed at a time (see hashQueue): each holds 19 MiB, so a burst of
// sign-ins queues instead of exhausting memory, and past the queue's
// bound is asked to come back later. The caller releases it when done.
func (s *Service) hashingSlot(ctx context.Context) (release func(), err error) {
	return s.hashing.acquire(ctx)
}

func tooMany(wait time.Duration) error {
	minutes := int(wait.Round(time.Minute) / time.Minute)
	msg := "Demasiados intentos fallidos. Espere un momento e intente de nuevo."
	if minutes >= 1 {
		msg = fmt.Sprintf("Demasiados intentos fallidos. Espere %d minuto(s) e intente de nuevo.", minutes)
	}
	return &domain.UserError{Kind: domain.ErrTooManyRequests, Code: CodeTooManyAttempts, Message: msg,
		Details: map[string]int{"retryAfterSeconds": int(wait.Seconds()) + 1}}
}

// NewMicrosoftNonce returns a fresh nonce for a Microsoft sign-in.
func (s *Service) NewMicrosoftNonce() (string, error) {
	if s.microsoft == nil {
		return "", microsoftDisabled()
	}
	return newNonce()
}

// LoginMicrosoft verifies a Microsoft ID token and returns the profile,
// creating it with role estudiante on first sign-in (created = true).
func (s *Service) LoginMicrosoft(ctx context.Context, rawIDToken, nonce string) (u domain.User, created bool, err error) {
	if s.microsoft == nil {
		return u, false, microsoftDisabled()
	}
	claims, err := s.microsoft.Verify(ctx, rawIDToken, nonce)
	if err != nil {
		return u, false, &domain.UserError{Kind: domain.ErrUnauthenticated, Code: CodeMicrosoftRejected,
			Message: "No se pudo verificar la cuenta institucional."}
	}
	subject := claims.TenantID + ":" + claims.ObjectID
	err = s.store.InTx(ctx, func(tx store.Store) error {
		created = false // fn may run again (see store.Store.InTx)
		u, err = tx.UserByIdentity(ctx, "microsoft", subject)
		if err == nil {
			return nil
		}
		if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		// A profile created beforehand by email (e.g. a tutor created from the
		// terminal) is linked, not duplicated: the tenant vouches for the address.
		u, err = tx.GetUserByMail(ctx, claims.Email)
		switch {
		case errors.Is(err, domain.ErrNotFound):
			u = profileFromClaims(claims, s.now())
			if err := tx.CreateUser(ctx, u); err != nil {
				return err
			}
			created = true
		case err != nil:
			return err
		}
		return tx.LinkIdentity(ctx, domain.Identity{Provider: "microsoft", Subject: subject, UserID: u.ID})
	})
	if err != nil {
		return domain.User{}, false, err
	}
	return u, created, nil
}

func profileFromClaims(c MicrosoftClaims, now time.Time) domain.User {
	given, surname := c.GivenName, c.FamilyName
	if given == "" && surname == "" {
		given, surname = domain.SplitName(c.Name)
	}
	display := strings.TrimSpace(c.Name)
	if display == "" {
		display = strings.TrimSpace(given + " " + surname)
	}
	return domain.User{
		ID: domain.NewID(), Mail: c.Email, DisplayName: display, GivenName: given, Surname: surname,
		Role: domain.RoleStudent, CreatedAt: now.UTC(),
	}
}

func microsoftDisabled() error {
	return &domain.UserError{Kind: domain.ErrNotFound, Code: CodeMicrosoftDisabled,
		Message: "El inicio de sesión con la cuenta institucional no está configurado. Use su correo y contraseña o consulte al administrador."}
}

// CreateUser creates a profile with a local password (terminal command).
func (s *Service) CreateUser(ctx context.Context, email, password string, role domain.Role, name string) (domain.User, error) {
	email = domain.NormalizeEmail(email)
	if !domain.ValidEmail(email) {
		return domain.User{}, domain.Invalid("invalid_email", fmt.Sprintf("el correo %q no es válido", email))
	}
	if err := CheckNewPassword(password, email); err != nil {
		return domain.User{}, err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return domain.User{}, err
	}
	given, surname := domain.SplitName(name)
	u := domain.User{ID: domain.NewID(), Mail: email, DisplayName: strings.Join(strings.Fields(name), " "),
		GivenName: given, Surname: surname, Role: role, CreatedAt: s.now().UTC()}
	err = s.store.InTx(ctx, func(tx store.Store) error {
		if err := tx.CreateUser(ctx, u); err != nil {
			if errors.Is(err, domain.ErrConflict) {
				return domain.Conflict("user_exists", fmt.Sprintf("ya existe un usuario con el correo %s", email))
			}
			return err
		}
		return tx.SetPasswordHash(ctx, u.ID, hash)
	})
	return u, err
}

// SetPassword gives a user a new local password by email (terminal
// command) and ends all of the user's sessions, so whoever knew the old
// password is signed out everywhere.
func (s *Service) SetPassword(ctx context.Context, email, password string) (domain.User, error) {
	u, err := s.store.GetUserByMail(ctx, email)
	if errors.Is(err, domain.ErrNotFound) {
		return u, domain.NotFound("user_not_found", fmt.Sprintf("no existe un usuario con el correo %s", domain.NormalizeEmail(email)))
	}
	if err != nil {
		return u, err
	}
	if err := CheckNewPassword(password, u.Mail); err != nil {
		return u, err
	}
	hash, err := HashPassword(password)
	if err != nil {
		return u, err
	}
	err = s.store.InTx(ctx, func(tx store.Store) error {
		if err := tx.SetPasswordHash(ctx, u.ID, hash); err != nil {
			return err
		}
		return tx.DeleteUserSessions(ctx, u.ID)
	})
	if err == nil {
		s.sessions.cache.forgetUser(u.ID)
	}
	return u, err
}

// SetRole changes a user's role by email (terminal command).
func (s *Service) SetRole(ctx context.Context, email string, role domain.Role) (domain.User, error) {
	u, err := s.store.GetUserByMail(ctx, email)
	if errors.Is(err, domain.ErrNotFound) {
		return u, domain.NotFound("user_not_found", fmt.Sprintf("no existe un usuario con el correo %s", domain.NormalizeEmail(email)))
	}
	if err != nil {
		return u, err
	}
	u.Role = role
	return u, s.store.UpdateUser(ctx, u)
}
