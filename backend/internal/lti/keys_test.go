package lti_test

import (
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"

	"github.com/utpl/simulador/backend/internal/lti"
)

// kidOf is the key id in a signed JWT's header.
func kidOf(t *testing.T, token string) string {
	t.Helper()
	jws, err := jose.ParseSignedCompact(token, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		t.Fatal(err)
	}
	return jws.Signatures[0].Header.KeyID
}

func TestKeyRotationKeepsTheOldKeyPublishedForAnHour(t *testing.T) {
	f := newFixture(t, false)
	keys := f.svc.Keys()
	set, err := keys.JWKS(ctx)
	if err != nil || len(set.Keys) != 1 || !set.Keys[0].IsPublic() || set.Keys[0].Algorithm != "RS256" || set.Keys[0].Use != "sig" {
		t.Fatalf("initial key set = %+v, %v", set, err)
	}
	old := set.Keys[0].KeyID
	tok, err := keys.Sign(ctx, map[string]any{"iss": "x"})
	if err != nil || kidOf(t, tok) != old {
		t.Fatalf("signed with %q, want %q (%v)", kidOf(t, tok), old, err)
	}

	kid, err := keys.Rotate(ctx)
	if err != nil || kid == old {
		t.Fatalf("rotate = %q, %v", kid, err)
	}
	set, _ = keys.JWKS(ctx)
	if len(set.Keys) != 2 {
		t.Fatalf("after rotation the old key stays published: %+v", set)
	}
	if tok, _ := keys.Sign(ctx, map[string]any{"iss": "x"}); kidOf(t, tok) != kid {
		t.Fatalf("the new key signs")
	}
	// Every key's private half stays out of the published set.
	for _, k := range set.Keys {
		if !k.IsPublic() {
			t.Fatalf("a private key is published: %s", k.KeyID)
		}
	}
	// A process that still has the old keys cached picks up the rotation
	// within a minute; after an hour the retired key is no longer published.
	f.clock.Advance(lti.RetiredKeyGrace + 2*time.Minute)
	set, _ = keys.JWKS(ctx)
	if len(set.Keys) != 1 || set.Keys[0].KeyID != kid {
		t.Fatalf("an hour after the rotation = %+v", set)
	}
}
