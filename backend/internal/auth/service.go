// Package auth owns sign-in: local passwords, Microsoft (Entra ID) tokens,
// profiles created at first sign-in, and server-side sessions.
package auth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/mail"
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
	// CodeTutorNeedsMicrosoft refuses a tutor's password sign-in when
	// TUTORS_REQUIRE_MICROSOFT is set.
	CodeTutorNeedsMicrosoft = "tutor_requires_microsoft"
	// CodeMicrosoftUnverified refuses a first Microsoft sign-in whose token
	// carries no address the tenant verifies.
	CodeMicrosoftUnverified = "microsoft_unverified_email"
	CodeRateLimited         = "rate_limited"
)

// Sign-in methods, as events and the session list name them.
const (
	MethodPassword     = "password"
	MethodPasswordTOTP = "password+totp"
	MethodRecoveryCode = "password+recovery_code"
	MethodMicrosoft    = "microsoft"
	MethodLTI          = "lti" // a launch from a learning platform (LTI 1.3)
)

// Service signs users in and manages profiles.
type Service struct {
	store     store.Store
	sessions  *Sessions
	throttle  *signInThrottle // failures per account, address and both (signin_throttle.go)
	microsoft *MicrosoftVerifier
	now       func() time.Time

	hashing *hashQueue // the argon2id computations, bounded, with their queue
	// knownDevices is the hashing lane of sign-ins from a known device
	// (known_device.go): a flood of other sign-ins never fills it.
	knownDevices *hashQueue
	// totpFailures counts wrong codes at sign-in per user (mfa.go).
	totpFailures *Throttle
	verify       func(hash, password string) (bool, error)
	// imported: whether Firebase credentials were imported (firebase_scrypt.go)
	imported importedCost

	log                    *slog.Logger
	mailer                 mail.Sender // nil: no e-mail
	publicURL              string
	tutorsRequireMicrosoft bool
}

// Options are the service's optional parts.
type Options struct {
	// Log receives the security events (slog.Default() when nil).
	Log *slog.Logger
	// Mailer sends reset links by e-mail; nil when mail is not configured.
	Mailer mail.Sender
	// PublicURL is the site's address for links in messages.
	PublicURL string
	// TutorsRequireMicrosoft refuses tutors' password sign-ins.
	TutorsRequireMicrosoft bool
}

// Configure sets the optional parts; call it before serving.
func (s *Service) Configure(o Options) {
	if o.Log != nil {
		s.log = o.Log
	}
	s.mailer, s.publicURL, s.tutorsRequireMicrosoft = o.Mailer, strings.TrimRight(o.PublicURL, "/"), o.TutorsRequireMicrosoft
}

// MailEnabled reports whether reset links can be sent by e-mail.
func (s *Service) MailEnabled() bool { return s.mailer != nil }

// TutorsRequireMicrosoft reports whether tutors must use the university
// account.
func (s *Service) TutorsRequireMicrosoft() bool { return s.tutorsRequireMicrosoft }

// NewService wires the sign-in service. microsoft may be nil (not configured).
func NewService(s store.Store, sessions *Sessions, microsoft *MicrosoftVerifier) *Service {
	svc := &Service{
		store:        s,
		sessions:     sessions,
		throttle:     newSignInThrottle(s),
		microsoft:    microsoft,
		now:          time.Now,
		hashing:      newHashQueue(maxHashing()),
		knownDevices: newHashQueue(1),
		verify:       VerifyPassword,
		log:          slog.Default(),
	}
	svc.totpFailures = NewThrottle(s, totpFreeFailures, 15*time.Minute)
	svc.totpFailures.now = func() time.Time { return svc.now() }
	return svc
}

// totpFreeFailures is how many wrong codes a user may type at sign-in in
// 15 minutes before each next one waits.
const totpFreeFailures = 10

// Sessions returns the session manager.
func (s *Service) Sessions() *Sessions { return s.sessions }

// MicrosoftEnabled reports whether the university sign-in is configured.
func (s *Service) MicrosoftEnabled() bool { return s.microsoft != nil }

// SignInClient is who sends a password sign-in: its address, and the
// device token the browser holds for the account, if any (known_device.go).
type SignInClient struct {
	IP     string
	Device string
}

// LoginPassword checks an email and password from a client with no device
// token (see LoginPasswordFrom).
func (s *Service) LoginPassword(ctx context.Context, email, password, ip string) (domain.User, error) {
	return s.LoginPasswordFrom(ctx, email, password, SignInClient{IP: ip})
}

