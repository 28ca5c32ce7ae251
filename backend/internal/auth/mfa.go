package auth

import (
	"bytes"
	"context"
	"crypto/pbkdf2"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"image/png"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/pquerna/otp"
	"github.com/pquerna/otp/totp"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// A second factor for tutors who sign in with a password: TOTP (RFC
// 6238: SHA-1, six digits, 30-second steps, the usual authenticator
// apps) and ten single-use recovery codes. A code is accepted for the
// step before, the current one and the one after (clocks drift), and
// each step once: the store keeps the last step used.

const (
	totpIssuer = "Simulador Complexivo"
	totpPeriod = 30
	// recoveryCodes is how many codes enrolment gives; each has
	// recoveryCodeLength characters of recoveryAlphabet (about 49 bits).
	recoveryCodes      = 10
	recoveryCodeLength = 10
	recoveryAlphabet   = "abcdefghjkmnpqrstuvwxyz23456789" // no 0/o, 1/l/i
	// MFALoginLifetime is how long a sign-in waits for its code.
	MFALoginLifetime = 5 * time.Minute
)

var totpOpts = totp.ValidateOpts{Period: totpPeriod, Skew: 0, Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1}

// MFAStatus is what the account page shows about the second factor.
type MFAStatus struct {
	// Available: u is a tutor who signs in with a password (and is not
	// required to use the university account, whose MFA applies).
	Available         bool
	Enabled           bool
	RecoveryCodesLeft int
}

// MFAStatus reports u's second factor.
func (s *Service) MFAStatus(ctx context.Context, u domain.User) (MFAStatus, error) {
	var st MFAStatus
	available, err := s.mfaAvailable(ctx, u)
	if err != nil {
		return st, err
	}
	st.Available = available
	m, err := s.store.GetMFA(ctx, u.ID)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return st, nil
	case err != nil:
		return st, err
	}
	st.Enabled, st.RecoveryCodesLeft = m.Enabled(), m.RecoveryCodesLeft()
	return st, nil
}

func (s *Service) mfaAvailable(ctx context.Context, u domain.User) (bool, error) {
	if !u.IsTutor() || s.tutorsRequireMicrosoft {
		return false, nil
	}
	return s.HasPassword(ctx, u)
}

var errMFANotAvailable = domain.Forbidden("mfa_not_available",
	"La verificación en dos pasos es para los tutores que ingresan con correo y contraseña.")

// TOTPSetup is what enrolment shows: the secret as text and as a QR code
// of its otpauth:// URI.
type TOTPSetup struct {
	Secret string
	URI    string
	QRPNG  []byte
}

// StartTOTP begins enrolment after checking u's password: a new secret,
// stored but not yet in force, until ConfirmTOTP sees a code from it.
func (s *Service) StartTOTP(ctx context.Context, u domain.User, password string) (TOTPSetup, error) {
	if ok, err := s.mfaAvailable(ctx, u); err != nil || !ok {
		return TOTPSetup{}, cmpErr(err, errMFANotAvailable)
	}
	if err := s.checkOwnPassword(ctx, u, password); err != nil {
		return TOTPSetup{}, err
	}
	if m, err := s.store.GetMFA(ctx, u.ID); err == nil && m.Enabled() {
		return TOTPSetup{}, domain.Conflict("mfa_enabled", "La verificación en dos pasos ya está activa. Desactívela antes de configurarla de nuevo.")
	} else if err != nil && !errors.Is(err, domain.ErrNotFound) {
		return TOTPSetup{}, err
	}
	key, err := totp.Generate(totp.GenerateOpts{Issuer: totpIssuer, AccountName: u.Mail, Period: totpPeriod, SecretSize: 20,
		Digits: otp.DigitsSix, Algorithm: otp.AlgorithmSHA1})
	if err != nil {
		return TOTPSetup{}, err
	}
	img, err := key.Image(240, 240)
	if err != nil {
		return TOTPSetup{}, err
	}
	var qr bytes.Buffer
	if err := png.Encode(&qr, img); err != nil {
		return TOTPSetup{}, err
	}
	if err := s.store.PutMFA(ctx, domain.MFA{UserID: u.ID, Secret: key.Secret()}); err != nil {
		return TOTPSetup{}, err
	}
	audit.Info(ctx, s.log, "auth.mfa.enrolment_started")
	return TOTPSetup{Secret: key.Secret(), URI: key.URL(), QRPNG: qr.Bytes()}, nil
}

