// Package domain holds the entities, value types and sentinel errors shared by
// every capability. It performs no I/O.
package domain

import (
	"errors"
	"fmt"
)

// Sentinel errors. Capability packages wrap them; the HTTP layer maps them to
// status codes in one place.
var (
	ErrNotFound        = errors.New("not found")
	ErrForbidden       = errors.New("forbidden")
	ErrUnauthenticated = errors.New("unauthenticated")
	ErrConflict        = errors.New("conflict")
	ErrTooManyRequests = errors.New("too many requests")
	ErrTooLarge        = errors.New("too large")
	// ErrUnavailable is a service the server depends on that did not
	// answer (the mail server, say): try again later.
	ErrUnavailable = errors.New("unavailable")
	// ErrHidden marks a not-found answer given for something that exists
	// but is not the caller's (another tutor's group, another student's
	// attempt): the caller learns nothing, and the log records an
	// authorization denial. Errors carrying it are also ErrNotFound.
	ErrHidden = errors.New("hidden from the caller")
)

// Hide marks a not-found error as hiding something the caller may not
// see (see ErrHidden).
func Hide(notFound error) error {
	return fmt.Errorf("%w (%w)", notFound, ErrHidden)
}

// UserError is an error whose Message is safe to show to the user (Spanish).
// Code is a stable machine-readable identifier the frontend may switch on.
type UserError struct {
	Kind    error  // one of the sentinels above, or nil for a plain validation error
	Code    string // e.g. "invalid_credentials"
	Message string // Spanish, shown as is
	Details any    // optional structured details (e.g. roster problems)
}

func (e *UserError) Error() string {
	return fmt.Sprintf("%s: %s", e.Code, e.Message)
}

func (e *UserError) Unwrap() error { return e.Kind }

// Invalid returns a validation error with a user-facing Spanish message.
func Invalid(code, message string) *UserError {
	return &UserError{Code: code, Message: message}
}

// NotFound returns a not-found error with a user-facing message.
func NotFound(code, message string) *UserError {
	return &UserError{Kind: ErrNotFound, Code: code, Message: message}
}

// Conflict returns a conflict error with a user-facing message.
func Conflict(code, message string) *UserError {
	return &UserError{Kind: ErrConflict, Code: code, Message: message}
}

// Forbidden returns a forbidden error with a user-facing message.
func Forbidden(code, message string) *UserError {
	return &UserError{Kind: ErrForbidden, Code: code, Message: message}
}