// LoginPasswordFrom checks an email and password. Every failure looks the
// same to the caller (the one "incorrect" dialog), and repeated failures
// are slowed down by the sign-in throttle, which never refuses a right
// password because of other people's failures elsewhere, nor, from a known
// device, from the same address (signin_throttle.go). Only accounts with a
// password take a hashing slot; the others wait as long without one. A
// tutor's right password is refused when tutors must use the university
// account.
func (s *Service) LoginPasswordFrom(ctx context.Context, email, password string, client SignInClient) (u domain.User, err error) {
	email = domain.NormalizeEmail(email)
	if email == "" || password == "" {
		return domain.User{}, domain.Invalid(CodeMissingCredentials, "Debe ingresar un correo y contraseña")
	}
	device, err := s.knownDevice(ctx, client.Device, email)
	if err != nil {
		return domain.User{}, err
	}
	// The throttle decides before the (slow) password check, so a refused
	// attempt costs no hash; its counts are in the store, shared by every
	// instance.
	attempt, refused, err := s.throttle.admit(ctx, email, client.IP, device)
	if err != nil || refused.wait > 0 {
		if refused.wait > 0 {
			s.throttled(ctx, email, refused.scope, refused.wait)
		}
		return domain.User{}, throttleAnswer(ctx, refused.wait, err)
	}
	failed := false
	reported := func(e error) {
		if e != nil {
			slog.WarnContext(ctx, "sign-in attempt could not be reported to the throttle", "err", e)
		}
	}
	defer func() {
		switch {
		case failed: // counted by fail
		case err == nil:
			reported(attempt.succeeded(ctx))
		default: // not the caller's fault (store, shutdown): nothing is counted
			reported(attempt.abandoned(ctx))
		}
	}()
	fail := func() (domain.User, error) {
		failed = true
		// Counted before the hashing slot is given back, so the next
		// check of the same address or account already sees it.
		reported(attempt.failed(ctx))
		// The account is named by its id when it exists; an unknown
		// address is not written to the log.
		audit.Info(ctx, s.log, "auth.login.failure", slog.String("userId", u.ID), slog.String("method", MethodPassword),
			slog.String("reason", CodeInvalidCredentials), slog.Bool("knownAccount", u.ID != ""))
		return domain.User{}, &domain.UserError{Kind: domain.ErrUnauthenticated, Code: CodeInvalidCredentials,
			Message: "El correo o la constraseña son incorrectos"}
	}

	u, err = s.store.GetUserByMail(ctx, email)
	hash := "" // no password to check: an unknown account, or a Microsoft-only one
	switch {
	case errors.Is(err, domain.ErrNotFound):
		u = domain.User{}
	case err != nil:
		return domain.User{}, err
	default:
		if hash, err = s.store.PasswordHash(ctx, u.ID); err != nil {
			return domain.User{}, err
		}
	}
	if hash == "" {
		// As long as a check would take, without a slot (hashQueue.imitate).
		if err := s.hashing.imitate(ctx); err != nil {
			return domain.User{}, err
		}
		if refused, err := attempt.recheck(ctx); err != nil || refused.wait > 0 {
			if refused.wait > 0 {
				s.throttled(ctx, email, refused.scope, refused.wait)
			}
			return domain.User{}, throttleAnswer(ctx, refused.wait, err)
		}
		return fail()
	}
	queue := s.hashing
	if device != "" {
		queue = s.knownDevices
	}
	release, err := queue.acquire(ctx)
	if err != nil {
		return domain.User{}, err
	}
	defer release()
	if refused, err := attempt.recheck(ctx); err != nil || refused.wait > 0 {
		if refused.wait > 0 {
			s.throttled(ctx, email, refused.scope, refused.wait)
		}
		return domain.User{}, throttleAnswer(ctx, refused.wait, err)
	}
	ok, err := s.checkPassword(ctx, hash, password)
	// One line per argon2id check, at debug level: how the cluster test
	// counts the checks a burst of sign-ins costs across instances.
	slog.DebugContext(ctx, "password checked")
	if err != nil {
		return domain.User{}, fmt.Errorf("verify password of %q: %w", u.ID, err)
	}
	if !ok {
		return fail()
	}
	if err := s.upgradeImported(ctx, u, hash, password); err != nil {
		return domain.User{}, err
	}
	if u.IsTutor() && s.tutorsRequireMicrosoft {
		audit.Info(ctx, s.log, "auth.login.refused", slog.String("userId", u.ID), slog.String("method", MethodPassword),
			slog.String("reason", CodeTutorNeedsMicrosoft))
		return domain.User{}, &domain.UserError{Kind: domain.ErrForbidden, Code: CodeTutorNeedsMicrosoft,
			Message: "Los tutores ingresan con su cuenta institucional: use el botón «Iniciar con UTPL», que pide la verificación de la universidad."}
	}
	return u, nil
}

