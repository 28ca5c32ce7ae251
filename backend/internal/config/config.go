// Package config reads the server's configuration from the environment once,
// at start, and validates it. Every setting has a safe default so that a
// fresh clone runs with no configuration at all.
package config

import (
	"errors"
	"fmt"
	"net"
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
	TrustProxy   bool   // take the client address and scheme from X-Forwarded-For/-Proto (Cloud Run, Firebase Hosting)
	SessionIdle  time.Duration
	SessionMax   time.Duration

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

	// DebugAddr, when set, serves Go's profiler (net/http/pprof) on this
	// loopback address, apart from the public listener.
	DebugAddr string

	Microsoft  Microsoft
	Site       Site
	Transcribe Transcribe
}

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
	c.AllowShortTimings = boolean(get, bad, "ALLOW_SHORT_TIMINGS")
	retention := get("RECORDING_RETENTION_DAYS", "0")
	if days, err := strconv.Atoi(retention); err != nil || days < 0 || days > 3650 {
		bad("RECORDING_RETENTION_DAYS", retention, "expected a number of days between 0 (keep forever) and 3650")
	} else {
		c.RecordingRetention = time.Duration(days) * 24 * time.Hour
	}
	c.CaseImportMaxRows = integer(get, bad, "CASE_IMPORT_MAX_ROWS", 2000, 1, 100000)
	c.MaxCasesPerDegree = integer(get, bad, "MAX_CASES_PER_DEGREE", 10000, 1, 100000)
	c.MaxRecordingMB = integer(get, bad, "MAX_RECORDING_MB", 64, 1, 1024)
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
