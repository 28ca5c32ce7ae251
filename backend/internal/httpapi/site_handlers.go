package httpapi

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/config"
)

// healthTimeout bounds the store check of /api/health, so a store that
// hangs is reported instead of holding the probe.
const healthTimeout = 5 * time.Second

// health tells a load balancer or uptime probe whether the server can
// serve: 200 when its store answers, 503 when not. Why not goes to the
// log only (it may name hosts or projects).
func (a *api) health(c echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), healthTimeout)
	defer cancel()
	if err := a.store.Ping(ctx); err != nil {
		a.log.Warn("health check: the store does not answer", "err", err)
		return c.JSON(http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "store": "unavailable"})
	}
	return c.JSON(http.StatusOK, map[string]string{"status": "ok", "store": "ok"})
}

type microsoftConfigDTO struct {
	Enabled          bool     `json:"enabled"`
	ClientID         string   `json:"clientId,omitempty"`
	Authority        string   `json:"authority,omitempty"`
	KnownAuthorities []string `json:"knownAuthorities,omitempty"`
	ProtocolMode     string   `json:"protocolMode,omitempty"`
	Scopes           []string `json:"scopes"`
}

type mailConfigDTO struct {
	// Enabled: reset links can be e-mailed to students.
	Enabled bool `json:"enabled"`
}

type publicConfigDTO struct {
	Site      config.Site        `json:"site"`
	Microsoft microsoftConfigDTO `json:"microsoft"`
	Mail      mailConfigDTO      `json:"mail"`
}

// publicConfig is what the browser needs before anyone signs in. It is also
// embedded in index.html so the first paint needs no request.
func (a *api) publicConfig() publicConfigDTO {
	ms := microsoftConfigDTO{Enabled: a.cfg.Microsoft.Enabled(), Scopes: []string{"user.read", "openid", "profile", "mail.send"}}
	if ms.Enabled {
		ms.ClientID = a.cfg.Microsoft.ClientID
		ms.Authority = a.cfg.Microsoft.Authority
		ms.ProtocolMode = "AAD"
		if u, err := url.Parse(ms.Authority); err == nil && u.Host != "login.microsoftonline.com" {
			// A non-Microsoft issuer (a sovereign cloud or a test issuer)
			// speaks plain OpenID Connect to MSAL.
			ms.ProtocolMode = "OIDC"
			ms.KnownAuthorities = []string{u.Host}
		}
	}
	return publicConfigDTO{Site: a.cfg.Site, Microsoft: ms, Mail: mailConfigDTO{Enabled: a.cfg.Mail.Enabled()}}
}

func (a *api) siteConfig(c echo.Context) error {
	return c.JSON(http.StatusOK, a.publicConfig())
}

func (a *api) listDegrees(c echo.Context) error {
	ds, err := a.catalog.Degrees(c.Request().Context())
	if err != nil {
		return err
	}
	out := make([]degreeDTO, 0, len(ds))
	for _, d := range ds {
		out = append(out, degreeDTO{ID: d.ID, Nombre: d.Nombre})
	}
	return c.JSON(http.StatusOK, out)
}

// testAccess and adminAccess let the frontend's guards ask the server, which
// owns the decision, before showing a section.
func (a *api) testAccess(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]bool{"allowed": true})
}

func (a *api) adminAccess(c echo.Context) error {
	return c.JSON(http.StatusOK, map[string]bool{"allowed": true})
}
