package hostingproxy_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/utpl/simulador/backend/internal/testsupport/hostingproxy"
)

const config = `{
  "hosting": {
    "public": "site",
    "ignore": ["firebase.json", "**/.*"],
    "cleanUrls": false,
    "rewrites": [
      {"source": "/api/**", "run": {"serviceId": "s", "region": "us-central1"}},
      {"source": "/files/*.txt", "destination": "/text.html"},
      {"regex": "^/re/[0-9]+$", "run": {"serviceId": "s", "region": "us-central1"}},
      {"source": "!/assets/**", "destination": "/index.html"}
    ],
    "headers": [
      {"source": "**", "headers": [{"key": "Cache-Control", "value": "no-cache"}, {"key": "X-Site", "value": "all"}]},
      {"source": "/assets/**", "headers": [{"key": "Cache-Control", "value": "immutable"}]},
      {"regex": "^/api/late$", "headers": [{"key": "X-Site", "value": "late"}]},
      {"source": "**/*.@(css|js)", "headers": [{"key": "X-Script", "value": "yes"}]}
    ]
  }
}`

type fixture struct {
	proxy   *httptest.Server
	service *httptest.Server
	dir     string
	cfgPath string
}

func newFixture(t *testing.T, cut time.Duration, firebaseJSON string) *fixture {
	t.Helper()
	dir := t.TempDir()
	write := func(name, body string) {
		full := filepath.Join(dir, "site", filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("index.html", "<!doctype html>app")
	write("text.html", "<!doctype html>text")
	write("robots.txt", "User-agent: *")
	write("assets/app.js", "console.log(1)")
	write("docs/index.html", "<!doctype html>docs")
	write(".secret", "never deployed")

	service := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/slow":
			<-r.Context().Done() // answers only when the caller gives up
			return
		case "/api/cached":
			w.Header().Set("Cache-Control", "no-store")
		}
		http.SetCookie(w, &http.Cookie{Name: "__session", Value: "s1", Path: "/", HttpOnly: true})
		http.SetCookie(w, &http.Cookie{Name: "other", Value: "o1", Path: "/"})
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"path": r.URL.Path, "query": r.URL.RawQuery, "cookie": r.Header.Get("Cookie"),
			"xff": r.Header.Get("X-Forwarded-For"), "host": r.Host, "fwdHost": r.Header.Get("X-Forwarded-Host"),
		})
	}))
	t.Cleanup(service.Close)
	cfgPath := filepath.Join(dir, "firebase.json")
	if err := os.WriteFile(cfgPath, []byte(firebaseJSON), 0o644); err != nil {
		t.Fatal(err)
	}
	u, _ := url.Parse(service.URL)
	p, err := hostingproxy.New(hostingproxy.Options{Config: cfgPath, Service: u, Cut: cut})
	if err != nil {
		t.Fatal(err)
	}
	proxy := httptest.NewServer(p)
	t.Cleanup(proxy.Close)
	return &fixture{proxy: proxy, service: service, dir: dir, cfgPath: cfgPath}
}

type answer struct {
	status int
	header http.Header
	body   string
}

func (f *fixture) get(t *testing.T, path string, hdr map[string]string) answer {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, f.proxy.URL+path, nil)
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return answer{res.StatusCode, res.Header, string(b)}
}

// TestStaticFirstThenRewritesInOrder: a deployed file wins over every
// rewrite, "/" and a directory are their index.html, rewrites are tried in
// order (glob, regex, a negated glob), ignored files were never deployed,
// and what nothing matches is Hosting's 404.
func TestStaticFirstThenRewritesInOrder(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0, config)
	for _, tc := range []struct {
		path, want string
		status     int
	}{
		{"/", "<!doctype html>app", 200},
		{"/robots.txt", "User-agent: *", 200},
		{"/docs/", "<!doctype html>docs", 200},
		{"/assets/app.js", "console.log(1)", 200},
		{"/inicio", "<!doctype html>app", 200},
		{"/files/a.txt", "<!doctype html>text", 200},
		{"/files/a/b.txt", "<!doctype html>app", 200}, // "*" stays within a segment
		{"/.secret", "<!doctype html>app", 200},       // ignored: falls to the SPA rewrite
		{"/assets/gone.js", "Page Not Found", 404},    // excluded from the SPA rewrite
	} {
		a := f.get(t, tc.path, nil)
		if a.status != tc.status || !strings.Contains(a.body, tc.want) {
			t.Errorf("GET %s = %d %q, want %d %q", tc.path, a.status, a.body, tc.status, tc.want)
		}
	}
	if a := f.get(t, "/re/12?x=1", nil); a.status != 200 || !strings.Contains(a.body, `"path":"/re/12"`) || !strings.Contains(a.body, `"query":"x=1"`) {
		t.Errorf("regex run rewrite = %d %s", a.status, a.body)
	}
	if a := f.get(t, "/re/x", nil); !strings.Contains(a.body, "<!doctype html>app") {
		t.Errorf("a path the regex does not match = %d %s", a.status, a.body)
	}
}

