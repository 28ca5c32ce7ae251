package domain

import "time"

// Session is a server-side sign-in session. Only the hash of its token is
// ever stored; the token itself lives in the user's cookie.
type Session struct {
	// ID names the session to its user (the list of their sessions) and in
	// the log: short, random and not secret. It is neither the token nor
	// derived from it, so showing or logging it gives nothing away.
	ID         string
	TokenHash  string
	UserID     string
	CreatedAt  time.Time
	LastSeenAt time.Time
	ExpiresAt  time.Time // absolute expiry
	UserAgent  string
	IP         string
}

// Identity links an external account (a Microsoft or Firebase subject) to a
// user profile.
type Identity struct {
	Provider string // "microsoft", "firebase"
	Subject  string
	UserID   string
}
