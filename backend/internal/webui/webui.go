// Package webui serves the built frontend embedded in the binary, with the
// single-page-app fallback: any path that is not a file gets index.html, and
// the client router decides what to show.
package webui

import (
	"bytes"
	"embed"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"time"
)

//go:embed all:dist
var dist embed.FS

// configMarker in index.html is replaced by the runtime configuration (and,
// for a guest, the session), so the first paint needs no extra request.
const configMarker = "<!--app-config-->"

// Page is what the server embeds in index.html. Each part goes inside a
// non-executable JSON script element (allowed by a strict CSP), so each must
// be produced by encoding/json, which escapes '<' and '>'.
type Page struct {
	// Config is the runtime configuration (#app-config), in every page.
	Config []byte
	// GuestSession (#app-session) is what /api/session answers a guest. It
	// is embedded only in a page requested without the cookie named
	// SessionCookie: without that cookie the browser is a guest for certain,
	// and the app paints its first page without asking /api/session (one
	// round trip less before a phone's first paint). With the cookie, the
	// app asks, since only the server's lookup can tell whether it is valid.
	GuestSession  []byte
	SessionCookie string
}

// Handler serves the frontend embedded in the binary.
func Handler(page Page) http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic(err)
	}
	return HandlerFS(sub, page)
}

// HandlerFS is Handler for the built frontend in files (tests serve one of
// their own).
func HandlerFS(sub fs.FS, page Page) http.Handler {
	index, err := fs.ReadFile(sub, "index.html")
	if err != nil {
		index = []byte(notBuiltPage)
	}
	config := `<script id="app-config" type="application/json">` + string(page.Config) + `</script>`
	h := &handler{files: sub, sessionCookie: page.SessionCookie}
	h.index = bytes.Replace(index, []byte(configMarker), []byte(config), 1)
	h.guestIndex = h.index
	if page.GuestSession != nil && page.SessionCookie != "" {
		guest := config + `<script id="app-session" type="application/json">` + string(page.GuestSession) + `</script>`
		h.guestIndex = bytes.Replace(index, []byte(configMarker), []byte(guest), 1)
	}
	return h
}

// Built reports whether the frontend was built into this binary.
func Built() bool {
	_, err := fs.Stat(dist, "dist/index.html")
	return err == nil
}

type handler struct {
	files fs.FS
	// index is the page for a request with a session cookie, guestIndex
	// for one without (see Page.GuestSession).
	index, guestIndex []byte
	sessionCookie     string
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	// The server's own paths are never the app: a request that reaches
	// here under them (a route the server does not have) is not found,
	// rather than answered with index.html a platform would take for a page.
	if name == "lti" || strings.HasPrefix(name, "lti/") || name == "api" || strings.HasPrefix(name, "api/") {
		http.NotFound(w, r)
		return
	}
	if name != "" && name != "index.html" {
		if data, err := fs.ReadFile(h.files, name); err == nil {
			ctype := mime.TypeByExtension(path.Ext(name))
			if ctype == "" {
				ctype = http.DetectContentType(data)
			}
			w.Header().Set("Content-Type", ctype)
			if strings.HasPrefix(name, "assets/") {
				// Vite puts a content hash in every asset's name.
				w.Header().Set("Cache-Control", "public, max-age=31536000, immutable")
				// The build wrote a Brotli copy of each script and
				// stylesheet (vite.config.ts, precompress): sent whole
				// to a browser that takes br, smaller than the gzip
				// the server would make.
				// The server's compression middleware, in front of
				// this handler, has already said so; said twice, the
				// header is only noise in every cache's key.
				if !varies(w.Header(), "Accept-Encoding") {
					w.Header().Add("Vary", "Accept-Encoding")
				}
				if br, err := fs.ReadFile(h.files, name+".br"); err == nil && acceptsBrotli(r) {
					w.Header().Set("Content-Encoding", "br")
					w.Header().Set("Content-Length", strconv.Itoa(len(br)))
					if r.Method == http.MethodGet {
						_, _ = w.Write(br)
					}
					return
				}
			} else {
				w.Header().Set("Cache-Control", "no-cache")
			}
			// No modification time (no Last-Modified): embedded files
			// have none, and hashed names or no-cache make it unnecessary.
			http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(data))
			return
		}
		if strings.HasPrefix(name, "assets/") {
			http.NotFound(w, r) // a missing hashed asset must not get HTML
			return
		}
	}
	page := h.guestIndex
	if _, err := r.Cookie(h.sessionCookie); err == nil {
		page = h.index
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Add("Vary", "Cookie")
	if r.Method == http.MethodGet {
		_, _ = w.Write(page)
	}
}

// varies reports whether the response's Vary header already names field.
func varies(h http.Header, field string) bool {
	for _, v := range h.Values("Vary") {
		for name := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(name), field) {
				return true
			}
		}
	}
	return false
}

// acceptsBrotli reports whether the request's Accept-Encoding takes br
// (listed, and not with q=0).
func acceptsBrotli(r *http.Request) bool {
	for _, field := range r.Header.Values("Accept-Encoding") {
		for coding := range strings.SplitSeq(field, ",") {
			token, params, _ := strings.Cut(coding, ";")
			if !strings.EqualFold(strings.TrimSpace(token), "br") {
				continue
			}
			q, ok := strings.CutPrefix(strings.ReplaceAll(params, " ", ""), "q=")
			if !ok {
				return true
			}
			v, err := strconv.ParseFloat(q, 64)
			return err == nil && v > 0
		}
	}
	return false
}

const notBuiltPage = `<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Simulador</title></head>
<body><main><h1>La interfaz no está compilada</h1><p>Este binario se construyó sin el frontend. Ejecute <code>make build</code> (o <code>make run</code>) para incluirlo.</p></main></body></html>`
