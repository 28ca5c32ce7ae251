package auth

import (
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

// ResetLink is an issued reset: the token when the tutor is to pass the
// link on, or only the fact that it was e-mailed.
type ResetLink struct {
	Token     string // "" when e-mailed
	ExpiresAt time.Time
	Emailed   bool
}

var errStudentNotFound = domain.NotFound("student_not_found", "El estudiante no existe o no está en su grupo activo.")

// IssueReset issues a reset link for a student of the tutor's active
// group; any other user is not found (their existence is not revealed).
// With byEmail the link goes to the student's address and is not
// returned. A new link replaces the student's earlier ones.
func (s *Service) IssueReset(ctx context.Context, tutor domain.User, studentID string, byEmail bool) (ResetLink, error) {
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
	if byEmail && s.mailer == nil {
		return ResetLink{}, domain.Conflict("mail_not_configured",
			"El envío de correos no está configurado en este servidor. Copie el enlace y entrégueselo al estudiante.")
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
	delivery := "link"
	if byEmail {
		delivery = "email"
		if err := s.mailer.Send(ctx, resetMessage(student, tutor, s.publicURL+ResetPath+token)); err != nil {
			// Nobody has this token: drop it.
			_ = s.store.DeleteUserTokens(context.WithoutCancel(ctx), student.ID, domain.TokenPasswordReset)
			s.log.Warn("reset link not sent", "targetUserId", student.ID, "err", err)
			return ResetLink{}, &domain.UserError{Kind: domain.ErrUnavailable, Code: "mail_failed",
				Message: "No se pudo enviar el correo. Intente de nuevo o copie el enlace y entrégueselo al estudiante."}
		}
		token = ""
	}
	audit.Info(ctx, s.log, "auth.password.reset_issued", slog.String("targetUserId", student.ID), slog.String("delivery", delivery))
	return ResetLink{Token: token, ExpiresAt: t.ExpiresAt, Emailed: byEmail}, nil
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
	if err := s.check(ctx, limitResetUse, ip); err != nil {
		return err
	}
	fail := func(err error, reason, userID string) error {
		audit.Info(ctx, s.log, "auth.password.reset_failure", slog.String("reason", reason), slog.String("targetUserId", userID))
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
	err = s.store.InTx(ctx, func(tx store.Store) error {
		// The link is used in the transaction that sets the password: of
		// two racing uses, one commits and the other finds it used.
		if err := tx.UseToken(ctx, t.Hash, s.now().UTC()); err != nil {
			return err
		}
		if err := tx.SetPasswordHash(ctx, u.ID, hash); err != nil {
			return err
		}
		return tx.DeleteUserSessions(ctx, u.ID)
	})
	s.sessions.forgetUser(u.ID)
	if errors.Is(err, domain.ErrConflict) {
		return fail(errResetUsed, "used", u.ID)
	}
	if err != nil {
		return err
	}
	audit.Info(ctx, s.log, "auth.password.reset_used", slog.String("targetUserId", u.ID), slog.String("issuedBy", t.IssuedBy),
		slog.String("sessionsEnded", "all"))
	return nil
}
