// Package deploy generates and checks the deployment files that describe
// the server to Firebase Hosting (firebase.json): which paths Hosting
// forwards to the Cloud Run service and which headers it sends with the
// pages it serves itself. Both come from the server's own definitions (the
// route table, httpapi.SecurityHeaders), so the files cannot drift from the
// server; cmd/firebase-config writes firebase.json, and this package's
// tests fail when the committed file is not what it would write.
package deploy

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/httpapi"
)

// Service is the Cloud Run service Hosting forwards to.
type Service struct {
	ID     string // the Cloud Run service name
	Region string
}

// DefaultService is the service the README's commands deploy.
var DefaultService = Service{ID: "simulador", Region: "us-central1"}

// ServerPrefixes are path prefixes the server answers besides those of the
// route table. The LTI endpoints (/lti) are in the table; none other is
// needed today.
var ServerPrefixes = []string{}

// ReferenceConfig is the configuration firebase.json's headers are made
// for: the server's defaults with the Microsoft sign-in enabled (so the
// pages may call Entra ID's token endpoint) and Secure cookies. INTRO_VIDEO_URL
// or MS_AUTHORITY on another origin change the Content-Security-Policy:
// regenerate with them set (see README, "Deploy to Firebase Hosting and
// Cloud Run").
func ReferenceConfig(lookup func(string) (string, bool)) (config.Config, error) {
	return config.Load(func(key string) (string, bool) {
		switch key {
		case "INTRO_VIDEO_URL", "MS_AUTHORITY":
			return lookup(key)
		case "MS_TENANT_ID":
			return "00000000-0000-0000-0000-000000000000", true
		case "MS_CLIENT_ID":
			return "firebase-json", true
		case "MS_EMAIL_DOMAINS":
			return "utpl.edu.ec", true
		}
		return "", false
	})
}

