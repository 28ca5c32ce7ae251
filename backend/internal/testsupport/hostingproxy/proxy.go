// Package hostingproxy is a stand-in for Firebase Hosting in front of a
// local server, for tests. Hosting itself cannot run here: the emulator in
// firebase-tools does not send a "run" rewrite to a local server (it asks
// the Cloud Run API for the service's URL). So this proxy reads the same
// firebase.json Hosting would deploy and answers as Hosting documents:
//
//   - the reserved and static content first, then the rewrites in order
//     ("run" rewrites go to the local server, "destination" rewrites serve a
//     file), then a 404;
//   - header rules matched against the request path (glob or regex), every
//     matching rule applied in order, so the last match wins;
//   - Hosting's own Cache-Control where no rule sets one;
//   - only the cookie named __session forwarded to the service, and only it
//     set by the service's responses;
//   - a service that takes longer than the cut (60 s) answered with 504;
//   - X-Forwarded-For appended as the request crosses Hosting and Cloud
//     Run's front end.
//
// FOR TESTS ONLY: it serves files from disk with no hardening.
package hostingproxy

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// DefaultCut is how long Hosting waits for a Cloud Run service: "Firebase
// Hosting is subject to a 60-second request timeout. If your app requires
// more than 60 seconds to run, you'll receive an HTTPS status code 504"
// (https://firebase.google.com/docs/hosting/cloud-run).
const DefaultCut = 60 * time.Second

// StaticCacheControl is what Hosting sends with a static file when no header
// rule sets Cache-Control. Google does not state the value on the Hosting
// pages; every deployed site shows it (firebase-tools issues #3769 and
// #4999, https://github.com/firebase/firebase-tools/issues/4999).
const StaticCacheControl = "max-age=3600"

// DynamicCacheControl is what Hosting sends with a service's response that
// carries no Cache-Control: "By default, Firebase Hosting sets
// Cache-Control to private for dynamic content"
// (https://firebase.google.com/docs/hosting/manage-cache, "Set
// Cache-Control").
const DynamicCacheControl = "private"

// SessionCookie is the one cookie Hosting lets through: "Only the
// specially-named __session cookie is permitted to pass through to the
// execution of your app"
// (https://firebase.google.com/docs/hosting/manage-cache, "Using cookies").
const SessionCookie = "__session"

// FrontEndAddress stands for the Google address Cloud Run's front end
// appends to X-Forwarded-For as a request from Hosting enters the service
// (a Google load-balancer range, 35.191.0.0/16).
const FrontEndAddress = "35.191.0.1"

// Options configure a Proxy.
type Options struct {
	// Config is the path of firebase.json; its "public" directory is
	// relative to the file's directory, as the Firebase CLI reads it.
	Config string
	// JSON, when set, is firebase.json's content (Config then only names
	// the directory "public" is relative to).
	JSON []byte
	// Service is the local server every "run" rewrite goes to.
	Service *url.URL
	// Cut is how long the service may take (DefaultCut when zero).
	Cut time.Duration
}

type header struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type file struct {
	Hosting struct {
		Public    string   `json:"public"`
		Ignore    []string `json:"ignore"`
		CleanURLs bool     `json:"cleanUrls"`
		Rewrites  []struct {
			Source      string `json:"source"`
			Regex       string `json:"regex"`
			Destination string `json:"destination"`
			Run         *struct {
				ServiceID string `json:"serviceId"`
				Region    string `json:"region"`
			} `json:"run"`
		} `json:"rewrites"`
		Headers []struct {
			Source  string   `json:"source"`
			Regex   string   `json:"regex"`
			Headers []header `json:"headers"`
		} `json:"headers"`
	} `json:"hosting"`
}

type rewrite struct {
	matcher
	destination string // a file, or "" for the service
}

type headerRule struct {
	matcher
	headers []header
}

// Proxy is an http.Handler that behaves as Firebase Hosting with the
// firebase.json it was made from.
type Proxy struct {
	public   string
	ignore   []matcher
	rewrites []rewrite
	headers  []headerRule
	service  *url.URL
	cut      time.Duration
	client   *http.Client
}

