package httpapi

import (
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/auth"
	"github.com/utpl/simulador/backend/internal/domain"
)

// session answers "who am I and where may I go"; a guest gets user null
// (200, so that a guest's page load logs no failed request).
func (a *api) session(c echo.Context) error {
	u, ok := currentUser(c)
	if !ok {
		return c.JSON(http.StatusOK, sessionDTO{})
	}
	dto, err := a.sessionFor(c, u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dto)
}

func (a *api) sessionFor(c echo.Context, u domain.User) (sessionDTO, error) {
	test, err := a.groups.CanEnterTest(c.Request().Context(), u)
	if err != nil {
		return sessionDTO{}, err
	}
	return sessionDTO{User: toUserDTO(u), Access: accessDTO{Test: test, Admin: u.IsTutor()}}, nil
}

type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
	// Device is the device token this browser was given at an earlier
	// sign-in of the account (auth/known_device.go), if any. It travels in
	// the body, not in a cookie, because behind Firebase Hosting only one
	// cookie reaches the server.
	Device string `json:"device,omitempty"`
}

// loginResponse is the session after a sign-in, or, when the password
// was right and a code is still needed, a guest's session with
// mfaRequired (the pending sign-in is on the server; an HttpOnly cookie
// names it).
type loginResponse struct {
	sessionDTO
	MFARequired bool `json:"mfaRequired,omitempty"`
	// Device is a new device token for this account: the browser keeps it
	// and sends it with its next sign-ins of the account.
	Device string `json:"device,omitempty"`
}

func (a *api) login(c echo.Context) error {
	var req loginRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	ctx := c.Request().Context()
	u, err := a.auth.LoginPasswordFrom(ctx, req.Email, req.Password, auth.SignInClient{IP: c.RealIP(), Device: req.Device})
	if err != nil {
		return err
	}
	device, err := a.auth.RememberDevice(ctx, req.Email, req.Device)
	if err != nil {
		return err
	}
	need, err := a.auth.SecondFactorRequired(ctx, u)
	if err != nil {
		return err
	}
	if need {
		token, err := a.auth.BeginSecondFactor(ctx, u)
		if err != nil {
			return err
		}
		if err := a.setPendingSignIn(c, token, auth.MFALoginLifetime); err != nil {
			return err
		}
		return c.JSON(http.StatusOK, loginResponse{sessionDTO: sessionDTO{}, MFARequired: true, Device: device})
	}
	if err := a.startSession(c, u, auth.MethodPassword); err != nil {
		return err
	}
	dto, err := a.sessionFor(c, u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, loginResponse{sessionDTO: dto, Device: device})
}

type loginCodeRequest struct {
	Code string `json:"code"`
}

// loginCode is the second step of a sign-in whose password was right: a
// code from the authenticator app, or a recovery code.
func (a *api) loginCode(c echo.Context) error {
	var req loginCodeRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	pending := a.pendingSignIn(c)
	u, method, err := a.auth.FinishSecondFactor(c.Request().Context(), pending, req.Code)
	if err != nil {
		var ue *domain.UserError
		// Behind Hosting the cookie is the session's too: clear it only
		// when it held the pending sign-in, never a live session.
		if errors.As(err, &ue) && ue.Code == "mfa_expired" && pending != "" {
			a.clearCookie(c, a.mfaCookie(), "/")
		}
		return err
	}
	a.clearCookie(c, a.mfaCookie(), "/")
	if err := a.startSession(c, u, method); err != nil {
		return err
	}
	dto, err := a.sessionFor(c, u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, loginResponse{sessionDTO: dto})
}

func (a *api) logout(c echo.Context) error {
	if token := a.presentedSession(c); token != "" {
		if err := a.auth.SignOut(c.Request().Context(), token); err != nil {
			return err
		}
	}
	a.clearCookie(c, a.sessionCookie(), "/")
	return c.NoContent(http.StatusNoContent)
}

type passwordResetRequest struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// usePasswordReset sets a new password with a reset link's token. The
// token comes in the body: the link carries it in its fragment, which
// the browser never sends in a URL.
func (a *api) usePasswordReset(c echo.Context) error {
	var req passwordResetRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	if err := a.auth.UseReset(c.Request().Context(), req.Token, req.Password, c.RealIP()); err != nil {
		return err
	}
	return c.NoContent(http.StatusNoContent)
}

type microsoftStartResponse struct {
	Nonce string `json:"nonce"`
}

// microsoftStart issues the nonce the popup must carry into the ID token. It
// is bound to this browser by an HttpOnly cookie and used once.
func (a *api) microsoftStart(c echo.Context) error {
	nonce, err := a.auth.NewMicrosoftNonce(c.Request().Context())
	if err != nil {
		return err
	}
	if a.cfg.FirebaseHosting {
		// The nonce takes the session cookie's place: the session it
		// held ends now rather than live on with no browser (S3-17).
		if old := a.presentedSession(c); old != "" {
			if err := a.auth.Sessions().Revoke(c.Request().Context(), old); err != nil {
				return err
			}
		}
		// In the one cookie Hosting forwards, at its path: a signed-in
		// browser starting another sign-in gives up its session cookie.
		c.SetCookie(&http.Cookie{Name: firebaseCookie, Value: nonceMark + nonce, Path: "/", HttpOnly: true,
			SameSite: http.SameSiteStrictMode, Secure: a.secureCookies(), MaxAge: 600})
		return c.JSON(http.StatusOK, microsoftStartResponse{Nonce: nonce})
	}
	c.SetCookie(&http.Cookie{Name: a.nonceCookie(), Value: nonce, Path: "/api/auth/microsoft", HttpOnly: true,
		SameSite: http.SameSiteStrictMode, Secure: a.secureCookies(), MaxAge: 600})
	return c.JSON(http.StatusOK, microsoftStartResponse{Nonce: nonce})
}

type microsoftLoginRequest struct {
	IDToken string `json:"idToken"`
}

type microsoftLoginResponse struct {
	sessionDTO
	Created bool `json:"created"`
}

func (a *api) microsoftLogin(c echo.Context) error {
	var req microsoftLoginRequest
	if err := c.Bind(&req); err != nil {
		return err
	}
	nonce := ""
	if ck, err := c.Cookie(a.nonceCookie()); err == nil {
		nonce = ck.Value
	}
	if a.cfg.FirebaseHosting {
		// The nonce is in the session cookie; a session's token is no nonce.
		var marked bool
		if nonce, marked = strings.CutPrefix(nonce, nonceMark); !marked {
			nonce = ""
		}
		a.clearCookie(c, firebaseCookie, "/") // replaced by the session on success
	} else {
		a.clearCookie(c, a.nonceCookie(), "/api/auth/microsoft")
	}
	u, created, err := a.auth.LoginMicrosoft(c.Request().Context(), req.IDToken, nonce)
	if err != nil {
		return err
	}
	if err := a.startSession(c, u, auth.MethodMicrosoft); err != nil {
		return err
	}
	dto, err := a.sessionFor(c, u)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, microsoftLoginResponse{sessionDTO: dto, Created: created})
}