// ConfirmTOTP puts the pending secret in force once u types a code from
// it, and returns the recovery codes: shown this once, stored hashed.
func (s *Service) ConfirmTOTP(ctx context.Context, u domain.User, code string) ([]string, error) {
	if ok, err := s.mfaAvailable(ctx, u); err != nil || !ok {
		return nil, cmpErr(err, errMFANotAvailable)
	}
	m, err := s.store.GetMFA(ctx, u.ID)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && m.Enabled()) {
		return nil, domain.Conflict("mfa_not_pending", "Primero comience la configuración de la verificación en dos pasos.")
	}
	if err != nil {
		return nil, err
	}
	if err := s.check(ctx, limitTOTP, u.ID); err != nil {
		return nil, err
	}
	step, ok := matchTOTP(m.Secret, code, s.now())
	if !ok {
		audit.Info(ctx, s.log, "auth.mfa.failure", slog.String("reason", "invalid_code"), slog.String("during", "enrolment"))
		return nil, errInvalidCode
	}
	codes, hashes, err := newRecoveryCodes()
	if err != nil {
		return nil, err
	}
	now := s.now().UTC()
	m.EnabledAt, m.LastStep, m.RecoveryCodes = &now, step, hashes
	if err := s.store.PutMFA(ctx, m); err != nil {
		return nil, err
	}
	audit.Info(ctx, s.log, "auth.mfa.enabled", slog.Int("recoveryCodes", len(codes)))
	return codes, nil
}

// DisableTOTP turns the second factor off; it takes u's password and a
// code (from the app, or a recovery code).
func (s *Service) DisableTOTP(ctx context.Context, u domain.User, password, code string) error {
	m, err := s.store.GetMFA(ctx, u.ID)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && !m.Enabled()) {
		return domain.Conflict("mfa_not_enabled", "La verificación en dos pasos no está activa.")
	}
	if err != nil {
		return err
	}
	if err := s.checkOwnPassword(ctx, u, password); err != nil {
		return err
	}
	if err := s.check(ctx, limitTOTP, u.ID); err != nil {
		return err
	}
	if _, err := s.useSecondFactor(ctx, m, code, "disable"); err != nil {
		return err
	}
	if err := s.store.DeleteMFA(ctx, u.ID); err != nil {
		return err
	}
	audit.Info(ctx, s.log, "auth.mfa.disabled")
	return nil
}

// ResetMFA removes a user's second factor (terminal command, for a tutor
// who lost the device), the sign-ins waiting for it and every session.
func (s *Service) ResetMFA(ctx context.Context, email string) (domain.User, error) {
	u, err := s.store.GetUserByMail(ctx, email)
	if errors.Is(err, domain.ErrNotFound) {
		return u, domain.NotFound("user_not_found", "no existe un usuario con el correo "+domain.NormalizeEmail(email))
	}
	if err != nil {
		return u, err
	}
	if _, err := s.store.GetMFA(ctx, u.ID); errors.Is(err, domain.ErrNotFound) {
		return u, domain.NotFound("mfa_not_enabled", u.Mail+" no tiene verificación en dos pasos")
	} else if err != nil {
		return u, err
	}
	err = s.store.InTx(ctx, func(tx store.Store) error {
		if err := tx.DeleteMFA(ctx, u.ID); err != nil {
			return err
		}
		if err := tx.DeleteUserTokens(ctx, u.ID, domain.TokenMFALogin); err != nil {
			return err
		}
		// The phone may have been stolen with a session open on it: every
		// session ends (S3-13).
		return tx.DeleteUserSessions(ctx, u.ID)
	})
	s.sessions.forgetUser(u.ID)
	if err != nil {
		return u, err
	}
	audit.Info(ctx, s.log, "auth.mfa.reset", slog.String("targetUserId", u.ID), slog.String("sessionsEnded", "all"))
	return u, nil
}

// SecondFactorRequired reports whether u's password sign-in must be
// followed by a code.
func (s *Service) SecondFactorRequired(ctx context.Context, u domain.User) (bool, error) {
	m, err := s.store.GetMFA(ctx, u.ID)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	}
	return err == nil && m.Enabled(), err
}

// BeginSecondFactor records, on the server, that u's password was right
// and the sign-in waits for a code; the token names that state (the
// browser keeps it in an HttpOnly cookie) for MFALoginLifetime.
func (s *Service) BeginSecondFactor(ctx context.Context, u domain.User) (string, error) {
	token, err := randomToken(32)
	if err != nil {
		return "", err
	}
	now := s.now().UTC()
	err = s.store.CreateToken(ctx, domain.OneTimeToken{Hash: hashToken(token), Kind: domain.TokenMFALogin, UserID: u.ID,
		CreatedAt: now, ExpiresAt: now.Add(MFALoginLifetime)})
	if err != nil {
		return "", err
	}
	audit.Info(ctx, s.log, "auth.mfa.challenge", slog.String("userId", u.ID))
	return token, nil
}

var (
	errInvalidCode = domain.Invalid("invalid_code", "El código no es correcto. Revise que la hora de su teléfono esté al día e intente de nuevo.")
	errMFAExpired  = &domain.UserError{Kind: domain.ErrUnauthenticated, Code: "mfa_expired",
		Message: "La verificación expiró. Ingrese de nuevo su correo y contraseña."}
)

