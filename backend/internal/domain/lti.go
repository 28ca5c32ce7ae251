package domain

import (
	"crypto/sha256"
	"encoding/base32"
	"strings"
	"time"
)

// LTIPlatform is a learning platform (an LMS such as Canvas or Moodle)
// registered to launch the simulator with LTI 1.3: its issuer, the client
// id it gave this tool, and its endpoints (docs/lti.md).
type LTIPlatform struct {
	ID            string // LTIPlatformID(Issuer, ClientID)
	Issuer        string
	ClientID      string
	DeploymentIDs []string // the installations whose launches are accepted
	AuthURL       string   // OIDC authorization endpoint (login redirect)
	TokenURL      string   // OAuth 2 token endpoint (client credentials)
	JWKSURL       string   // the platform's public keys
	// FrameOrigins are the origins allowed to frame the tool's launch
	// pages besides those of the URLs above (Canvas shows tools under the
	// institution's own domain, e.g. https://utpl.instructure.com).
	FrameOrigins []string
	// AllowTutors lets a launch with an instructor or teaching assistant
	// role sign in as (or create) a tutor; without it such launches are
	// refused.
	AllowTutors bool
	CreatedAt   time.Time
}

// LTIPlatformID is the id of the registration of clientID at issuer. It is
// derived from both, so registering the same pair again (after removing
// it) finds the courses and links made under the first registration.
func LTIPlatformID(issuer, clientID string) string {
	return hashID("platform", issuer, clientID)
}

// LTICourseID is the id of a platform's course (an LTI context).
func LTICourseID(platformID, contextID string) string {
	return hashID("course", platformID, contextID)
}

// hashID is a stable 26-character id for a tuple of strings.
func hashID(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(sum[:])[:26]
}

// LTIKey is one of the tool's signing keys: an RSA private key in PKCS #8
// PEM. The newest key that is not retired signs; a retired key is still
// published until the tokens it signed have expired.
type LTIKey struct {
	ID            string // the JWK "kid"
	PrivateKeyPEM string
	CreatedAt     time.Time
	RetiredAt     *time.Time
}

// LTIOnce is a short-lived, single-use record: the state of a login in
// progress, a nonce already used, a sign-in code handed to a new tab.
// Key is a hash of the secret, never the secret itself.
type LTIOnce struct {
	Kind      string
	Key       string
	Data      string
	ExpiresAt time.Time
}

// LTICourse is a course (an LTI context) the simulator was launched from,
// with the service endpoints its last launch announced.
type LTICourse struct {
	ID             string // LTICourseID(PlatformID, ContextID)
	PlatformID     string
	DeploymentID   string
	ContextID      string
	Title          string
	Label          string
	MembershipsURL string   // Names and Role Provisioning Services; "" when not offered
	LineItemsURL   string   // Assignment and Grade Services; "" when not offered
	ServiceScopes  []string // the AGS scopes the platform granted
	Degree         string   // the custom parameter "carrera", when the course sets one
	UpdatedAt      time.Time
	// LaunchedAt is when the tutor last launched from the course (set by
	// ListLTICoursesOfTutor only).
	LaunchedAt time.Time
}

// LTISubject is who a person is on a platform: the LTI subject ("sub",
// the platform's user id) of the person with that email. Scores are
// posted under it.
type LTISubject struct {
	PlatformID string
	Email      string
	Subject    string
	UpdatedAt  time.Time
}

// LTIGroupLink ties a group to the course it was loaded from and to the
// gradebook column (line item) its Simulacro grades go to.
type LTIGroupLink struct {
	GroupID       string
	CourseID      string
	LineItemURL   string // "" until the tutor chooses or creates a column
	LineItemLabel string
	CreatedAt     time.Time
	UpdatedAt     time.Time
}
