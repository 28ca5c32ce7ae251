package domain

import (
	"net/mail"
	"strings"
	"time"
)

// Role is a user's role: estudiante or tutor (docs/product.md, "Roles and
// sections").
type Role string

const (
	RoleStudent Role = "estudiante"
	RoleTutor   Role = "tutor"
)

// ParseRole accepts exactly the two role names.
func ParseRole(s string) (Role, bool) {
	switch Role(s) {
	case RoleStudent, RoleTutor:
		return Role(s), true
	}
	return "", false
}

// User is a profile (docs/glossary.md, "Spanish names kept on purpose").
type User struct {
	ID          string
	Mail        string // always normalised with NormalizeEmail
	DisplayName string
	GivenName   string
	Surname     string
	PhotoURL    string
	Role        Role
	CreatedAt   time.Time
	// LastLoginAt is when a session was last created for the user; zero
	// until the first sign-in (a profile made from the terminal or linked
	// ahead of time has never been used).
	LastLoginAt time.Time
}

// IsTutor reports whether the user is a teacher.
func (u User) IsTutor() bool { return u.Role == RoleTutor }

// NormalizeEmail trims an address and lower-cases its ASCII letters, so
// that emails compare case-insensitively everywhere (storage, lookups,
// group membership). Other letters are left alone: Unicode case mapping
// turns lookalikes such as the Kelvin sign (U+212A) into ASCII letters, and
// "\u212Aate@…" must not be the same account as "kate@…".
func NormalizeEmail(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}, strings.TrimSpace(s))
}

// ValidEmail reports whether s is a bare address (no display name) with a
// dotted domain.
func ValidEmail(s string) bool {
	if s == "" || strings.ContainsAny(s, " <>\"") {
		return false
	}
	addr, err := mail.ParseAddress(s)
	if err != nil || addr.Address != s || addr.Name != "" {
		return false
	}
	at := strings.LastIndexByte(s, '@')
	return at > 0 && strings.Count(s, "@") == 1 && strings.Contains(s[at+1:], ".") && !strings.HasSuffix(s, ".")
}

// SplitName splits "Nombre Apellido" into given name and surname. Spanish
// names usually carry two given names and two surnames; with four or more
// words the first half is the given name.
func SplitName(full string) (given, surname string) {
	words := strings.Fields(full)
	switch len(words) {
	case 0:
		return "", ""
	case 1:
		return words[0], ""
	case 2, 3:
		return words[0], strings.Join(words[1:], " ")
	default:
		half := len(words) / 2
		return strings.Join(words[:half], " "), strings.Join(words[half:], " ")
	}
}
