package domain

import "crypto/rand"

// NewID returns a random identifier (26 base32 characters, 130 bits).
func NewID() string { return rand.Text() }
