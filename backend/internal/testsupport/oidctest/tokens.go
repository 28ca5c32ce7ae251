package oidctest

import (
	"cmp"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/go-jose/go-jose/v4"
)

// User is who signs in.
type User struct {
	// Email is the email claim (an optional claim in Entra) and, unless
	// PreferredUsername is set, preferred_username too.
	Email             string `json:"email,omitempty"`
	PreferredUsername string `json:"preferredUsername,omitempty"`
	Name              string `json:"name,omitempty"`
	GivenName         string `json:"givenName,omitempty"`
	FamilyName        string `json:"familyName,omitempty"`
	// OID is the object id; default a stable GUID derived from the email,
	// so the same person signing in again is the same account.
	OID string `json:"oid,omitempty"`
	// UPN is the upn claim (an optional claim in Entra), when set.
	UPN string `json:"upn,omitempty"`
	// EmailVerified sets the optional claim xms_edov ("email domain owner
	// verified") to true: the tenant verifies the email claim's domain.
	EmailVerified bool `json:"emailVerified,omitempty"`
}

// SignIn is one sign-in: the user and the faults to put in the ID token.
// Its JSON form is what POST /_control/next accepts.
type SignIn struct {
	User User `json:"user"`

	// OtherTenant issues the token as another tenant (OtherTenantID): both
	// iss and tid name it, as Entra does for a user of another directory.
	OtherTenant bool `json:"otherTenant,omitempty"`
	// TenantClaim replaces only the tid claim (the issuer stays right).
	TenantClaim string `json:"tenantClaim,omitempty"`
	// Audience replaces aud (the client id).
	Audience string `json:"audience,omitempty"`
	// Expired dates the token two hours back: it expired an hour ago.
	Expired bool `json:"expired,omitempty"`
	// UnknownKey signs with a key that is not in the JWKS (same key id, so
	// only the signature is wrong).
	UnknownKey bool `json:"unknownKey,omitempty"`
	// NoEmail leaves out email and preferred_username.
	NoEmail bool `json:"noEmail,omitempty"`
	// Nonce is the nonce claim of a token minted with IDToken (empty: no
	// nonce claim). In the browser flow the authorize request's nonce is
	// used unless Nonce is set (MSAL itself then rejects the response).
	Nonce string `json:"nonce,omitempty"`

	// Interactive (browser flow only) shows a page with a "Continuar"
	// button instead of approving at once, so a test can close the popup.
	Interactive bool `json:"interactive,omitempty"`
	// Deny (browser flow only) answers error=access_denied, as when the
	// user cancels at Microsoft's page.
	Deny bool `json:"deny,omitempty"`
}

func (u User) oid() string {
	if u.OID != "" {
		return u.OID
	}
	return guidFrom("oid:" + strings.ToLower(u.Email+"|"+u.PreferredUsername))
}

// IDToken mints an ID token for the issuer's tenant and client, with s's
// user (a zero User means the default user) and faults.
func (i *Issuer) IDToken(s SignIn) (string, error) {
	s = i.withDefaultUser(s)
	return i.sign(s.UnknownKey, i.idTokenClaims(s, s.Nonce, i.opts.Now()))
}

func (i *Issuer) idTokenClaims(s SignIn, nonce string, now time.Time) map[string]any {
	tenant := i.opts.TenantID
	if s.OtherTenant {
		tenant = OtherTenantID
	}
	tid := tenant
	if s.TenantClaim != "" {
		tid = s.TenantClaim
	}
	aud := i.opts.ClientID
	if s.Audience != "" {
		aud = s.Audience
	}
	iat := now
	if s.Expired {
		iat = now.Add(-2 * time.Hour)
	}
	oid := s.User.oid()
	c := map[string]any{
		"ver": "2.0",
		"iss": i.issuer(tenant),
		"aud": aud,
		"sub": pairwiseSubject(oid, aud),
		"oid": oid,
		"tid": tid,
		"iat": iat.Unix(),
		"nbf": iat.Unix(),
		"exp": iat.Add(time.Hour).Unix(),
		"uti": randomString(16),
	}
	if s.User.Name != "" {
		c["name"] = s.User.Name
	}
	if s.User.GivenName != "" {
		c["given_name"] = s.User.GivenName
	}
	if s.User.FamilyName != "" {
		c["family_name"] = s.User.FamilyName
	}
	if !s.NoEmail {
		if s.User.Email != "" {
			c["email"] = s.User.Email
		}
		if pu := cmp.Or(s.User.PreferredUsername, s.User.Email); pu != "" {
			c["preferred_username"] = pu
		}
		if s.User.UPN != "" {
			c["upn"] = s.User.UPN
		}
	}
	if s.User.EmailVerified {
		c["xms_edov"] = true
	}
	if nonce != "" {
		c["nonce"] = nonce
	}
	return c
}

// accessToken is a Graph-shaped access token; the app never reads it.
func (i *Issuer) accessToken(s SignIn, scope string, now time.Time) (string, error) {
	oid := s.User.oid()
	return i.sign(false, map[string]any{
		"ver": "1.0", "iss": "https://sts.windows.net/" + i.opts.TenantID + "/", "aud": GraphAudience,
		"appid": i.opts.ClientID, "oid": oid, "tid": i.opts.TenantID, "sub": pairwiseSubject(oid, GraphAudience),
		"scp": scope, "iat": now.Unix(), "nbf": now.Unix(), "exp": now.Add(time.Hour).Unix(),
		"upn": cmp.Or(s.User.PreferredUsername, s.User.Email), "name": s.User.Name,
	})
}

func (i *Issuer) sign(foreign bool, claims map[string]any) (string, error) {
	key := i.key
	if foreign {
		key = i.foreign
	}
	signer, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.RS256, Key: jose.JSONWebKey{Key: key, KeyID: i.keyID}},
		(&jose.SignerOptions{}).WithType("JWT"))
	if err != nil {
		return "", err
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	jws, err := signer.Sign(payload)
	if err != nil {
		return "", err
	}
	return jws.CompactSerialize()
}

// jwks is the published key set (only the real key).
func (i *Issuer) jwks() jose.JSONWebKeySet {
	return jose.JSONWebKeySet{Keys: []jose.JSONWebKey{publicJWK(i.key, i.keyID)}}
}

func publicJWK(k *rsa.PrivateKey, kid string) jose.JSONWebKey {
	return jose.JSONWebKey{Key: &k.PublicKey, KeyID: kid, Algorithm: string(jose.RS256), Use: "sig"}
}

// clientInfo is Entra's client_info: base64url JSON of uid and utid.
func clientInfo(oid, tenant string) string {
	b, _ := json.Marshal(map[string]string{"uid": oid, "utid": tenant})
	return base64.RawURLEncoding.EncodeToString(b)
}

// pairwiseSubject mimics Entra's sub: stable per user and application.
func pairwiseSubject(oid, aud string) string {
	sum := sha256.Sum256([]byte(oid + "|" + aud))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:43]
}

func guidFrom(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	h := hex.EncodeToString(sum[:16])
	return fmt.Sprintf("%s-%s-4%s-8%s-%s", h[0:8], h[8:12], h[13:16], h[17:20], h[20:32])
}

func randomString(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic(err)
	}
	return base64.RawURLEncoding.EncodeToString(b)
}
