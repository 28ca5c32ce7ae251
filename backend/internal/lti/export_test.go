package lti

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/domain"
	"github.com/utpl/simulador/backend/internal/store"
)

// PutLoginState stores a login's state as Login does (for tests that need
// two logins sharing a nonce).
func PutLoginState(t *testing.T, s store.Store, state, platformID, nonce, target string, expires time.Time) {
	t.Helper()
	data, _ := json.Marshal(stateData{Platform: platformID, Nonce: nonce, Target: target})
	if err := s.PutLTIOnce(t.Context(), domain.LTIOnce{Kind: onceState, Key: hashKey(state), Data: string(data), ExpiresAt: expires}); err != nil {
		t.Fatal(err)
	}
}