// TestHeaderRulesLastMatchWins: rules are matched against the request
// path, not the file served; each match applies in order; Hosting's
// defaults fill what no rule sets.
func TestHeaderRulesLastMatchWins(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0, config)
	for path, want := range map[string][2]string{
		"/":              {"no-cache", "all"},
		"/inicio":        {"no-cache", "all"},
		"/assets/app.js": {"immutable", "all"},
		"/api/x":         {"no-cache", "all"}, // "**" covers the service's answers too
		"/api/late":      {"no-cache", "late"},
	} {
		a := f.get(t, path, nil)
		if a.header.Get("Cache-Control") != want[0] || a.header.Get("X-Site") != want[1] {
			t.Errorf("%s: Cache-Control %q X-Site %q, want %q", path, a.header.Get("Cache-Control"), a.header.Get("X-Site"), want)
		}
	}
	if a := f.get(t, "/assets/app.js", nil); a.header.Get("X-Script") != "yes" || a.header.Get("Content-Type") != "text/javascript; charset=utf-8" {
		t.Errorf("an @(css|js) glob: %v", a.header)
	}

	// Without rules: Hosting's own Cache-Control, max-age=3600 on files
	// and private on a service's answer that set none; a service's own
	// value is kept.
	bare := newFixture(t, 0, strings.Replace(config, `"headers": [`, `"headers": [], "unused": [`, 1))
	for path, want := range map[string]string{"/": "max-age=3600", "/inicio": "max-age=3600", "/assets/app.js": "max-age=3600",
		"/api/x": "private", "/api/cached": "no-store"} {
		if got := bare.get(t, path, nil).header.Get("Cache-Control"); got != want {
			t.Errorf("%s without rules: Cache-Control %q, want %q", path, got, want)
		}
	}
}

// TestOnlySessionCookiePasses: the request's other cookies never reach
// the service, and only __session comes back.
func TestOnlySessionCookiePasses(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0, config)
	a := f.get(t, "/api/echo", map[string]string{"Cookie": "a=1; __session=tok; __Host-x=2"})
	var got map[string]string
	if err := json.Unmarshal([]byte(a.body), &got); err != nil {
		t.Fatal(err)
	}
	if got["cookie"] != "__session=tok" {
		t.Errorf("the service got Cookie %q", got["cookie"])
	}
	set := a.header.Values("Set-Cookie")
	if len(set) != 1 || !strings.HasPrefix(set[0], "__session=s1") || !strings.Contains(set[0], "HttpOnly") {
		t.Errorf("Set-Cookie passed back: %q", set)
	}
}

// TestForwardingHeaders: X-Forwarded-For gets the client's address and
// the front end's appended to what the client sent; the service is called
// by its own host, the site's in X-Forwarded-Host.
func TestForwardingHeaders(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 0, config)
	a := f.get(t, "/api/echo", map[string]string{"X-Forwarded-For": "203.0.113.9"})
	var got map[string]string
	if err := json.Unmarshal([]byte(a.body), &got); err != nil {
		t.Fatal(err)
	}
	if want := "203.0.113.9, 127.0.0.1, " + hostingproxy.FrontEndAddress; got["xff"] != want {
		t.Errorf("X-Forwarded-For = %q, want %q", got["xff"], want)
	}
	su, _ := url.Parse(f.service.URL)
	pu, _ := url.Parse(f.proxy.URL)
	if got["host"] != su.Host || got["fwdHost"] != pu.Host {
		t.Errorf("host %q forwarded host %q", got["host"], got["fwdHost"])
	}
}

// TestTheCutIs504: a service that has not answered within the cut gets
// the browser a 504, and the service's request is cancelled.
func TestTheCutIs504(t *testing.T) {
	t.Parallel()
	f := newFixture(t, 50*time.Millisecond, config)
	if a := f.get(t, "/api/slow", nil); a.status != http.StatusGatewayTimeout {
		t.Fatalf("a service past the cut: %d %s", a.status, a.body)
	}
}

func TestDefaultCutIsHostings(t *testing.T) {
	if hostingproxy.DefaultCut != 60*time.Second {
		t.Fatalf("DefaultCut = %v", hostingproxy.DefaultCut)
	}
}
