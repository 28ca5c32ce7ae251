package httpapi_test

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/utpl/simulador/backend/internal/httpapi"
)

// A page requested without the session cookie embeds what /api/session
// answers a guest, byte for byte, so the app paints without asking. A
// signed-in browser's page embeds none: only the server's lookup of the
// cookie can tell who it is. In both cookie modes (Hosting's __session, and
// the __Host- cookie of a server on its own).
func TestGuestPagesEmbedTheGuestSession(t *testing.T) {
	t.Parallel()
	embedded := regexp.MustCompile(`<script id="app-session" type="application/json">(.*?)</script>`)
	for _, hosting := range []string{"false", "true"} {
		srv := newTestServer(t, map[string]string{"FIREBASE_HOSTING": hosting}, func(d *httpapi.Deps) {
			d.Frontend = fstest.MapFS{"index.html": {Data: []byte("<!doctype html><head><!--app-config--></head>")}}
		})
		if _, err := srv.auth.CreateUser(t.Context(), "ana@utpl.edu.ec", "clave-segura-123", "estudiante", "Ana"); err != nil {
			t.Fatal(err)
		}
		b := newBrowser(t, srv)
		get := func(path string) string {
			t.Helper()
			res, err := b.client.Get(srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			body, _ := io.ReadAll(res.Body)
			return string(body)
		}
		page := embedded.FindStringSubmatch(get("/login"))
		if page == nil {
			t.Fatalf("FIREBASE_HOSTING=%s: a guest's page embeds no session", hosting)
		}
		if answer := strings.TrimSpace(get("/api/session")); page[1] != answer {
			t.Errorf("FIREBASE_HOSTING=%s: embedded %s, /api/session answers %s", hosting, page[1], answer)
		}
		if res := b.do(http.MethodPost, "/api/auth/login", map[string]string{"email": "ana@utpl.edu.ec", "password": "clave-segura-123"}); res.status != http.StatusOK {
			t.Fatalf("login: %d %v", res.status, res.body)
		}
		if body := get("/inicio"); embedded.MatchString(body) || !strings.Contains(body, `id="app-config"`) {
			t.Errorf("FIREBASE_HOSTING=%s: a signed-in browser's page: %s", hosting, body)
		}
	}
}
