package audit

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"
)

func TestEventsCarryTheActorAndAStableKey(t *testing.T) {
	var buf bytes.Buffer
	l := slog.New(slog.NewJSONHandler(&buf, nil))
	ctx := WithActor(context.Background(), Actor{IP: "203.0.113.9", Via: "web"})
	SetUser(ctx, "u-1", "s-1")
	Warn(ctx, l, "auth.login.failure", slog.String("method", "password"))
	Info(ctx, l, "auth.login.success", slog.String("userId", "u-2"))
	Info(context.Background(), l, "user.role.change")

	var lines []map[string]any
	for _, line := range bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n")) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, m)
	}
	want := []map[string]any{
		{"msg": Message, "level": "WARN", "event": "auth.login.failure", "userId": "u-1", "sessionId": "s-1", "ip": "203.0.113.9", "via": "web", "method": "password"},
		{"msg": Message, "level": "INFO", "event": "auth.login.success", "userId": "u-2", "sessionId": "s-1", "ip": "203.0.113.9", "via": "web"},
		{"msg": Message, "level": "INFO", "event": "user.role.change", "userId": "", "sessionId": "", "ip": "", "via": ""},
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines: %s", len(lines), buf.String())
	}
	for i, w := range want {
		delete(lines[i], "time")
		if len(lines[i]) != len(w) {
			t.Errorf("line %d = %v, want %v", i, lines[i], w)
		}
		for k, v := range w {
			if lines[i][k] != v {
				t.Errorf("line %d: %s = %v, want %v", i, k, lines[i][k], v)
			}
		}
	}
}
