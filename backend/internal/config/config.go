// Package config reads the server's configuration from the environment once,
// at start, and validates it. Every setting has a safe default so that a
// fresh clone runs with no configuration at all.
package config

import (
	"errors"
	"fmt"
	"net"
	"net/mail"
	"net/netip"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// Config is the validated configuration.
type Config struct {
	Addr        string // listen address
	DataDir     string // SQLite file, recordings
	DatabaseURL string // postgres://... selects PostgreSQL, firestore://PROJECT_ID Firestore; empty selects SQLite in DataDir
	// MediaBucket is the Cloud Storage bucket that keeps recordings; empty
	// keeps them in DataDir/media.
	MediaBucket string
	LogLevel    string // debug, info, warn, error
	LogFormat   string // text or json

	CookieSecure string // always (default: Secure, __Host- prefixed session cookie) or never (plain HTTP off loopback)
	// TrustProxy: a proxy in front of the server says who the client is
	// and which scheme it used (X-Forwarded-For/-Proto); otherwise those
	// headers are dropped. How far X-Forwarded-For is believed is
	// ProxyHops or TrustProxyCIDRs (docs/security.md, "Client address").
	TrustProxy bool
	// TrustProxyHops (TRUST_PROXY_HOPS): the client is the N-th address
	// from the right of X-Forwarded-For, each trusted proxy having added
	// one. 0 with TrustProxy: see ProxyHops.
	TrustProxyHops int
	// TrustProxyCIDRs (TRUST_PROXY_CIDRS): the proxies are the addresses in
	// these ranges; the client is the right-most address of the chain not
	// in them.
	TrustProxyCIDRs []netip.Prefix
	// FirebaseHosting: the server is reached through Firebase Hosting's
	// rewrites, which forward one cookie only, named __session: the
	// session (and the Microsoft sign-in's nonce) travel in it.
	FirebaseHosting bool
	SessionIdle     time.Duration
	SessionMax      time.Duration

	// AllowShortTimings lets tutors set phases of a few seconds (demos, tests).
	AllowShortTimings bool
	// RecordingRetention deletes recordings older than this; 0 keeps them.
	RecordingRetention time.Duration
	// CaseImportMaxRows caps the cases of one import file.
	CaseImportMaxRows int
	// MaxCasesPerDegree caps a degree's case bank.
	MaxCasesPerDegree int
	// Limits of what one user can store through rehearsals.
	MaxRecordingMB        int // one recording (take), in MiB
	StudentStorageQuotaMB int // all of a user's recordings not deleted, in MiB
	MaxTakesPerPhase      int // takes of one phase of an Entrenamiento attempt
	MaxMockTakesPerPhase  int // takes of one phase of a Simulacro attempt
	MaxAttemptsPerDay     int // attempts a user starts in 24 hours

	// TutorsRequireMicrosoft refuses tutors' password sign-ins: they use
	// the university account, which brings the university's MFA.
	TutorsRequireMicrosoft bool

	// PublicURL is the site's public base URL (scheme://host, no path), as
	// learning platforms reach it: the LTI tool's URLs (config.json, the
	// launch URL) are built on it. Empty: taken from each request's Host.
	PublicURL string
	// DebugAddr, when set, serves Go's profiler (net/http/pprof) on this
	// loopback address, apart from the public listener.
	DebugAddr string

	Microsoft  Microsoft
	Mail       Mail
	Site       Site
	Transcribe Transcribe
}

// Mail configures outgoing e-mail (password-reset links), over SMTP.
type Mail struct {
	Host string
	Port string
	// ImplicitTLS is smtps:// (TLS from the first byte, usually port 465);
	// smtp:// switches to TLS with STARTTLS.
	ImplicitTLS bool
	Username    string
	Password    string // never logged nor echoed in errors
	From        string // the From header, e.g. "Simulador <no-reply@utpl.edu.ec>"
	// PublicURL is the site's address as users reach it, for links in
	// messages (never taken from a request's Host header).
	PublicURL string
}

// Enabled reports whether the server can send e-mail.
func (m Mail) Enabled() bool { return m.Host != "" }

// Addr is the SMTP server's host:port.
func (m Mail) Addr() string { return net.JoinHostPort(m.Host, m.Port) }

// Transcribe configures the optional server-side transcription (an
// OpenAI-compatible /v1/audio/transcriptions endpoint).
type Transcribe struct {
	URL      string
	Model    string
	APIKey   string
	Language string
	Timeout  time.Duration
}

// Enabled reports whether completed recordings are sent for transcription.
func (t Transcribe) Enabled() bool { return t.URL != "" }

// Microsoft configures the university-account sign-in (Entra ID).
type Microsoft struct {
	TenantID string
	ClientID string
	// EmailDomains are the e-mail domains the tenant verifies (lower
	// case): a token's preferred_username in one of them is an address
	// the tenant vouches for, which may link the account to an existing
	// profile or name a new one.
	EmailDomains []string
	// Authority is the tenant's authority URL; the issuer is Authority+"/v2.0".
	// Defaults to https://login.microsoftonline.com/<tenant>.
	Authority string
	// CAFile is an extra PEM bundle trusted when fetching the issuer's keys
	// (used by tests that run a local issuer with a generated certificate).
	CAFile string
}

// Enabled reports whether the Microsoft sign-in is configured.
func (m Microsoft) Enabled() bool { return m.TenantID != "" && m.ClientID != "" }

// Site is what the public pages show about the institution.
type Site struct {
	InstitutionName string `json:"institutionName"`
	UniversityURL   string `json:"universityUrl"`
	ContactEmail    string `json:"contactEmail"`
	ContactPhone    string `json:"contactPhone"`
	ContactAddress  string `json:"contactAddress"`
	Facebook        string `json:"facebook"`
	Instagram       string `json:"instagram"`
	X               string `json:"x"`
	YouTube         string `json:"youtube"`
	IntroVideoURL   string `json:"introVideoUrl"`
}

// FromEnv reads the process environment.
func FromEnv() (Config, error) { return Load(os.LookupEnv) }

// Load reads configuration through lookup (os.LookupEnv in production).
func Load(lookup func(string) (string, bool)) (Config, error) {
	get := func(key, def string) string {
		if v, ok := lookup(key); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
		return def
	}
	var errs []error
	bad := func(key, value, why string) {
		errs = append(errs, fmt.Errorf("%s=%q: %s", key, value, why))
	}

	c := Config{
		DataDir:      get("DATA_DIR", "data"),
		DatabaseURL:  get("DATABASE_URL", ""),
		MediaBucket:  get("MEDIA_BUCKET", ""),
		LogLevel:     strings.ToLower(get("LOG_LEVEL", "info")),
		LogFormat:    strings.ToLower(get("LOG_FORMAT", "text")),
		CookieSecure: strings.ToLower(get("COOKIE_SECURE", "always")),
	}

	// ADDR wins; PORT alone (as Cloud Run sets it) listens on every interface.
	switch addr, port := get("ADDR", ""), get("PORT", ""); {
	case addr != "":
		if _, _, err := net.SplitHostPort(addr); err != nil {
			bad("ADDR", addr, "expected host:port, e.g. 127.0.0.1:8080")
		}
		c.Addr = addr
	case port != "":
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			bad("PORT", port, "expected a port number between 1 and 65535")
		}
		c.Addr = ":" + port
	default:
		c.Addr = "127.0.0.1:8080"
	}

	if abs, err := filepath.Abs(c.DataDir); err == nil {
		c.DataDir = abs
	}
	switch c.StoreKind() {
	case StoreUnknown:
		// The value may hold a password: never echo it.
		bad("DATABASE_URL", "…", "expected postgres://… or firestore://PROJECT_ID; leave it empty for the embedded SQLite store")
	case StoreFirestore:
		if !projectIDPattern.MatchString(c.FirestoreProject()) {
			bad("DATABASE_URL", c.DatabaseURL, "expected firestore://PROJECT_ID with a Google Cloud project ID (6–30 lowercase letters, digits or hyphens)")
		}
	}
	if b := c.MediaBucket; b != "" && !bucketPattern.MatchString(b) {
		bad("MEDIA_BUCKET", b, "expected a Cloud Storage bucket name such as my-project.appspot.com (3–222 lowercase letters, digits, '-', '_' or '.')")
	}
	if !oneOf(c.LogLevel, "debug", "info", "warn", "error") {
		bad("LOG_LEVEL", c.LogLevel, "expected debug, info, warn or error")
	}
	if !oneOf(c.LogFormat, "text", "json") {
		bad("LOG_FORMAT", c.LogFormat, "expected text or json")
	}
	if !oneOf(c.CookieSecure, "always", "never") {
		// "auto" (Secure only when HTTPS was detected) was removed: behind a
		// proxy that is not trusted it left the cookie without Secure.
		bad("COOKIE_SECURE", c.CookieSecure, "expected always (the default) or never; auto was removed, leave the variable unset")
	}
	if d := get("DEBUG_ADDR", ""); d != "" {
		host, _, err := net.SplitHostPort(d)
		ip := net.ParseIP(host)
		if err != nil || !(host == "localhost" || ip != nil && ip.IsLoopback()) {
			bad("DEBUG_ADDR", d, "expected a loopback host:port such as 127.0.0.1:6060 (the profiler must not be reachable from the network)")
		}
		c.DebugAddr = d
	}
	c.TrustProxy = boolean(get, bad, "TRUST_PROXY")
	c.FirebaseHosting = boolean(get, bad, "FIREBASE_HOSTING")
	loadProxyTrust(&c, get, bad)
	c.AllowShortTimings = boolean(get, bad, "ALLOW_SHORT_TIMINGS")
	retention := get("RECORDING_RETENTION_DAYS", "0")
	if days, err := strconv.Atoi(retention); err != nil || days < 0 || days > 3650 {
		bad("RECORDING_RETENTION_DAYS", retention, "expected a number of days between 0 (keep forever) and 3650")
	} else {
		c.RecordingRetention = time.Duration(days) * 24 * time.Hour
	}
	c.CaseImportMaxRows = integer(get, bad, "CASE_IMPORT_MAX_ROWS", 2000, 1, 100000)
	c.MaxCasesPerDegree = integer(get, bad, "MAX_CASES_PER_DEGREE", 10000, 1, 100000)
	if c.FirebaseHosting {
		// Behind Hosting the service is on Cloud Run, which answers at most
		// 32 MiB in one HTTP/1 response with a Content-Length, and a
		// recording is played in one response.
		c.MaxRecordingMB = integer(get, bad, "MAX_RECORDING_MB", MaxRecordingMBCloudRun, 1, MaxRecordingMBCloudRun)
	} else {
		c.MaxRecordingMB = integer(get, bad, "MAX_RECORDING_MB", 64, 1, 1024)
	}
	c.StudentStorageQuotaMB = integer(get, bad, "STUDENT_STORAGE_QUOTA_MB", 500, 1, 100000)
	c.MaxTakesPerPhase = integer(get, bad, "MAX_TAKES_PER_PHASE", 5, 1, 50)
	c.MaxMockTakesPerPhase = integer(get, bad, "MAX_MOCK_TAKES_PER_PHASE", 2, 1, 50)
	c.MaxAttemptsPerDay = integer(get, bad, "MAX_ATTEMPTS_PER_DAY", 20, 1, 1000)
	c.SessionIdle = duration(get, bad, "SESSION_IDLE_TIMEOUT", "12h")
	c.SessionMax = duration(get, bad, "SESSION_MAX_AGE", "168h")
	if c.SessionIdle > c.SessionMax && c.SessionMax > 0 {
		bad("SESSION_IDLE_TIMEOUT", c.SessionIdle.String(), "must not exceed SESSION_MAX_AGE")
	}

	c.Microsoft = Microsoft{
		TenantID: get("MS_TENANT_ID", ""),
		ClientID: get("MS_CLIENT_ID", ""),
		CAFile:   get("MS_CA_FILE", ""),
	}
	if (c.Microsoft.TenantID == "") != (c.Microsoft.ClientID == "") {
		bad("MS_TENANT_ID/MS_CLIENT_ID", "", "set both to enable the Microsoft sign-in, or neither")
	}
	// The issuer Entra publishes carries the tenant's GUID: a domain name
	// here would make every token fail the issuer check.
	if t := c.Microsoft.TenantID; t != "" && !IsGUID(t) {
		bad("MS_TENANT_ID", t, "expected the Directory (tenant) ID, a GUID such as 72f988bf-86f1-41af-91ab-2d7cd011db47, not a domain name")
	}
	c.Microsoft.Authority = strings.TrimRight(get("MS_AUTHORITY", ""), "/")
	if c.Microsoft.Authority == "" && c.Microsoft.TenantID != "" {
		c.Microsoft.Authority = "https://login.microsoftonline.com/" + c.Microsoft.TenantID
	}
	if a := c.Microsoft.Authority; a != "" && !isURL(a, "https") {
		bad("MS_AUTHORITY", a, "expected an https:// URL")
	}
	if f := c.Microsoft.CAFile; f != "" {
		if _, err := os.Stat(f); err != nil {
			bad("MS_CA_FILE", f, "cannot read the file")
		}
	}
	domains := get("MS_EMAIL_DOMAINS", "")
	domainsOK := true
	for _, d := range strings.Split(domains, ",") {
		if d = strings.ToLower(strings.TrimSpace(d)); d != "" {
			if !domainPattern.MatchString(d) {
				bad("MS_EMAIL_DOMAINS", domains, "expected e-mail domains separated by commas, e.g. utpl.edu.ec")
				domainsOK = false
				break
			}
			c.Microsoft.EmailDomains = append(c.Microsoft.EmailDomains, d)
		}
	}
	if c.Microsoft.Enabled() && domainsOK && len(c.Microsoft.EmailDomains) == 0 {
		bad("MS_EMAIL_DOMAINS", "", "required with MS_TENANT_ID: the e-mail domains the tenant verifies (e.g. utpl.edu.ec); "+
			"only an address in them may link a Microsoft account to an existing profile or name a new one")
	}
	c.TutorsRequireMicrosoft = boolean(get, bad, "TUTORS_REQUIRE_MICROSOFT")
	if c.TutorsRequireMicrosoft && !c.Microsoft.Enabled() {
		bad("TUTORS_REQUIRE_MICROSOFT", "true", "tutors could not sign in at all: set MS_TENANT_ID and MS_CLIENT_ID too")
	}

	// PUBLIC_URL is read once: LTI builds its URLs on it and mail its
	// links.
	c.PublicURL = strings.TrimRight(get("PUBLIC_URL", ""), "/")
	publicURLOK := true
	if u := c.PublicURL; u != "" {
		parsed, err := url.Parse(u)
		if err != nil || !isURL(u, "https", "http") || parsed.Path != "" || parsed.RawQuery != "" || parsed.Fragment != "" || parsed.User != nil {
			bad("PUBLIC_URL", u, "expected the site's public base URL, such as https://simulador.utpl.edu.ec (no path)")
			publicURLOK = false
		}
	}
	c.Mail = loadMail(get, bad, c.PublicURL, publicURLOK)

	c.Transcribe = Transcribe{
		URL:      get("TRANSCRIBE_URL", ""),
		Model:    get("TRANSCRIBE_MODEL", "whisper-1"),
		APIKey:   get("TRANSCRIBE_API_KEY", ""),
		Language: get("TRANSCRIBE_LANGUAGE", "es"),
		Timeout:  duration(get, bad, "TRANSCRIBE_TIMEOUT", "5m"),
	}
	if u := c.Transcribe.URL; u != "" && !isURL(u, "https", "http") {
		bad("TRANSCRIBE_URL", u, "expected an http(s):// URL of an OpenAI-compatible transcription server")
	}

	c.Site = Site{
		InstitutionName: get("INSTITUTION_NAME", "Universidad Técnica Particular de Loja"),
		UniversityURL:   get("UNIVERSITY_URL", "https://www.utpl.edu.ec"),
		ContactEmail:    get("CONTACT_EMAIL", "derecho@utpl.edu.ec"),
		ContactPhone:    get("CONTACT_PHONE", "+593 7 370 1444"),
		ContactAddress:  get("CONTACT_ADDRESS", "San Cayetano Alto, calle París, Loja, Ecuador"),
		Facebook:        get("SOCIAL_FACEBOOK", "https://www.facebook.com/utpl.loja"),
		Instagram:       get("SOCIAL_INSTAGRAM", "https://www.instagram.com/utpl"),
		X:               get("SOCIAL_X", "https://x.com/utpl"),
		YouTube:         get("SOCIAL_YOUTUBE", "https://www.youtube.com/user/utpl"),
		IntroVideoURL:   get("INTRO_VIDEO_URL", ""),
	}
	for key, v := range map[string]string{
		"UNIVERSITY_URL": c.Site.UniversityURL, "SOCIAL_FACEBOOK": c.Site.Facebook, "SOCIAL_INSTAGRAM": c.Site.Instagram,
		"SOCIAL_X": c.Site.X, "SOCIAL_YOUTUBE": c.Site.YouTube, "INTRO_VIDEO_URL": c.Site.IntroVideoURL,
	} {
		if v != "" && !isURL(v, "https", "http") && !strings.HasPrefix(v, "/") {
			bad(key, v, "expected an http(s):// URL")
		}
	}

	if len(errs) > 0 {
		return Config{}, fmt.Errorf("invalid configuration: %w", errors.Join(errs...))
	}
	return c, nil
}