// New reads firebase.json and returns the proxy.
func New(opts Options) (*Proxy, error) {
	raw := opts.JSON
	if raw == nil {
		var err error
		if raw, err = os.ReadFile(opts.Config); err != nil {
			return nil, err
		}
	}
	var f file
	if err := json.Unmarshal(raw, &f); err != nil {
		return nil, fmt.Errorf("%s: %w", opts.Config, err)
	}
	if f.Hosting.Public == "" {
		return nil, fmt.Errorf("%s: hosting.public is not set", opts.Config)
	}
	if f.Hosting.CleanURLs {
		return nil, errors.New("hostingproxy: cleanUrls is not supported")
	}
	p := &Proxy{
		public:  filepath.Join(filepath.Dir(opts.Config), f.Hosting.Public),
		service: opts.Service,
		cut:     opts.Cut,
		// No redirects followed, no cookie jar: the browser's requests
		// pass through as they are.
		client: &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }},
	}
	if p.cut <= 0 {
		p.cut = DefaultCut
	}
	for _, g := range f.Hosting.Ignore {
		m, _ := newMatcher("/"+strings.TrimPrefix(g, "/"), "")
		p.ignore = append(p.ignore, m)
	}
	for _, r := range f.Hosting.Rewrites {
		m, err := newMatcher(r.Source, r.Regex)
		if err != nil {
			return nil, err
		}
		switch {
		case r.Run != nil:
			if opts.Service == nil {
				return nil, errors.New("hostingproxy: firebase.json has a run rewrite and Options.Service is not set")
			}
			p.rewrites = append(p.rewrites, rewrite{matcher: m})
		case r.Destination != "":
			p.rewrites = append(p.rewrites, rewrite{matcher: m, destination: r.Destination})
		default:
			return nil, fmt.Errorf("hostingproxy: rewrite %q: only run and destination rewrites are supported", r.Source)
		}
	}
	for _, h := range f.Hosting.Headers {
		m, err := newMatcher(h.Source, h.Regex)
		if err != nil {
			return nil, err
		}
		p.headers = append(p.headers, headerRule{matcher: m, headers: h.Headers})
	}
	return p, nil
}

// ServeHTTP answers in Hosting's priority order: "1. Reserved namespaces
// that begin with a /__/* path segment, 2. Configured redirects, 3.
// Exact-match static content, 4. Configured rewrites, 5. Custom 404 page,
// 6. Default 404 page"
// (https://firebase.google.com/docs/hosting/full-config#hosting_priority_order).
// This firebase.json has no redirects and nothing here serves /__/.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	urlPath := r.URL.Path
	if urlPath == "" {
		urlPath = "/"
	}
	if name, ok := p.static(urlPath); ok {
		p.serveFile(w, r, urlPath, name, http.StatusOK)
		return
	}
	for _, rw := range p.rewrites {
		if !rw.match(urlPath) {
			continue
		}
		if rw.destination == "" {
			p.forward(w, r, urlPath)
			return
		}
		// "rewrites ... show the same content for multiple URLs"; the
		// destination must be a file of the site
		// (https://firebase.google.com/docs/hosting/full-config#rewrites).
		if name, ok := p.static(rw.destination); ok {
			p.serveFile(w, r, urlPath, name, http.StatusOK)
			return
		}
		break
	}
	// "Custom 404 page": a 404.html at the root, else Hosting's own page.
	if name, ok := p.static("/404.html"); ok {
		p.serveFile(w, r, urlPath, name, http.StatusNotFound)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	p.applyHeaders(w.Header(), urlPath)
	w.WriteHeader(http.StatusNotFound)
	_, _ = io.WriteString(w, "<!doctype html><title>Page Not Found</title><h1>Page Not Found</h1>")
}

// static reports the deployed file an exact-match request for urlPath
// gets: the file itself, or a directory's index.html (Hosting serves
// "/" as "/index.html"). Files matching "ignore" were never deployed.
func (p *Proxy) static(urlPath string) (string, bool) {
	clean := path.Clean("/" + urlPath)
	if strings.HasSuffix(urlPath, "/") {
		clean = path.Join(clean, "index.html")
	}
	for _, ig := range p.ignore {
		if ig.match(clean) {
			return "", false
		}
	}
	name := filepath.Join(p.public, filepath.FromSlash(clean))
	st, err := os.Stat(name)
	if err != nil {
		return "", false
	}
	if st.IsDir() {
		return p.static(clean + "/")
	}
	return name, true
}

