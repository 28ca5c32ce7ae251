package httpapi

import (
	"encoding/base64"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/domain"
)

// The account page (/auth/cuenta): password, sessions and, for tutors who
// sign in with a password, the second factor. Every endpoint acts on the
// caller's own account.

type mfaStatusDTO struct {
	Available         bool `json:"available"`
	Enabled           bool `json:"enabled"`
	RecoveryCodesLeft int  `json:"recoveryCodesLeft"`
}

type accountDTO struct {
	HasPassword bool         `json:"hasPassword"`
	MFA         mfaStatusDTO `json:"mfa"`
}

func (a *api) myAccount(c echo.Context) error {
	u, _ := currentUser(c)
	ctx := c.Request().Context()
	has, err := a.auth.HasPassword(ctx, u)
	if err != nil {
		return err
	}
	st, err := a.auth.MFAStatus(ctx, u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, accountDTO{HasPassword: has,
		MFA: mfaStatusDTO{Available: st.Available, Enabled: st.Enabled, RecoveryCodesLeft: st.RecoveryCodesLeft}})
}

type changePasswordRequest struct {
	CurrentPassword string `json:"currentPassword"`
	NewPassword     string `json:"newPassword"`
}

// passwordChangedDTO counts the account's other sessions the change ended.
type passwordChangedDTO struct {
	SessionsEnded int `json:"sessionsEnded"`
}

func (a *api) changePassword(c echo.Context) error {
	var req changePasswordRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	se, _ := currentSession(c)
	n, err := a.auth.ChangePassword(c.Request().Context(), u, req.CurrentPassword, req.NewPassword, se.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, passwordChangedDTO{SessionsEnded: n})
}

type sessionItemDTO struct {
	ID         string    `json:"id"`
	Browser    string    `json:"browser"`
	OS         string    `json:"os"`
	IP         string    `json:"ip"`
	CreatedAt  time.Time `json:"createdAt"`
	LastSeenAt time.Time `json:"lastSeenAt"`
	Current    bool      `json:"current"`
}

func (a *api) mySessions(c echo.Context) error {
	u, _ := currentUser(c)
	current, _ := currentSession(c)
	list, err := a.auth.UserSessions(c.Request().Context(), u)
	if err != nil {
		return err
	}
	out := make([]sessionItemDTO, 0, len(list))
	for _, se := range list {
		d := auth.DeviceOf(se.UserAgent)
		out = append(out, sessionItemDTO{ID: se.ID, Browser: d.Browser, OS: d.OS, IP: se.IP, CreatedAt: se.CreatedAt,
			LastSeenAt: se.LastSeenAt, Current: se.ID == current.ID})
	}
	return c.JSON(http.StatusOK, out)
}

func (a *api) endSession(c echo.Context) error {
	u, _ := currentUser(c)
	current, _ := currentSession(c)
	id := c.Param("id")
	if id == current.ID {
		return domain.Conflict("current_session", "Esta es la sesión que está usando: para cerrarla use «Cerrar Sesión».")
	}
	if err := a.auth.EndSession(c.Request().Context(), u, id); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

// sessionsEndedDTO counts the sessions ended.
type sessionsEndedDTO struct {
	Ended int `json:"ended"`
}

func (a *api) endOtherSessions(c echo.Context) error {
	u, _ := currentUser(c)
	current, _ := currentSession(c)
	n, err := a.auth.EndOtherSessions(c.Request().Context(), u, current.ID)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, sessionsEndedDTO{Ended: n})
}

type passwordRequest struct {
	Password string `json:"password"`
}

type totpSetupDTO struct {
	Secret string `json:"secret"`
	URI    string `json:"uri"`
	// QR is the otpauth URI as a PNG data URL (drawn on the server, so no
	// QR library is sent to the browser).
	QR string `json:"qr"`
}

func (a *api) startTOTP(c echo.Context) error {
	var req passwordRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	setup, err := a.auth.StartTOTP(c.Request().Context(), u, req.Password)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, totpSetupDTO{Secret: setup.Secret, URI: setup.URI,
		QR: "data:image/png;base64," + base64.StdEncoding.EncodeToString(setup.QRPNG)})
}

type codeRequest struct {
	Code     string `json:"code"`
	Password string `json:"password"`
}

// recoveryCodesDTO holds the one-time recovery codes, shown once.
type recoveryCodesDTO struct {
	RecoveryCodes []string `json:"recoveryCodes"`
}

func (a *api) confirmTOTP(c echo.Context) error {
	var req codeRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	codes, err := a.auth.ConfirmTOTP(c.Request().Context(), u, req.Code)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, recoveryCodesDTO{RecoveryCodes: codes})
}

func (a *api) disableTOTP(c echo.Context) error {
	var req codeRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	u, _ := currentUser(c)
	if err := a.auth.DisableTOTP(c.Request().Context(), u, req.Password, req.Code); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type passwordResetDTO struct {
	ExpiresAt time.Time `json:"expiresAt"`
	Emailed   bool      `json:"emailed"`
}

// issuePasswordReset e-mails a reset link to a student of the tutor's
// active group; the tutor never sees the link.
func (a *api) issuePasswordReset(c echo.Context) error {
	u, _ := currentUser(c)
	link, err := a.auth.IssueReset(c.Request().Context(), u, c.Param("id"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusCreated, passwordResetDTO{ExpiresAt: link.ExpiresAt, Emailed: link.Emailed})
}