// loadProxyTrust reads TRUST_PROXY_HOPS and TRUST_PROXY_CIDRS: either one
// trusts forwarded headers (TRUST_PROXY may then be left unset), and they
// exclude each other.
func loadProxyTrust(c *Config, get func(string, string) string, bad func(string, string, string)) {
	explicit := get("TRUST_PROXY", "") != ""
	c.TrustProxyHops = integer(get, bad, "TRUST_PROXY_HOPS", 0, 0, 10)
	raw := get("TRUST_PROXY_CIDRS", "")
	for _, s := range strings.Split(raw, ",") {
		if s = strings.TrimSpace(s); s == "" {
			continue
		}
		p, err := netip.ParsePrefix(s)
		if err != nil {
			a, aerr := netip.ParseAddr(s)
			if aerr != nil {
				bad("TRUST_PROXY_CIDRS", raw, "expected address ranges separated by commas, e.g. 10.0.0.0/8,2001:db8::/32 (a single address is a range too)")
				return
			}
			p = netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen())
		}
		c.TrustProxyCIDRs = append(c.TrustProxyCIDRs, p.Masked())
	}
	byRange := len(c.TrustProxyCIDRs) > 0
	switch {
	case c.TrustProxyHops > 0 && byRange:
		bad("TRUST_PROXY_HOPS/TRUST_PROXY_CIDRS", "", "set one of them: the number of proxies that add to X-Forwarded-For, or their address ranges")
	case (c.TrustProxyHops > 0 || byRange) && explicit && !c.TrustProxy:
		bad("TRUST_PROXY", "false", "contradicts TRUST_PROXY_HOPS/TRUST_PROXY_CIDRS, which trust a proxy: leave TRUST_PROXY unset")
	}
	c.TrustProxy = c.TrustProxy || c.TrustProxyHops > 0 || byRange
}