// FinishSecondFactor checks the code of a sign-in BeginSecondFactor
// started and returns its user and how they signed in; the sign-in then
// ends (a session is the caller's to create). Five wrong codes end it
// too.
func (s *Service) FinishSecondFactor(ctx context.Context, token, code string) (domain.User, string, error) {
	if token == "" || len(token) > 128 {
		return domain.User{}, "", errMFAExpired
	}
	t, err := s.store.GetToken(ctx, hashToken(token))
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return domain.User{}, "", errMFAExpired
	case err != nil:
		return domain.User{}, "", err
	case t.Kind != domain.TokenMFALogin || t.UsedAt != nil || !s.now().Before(t.ExpiresAt):
		return domain.User{}, "", errMFAExpired
	}
	if err := s.check(ctx, limitMFAAttempt, t.Hash); err != nil {
		_ = s.store.UseToken(ctx, t.Hash, s.now().UTC()) // this sign-in is over
		return domain.User{}, "", errMFAExpired
	}
	// Wrong codes at sign-in count per user, and only wrong ones: past
	// totpFreeFailures the user's next code waits 30 s, doubling with
	// each further wrong one up to 15 minutes (S3-14), so whoever holds
	// the password guesses about a hundred codes a day instead of a
	// thousand, and the owner's right codes never use up an allowance.
	if wait, err := s.totpFailures.Wait(ctx, "totp:"+t.UserID); err != nil {
		return domain.User{}, "", err
	} else if wait > 0 {
		audit.Warn(ctx, s.log, "ratelimit.exceeded", slog.String("limit", "totp_failures"), slog.Int("retryAfterSeconds", int(wait.Seconds())+1))
		return domain.User{}, "", rateLimited(wait)
	}
	u, err := s.store.GetUser(ctx, t.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return domain.User{}, "", errMFAExpired
	}
	if err != nil {
		return domain.User{}, "", err
	}
	m, err := s.store.GetMFA(ctx, u.ID)
	if errors.Is(err, domain.ErrNotFound) || (err == nil && !m.Enabled()) {
		// Reset from the terminal meanwhile: the password was right.
		m = domain.MFA{}
	} else if err != nil {
		return domain.User{}, "", err
	}
	ctx = audit.WithActor(ctx, withUser(audit.ActorFrom(ctx), u.ID))
	method := MethodPassword
	if m.Enabled() {
		if method, err = s.useSecondFactor(ctx, m, code, "sign-in"); err != nil {
			if errors.Is(err, errInvalidCode) { // a wrong code (not a missing one)
				if ferr := s.totpFailures.Fail(ctx, "totp:"+u.ID); ferr != nil {
					return domain.User{}, "", errors.Join(err, ferr)
				}
			}
			return domain.User{}, "", err
		}
	}
	if err := s.store.UseToken(ctx, t.Hash, s.now().UTC()); err != nil {
		if errors.Is(err, domain.ErrConflict) || errors.Is(err, domain.ErrNotFound) {
			return domain.User{}, "", errMFAExpired
		}
		return domain.User{}, "", err
	}
	return u, method, nil
}

func withUser(a audit.Actor, userID string) audit.Actor {
	a.UserID = userID
	return a
}

// useSecondFactor accepts a code of m: six digits are a TOTP code (its
// step used once), anything else a recovery code (used once). during
// names the moment for the failure event.
func (s *Service) useSecondFactor(ctx context.Context, m domain.MFA, code, during string) (string, error) {
	fail := func(reason string) (string, error) {
		audit.Info(ctx, s.log, "auth.mfa.failure", slog.String("userId", m.UserID), slog.String("reason", reason), slog.String("during", during))
		return "", errInvalidCode
	}
	code = normalizeCode(code)
	if code == "" {
		return "", domain.Invalid("missing_code", "Escriba el código de su aplicación de autenticación o un código de recuperación.")
	}
	if isDigits(code, 6) {
		step, ok := matchTOTP(m.Secret, code, s.now())
		if !ok {
			return fail("invalid_code")
		}
		switch err := s.store.UseTOTPStep(ctx, m.UserID, step); {
		case errors.Is(err, domain.ErrConflict):
			return fail("replayed_code")
		case err != nil:
			return "", err
		}
		return MethodPasswordTOTP, nil
	}
	stored := ""
	for _, rc := range m.RecoveryCodes {
		if rc.UsedAt == nil && recoveryCodeMatches(rc.Hash, code) {
			stored = rc.Hash
			break
		}
	}
	if stored == "" {
		return fail("invalid_recovery_code")
	}
	switch err := s.store.UseRecoveryCode(ctx, m.UserID, stored, s.now().UTC()); {
	case errors.Is(err, domain.ErrNotFound):
		return fail("invalid_recovery_code")
	case err != nil:
		return "", err
	}
	left := m.RecoveryCodesLeft() - 1
	audit.Info(ctx, s.log, "auth.mfa.recovery_code_used", slog.String("userId", m.UserID), slog.Int("recoveryCodesLeft", left))
	return MethodRecoveryCode, nil
}

