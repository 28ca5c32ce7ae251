package auth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/mail"
	"github.com/utpl/simulador/backend/internal/store"
)

// A tutor resets a student's password by issuing a link that works once,
// for an hour. The token travels in the link's fragment
// (/login#restablecer=TOKEN): browsers never send a fragment to the
// server, so it stays out of access logs, proxies and Referer headers.
// Only its SHA-256 is stored.

// ResetLifetime is how long a reset link works.
const ResetLifetime = time.Hour

// ResetPath is the page a reset link opens, before the token.
const ResetPath = "/login#restablecer="

// ResetLink is an issued reset: it went to the student's address, and
// nobody else sees the token (not the tutor who asked for it).
type ResetLink struct {
	ExpiresAt time.Time
	Emailed   bool
}

var errStudentNotFound = domain.NotFound("student_not_found", "El estudiante no existe o no está en su grupo activo.")

// IssueReset e-mails a reset link to a student of the tutor's active
// group; any other user is not found (their existence is not revealed).
// The link goes only to the student's own address: a tutor who could read
// it could choose the student's password and sign in as them. A student
// without a local password (Microsoft only) gets none this way. A new link
// replaces the student's earlier ones.
func (s *Service) IssueReset(ctx context.Context, tutor domain.User, studentID string) (ResetLink, error) {
	student, err := s.store.GetUser(ctx, studentID)
	if errors.Is(err, domain.ErrNotFound) {
		return ResetLink{}, errStudentNotFound
	}
	if err != nil {
		return ResetLink{}, err
	}
	group, err := s.store.ActiveGroupByTutor(ctx, tutor.Mail)
	switch {
	case errors.Is(err, domain.ErrNotFound):
		return ResetLink{}, domain.Hide(errStudentNotFound)
	case err != nil:
		return ResetLink{}, err
	}
	if student.Role != domain.RoleStudent || !group.HasStudent(student.Mail) {
		return ResetLink{}, domain.Hide(errStudentNotFound)
	}
	if s.mailer == nil {
		return ResetLink{}, domain.Conflict("mail_not_configured",
			"El envío de correos no está configurado en este servidor, y el enlace solo puede enviarse al correo del estudiante. Pida al administrador que restablezca la contraseña.")
	}
	if stored, err := s.store.PasswordHash(ctx, student.ID); err != nil {
		return ResetLink{}, err
	} else if stored == "" {
		return ResetLink{}, domain.Conflict("no_local_password",
			"Este estudiante ingresa con su cuenta institucional (Microsoft) y no tiene una contraseña del simulador que restablecer.")
	} else if IsDisabledCredential(stored) {
		// An account the earlier app had disabled stays disabled: a new
		// password would quietly open it again.
		return ResetLink{}, domain.Conflict("account_disabled",
			"La cuenta de este estudiante está deshabilitada y no puede restablecerse desde aquí. Pida al administrador que la revise.")
	}
	if err := s.check(ctx, limitResetIssue, tutor.ID); err != nil {
		return ResetLink{}, err
	}
	if err := s.check(ctx, limitResetIssueStudent, student.ID); err != nil {
		return ResetLink{}, err
	}
	token, err := randomToken(32)
	if err != nil {
		return ResetLink{}, err
	}
	now := s.now().UTC()
	t := domain.OneTimeToken{Hash: hashToken(token), Kind: domain.TokenPasswordReset, UserID: student.ID, IssuedBy: tutor.ID,
		CreatedAt: now, ExpiresAt: now.Add(ResetLifetime)}
	err = s.store.InTx(ctx, func(tx store.Store) error {
		if err := tx.DeleteUserTokens(ctx, student.ID, domain.TokenPasswordReset); err != nil {
			return err
		}
		return tx.CreateToken(ctx, t)
	})
	if err != nil {
		return ResetLink{}, err
	}
	if err := s.mailer.Send(ctx, resetMessage(student, tutor, s.publicURL+ResetPath+token)); err != nil {
		// Nobody has this token: drop it.
		_ = s.store.DeleteUserTokens(context.WithoutCancel(ctx), student.ID, domain.TokenPasswordReset)
		// The SMTP server's reply often quotes the recipient's address:
		// only its code is logged.
		s.log.Warn("reset link not sent", "targetUserId", student.ID, "smtpCode", mail.ReplyCode(err))
		return ResetLink{}, &domain.UserError{Kind: domain.ErrUnavailable, Code: "mail_failed",
			Message: "No se pudo enviar el correo. Intente de nuevo más tarde."}
	}
	audit.Info(ctx, s.log, "auth.password.reset_issued", slog.String("targetUserId", student.ID), slog.String("delivery", "email"))
	return ResetLink{ExpiresAt: t.ExpiresAt, Emailed: true}, nil
}

func resetMessage(student, tutor domain.User, link string) mail.Message {
	name := student.GivenName
	if name == "" {
		name = student.DisplayName
	}
	greeting := "Hola:"
	if name != "" {
		greeting = fmt.Sprintf("Hola, %s:", name)
	}
	by := "Su tutor(a)"
	if tutor.DisplayName != "" {
		by = fmt.Sprintf("Su tutor(a), %s,", tutor.DisplayName)
	}
	return mail.Message{
		To:      student.Mail,
		Subject: "Restablezca su contraseña del Simulador del Examen Complexivo",
		Text: greeting + "\n\n" + by + " generó un enlace para que usted elija una nueva contraseña en el " +
			"Simulador del Examen Complexivo Oral.\n\n" +
			"Abra este enlace; vale durante una hora y sirve una sola vez:\n\n" + link + "\n\n" +
			"Al guardar la nueva contraseña se cerrarán las sesiones abiertas con la anterior.\n\n" +
			"Si usted no pidió este cambio, ignore este mensaje: su contraseña actual sigue funcionando.\n",
	}
}