// ProxyHops is how many addresses from the right of X-Forwarded-For the
// client's is, or 0 when X-Forwarded-For is not read by position (no proxy
// is trusted, or proxies are known by their ranges). TRUST_PROXY=true alone
// means one hop: Cloud Run's front end appends the address that connected
// to it. With FIREBASE_HOSTING=true it means two: Hosting appends the
// client's address, and Cloud Run's front end then appends Hosting's.
func (c Config) ProxyHops() int {
	switch {
	case !c.TrustProxy || len(c.TrustProxyCIDRs) > 0:
		return 0
	case c.TrustProxyHops > 0:
		return c.TrustProxyHops
	case c.FirebaseHosting:
		return 2
	}
	return 1
}

// ClientAddressRule says, for the start-up log, where the client's address
// is taken from.
func (c Config) ClientAddressRule() string {
	switch {
	case !c.TrustProxy:
		return "the connection (forwarded headers are dropped)"
	case len(c.TrustProxyCIDRs) > 0:
		return fmt.Sprintf("X-Forwarded-For, the right-most address outside %v, when the connection comes from one of them", c.TrustProxyCIDRs)
	}
	return fmt.Sprintf("X-Forwarded-For, address %d from the right", c.ProxyHops())
}

// loadMail reads SMTP_URL (smtp://[user[:password]@]host[:port], STARTTLS,
// port 587 by default; or smtps://…, port 465), SMTP_PASSWORD (the
// password, kept out of the URL) and MAIL_FROM; links in messages are
// built on publicURL (PUBLIC_URL, checked by the caller). The URL is never
// echoed: it may hold a password.
func loadMail(get func(string, string) string, bad func(string, string, string), publicURL string, publicURLOK bool) Mail {
	raw := get("SMTP_URL", "")
	m := Mail{From: get("MAIL_FROM", ""), PublicURL: publicURL}
	if raw == "" {
		for _, k := range []string{"SMTP_PASSWORD", "MAIL_FROM"} {
			if get(k, "") != "" {
				bad(k, "…", "set SMTP_URL too, or leave it unset (no e-mail is sent)")
			}
		}
		return Mail{PublicURL: m.PublicURL}
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || u.Hostname() == "" || (u.Scheme != "smtp" && u.Scheme != "smtps") || (u.Path != "" && u.Path != "/"):
		bad("SMTP_URL", "…", "expected smtp://[user[:password]@]host[:port] (STARTTLS) or smtps://… (TLS)")
		return Mail{}
	}
	m.Host, m.Port, m.ImplicitTLS = u.Hostname(), u.Port(), u.Scheme == "smtps"
	if m.Port == "" {
		m.Port = map[bool]string{false: "587", true: "465"}[m.ImplicitTLS]
	}
	if u.User != nil {
		m.Username = u.User.Username()
		m.Password, _ = u.User.Password()
	}
	if p := get("SMTP_PASSWORD", ""); p != "" {
		m.Password = p
	}
	if m.Password != "" && m.Username == "" {
		bad("SMTP_URL", "…", "a password needs a user name: smtp://user@host with SMTP_PASSWORD")
	}
	if addr, err := mail.ParseAddress(m.From); err != nil || !strings.Contains(addr.Address, "@") {
		bad("MAIL_FROM", m.From, "required with SMTP_URL: the sender, e.g. Simulador <no-reply@utpl.edu.ec>")
	}
	if m.PublicURL == "" && publicURLOK {
		bad("PUBLIC_URL", "", "required with SMTP_URL: the site's address for links in messages, e.g. https://simulador.utpl.edu.ec")
	}
	return m
}

