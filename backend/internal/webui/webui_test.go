package webui

import (
	"net/http"
	"net/http/httptest"
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

func TestBrotliCopyGoesToBrowsersThatTakeIt(t *testing.T) {
	h := HandlerFS(testFiles(), []byte(`{}`))
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