// matchTOTP finds the time step (the one before now, now's, or the one
// after) whose code is code.
func matchTOTP(secret, code string, now time.Time) (int64, bool) {
	code = normalizeCode(code)
	if !isDigits(code, 6) {
		return 0, false
	}
	for _, d := range []int64{0, -1, 1} {
		at := now.Add(time.Duration(d*totpPeriod) * time.Second)
		want, err := totp.GenerateCodeCustom(secret, at, totpOpts)
		if err != nil {
			return 0, false
		}
		if subtle.ConstantTimeCompare([]byte(want), []byte(code)) == 1 {
			return at.Unix() / totpPeriod, true
		}
	}
	return 0, false
}

// newRecoveryCodes returns codes to show ("xxxxx-xxxxx") and their
// hashes to store.
func newRecoveryCodes() ([]string, []domain.RecoveryCode, error) {
	codes := make([]string, recoveryCodes)
	hashes := make([]domain.RecoveryCode, recoveryCodes)
	buf := make([]byte, recoveryCodeLength)
	for i := range codes {
		if _, err := rand.Read(buf); err != nil {
			return nil, nil, err
		}
		var b strings.Builder
		for j, r := range buf {
			if j == recoveryCodeLength/2 {
				b.WriteByte('-')
			}
			// 256 is not a multiple of 31: the bias (under 1%) costs a
			// fraction of a bit of the ~49.
			b.WriteByte(recoveryAlphabet[int(r)%len(recoveryAlphabet)])
		}
		codes[i] = b.String()
		h, err := hashRecoveryCode(codes[i])
		if err != nil {
			return nil, nil, err
		}
		hashes[i] = domain.RecoveryCode{Hash: h}
	}
	return codes, hashes, nil
}

// normalizeCode drops spaces and dashes and lower-cases, so a code typed
// as shown, in capitals or without its dash is the same code.
func normalizeCode(code string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == ' ' || r == '-' || r == '\t':
			return -1
		case 'A' <= r && r <= 'Z':
			return r + 'a' - 'A'
		}
		return r
	}, strings.TrimSpace(code))
}

// A recovery code has about 49 bits, too few to store unsalted: one
// search of that space would find every stored code of every user at
// once. So each is stored as PBKDF2-HMAC-SHA256 with a salt of its own
// ("pbkdf2$ITER$SALT$KEY", hex): a search must be made per code, and each
// guess costs recoveryIterations. A sign-in checks at most the user's ten
// unused codes (a few milliseconds each), and recovery codes are rare.
const (
	recoveryHashPrefix = "pbkdf2$"
	recoveryIterations = 20000
)

func hashRecoveryCode(code string) (string, error) {
	salt := make([]byte, 16)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key, err := pbkdf2.Key(sha256.New, "recovery|"+normalizeCode(code), salt, recoveryIterations, 32)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s%d$%s$%s", recoveryHashPrefix, recoveryIterations, hex.EncodeToString(salt), hex.EncodeToString(key)), nil
}

// recoveryCodeMatches reports whether code is the one stored as h. Codes
// stored before salting (a bare SHA-256, "recovery|"+code) are still
// accepted: there is no code in clear to re-hash them with, and each is
// replaced by a salted one when the user gets new codes.
func recoveryCodeMatches(h, code string) bool {
	rest, salted := strings.CutPrefix(h, recoveryHashPrefix)
	if !salted {
		sum := sha256.Sum256([]byte("recovery|" + normalizeCode(code)))
		return subtle.ConstantTimeCompare([]byte(h), []byte(hex.EncodeToString(sum[:]))) == 1
	}
	parts := strings.Split(rest, "$")
	if len(parts) != 3 {
		return false
	}
	iter, err := strconv.Atoi(parts[0])
	if err != nil || iter < 1 || iter > 10*recoveryIterations {
		return false
	}
	salt, err1 := hex.DecodeString(parts[1])
	want, err2 := hex.DecodeString(parts[2])
	if err1 != nil || err2 != nil || len(want) == 0 {
		return false
	}
	got, err := pbkdf2.Key(sha256.New, "recovery|"+normalizeCode(code), salt, iter, len(want))
	return err == nil && subtle.ConstantTimeCompare(got, want) == 1
}

func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// cmpErr is err when set, else fallback.
func cmpErr(err, fallback error) error {
	if err != nil {
		return err
	}
	return fallback
}
