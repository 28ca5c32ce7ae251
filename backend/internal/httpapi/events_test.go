package httpapi_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/config"
)

// logLine is one JSON log line (LOG_FORMAT=json, what Cloud Logging reads
// as jsonPayload).
type logLine map[string]any

func jsonLines(t *testing.T, raw string) []logLine {
	t.Helper()
	var out []logLine
	for _, l := range strings.Split(strings.TrimSpace(raw), "\n") {
		var m logLine
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("not JSON: %q", l)
		}
		out = append(out, m)
	}
	return out
}

// events returns the security events named name.
func events(lines []logLine, name string) []logLine {
	var out []logLine
	for _, l := range lines {
		if l["msg"] == "security event" && l["event"] == name {
			out = append(out, l)
		}
	}
	return out
}

// expectEvent finds an event whose attributes include want.
func expectEvent(t *testing.T, lines []logLine, name string, want map[string]any) logLine {
	t.Helper()
	for _, ev := range events(lines, name) {
		ok := true
		for k, v := range want {
			if ev[k] != v {
				ok = false
			}
		}
		if ok {
			return ev
		}
	}
	t.Errorf("no %s event with %v; events of that name: %v", name, want, events(lines, name))
	return nil
}

func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// F-12: security events name the user and the session (a short id, never
// the token or its hash) and the client address, carry one stable event
// key, and never a password, a token or an e-mail address.
func TestSecurityEventsNameWhoAndNeverASecret(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *config.Config) { c.LogFormat = "json" })
	member, tut, other := e.users[studentInGrp], e.users[tutor], e.users[otherTutor]
	secrets := []string{testPassword, "mala-clave-secreta"}
	for _, role := range []string{studentNoGrp, studentInGrp, tutor, otherTutor} {
		secrets = append(secrets, e.cookies[role].Value, tokenHash(e.cookies[role].Value))
	}

	// Sign-ins: a success, a wrong password for a known and an unknown
	// account, then the account throttled from this address.
	ok := e.do(guest, "POST", "/api/auth/login", map[string]string{"email": member.Mail, "password": testPassword}, "X-Forwarded-For", "203.0.113.50")
	fresh := sessionCookie(t, ok)
	secrets = append(secrets, fresh.Value, tokenHash(fresh.Value))
	e.do(guest, "POST", "/api/auth/login", map[string]string{"email": "nadie@utpl.edu.ec", "password": "mala-clave-secreta"})
	for range 6 {
		e.do(guest, "POST", "/api/auth/login", map[string]string{"email": other.Mail, "password": "mala-clave-secreta"})
	}

	// Denials: a student on a tutor route (403), another tutor's group
	// (hidden as 404), a cross-site request.
	e.do(studentInGrp, "GET", "/api/admin/grading", nil)
	e.do(otherTutor, "GET", "/api/admin/groups/"+e.group.ID, nil)
	e.do(tutor, "POST", "/api/admin/group/finalize", nil, "Origin", "https://evil.example", "Sec-Fetch-Site", "cross-site")

	// Imports and exports.
	e.do(otherTutor, "POST", "/api/admin/group", multipartFile(t, "file", "grupo.csv", []byte(rosterCSV)))
	e.do(tutor, "POST", "/api/admin/group/students", map[string]any{"emails": []string{"nueva.alumna@utpl.edu.ec"}})
	e.do(tutor, "POST", "/api/admin/cases/import", multipartFile(t, "file", "casos.json", mustJSON(t, []any{exchangeCase("Evento importado")})))
	e.do(tutor, "GET", "/api/admin/cases/export?format=csv", nil)
	e.do(tutor, "GET", "/api/admin/reports/export", nil)
	// Searches by name or address: the text stays out of the request line.
	e.do(tutor, "GET", "/api/admin/students/search?q=con.grupo@utpl.edu.ec", nil)

	// Session revocation and sign-out.
	e.do(studentInGrp, "POST", "/api/me/sessions/end-others", nil)
	e.do(tutor, "POST", "/api/auth/logout", nil)

	raw := e.logs.String()
	lines := jsonLines(t, raw)
	var sessionIDs = map[string]string{}
	for _, l := range lines {
		if l["msg"] == "request" && l["userId"] != "" {
			sessionIDs[l["userId"].(string)] = l["sessionId"].(string)
		}
	}

	success := expectEvent(t, lines, "auth.login.success", map[string]any{"userId": member.ID, "method": "password", "via": "web"})
	if success != nil && (len(success["sessionId"].(string)) != 16 || success["ip"] == "") {
		t.Errorf("sign-in event = %v", success)
	}
	expectEvent(t, lines, "auth.login.failure", map[string]any{"userId": "", "knownAccount": false, "reason": "invalid_credentials"})
	expectEvent(t, lines, "auth.login.failure", map[string]any{"userId": other.ID, "knownAccount": true})
	expectEvent(t, lines, "auth.login.throttled", map[string]any{"userId": other.ID, "scope": "pair", "level": "WARN"})
	expectEvent(t, lines, "authz.denied", map[string]any{"userId": member.ID, "reason": "forbidden", "status": float64(403),
		"route": "/api/admin/grading", "sessionId": sessionIDs[member.ID]})
	expectEvent(t, lines, "authz.denied", map[string]any{"userId": other.ID, "reason": "hidden", "status": float64(404),
		"route": "/api/admin/groups/:id"})
	expectEvent(t, lines, "authz.denied", map[string]any{"reason": "cross_origin", "origin": "https://evil.example"})
	expectEvent(t, lines, "data.import", map[string]any{"kind": "roster", "userId": other.ID})
	expectEvent(t, lines, "data.import", map[string]any{"kind": "roster_additions", "userId": tut.ID, "students": float64(1)})
	expectEvent(t, lines, "data.import", map[string]any{"kind": "cases", "userId": tut.ID, "created": float64(1)})
	expectEvent(t, lines, "data.export", map[string]any{"kind": "cases", "format": "csv", "userId": tut.ID})
	expectEvent(t, lines, "data.export", map[string]any{"kind": "grades", "userId": tut.ID, "groupId": e.group.ID})
	expectEvent(t, lines, "auth.session.revoked", map[string]any{"userId": member.ID, "scope": "others"})
	expectEvent(t, lines, "auth.logout", map[string]any{"userId": tut.ID, "sessionId": sessionIDs[tut.ID]})

	for _, s := range secrets {
		if strings.Contains(raw, s) {
			t.Errorf("the log holds a secret: %.12s…", s)
		}
	}
	if strings.Contains(raw, "@") {
		for _, l := range strings.Split(raw, "\n") {
			if strings.Contains(l, "@") {
				t.Errorf("an e-mail address in the log: %s", l)
			}
		}
	}
	if !strings.Contains(raw, `"uri":"/api/admin/students/search?q=redacted"`) {
		t.Error("the search request line is missing or not redacted")
	}
}

// Every request line names the user and session, so a request can be
// tied to who made it (F-12).
func TestRequestLinesNameTheUserAndSession(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *config.Config) { c.LogFormat = "json" })
	e.do(tutor, "GET", "/api/admin/grading", nil)
	var line logLine
	for _, l := range jsonLines(t, e.logs.String()) {
		if l["msg"] == "request" && l["uri"] == "/api/admin/grading" {
			line = l
		}
	}
	if line == nil || line["userId"] != e.users[tutor].ID || len(line["sessionId"].(string)) != 16 || line["status"] != float64(200) {
		t.Fatalf("request line = %v", line)
	}
}