// Prefixes are the first path segments the server answers ("/api", ...),
// from the route table and ServerPrefixes, sorted.
func Prefixes() []string {
	seen := map[string]bool{}
	for _, r := range httpapi.Routes() {
		seg, _, _ := strings.Cut(strings.TrimPrefix(r.Path, "/"), "/")
		seen["/"+seg] = true
	}
	for _, p := range ServerPrefixes {
		seen[p] = true
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

type header struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

type headerRule struct {
	Source  string   `json:"source,omitempty"`
	Regex   string   `json:"regex,omitempty"`
	Headers []header `json:"headers"`
}

// FramedPrefix is where the server lets registered learning platforms
// frame its pages (LTI launches): it sets those pages' framing headers
// itself, so Hosting's site-wide ones, which forbid framing, must not
// reach them.
const FramedPrefix = "/lti"

// AssetsPrefix is where Vite puts the built files whose names carry a
// content hash: cacheable for good, and a missing one is a 404 (never the
// app's index.html, which a browser would run as a script or a style).
const AssetsPrefix = "/assets"

// notUnder is a regular expression (RE2: no look-ahead) matching every
// path that is under none of prefixes+"/": for "/lti",
// ^/$|^/[^l].*$|^/l$|^/l[^t].*$|^/lt$|^/lt[^i].*$|^/lti$|^/lti[^/].*$
// ("/lti" itself is matched: only what is under it is left out). The
// prefixes start with "/" and none is another's prefix.
func notUnder(prefixes ...string) string {
	var alts []string
	var walk func(done string)
	walk = func(done string) {
		// The next characters the prefixes continue done with.
		var next []byte
		for _, p := range prefixes {
			q := p + "/"
			if len(q) > len(done) && strings.HasPrefix(q, done) && !slices.Contains(next, q[len(done)]) {
				next = append(next, q[len(done)])
			}
		}
		slices.Sort(next)
		alts = append(alts, "^"+regexp.QuoteMeta(done)+"$")
		class := ""
		for _, c := range next {
			class += regexp.QuoteMeta(string(c))
		}
		alts = append(alts, "^"+regexp.QuoteMeta(done)+"[^"+class+"].*$")
		for _, c := range next {
			more := done + string(c)
			whole := false
			for _, p := range prefixes {
				whole = whole || more == p+"/"
			}
			if !whole {
				walk(more)
			}
		}
	}
	walk("/")
	return strings.Join(alts, "|")
}

type runTarget struct {
	ServiceID string `json:"serviceId"`
	Region    string `json:"region"`
}

type rewrite struct {
	Source      string     `json:"source,omitempty"`
	Regex       string     `json:"regex,omitempty"`
	Run         *runTarget `json:"run,omitempty"`
	Destination string     `json:"destination,omitempty"`
}

type hosting struct {
	Public    string       `json:"public"`
	Ignore    []string     `json:"ignore"`
	CleanURLs bool         `json:"cleanUrls"`
	Rewrites  []rewrite    `json:"rewrites"`
	Headers   []headerRule `json:"headers"`
}

// File is firebase.json.
type File struct {
	Hosting   hosting `json:"hosting"`
	Firestore struct {
		Rules   string `json:"rules"`
		Indexes string `json:"indexes"`
	} `json:"firestore"`
	// Storage names the rules for the Firebase project's default bucket,
	// deployed only when recordings live there (`firebase deploy --only
	// storage`): Firebase's client SDKs reach that bucket under these
	// rules, apart from IAM, and the server needs none of them.
	Storage struct {
		Rules string `json:"rules"`
	} `json:"storage"`
}

// Firebase returns firebase.json for the service and configuration.
func Firebase(svc Service, cfg config.Config) ([]byte, error) {
	var f File
	f.Hosting.Public = "frontend/dist"
	// The build's Brotli copies (name.br) are for the Go server, which
	// serves them itself; Hosting compresses what it serves on its own.
	f.Hosting.Ignore = []string{"firebase.json", "**/.*", "**/node_modules/**", ".vite/**", "**/*.br"}
	for _, p := range Prefixes() {
		f.Hosting.Rewrites = append(f.Hosting.Rewrites, rewrite{Source: p + "/**", Run: &runTarget{ServiceID: svc.ID, Region: svc.Region}})
	}
	// Everything else is the single-page app, whose router decides; but not
	// under /assets, where a file that is not deployed (a chunk an old
	// page asks for after a deploy) must be Hosting's 404, not index.html.
	f.Hosting.Rewrites = append(f.Hosting.Rewrites, rewrite{Regex: notUnder(AssetsPrefix), Destination: "/index.html"})

	var page []header
	for _, h := range httpapi.SecurityHeaders(cfg) {
		page = append(page, header{h.Key, h.Value})
	}
	hsts := httpapi.HSTS()
	page = append(page, header{hsts.Key, hsts.Value})
	// Hosting matches header rules against the request path, not the file
	// a rewrite serves, applies every matching rule in order (the last
	// one's value wins), and sends max-age=3600 where no rule sets
	// Cache-Control. So the pages ("/", "/inicio", ...) and files
	// ("/robots.txt") get no-cache here, as the server's webui package
	// sends them, and the hashed assets, the next rule, are immutable.
	// The server's own paths (/api, /lti) are left out of both rules: it
	// sets every header there itself (no-store, the media's sandboxing
	// policy, the LTI pages' framing), and Google does not document
	// whether Hosting's rule would replace a service's value.
	page = append(page, header{"Cache-Control", "no-cache"})
	f.Hosting.Headers = []headerRule{
		{Regex: notUnder(Prefixes()...), Headers: page},
		{Source: AssetsPrefix + "/**", Headers: []header{{"Cache-Control", "public, max-age=31536000, immutable"}}},
	}
	f.Firestore.Rules = "firestore.rules"
	f.Firestore.Indexes = "firestore.indexes.json"
	f.Storage.Rules = "storage.rules"

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Forwarded reports whether a request path reaches the Cloud Run service
// under f's rewrites (a "/x/**" source matches /x and everything under it).
func (f File) Forwarded(path string) bool {
	for _, r := range f.Hosting.Rewrites {
		if r.Run == nil {
			continue
		}
		prefix, ok := strings.CutSuffix(r.Source, "/**")
		if ok && (path == prefix || strings.HasPrefix(path, prefix+"/")) {
			return true
		}
	}
	return false
}
