package httpapi

import (
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/testsupport/safebuf"
)

// Overload is answered 503 server_busy with Retry-After, and every 429 says
// when to come back; neither is a server error in the log.
func TestOverloadIsShedWithRetryAfter(t *testing.T) {
	t.Parallel()
	var logs safebuf.Buffer
	busy := func(c echo.Context) error {
		return &domain.BusyError{RetryAfter: 1500 * time.Millisecond, Cause: context.DeadlineExceeded}
	}
	tooMany := func(c echo.Context) error {
		return &domain.UserError{Kind: domain.ErrTooManyRequests, Code: "x", Message: "Espere."}
	}
	h, err := build(Deps{Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}, func(*api) []route {
		return []route{
			{method: http.MethodGet, path: "/api/ocupado", access: public, handler: busy},
			{method: http.MethodGet, path: "/api/espere", access: public, handler: tooMany},
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	res := httptest.NewRecorder()
	h.ServeHTTP(res, httptest.NewRequest(http.MethodGet, "/api/ocupado", nil))
	if res.Code != http.StatusServiceUnavailable || res.Header().Get("Retry-After") != "2" || !strings.Contains(res.Body.String(), `"code":"server_busy"`) ||
		!strings.Contains(res.Body.String(), `"retryAfterSeconds":2`) {
		t.Fatalf("busy = %d %v %s", res.Code, res.Header(), res.Body)
	}
	res = httptest.NewRecorder()
	h.ServeHTTP(res, httptest.NewRequest(http.MethodGet, "/api/espere", nil))
	if res.Code != http.StatusTooManyRequests || res.Header().Get("Retry-After") == "" {
		t.Fatalf("429 without Retry-After: %d %v", res.Code, res.Header())
	}
	if strings.Contains(logs.String(), "level=ERROR") {
		t.Fatalf("shed requests were logged as errors:\n%s", logs.String())
	}
}

// A client that hangs up while its request is served is not a server
// error: DEBUG, and 499 in the access log.
func TestClientHangUpIsNotAnError(t *testing.T) {
	t.Parallel()
	var logs safebuf.Buffer
	started, finished := make(chan struct{}), make(chan struct{})
	slow := func(c echo.Context) error {
		defer close(finished)
		close(started)
		<-c.Request().Context().Done()
		return c.Request().Context().Err()
	}
	h, err := build(Deps{Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))}, func(*api) []route {
		return []route{{method: http.MethodGet, path: "/api/lento", access: public, handler: slow}}
	})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/api/lento", nil)
	go func() {
		<-started
		cancel()
	}()
	if res, err := http.DefaultClient.Do(req); err == nil {
		res.Body.Close()
		t.Fatal("the request should have been cancelled")
	}
	select {
	case <-finished:
	case <-time.After(5 * time.Second):
		t.Fatal("the handler did not see the client go")
	}
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), "status=499") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := logs.String()
	if strings.Contains(got, "level=ERROR") || !strings.Contains(got, "client went away") || !strings.Contains(got, "status=499") {
		t.Fatalf("log:\n%s", got)
	}
}
