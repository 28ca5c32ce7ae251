// Package domain holds the entities, value types and sentinel errors shared by
// every capability. It performs no I/O.
package domain

import (
	"errors"
	"fmt"
	"time"
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
	// answer (the mail server, say), or a moment of overload: the request
	// changed nothing and may be sent again after a pause (503 with
	// Retry-After).
	ErrUnavailable = errors.New("temporarily unavailable")
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

// BusyError is ErrUnavailable with the pause the client should wait
// before trying again.
type BusyError struct {
	RetryAfter time.Duration
	Cause      error // what was overloaded, for the log
}

func (e *BusyError) Error() string {
	if e.Cause == nil {
		return "busy, retry after " + e.RetryAfter.String()
	}
	return "busy, retry after " + e.RetryAfter.String() + ": " + e.Cause.Error()
}

func (e *BusyError) Unwrap() []error {
	if e.Cause == nil {
		return []error{ErrUnavailable}
	}
	return []error{ErrUnavailable, e.Cause}
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