// throttled records a sign-in refused because of earlier failures. The
// account is named by its id when it exists.
func (s *Service) throttled(ctx context.Context, email, scope string, wait time.Duration) {
	attrs := []slog.Attr{slog.String("scope", scope), slog.Int("retryAfterSeconds", int(wait.Seconds())+1)}
	if u, err := s.store.GetUserByMail(ctx, email); err == nil {
		attrs = append(attrs, slog.String("userId", u.ID))
	}
	audit.Warn(ctx, s.log, "auth.login.throttled", attrs...)
}

// StartSession signs u in: a new session, and the sign-in event with how
// (method) the user proved who they are.
func (s *Service) StartSession(ctx context.Context, u domain.User, method, userAgent, ip string) (string, domain.Session, error) {
	token, se, err := s.sessions.create(ctx, u.ID, userAgent, ip)
	if err != nil {
		return "", se, err
	}
	audit.SetUser(ctx, u.ID, se.ID)
	audit.Info(ctx, s.log, "auth.login.success", slog.String("method", method), slog.String("role", string(u.Role)))
	return token, se, nil
}

// SignOut ends the session of token, if it is one.
func (s *Service) SignOut(ctx context.Context, token string) error {
	if token == "" || len(token) > 128 {
		return nil
	}
	se, err := s.store.GetSession(ctx, hashToken(token))
	if errors.Is(err, domain.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	s.sessions.forgetUser(se.UserID)
	if err := s.store.DeleteSession(ctx, se.TokenHash); err != nil {
		return err
	}
	audit.Info(ctx, s.log, "auth.logout", slog.String("userId", se.UserID), slog.String("sessionId", se.ID))
	return nil
}

// hashingSlot waits for one of the maxHashing argon2id computations
// allowed at a time (see hashQueue): each holds 19 MiB, so a burst of
// sign-ins queues instead of exhausting memory, and past the queue's
// bound is asked to come back later. The caller releases it when done.
func (s *Service) hashingSlot(ctx context.Context) (release func(), err error) {
	return s.hashing.acquire(ctx)
}

// throttleAnswer is the answer to an attempt the throttle refused (wait)
// or could not count (err: the store failed, or the request ended).
func throttleAnswer(ctx context.Context, wait time.Duration, err error) error {
	switch {
	case err != nil && ctx.Err() != nil:
		return busy(retryAfterSeconds*time.Second, ctx.Err())
	case err != nil:
		return fmt.Errorf("sign-in throttle: %w", err)
	}
	return tooMany(wait)
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

// NewMicrosoftNonce returns a fresh nonce for a Microsoft sign-in. The
// server keeps its hash for nonceLifetime, and a sign-in takes it once: a
// token whose nonce the server did not issue, or already took, signs
// nobody in (a captured token carries its nonce, so the browser's cookie
// alone would let its holder replay it until it expires).
func (s *Service) NewMicrosoftNonce(ctx context.Context) (string, error) {
	if s.microsoft == nil {
		return "", microsoftDisabled()
	}
	nonce, err := newNonce()
	if err != nil {
		return "", err
	}
	now := s.now().UTC().Truncate(time.Millisecond)
	_, err = s.store.UpdateCounter(ctx, nonceKey(nonce), now, func(store.Counter) store.Counter {
		return store.Counter{Count: 1, Start: now, ExpiresAt: now.Add(nonceLifetime)}
	})
	return nonce, err
}

// nonceLifetime is how long an issued Microsoft nonce may be used (the
// cookie that carries it lives as long).
const nonceLifetime = 10 * time.Minute

func nonceKey(nonce string) string { return "msnonce:" + hashToken(nonce) }

// takeNonce uses up an issued nonce; false when it was not issued, has
// expired or was already used.
func (s *Service) takeNonce(ctx context.Context, nonce string) (bool, error) {
	issued := false
	_, err := s.store.UpdateCounter(ctx, nonceKey(nonce), s.now().UTC().Truncate(time.Millisecond), func(c store.Counter) store.Counter {
		issued = c.Count > 0
		return store.Counter{}
	})
	return issued, err
}

// LoginMicrosoft verifies a Microsoft ID token and returns the profile,
// creating it with role estudiante on first sign-in (created = true).
func (s *Service) LoginMicrosoft(ctx context.Context, rawIDToken, nonce string) (u domain.User, created bool, err error) {
	if s.microsoft == nil {
		return u, false, microsoftDisabled()
	}
	claims, err := s.microsoft.Verify(ctx, rawIDToken, nonce)
	if err == nil {
		var issued bool
		if issued, err = s.takeNonce(ctx, nonce); err != nil {
			return u, false, err
		} else if !issued {
			err = errors.New("nonce not issued or already used")
		}
	}
	if err != nil {
		if ctx.Err() == nil {
			audit.Info(ctx, s.log, "auth.login.failure", slog.String("method", MethodMicrosoft), slog.String("reason", CodeMicrosoftRejected))
		}
		return u, false, &domain.UserError{Kind: domain.ErrUnauthenticated, Code: CodeMicrosoftRejected,
			Message: "No se pudo verificar la cuenta institucional."}
	}
	// The account is known by its tenant and object id, which never
	// change and are never reused, once it has been linked.
	subject := claims.TenantID + ":" + claims.ObjectID
	var linked, unverified bool
	err = s.store.InTx(ctx, func(tx store.Store) error {
		created, linked, unverified = false, false, false // fn may run again (see store.Store.InTx)
		u, err = tx.UserByIdentity(ctx, "microsoft", subject)
		if err == nil {
			return nil
		}
		if !errors.Is(err, domain.ErrNotFound) {
			return err
		}
		// Before that, only a user name the tenant verifies may link the
		// account to a profile created beforehand (e.g. a tutor created
		// from the terminal); the email claim is whatever a directory
		// administrator typed, so at most it names a new profile.
		if claims.VerifiedEmail == "" {
			unverified = true
			return nil
		}
		u, err = tx.GetUserByMail(ctx, claims.VerifiedEmail)
		switch {
		case err == nil && !claims.EmailLinks:
			// A mail attribute never takes over a profile that exists.
			unverified = true
			return nil
		case errors.Is(err, domain.ErrNotFound):
			u = profileFromClaims(claims, s.now())
			if err := tx.CreateUser(ctx, u); err != nil {
				return err
			}
			created = true
		case err != nil:
			return err
		default:
			linked = true
		}
		return tx.LinkIdentity(ctx, domain.Identity{Provider: "microsoft", Subject: subject, UserID: u.ID})
	})
	if err == nil && !unverified {
		err = s.refuseDisabled(ctx, u, MethodMicrosoft)
	}
	if err != nil {
		return domain.User{}, false, err
	}
	switch {
	case unverified:
		audit.Info(ctx, s.log, "auth.login.refused", slog.String("method", MethodMicrosoft), slog.String("reason", CodeMicrosoftUnverified))
		return domain.User{}, false, &domain.UserError{Kind: domain.ErrForbidden, Code: CodeMicrosoftUnverified,
			Message: "Su cuenta institucional no tiene un correo verificado de la universidad, así que no podemos saber qué perfil es el suyo. Consulte al administrador."}
	case created:
		audit.Info(ctx, s.log, "auth.microsoft.profile_created", slog.String("userId", u.ID), slog.String("verifiedBy", claims.EmailSource))
	case linked:
		audit.Info(ctx, s.log, "auth.microsoft.linked", slog.String("userId", u.ID), slog.String("verifiedBy", claims.EmailSource))
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
		ID: domain.NewID(), Mail: c.VerifiedEmail, DisplayName: display, GivenName: given, Surname: surname,
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
	if err == nil {
		audit.Info(ctx, s.log, "user.created", slog.String("targetUserId", u.ID), slog.String("role", string(role)))
	}
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
		if err := tx.DeleteUserTokens(ctx, u.ID, domain.TokenPasswordReset); err != nil {
			return err
		}
		if err := tx.DeleteUserTokens(ctx, u.ID, domain.TokenMFALogin); err != nil {
			return err
		}
		return tx.DeleteUserSessions(ctx, u.ID)
	})
	s.sessions.forgetUser(u.ID)
	if err == nil {
		audit.Info(ctx, s.log, "auth.password.set", slog.String("targetUserId", u.ID), slog.String("sessionsEnded", "all"))
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
	from := u.Role
	u.Role = role
	if err := s.store.UpdateUser(ctx, u); err != nil {
		return u, err
	}
	s.sessions.forgetUser(u.ID)
	audit.Info(ctx, s.log, "user.role.change", slog.String("targetUserId", u.ID), slog.String("from", string(from)), slog.String("to", string(role)))
	return u, nil
}
