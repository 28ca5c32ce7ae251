// Package audit writes security events: one structured log line per event,
// with a stable `event` key (e.g. auth.login.failure), who acted (user id
// and session id, a short id that is neither the session token nor its
// hash), from which address, and what the event concerns. Passwords,
// tokens, codes and e-mail addresses never go in. docs/security.md lists
// the events and how to query them in Cloud Logging.
package audit

import (
	"context"
	"log/slog"
)

// Message is the log message of every event; the `event` attribute says
// which one.
const Message = "security event"

// Actor is who acts in a request or a terminal command.
type Actor struct {
	UserID    string
	SessionID string
	IP        string
	// Via is "web" for a request and "cli" for a terminal command.
	Via string
}

type actorKey struct{}

// WithActor returns ctx carrying a.
func WithActor(ctx context.Context, a Actor) context.Context {
	return context.WithValue(ctx, actorKey{}, &a)
}

// ActorFrom returns the actor ctx carries (zero when none).
func ActorFrom(ctx context.Context) Actor {
	if a, ok := ctx.Value(actorKey{}).(*Actor); ok {
		return *a
	}
	return Actor{}
}

// SetUser records in ctx's actor who the request turned out to be (a
// sign-in learns it half-way): events logged later in the request carry
// it. It does nothing when ctx carries no actor.
func SetUser(ctx context.Context, userID, sessionID string) {
	if a, ok := ctx.Value(actorKey{}).(*Actor); ok {
		a.UserID, a.SessionID = userID, sessionID
	}
}

// Info logs an event at INFO: what happens in the normal course of things,
// failures included (a sign-in, a mistyped password, a password change).
func Info(ctx context.Context, l *slog.Logger, event string, attrs ...slog.Attr) {
	write(ctx, l, slog.LevelInfo, event, attrs)
}

// Warn logs an event at WARNING: a refusal that suggests someone is trying
// what they should not (a throttled sign-in, a rate limit reached, an
// authorization denial).
func Warn(ctx context.Context, l *slog.Logger, event string, attrs ...slog.Attr) {
	write(ctx, l, slog.LevelWarn, event, attrs)
}

// write puts the event name first, then the actor (an attribute given
// explicitly, such as the userId of a sign-in that has no session yet,
// takes the actor's place), then the rest.
func write(ctx context.Context, l *slog.Logger, level slog.Level, event string, attrs []slog.Attr) {
	if l == nil {
		l = slog.Default()
	}
	actor := ActorFrom(ctx)
	out := make([]slog.Attr, 0, len(attrs)+5)
	out = append(out, slog.String("event", event))
	rest := attrs
	for _, a := range []slog.Attr{
		slog.String("userId", actor.UserID), slog.String("sessionId", actor.SessionID),
		slog.String("ip", actor.IP), slog.String("via", actor.Via),
	} {
		for i, g := range rest {
			if g.Key == a.Key {
				a = g
				rest = append(rest[:i:i], rest[i+1:]...)
				break
			}
		}
		out = append(out, a)
	}
	out = append(out, rest...)
	l.LogAttrs(ctx, level, Message, out...)
}
