package httpapi_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/store"
)

// unreachableStore is a store whose server does not answer.
type unreachableStore struct{ store.Store }

func (unreachableStore) Ping(context.Context) error {
	return errors.New("dial tcp 10.20.30.40:5432: connect: connection refused (user=simulador password=s3cr3t)")
}

func TestHealthReportsTheStoreWithoutDetails(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	res := e.do(guest, http.MethodGet, "/api/health", nil)
	if res.Code != http.StatusOK || strings.TrimSpace(res.Body.String()) != `{"status":"ok","store":"ok"}` {
		t.Fatalf("health = %d %s", res.Code, res.Body)
	}

	useStore(t, e, func(s store.Store) store.Store { return unreachableStore{s} })
	res = e.do(guest, http.MethodGet, "/api/health", nil)
	if res.Code != http.StatusServiceUnavailable || strings.TrimSpace(res.Body.String()) != `{"status":"unavailable","store":"unavailable"}` {
		t.Fatalf("health with the store down = %d %s; want 503 and no detail", res.Code, res.Body)
	}
}