// Reset link problems, as the student reads them.
var (
	errResetInvalid = domain.Invalid("reset_link_invalid", "El enlace para restablecer la contraseña no es válido. Pida a su tutor uno nuevo.")
	errResetExpired = domain.Invalid("reset_link_expired", "El enlace para restablecer la contraseña venció. Pida a su tutor uno nuevo.")
	errResetUsed    = domain.Invalid("reset_link_used", "Este enlace ya se usó. Si necesita otro, pídalo a su tutor.")
)

// UseReset sets the password of the link's student, once: every session
// of the student ends. A password the rules refuse leaves the link
// usable. ip is the client's address (attempts are limited per address).
func (s *Service) UseReset(ctx context.Context, token, password, ip string) error {
	fail := func(err error, reason, userID string) error {
		audit.Info(ctx, s.log, "auth.password.reset_failure", slog.String("reason", reason), slog.String("targetUserId", userID))
		// Only failures count against the address: a junk token sent
		// from a shared address must not block a real link used there
		// (a token is 256 random bits, so guessing is not the concern;
		// the count bounds the work a caller makes the store do).
		if limited := s.check(ctx, limitResetUse, ip); limited != nil {
			return limited
		}
		return err
	}
	if token == "" || len(token) > 128 {
		return fail(errResetInvalid, "invalid", "")
	}
	t, err := s.store.GetToken(ctx, hashToken(token))
	switch {
	case errors.Is(err, domain.ErrNotFound) || (err == nil && t.Kind != domain.TokenPasswordReset):
		return fail(errResetInvalid, "invalid", "")
	case err != nil:
		return err
	case t.UsedAt != nil:
		return fail(errResetUsed, "used", t.UserID)
	case !s.now().Before(t.ExpiresAt):
		return fail(errResetExpired, "expired", t.UserID)
	}
	u, err := s.store.GetUser(ctx, t.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return fail(errResetInvalid, "invalid", t.UserID)
	}
	if err != nil {
		return err
	}
	if password == "" {
		return domain.Invalid("missing_password", "Escriba la nueva contraseña.")
	}
	if err := CheckNewPassword(password, u.Mail); err != nil {
		return err
	}
	release, err := s.hashingSlot(ctx)
	if err != nil {
		return err
	}
	hash, err := HashPassword(password)
	release()
	if err != nil {
		return err
	}
	revoked := false
	err = s.store.InTx(ctx, func(tx store.Store) error {
		revoked = false // fn may run again (see store.Store.InTx)
		// What made the link right when it was issued must still hold:
		// a student of the issuing tutor's active group, with a local
		// password; a link outlives none of that.
		if ok, err := resetStillAllowed(ctx, tx, t); err != nil || !ok {
			revoked = !ok
			return err
		}
		// The link is used in the transaction that sets the password: of
		// two racing uses, one commits and the other finds it used.
		if err := tx.UseToken(ctx, t.Hash, s.now().UTC()); err != nil {
			return err
		}
		if err := tx.SetPasswordHash(ctx, u.ID, hash); err != nil {
			return err
		}
		if err := tx.DeleteUserTokens(ctx, u.ID, domain.TokenMFALogin); err != nil {
			return err
		}
		return tx.DeleteUserSessions(ctx, u.ID)
	})
	s.sessions.forgetUser(u.ID)
	switch {
	case errors.Is(err, domain.ErrConflict):
		return fail(errResetUsed, "used", u.ID)
	case err != nil:
		return err
	case revoked:
		return fail(errResetInvalid, "revoked", u.ID)
	}
	audit.Info(ctx, s.log, "auth.password.reset_used", slog.String("targetUserId", u.ID), slog.String("issuedBy", t.IssuedBy),
		slog.String("sessionsEnded", "all"))
	if s.mailer != nil {
		// The student hears of the change at their own address, so a
		// change they did not make does not go unnoticed.
		if err := s.mailer.Send(context.WithoutCancel(ctx), resetUsedMessage(u)); err != nil {
			s.log.Warn("reset notice not sent", "targetUserId", u.ID, "smtpCode", mail.ReplyCode(err))
		}
	}
	return nil
}

// resetStillAllowed checks, at use, what IssueReset checked: the user is a
// student with a local password (not a disabled account's), the issuer is a tutor, and the student is
// in that tutor's active group.
func resetStillAllowed(ctx context.Context, tx store.Store, t domain.OneTimeToken) (bool, error) {
	student, err := tx.GetUser(ctx, t.UserID)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	tutor, err := tx.GetUser(ctx, t.IssuedBy)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	if student.Role != domain.RoleStudent || !tutor.IsTutor() {
		return false, nil
	}
	if stored, err := tx.PasswordHash(ctx, student.ID); err != nil || stored == "" || IsDisabledCredential(stored) {
		return false, err
	}
	group, err := tx.ActiveGroupByTutor(ctx, tutor.Mail)
	if errors.Is(err, domain.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, err
	}
	return group.HasStudent(student.Mail), nil
}

func resetUsedMessage(u domain.User) mail.Message {
	greeting := "Hola:"
	if name := cmp.Or(u.GivenName, u.DisplayName); name != "" {
		greeting = fmt.Sprintf("Hola, %s:", name)
	}
	return mail.Message{
		To:      u.Mail,
		Subject: "Su contraseña del Simulador del Examen Complexivo cambió",
		Text: greeting + "\n\nSe eligió una nueva contraseña para su cuenta del Simulador del Examen Complexivo Oral " +
			"con un enlace de restablecimiento, y se cerraron sus sesiones abiertas.\n\n" +
			"Si no fue usted, avise a su tutor(a) de inmediato.\n",
	}
}
