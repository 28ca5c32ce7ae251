package webui

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

func testFiles() fstest.MapFS {
	return fstest.MapFS{
		"index.html":           {Data: []byte("<!doctype html><!--app-config-->")},
		"assets/app-abc.js":    {Data: []byte("console.log('plain')")},
		"assets/app-abc.js.br": {Data: []byte("brotli bytes")},
		"assets/other-def.css": {Data: []byte("body{}")},
	}
}

func get(t *testing.T, h http.Handler, path, acceptEncoding string) *httptest.ResponseRecorder {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	if acceptEncoding != "" {
		req.Header.Set("Accept-Encoding", acceptEncoding)
	}
	res := httptest.NewRecorder()
	h.ServeHTTP(res, req)
	return res
}

func TestAssetsVaryOnAcceptEncodingOnce(t *testing.T) {
	h := HandlerFS(testFiles(), Page{Config: []byte(`{}`)})
	// In front of it in the server, the compression middleware has already
	// added the same Vary before calling it.
	compressed := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		h.ServeHTTP(w, r)
	})
	for _, handler := range []http.Handler{h, compressed} {
		res := get(t, handler, "/assets/app-abc.js", "br")
		if got := res.Header().Values("Vary"); len(got) != 1 || got[0] != "Accept-Encoding" {
			t.Fatalf("Vary = %q, want one Accept-Encoding", got)
		}
	}
}

func TestBrotliCopyGoesToBrowsersThatTakeIt(t *testing.T) {
	h := HandlerFS(testFiles(), Page{Config: []byte(`{}`)})
	for _, tc := range []struct {
		accept string
		br     bool
	}{
		{"gzip, deflate, br, zstd", true},
		{"br;q=0.5", true},
		{"BR", true},
		{"gzip, br;q=0", false},
		{"gzip", false},
		{"", false},
	} {
		res := get(t, h, "/assets/app-abc.js", tc.accept)
		if res.Code != http.StatusOK || res.Header().Get("Vary") != "Accept-Encoding" ||
			res.Header().Get("Content-Type") != "text/javascript; charset=utf-8" {
			t.Fatalf("Accept-Encoding %q: %d %v", tc.accept, res.Code, res.Header())
		}
		gotBr := res.Header().Get("Content-Encoding") == "br"
		if gotBr != tc.br {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want br=%v", tc.accept, res.Header().Get("Content-Encoding"), tc.br)
		}
		want := "console.log('plain')"
		if tc.br {
			want = "brotli bytes"
		}
		if res.Body.String() != want {
			t.Errorf("Accept-Encoding %q: body %q, want %q", tc.accept, res.Body.String(), want)
		}
	}
	// An asset without a copy is sent as it is.
	if res := get(t, h, "/assets/other-def.css", "br"); res.Header().Get("Content-Encoding") != "" || res.Body.String() != "body{}" {
		t.Errorf("asset without a copy: %v %q", res.Header(), res.Body.String())
	}
}

func TestGuestSessionOnlyInPagesRequestedWithoutTheSessionCookie(t *testing.T) {
	h := HandlerFS(testFiles(), Page{Config: []byte(`{"a":1}`), GuestSession: []byte(`{"user":null}`), SessionCookie: "sess"})
	const config = `<script id="app-config" type="application/json">{"a":1}</script>`
	const guest = `<script id="app-session" type="application/json">{"user":null}</script>`
	page := func(cookie string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/login", nil)
		if cookie != "" {
			req.Header.Set("Cookie", cookie)
		}
		res := httptest.NewRecorder()
		h.ServeHTTP(res, req)
		if res.Header().Get("Vary") != "Cookie" || res.Header().Get("Cache-Control") != "no-cache" {
			t.Fatalf("cookie %q: headers %v", cookie, res.Header())
		}
		return res
	}
	for cookie, wantGuest := range map[string]bool{"": true, "other=1": true, "sess=abc": false, "other=1; sess=abc": false} {
		body := page(cookie).Body.String()
		if !strings.Contains(body, config) {
			t.Errorf("cookie %q: no configuration in %q", cookie, body)
		}
		if strings.Contains(body, guest) != wantGuest {
			t.Errorf("cookie %q: guest session embedded = %v, want %v (%q)", cookie, !wantGuest, wantGuest, body)
		}
	}
	// Without a guest session, no page has one.
	plain := HandlerFS(testFiles(), Page{Config: []byte(`{}`)})
	if body := get(t, plain, "/inicio", "").Body.String(); strings.Contains(body, "app-session") {
		t.Errorf("page without a guest session: %q", body)
	}
}