// StoreKind names the store a Config selects.
type StoreKind string

const (
	StoreSQLite    StoreKind = "sqlite"
	StorePostgres  StoreKind = "postgres"
	StoreFirestore StoreKind = "firestore"
	StoreUnknown   StoreKind = ""
)

// StoreKind reports which store DatabaseURL selects.
func (c Config) StoreKind() StoreKind {
	switch u := c.DatabaseURL; {
	case u == "":
		return StoreSQLite
	case strings.HasPrefix(u, "postgres://"), strings.HasPrefix(u, "postgresql://"):
		return StorePostgres
	case strings.HasPrefix(u, "firestore://"):
		return StoreFirestore
	}
	return StoreUnknown
}

// FirestoreProject is the project ID of a firestore:// DatabaseURL.
func (c Config) FirestoreProject() string {
	return strings.TrimSuffix(strings.TrimPrefix(c.DatabaseURL, "firestore://"), "/")
}

var (
	// Project IDs: https://cloud.google.com/resource-manager/docs/creating-managing-projects
	// ("demo-" projects are what the emulators use).
	projectIDPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{4,28}[a-z0-9]$`)
	// Bucket names, domain-named ones included (Firebase's default bucket
	// is PROJECT.appspot.com or PROJECT.firebasestorage.app).
	bucketPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]{1,220}[a-z0-9]$`)
	domainPattern = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)
)

