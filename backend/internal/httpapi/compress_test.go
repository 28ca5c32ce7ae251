package httpapi

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/utpl/simulador/backend/internal/webui"
)

// A script the build compressed with Brotli passes the gzip middleware as
// it is: one Content-Encoding, the bytes of the .br file.
func TestBrotliAssetsAreNotCompressedAgain(t *testing.T) {
	t.Parallel()
	script := strings.Repeat("console.log('simulador');\n", 100)
	h, err := compress(webui.HandlerFS(fstest.MapFS{
		"index.html":           {Data: []byte("<!doctype html>")},
		"assets/app-abc.js":    {Data: []byte(script)},
		"assets/app-abc.js.br": {Data: []byte("brotli bytes")},
	}, webui.Page{Config: []byte(`{}`)}))
	if err != nil {
		t.Fatal(err)
	}
	for accept, want := range map[string]string{"gzip, deflate, br, zstd": "br", "gzip": "gzip"} {
		req := httptest.NewRequest(http.MethodGet, "/assets/app-abc.js", nil)
		req.Header.Set("Accept-Encoding", accept)
		res := httptest.NewRecorder()
		h.ServeHTTP(res, req)
		if got := res.Header().Values("Content-Encoding"); len(got) != 1 || got[0] != want {
			t.Fatalf("Accept-Encoding %q: Content-Encoding %v, want %s", accept, got, want)
		}
		if want == "br" && res.Body.String() != "brotli bytes" {
			t.Fatalf("br body = %q", res.Body.String())
		}
	}
}
