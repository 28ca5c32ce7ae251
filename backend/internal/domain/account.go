package domain

import "time"

// TokenKind says what a one-time token is for.
type TokenKind string

const (
	// TokenPasswordReset lets a student choose a new password once; a tutor
	// issues it.
	TokenPasswordReset TokenKind = "password_reset"
	// TokenMFALogin is a sign-in whose password was right and that waits
	// for the second factor.
	TokenMFALogin TokenKind = "mfa_login"
)

// OneTimeToken is a secret handed to one person that works once, until
// ExpiresAt. Only the SHA-256 of the token is stored.
type OneTimeToken struct {
	Hash      string
	Kind      TokenKind
	UserID    string // whom it is for
	IssuedBy  string // the user who issued it (a tutor for a reset), or "" when the user's own
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    *time.Time
}

// MFA is a user's second factor: a TOTP secret (RFC 6238) and recovery
// codes, each stored as its SHA-256.
type MFA struct {
	UserID string
	// Secret is the base32 TOTP key. It must be readable to check codes,
	// so unlike a password it cannot be stored as a hash.
	Secret string
	// EnabledAt is nil while enrolment waits for the first code: until
	// then sign-in does not ask for one.
	EnabledAt *time.Time
	// LastStep is the TOTP time step of the last code accepted; a code of
	// that step or an earlier one is refused, so a code works once.
	LastStep      int64
	RecoveryCodes []RecoveryCode
}

// Enabled reports whether sign-in asks for a code.
func (m MFA) Enabled() bool { return m.EnabledAt != nil }

// RecoveryCodesLeft counts the recovery codes not used yet.
func (m MFA) RecoveryCodesLeft() int {
	n := 0
	for _, c := range m.RecoveryCodes {
		if c.UsedAt == nil {
			n++
		}
	}
	return n
}

// RecoveryCode is one single-use recovery code, by its SHA-256.
type RecoveryCode struct {
	Hash   string
	UsedAt *time.Time
}
