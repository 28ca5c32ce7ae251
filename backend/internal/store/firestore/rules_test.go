package firestore_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"
)

// rulesFile holds the security rules firebase deploy publishes.
const rulesFile = "../../../../firestore.rules"

// TestRulesRefuseEveryClient loads firestore.rules into the emulator for a
// project of its own and sends the requests a browser could send through
// Firestore's REST API: without credentials, and as a signed-in Firebase
// user. Both are refused; the server's own requests (the emulator's
// "owner" credentials, as the Admin SDK's are in production) are not
// subject to the rules.
func TestRulesRefuseEveryClient(t *testing.T) {
	needEmulator(t)
	project := newProject("rules")
	open(t, project) // stores the seed degree, degree/derecho

	base := fmt.Sprintf("http://%s/v1/projects/%s/databases/(default)/documents", emulatorHost, project)
	send := func(method, url, bearer string, body any) (int, string) {
		t.Helper()
		var r io.Reader
		if body != nil {
			b, _ := json.Marshal(body)
			r = bytes.NewReader(b)
		}
		req, err := http.NewRequestWithContext(context.Background(), method, url, r)
		if err != nil {
			t.Fatal(err)
		}
		if bearer != "" {
			req.Header.Set("Authorization", "Bearer "+bearer)
		}
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		out, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(out)
	}
	read := base + "/degree/derecho"
	write := base + "/users?documentId=intruso"
	newUser := map[string]any{"fields": map[string]any{"mail": map[string]any{"stringValue": "intruso@utpl.edu.ec"}, "role": map[string]any{"stringValue": "tutor"}}}

	// Without rules the emulator lets anyone in: the refusals below are
	// the rules' doing.
	if code, body := send(http.MethodGet, read, "", nil); code != http.StatusOK {
		t.Fatalf("before loading the rules, an anonymous read = %d %s", code, body)
	}

	rules, err := os.ReadFile(rulesFile)
	if err != nil {
		t.Fatal(err)
	}
	load := map[string]any{"rules": map[string]any{"files": []map[string]string{{"name": "firestore.rules", "content": string(rules)}}}}
	if code, body := send(http.MethodPut, fmt.Sprintf("http://%s/emulator/v1/projects/%s:securityRules", emulatorHost, project), "", load); code != http.StatusOK {
		t.Fatalf("loading %s = %d %s", rulesFile, code, body)
	}

	// The emulator accepts unsigned ID tokens, so any signed-in user can be
	// played; a real one would be signed by Firebase Auth.
	claims, _ := json.Marshal(map[string]any{"sub": "u1", "user_id": "u1", "email": "estudiante@utpl.edu.ec", "email_verified": true,
		"aud": project, "iss": "https://securetoken.google.com/" + project, "iat": 1, "exp": 4102444800})
	signedIn := "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + base64.RawURLEncoding.EncodeToString(claims) + "."

	for _, who := range []struct{ name, bearer string }{{"anonymous", ""}, {"signed-in", signedIn}} {
		for _, req := range []struct {
			method, url string
			body        any
		}{
			{http.MethodGet, read, nil},
			{http.MethodGet, base + "/users", nil},
			{http.MethodPost, write, newUser},
			{http.MethodDelete, read, nil},
		} {
			if code, body := send(req.method, req.url, who.bearer, req.body); code != http.StatusForbidden {
				t.Errorf("%s client: %s %s = %d %s; want 403", who.name, req.method, req.url, code, body)
			}
		}
	}
	if code, body := send(http.MethodGet, read, "owner", nil); code != http.StatusOK {
		t.Fatalf("the server's read = %d %s", code, body)
	}
	if code, _ := send(http.MethodGet, base+"/users/intruso", "owner", nil); code != http.StatusNotFound {
		t.Fatalf("a refused write was stored (GET users/intruso = %d)", code)
	}
}