// SQLitePath is where the embedded store lives.
func (c Config) SQLitePath() string { return filepath.Join(c.DataDir, "simulador.db") }

func duration(get func(string, string) string, bad func(string, string, string), key, def string) time.Duration {
	v := get(key, def)
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		bad(key, v, "expected a positive duration such as 30m or 12h")
	}
	return d
}

func integer(get func(string, string) string, bad func(string, string, string), key string, def, lo, hi int) int {
	v := get(key, strconv.Itoa(def))
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi {
		bad(key, v, fmt.Sprintf("expected a whole number between %d and %d", lo, hi))
		return def
	}
	return n
}

func boolean(get func(string, string) string, bad func(string, string, string), key string) bool {
	v := get(key, "false")
	b, err := strconv.ParseBool(v)
	if err != nil {
		bad(key, v, "expected true or false")
	}
	return b
}

// MaxRecordingMBCloudRun is the largest recording with FIREBASE_HOSTING=true:
// under Cloud Run's 32 MiB response limit with room for the headers.
const MaxRecordingMBCloudRun = 30

// IsGUID reports whether s is a GUID in its 36-character form.
func IsGUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, r := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if r != '-' {
				return false
			}
		case (r >= '0' && r <= '9') || (r >= 'a' && r <= 'f') || (r >= 'A' && r <= 'F'):
		default:
			return false
		}
	}
	return true
}

func oneOf(v string, allowed ...string) bool {
	for _, a := range allowed {
		if v == a {
			return true
		}
	}
	return false
}

func isURL(v string, schemes ...string) bool {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return false
	}
	return oneOf(u.Scheme, schemes...)
}

// Variables lists the environment variables Load reads, in the order it
// reads them (the README's configuration table documents each one; a test
// of the deployment files checks that both lists agree).
func Variables() []string {
	var names []string
	seen := map[string]bool{}
	_, _ = Load(func(key string) (string, bool) {
		if !seen[key] {
			seen[key] = true
			names = append(names, key)
		}
		return "", false
	})
	return names
}

// OtherVariables are read from the environment by something other than
// Load: the Google Cloud client libraries (emulators) and the Go runtime.
var OtherVariables = []string{"FIRESTORE_EMULATOR_HOST", "STORAGE_EMULATOR_HOST", "GOMEMLIMIT", "AUTOMEMLIMIT"}
