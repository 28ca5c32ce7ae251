package httpapi

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/audit"
	"github.com/utpl/simulador/backend/internal/domain"
)

// statusClientClosed is logged for a request whose client hung up before
// the answer (nginx's 499); no client ever reads it.
const statusClientClosed = 499

// clientGone reports whether err comes from the request's context ending
// because the client closed the connection.
func clientGone(c echo.Context, err error) bool {
	return errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil
}

// ctxTooLarge holds a route's own message for an oversized body.
const ctxTooLarge = "tooLargeMessage"

const ctxErrorHandled = "errorHandled"

// errorBody is the JSON shape of every error response.
type errorBody struct {
	Error errorPayload `json:"error"`
}

type errorPayload struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details any    `json:"details,omitempty"`
}

// handleError is Echo's single error handler: domain errors become status
// codes with safe Spanish messages; anything unknown is logged and hidden
// behind a 500.
func (a *api) handleError(err error, c echo.Context) {
	// The request logger (HandleError) answers the error first and passes it
	// on, so the same error arrives here again once it reaches Echo: only
	// the first call answers, and only a response that was already under way
	// before any error was answered is worth a warning.
	if c.Get(ctxErrorHandled) != nil {
		return
	}
	c.Set(ctxErrorHandled, true)
	if clientGone(c, err) {
		// The client hung up (a closed tab, a lost connection): nobody
		// reads the answer and nothing failed here. The access log shows
		// 499, as nginx names it.
		a.log.Debug("client went away", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
		if !c.Response().Committed {
			c.Response().WriteHeader(statusClientClosed)
		}
		return
	}
	if c.Response().Committed {
		a.log.Warn("error after response started", "path", c.Path(), "err", err)
		return
	}
	status, body := a.classify(err)
	if msg, ok := c.Get(ctxTooLarge).(string); ok && status == http.StatusRequestEntityTooLarge {
		body.Error.Message = msg
	}
	// A request refused before its body was read (an upload to a closed
	// recording, say) is answered at once and its connection closed: Go's
	// server would otherwise first read up to 256 KB of the unwanted body,
	// as slowly as the client sends it.
	if req := c.Request(); req.ProtoMajor == 1 && req.ContentLength != 0 {
		if b, ok := c.Get(ctxBody).(*requestBody); !ok || b.unread(req) {
			c.Response().Header().Set("Connection", "close")
		}
	}
	switch {
	case status == http.StatusServiceUnavailable:
		// Shed load: the client retries after Retry-After.
		a.log.Debug("request shed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	case status >= 500:
		a.log.Error("request failed", "method", c.Request().Method, "path", c.Request().URL.Path, "err", err)
	default:
		a.log.Debug("request refused", "path", c.Request().URL.Path, "status", status, "err", err)
	}
	if reason := denial(c, err, status); reason != "" {
		audit.Warn(c.Request().Context(), a.log, "authz.denied", slog.String("reason", reason), slog.Int("status", status),
			slog.String("method", c.Request().Method), slog.String("route", c.Path()), slog.String("code", body.Error.Code))
	}
	if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
		// Every refusal that asks the client to come back says when.
		wait := 5
		if d, ok := body.Error.Details.(map[string]int); ok && d["retryAfterSeconds"] > 0 {
			wait = d["retryAfterSeconds"]
		}
		c.Response().Header().Set("Retry-After", strconv.Itoa(wait))
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	_ = c.JSON(status, body)
}

// denial says why a refusal is an authorization denial worth an event,
// or "" when it is not one:
//   - forbidden: a signed-in user asked for something their role or state
//     does not allow (403), sign-in refusals aside, which log their own
//     events;
//   - hidden: a 404 given for something that exists but is another
//     user's (another tutor's group, another student's attempt).
//
// A 401 (no session, or one that expired) names nobody and is left to the
// request line: an expired session is not an attack.
func denial(c echo.Context, err error, status int) string {
	switch {
	case status == http.StatusForbidden && !strings.HasPrefix(c.Path(), "/api/auth/"):
		return "forbidden"
	case status == http.StatusNotFound && errors.Is(err, domain.ErrHidden):
		return "hidden"
	}
	return ""
}

// event logs a security event of the request.
func (a *api) event(c echo.Context, name string, attrs ...slog.Attr) {
	audit.Info(c.Request().Context(), a.log, name, attrs...)
}

func (a *api) classify(err error) (int, errorBody) {
	if status, body, ok := classifyBodyError(err); ok {
		return status, body
	}
	var ue *domain.UserError
	if errors.As(err, &ue) {
		return statusOf(ue.Kind, http.StatusBadRequest), errorBody{errorPayload{Code: ue.Code, Message: ue.Message, Details: ue.Details}}
	}
	var he *echo.HTTPError
	if errors.As(err, &he) {
		switch he.Code {
		case http.StatusRequestEntityTooLarge:
			return he.Code, errorBody{errorPayload{Code: "too_large", Message: "Los datos enviados superan el tamaño permitido."}}
		case http.StatusNotFound:
			return he.Code, errorBody{errorPayload{Code: "not_found", Message: "No encontrado."}}
		case http.StatusMethodNotAllowed:
			return he.Code, errorBody{errorPayload{Code: "method_not_allowed", Message: "Método no permitido."}}
		case http.StatusBadRequest, http.StatusUnsupportedMediaType:
			return he.Code, errorBody{errorPayload{Code: "bad_request", Message: "La solicitud no es válida."}}
		}
		if he.Code < 500 {
			return he.Code, errorBody{errorPayload{Code: "error", Message: http.StatusText(he.Code)}}
		}
	}
	var busy *domain.BusyError
	if errors.As(err, &busy) || errors.Is(err, domain.ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) {
		wait := 2
		if busy != nil && busy.RetryAfter > 0 {
			wait = int((busy.RetryAfter + time.Second - 1) / time.Second)
		}
		return http.StatusServiceUnavailable, errorBody{errorPayload{Code: "server_busy",
			Message: "El servidor está ocupado. Intente de nuevo en unos segundos.", Details: map[string]int{"retryAfterSeconds": wait}}}
	}
	if status := statusOf(err, 0); status != 0 {
		return status, errorBody{errorPayload{Code: codeOf(status), Message: messageOf(status)}}
	}
	return http.StatusInternalServerError, errorBody{errorPayload{Code: "internal", Message: "Ocurrió un error inesperado. Intente de nuevo."}}
}

func statusOf(err error, fallback int) int {
	switch {
	case err == nil:
		return fallback
	case errors.Is(err, domain.ErrNotFound):
		return http.StatusNotFound
	case errors.Is(err, domain.ErrUnauthenticated):
		return http.StatusUnauthorized
	case errors.Is(err, domain.ErrForbidden):
		return http.StatusForbidden
	case errors.Is(err, domain.ErrConflict):
		return http.StatusConflict
	case errors.Is(err, domain.ErrTooManyRequests):
		return http.StatusTooManyRequests
	case errors.Is(err, domain.ErrTooLarge):
		return http.StatusRequestEntityTooLarge
	case errors.Is(err, domain.ErrUnavailable):
		return http.StatusServiceUnavailable
	}
	return fallback
}

func codeOf(status int) string {
	switch status {
	case http.StatusNotFound:
		return "not_found"
	case http.StatusUnauthorized:
		return "unauthenticated"
	case http.StatusForbidden:
		return "forbidden"
	case http.StatusConflict:
		return "conflict"
	case http.StatusTooManyRequests:
		return "too_many_requests"
	}
	return "error"
}

func messageOf(status int) string {
	switch status {
	case http.StatusNotFound:
		return "No encontrado."
	case http.StatusUnauthorized:
		return "Debe iniciar sesión."
	case http.StatusForbidden:
		return "No tiene permiso para esta acción."
	case http.StatusConflict:
		return "La operación entra en conflicto con el estado actual."
	case http.StatusTooManyRequests:
		return "Demasiadas solicitudes. Intente más tarde."
	}
	return "Error."
}

// classifyBodyError answers a failure to read the request body as the
// client's: 413 when it passed the route's limit (with or without a
// Content-Length), 408 when it came slower than the server's read timeout,
// 400 when it was cut off. None of them is a server error.
func classifyBodyError(err error) (int, errorBody, bool) {
	var be *bodyError
	if !errors.As(err, &be) {
		return 0, errorBody{}, false
	}
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooBig):
		return http.StatusRequestEntityTooLarge, errorBody{errorPayload{Code: "too_large", Message: "Los datos enviados superan el tamaño permitido."}}, true
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return http.StatusRequestTimeout, errorBody{errorPayload{Code: "request_timeout",
			Message: "Los datos tardaron demasiado en llegar. Revise su conexión e intente de nuevo."}}, true
	}
	return http.StatusBadRequest, errorBody{errorPayload{Code: "incomplete_body", Message: "Los datos enviados llegaron incompletos. Intente de nuevo."}}, true
}