func (p *Proxy) serveFile(w http.ResponseWriter, r *http.Request, urlPath, name string, status int) {
	body, err := os.ReadFile(name)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	ct := mime.TypeByExtension(filepath.Ext(name))
	if ct == "" {
		ct = http.DetectContentType(body)
	}
	h.Set("Content-Type", ct)
	h.Set("Cache-Control", StaticCacheControl)
	p.applyHeaders(h, urlPath)
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

// applyHeaders sets every matching rule's headers, in the file's order,
// so a later rule replaces an earlier one's value. Hosting matches them
// "against the request URL path" (Hosting REST API, Header:
// https://firebase.google.com/docs/reference/hosting/rest/v1beta1/sites.versions#header),
// not against the file a rewrite served; firebase-tools applies them the
// same way (superstatic, src/middleware/headers.js: each match's headers
// set in turn).
func (p *Proxy) applyHeaders(h http.Header, urlPath string) {
	for _, rule := range p.headers {
		if !rule.match(urlPath) {
			continue
		}
		for _, kv := range rule.headers {
			h.Set(kv.Key, kv.Value)
		}
	}
}

// forward sends the request to the service as Hosting does and answers
// with its response, or with 504 when the service does not finish within
// the cut. Hosting buffers a service's response before sending it on
// (streamed responses "do not flush incrementally", firebase-tools issue
// #9774), so the whole body must arrive within the cut too.
func (p *Proxy) forward(w http.ResponseWriter, r *http.Request, urlPath string) {
	ctx, cancel := context.WithTimeout(r.Context(), p.cut)
	defer cancel()
	target := *p.service
	target.Path = strings.TrimSuffix(p.service.Path, "/") + r.URL.Path
	target.RawPath = ""
	target.RawQuery = r.URL.RawQuery
	out, err := http.NewRequestWithContext(ctx, r.Method, target.String(), r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	out.ContentLength = r.ContentLength
	for k, vs := range r.Header {
		if hopByHop(k) || strings.EqualFold(k, "Cookie") {
			continue
		}
		out.Header[k] = vs
	}
	// Only __session reaches the service (manage-cache, "Using cookies").
	for _, c := range r.Cookies() {
		if c.Name == SessionCookie {
			out.AddCookie(&http.Cookie{Name: c.Name, Value: c.Value})
		}
	}
	// Hosting's edge appends the client's address, and Cloud Run's front
	// end the address the request came from (a Google one): the service
	// sees "[what the client sent, ]client, google-address", as the
	// server's TRUST_PROXY with FIREBASE_HOSTING expects. The service is
	// reached at its own host name, as Cloud Run routes by it; the site's
	// name travels in X-Forwarded-Host.
	client, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		client = r.RemoteAddr
	}
	xff := client + ", " + FrontEndAddress
	if prior := r.Header.Values("X-Forwarded-For"); len(prior) > 0 {
		xff = strings.Join(prior, ", ") + ", " + xff
	}
	out.Header.Set("X-Forwarded-For", xff)
	out.Header.Set("X-Forwarded-Host", r.Host)
	out.Header.Set("X-Forwarded-Proto", "https")
	out.Host = p.service.Host

	res, err := p.client.Do(out)
	var body []byte
	if err == nil {
		body, err = io.ReadAll(res.Body)
		res.Body.Close()
	}
	if err != nil {
		if ctx.Err() != nil && r.Context().Err() == nil {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.WriteHeader(http.StatusGatewayTimeout)
			_, _ = io.WriteString(w, "<!doctype html><title>504 Gateway Timeout</title><h1>Gateway Timeout</h1>")
			return
		}
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	h := w.Header()
	for k, vs := range res.Header {
		if hopByHop(k) || strings.EqualFold(k, "Set-Cookie") || strings.EqualFold(k, "Content-Length") {
			continue
		}
		h[k] = vs
	}
	// Every cookie but __session is dropped on the way back too.
	for _, line := range res.Header.Values("Set-Cookie") {
		if name, _, _ := strings.Cut(line, "="); strings.TrimSpace(name) == SessionCookie {
			h.Add("Set-Cookie", line)
		}
	}
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", DynamicCacheControl)
	}
	p.applyHeaders(h, urlPath)
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(res.StatusCode)
	_, _ = io.Copy(w, bytes.NewReader(body))
}

func hopByHop(k string) bool {
	switch http.CanonicalHeaderKey(k) {
	case "Connection", "Keep-Alive", "Proxy-Authenticate", "Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade":
		return true
	}
	return false
}
