package config

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func env(kv ...string) func(string) (string, bool) {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestDefaults(t *testing.T) {
	c, err := Load(env())
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != "127.0.0.1:8080" || !strings.HasSuffix(c.DataDir, "/data") || c.SessionIdle != 12*time.Hour ||
		c.Microsoft.Enabled() || c.Site.InstitutionName != "Universidad Técnica Particular de Loja" || c.Site.IntroVideoURL != "" || c.CaseImportMaxRows != 2000 || c.CookieSecure != "always" {
		t.Fatalf("defaults = %+v", c)
	}
	if c.MaxRecordingMB != 64 || c.StudentStorageQuotaMB != 500 || c.MaxTakesPerPhase != 5 || c.MaxMockTakesPerPhase != 2 || c.MaxAttemptsPerDay != 20 || c.MaxCasesPerDegree != 10000 {
		t.Fatalf("default limits = %+v", c)
	}
}

func TestLimits(t *testing.T) {
	c, err := Load(env("MAX_RECORDING_MB", "32", "STUDENT_STORAGE_QUOTA_MB", "2000", "MAX_TAKES_PER_PHASE", "8",
		"MAX_MOCK_TAKES_PER_PHASE", "1", "MAX_ATTEMPTS_PER_DAY", "50"))
	if err != nil {
		t.Fatal(err)
	}
	if c.MaxRecordingMB != 32 || c.StudentStorageQuotaMB != 2000 || c.MaxTakesPerPhase != 8 || c.MaxMockTakesPerPhase != 1 || c.MaxAttemptsPerDay != 50 {
		t.Fatalf("limits = %+v", c)
	}
}

func TestDebugAddr(t *testing.T) {
	for _, addr := range []string{"127.0.0.1:6060", "localhost:0", "[::1]:6060"} {
		c, err := Load(env("DEBUG_ADDR", addr))
		if err != nil || c.DebugAddr != addr {
			t.Errorf("DEBUG_ADDR=%s: %q, %v", addr, c.DebugAddr, err)
		}
	}
	if c, _ := Load(env()); c.DebugAddr != "" {
		t.Errorf("the profiler is on by default: %q", c.DebugAddr)
	}
}

func TestAddrAndPort(t *testing.T) {
	for _, tc := range []struct {
		kv   []string
		want string
	}{
		{[]string{"PORT", "9000"}, ":9000"},
		{[]string{"ADDR", "127.0.0.1:9001", "PORT", "9000"}, "127.0.0.1:9001"},
		{[]string{"ADDR", "0.0.0.0:80"}, "0.0.0.0:80"},
	} {
		c, err := Load(env(tc.kv...))
		if err != nil || c.Addr != tc.want {
			t.Errorf("%v: addr = %q, %v; want %q", tc.kv, c.Addr, err, tc.want)
		}
	}
}

const tenant = "6f0e0000-0000-0000-0000-000000000001"

func TestMicrosoft(t *testing.T) {
	c, err := Load(env("MS_TENANT_ID", tenant, "MS_CLIENT_ID", "app", "MS_EMAIL_DOMAINS", " UTPL.edu.ec, alumnos.utpl.edu.ec ,"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Microsoft.Enabled() || c.Microsoft.Authority != "https://login.microsoftonline.com/"+tenant ||
		strings.Join(c.Microsoft.EmailDomains, " ") != "utpl.edu.ec alumnos.utpl.edu.ec" {
		t.Fatalf("microsoft = %+v", c.Microsoft)
	}
	if _, err := Load(env("MS_TENANT_ID", strings.ToUpper(tenant), "MS_CLIENT_ID", "app", "MS_EMAIL_DOMAINS", "utpl.edu.ec")); err != nil {
		t.Fatalf("upper-case GUID: %v", err)
	}
}

func TestPublicURL(t *testing.T) {
	c, err := Load(env("PUBLIC_URL", "https://simulador.utpl.edu.ec/"))
	if err != nil || c.PublicURL != "https://simulador.utpl.edu.ec" {
		t.Fatalf("PublicURL = %q, %v", c.PublicURL, err)
	}
	if c, _ := Load(env()); c.PublicURL != "" {
		t.Fatalf("default PublicURL = %q", c.PublicURL)
	}
}

func TestIsGUID(t *testing.T) {
	for s, want := range map[string]bool{
		tenant: true, "72F988BF-86F1-41AF-91AB-2D7CD011DB47": true,
		"": false, "utpl.edu.ec": false, "common": false, "72f988bf86f141af91ab2d7cd011db47": false,
		"72f988bf-86f1-41af-91ab-2d7cd011db4g": false, "{72f988bf-86f1-41af-91ab-2d7cd011db47}": false,
		"72f988bf-86f1-41af-91ab2-d7cd011db47": false,
	} {
		if IsGUID(s) != want {
			t.Errorf("IsGUID(%q) = %v", s, !want)
		}
	}
}

func TestInvalidValuesNameTheVariable(t *testing.T) {
	for _, tc := range []struct {
		kv   []string
		name string
	}{
		{[]string{"PORT", "abc"}, "PORT"},
		{[]string{"ADDR", "8080"}, "ADDR"},
		{[]string{"SESSION_IDLE_TIMEOUT", "forever"}, "SESSION_IDLE_TIMEOUT"},
		{[]string{"SESSION_IDLE_TIMEOUT", "200h"}, "SESSION_IDLE_TIMEOUT"},
		{[]string{"LOG_LEVEL", "loud"}, "LOG_LEVEL"},
		{[]string{"COOKIE_SECURE", "maybe"}, "COOKIE_SECURE"},
		{[]string{"COOKIE_SECURE", "auto"}, "COOKIE_SECURE"},
		{[]string{"TRUST_PROXY", "si"}, "TRUST_PROXY"},
		{[]string{"TRUST_PROXY_HOPS", "uno"}, "TRUST_PROXY_HOPS"},
		{[]string{"TRUST_PROXY_HOPS", "11"}, "TRUST_PROXY_HOPS"},
		{[]string{"TRUST_PROXY_CIDRS", "10.0.0.0/33"}, "TRUST_PROXY_CIDRS"},
		{[]string{"TRUST_PROXY_CIDRS", "proxy.internal"}, "TRUST_PROXY_CIDRS"},
		{[]string{"TRUST_PROXY_HOPS", "1", "TRUST_PROXY_CIDRS", "10.0.0.0/8"}, "TRUST_PROXY_HOPS/TRUST_PROXY_CIDRS"},
		{[]string{"TRUST_PROXY", "false", "TRUST_PROXY_HOPS", "2"}, "TRUST_PROXY="},
		{[]string{"MS_TENANT_ID", tenant}, "MS_TENANT_ID/MS_CLIENT_ID"},
		{[]string{"MS_TENANT_ID", "utpl.edu.ec", "MS_CLIENT_ID", "c", "MS_EMAIL_DOMAINS", "utpl.edu.ec"}, "MS_TENANT_ID="},
		{[]string{"MS_TENANT_ID", tenant + "0", "MS_CLIENT_ID", "c", "MS_EMAIL_DOMAINS", "utpl.edu.ec"}, "MS_TENANT_ID="},
		{[]string{"MS_TENANT_ID", tenant, "MS_CLIENT_ID", "c", "MS_EMAIL_DOMAINS", "utpl.edu.ec", "MS_AUTHORITY", "http://insecure"}, "MS_AUTHORITY"},
		{[]string{"MS_TENANT_ID", tenant, "MS_CLIENT_ID", "c", "MS_EMAIL_DOMAINS", "utpl.edu.ec", "MS_CA_FILE", "/no/such/file"}, "MS_CA_FILE"},
		{[]string{"MS_TENANT_ID", tenant, "MS_CLIENT_ID", "c"}, "MS_EMAIL_DOMAINS"},
		{[]string{"MS_TENANT_ID", tenant, "MS_CLIENT_ID", "c", "MS_EMAIL_DOMAINS", "@utpl.edu.ec"}, "MS_EMAIL_DOMAINS"},
		{[]string{"TUTORS_REQUIRE_MICROSOFT", "true"}, "TUTORS_REQUIRE_MICROSOFT"},
		{[]string{"TUTORS_REQUIRE_MICROSOFT", "si"}, "TUTORS_REQUIRE_MICROSOFT"},
		{[]string{"SMTP_URL", "mail.utpl.edu.ec", "MAIL_FROM", "a@utpl.edu.ec", "PUBLIC_URL", "https://s.utpl.edu.ec"}, "SMTP_URL"},
		{[]string{"SMTP_URL", "smtp://mail.utpl.edu.ec", "PUBLIC_URL", "https://s.utpl.edu.ec"}, "MAIL_FROM"},
		{[]string{"SMTP_URL", "smtp://mail.utpl.edu.ec", "MAIL_FROM", "a@utpl.edu.ec"}, "PUBLIC_URL"},
		{[]string{"MAIL_FROM", "a@utpl.edu.ec"}, "MAIL_FROM"},
		{[]string{"PUBLIC_URL", "simulador.utpl.edu.ec"}, "PUBLIC_URL"},
		{[]string{"DATABASE_URL", "mysql://x"}, "DATABASE_URL"},
		{[]string{"DATABASE_URL", "firestore://"}, "DATABASE_URL"},
		{[]string{"DATABASE_URL", "firestore://My_Project"}, "DATABASE_URL"},
		{[]string{"MEDIA_BUCKET", "gs://bucket"}, "MEDIA_BUCKET"},
		{[]string{"MEDIA_BUCKET", "Bucket"}, "MEDIA_BUCKET"},
		{[]string{"INTRO_VIDEO_URL", "ftp://x/y"}, "INTRO_VIDEO_URL"},
		{[]string{"CASE_IMPORT_MAX_ROWS", "0"}, "CASE_IMPORT_MAX_ROWS"},
		{[]string{"CASE_IMPORT_MAX_ROWS", "mil"}, "CASE_IMPORT_MAX_ROWS"},
		{[]string{"MAX_CASES_PER_DEGREE", "0"}, "MAX_CASES_PER_DEGREE"},
		{[]string{"MAX_RECORDING_MB", "0"}, "MAX_RECORDING_MB"},
		{[]string{"FIREBASE_HOSTING", "true", "MAX_RECORDING_MB", "31"}, "MAX_RECORDING_MB"},
		{[]string{"STUDENT_STORAGE_QUOTA_MB", "500MB"}, "STUDENT_STORAGE_QUOTA_MB"},
		{[]string{"MAX_TAKES_PER_PHASE", "0"}, "MAX_TAKES_PER_PHASE"},
		{[]string{"MAX_MOCK_TAKES_PER_PHASE", "51"}, "MAX_MOCK_TAKES_PER_PHASE"},
		{[]string{"MAX_ATTEMPTS_PER_DAY", "-1"}, "MAX_ATTEMPTS_PER_DAY"},
		{[]string{"PUBLIC_URL", "simulador.utpl.edu.ec"}, "PUBLIC_URL"},
		{[]string{"PUBLIC_URL", "https://simulador.utpl.edu.ec/app"}, "PUBLIC_URL"},
		{[]string{"PUBLIC_URL", "ftp://simulador.utpl.edu.ec"}, "PUBLIC_URL"},
		{[]string{"DEBUG_ADDR", "0.0.0.0:6060"}, "DEBUG_ADDR"},
		{[]string{"DEBUG_ADDR", ":6060"}, "DEBUG_ADDR"},
		{[]string{"DEBUG_ADDR", "6060"}, "DEBUG_ADDR"},
	} {
		_, err := Load(env(tc.kv...))
		if err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%v: err = %v; want it to name %s", tc.kv, err, tc.name)
		} else if n := strings.Count(err.Error(), "\n") + 1; n != 1 {
			t.Errorf("%v: %d problems reported, want only the one under test: %v", tc.kv, n, err)
		}
	}
}

// TestProxyTrust: which X-Forwarded-For entry names the client, for each
// way of saying a proxy is trusted.
func TestProxyTrust(t *testing.T) {
	for _, tc := range []struct {
		kv    []string
		trust bool
		hops  int
		cidrs string
	}{
		{nil, false, 0, "[]"},
		{[]string{"TRUST_PROXY", "true"}, true, 1, "[]"},                             // Cloud Run alone
		{[]string{"TRUST_PROXY", "true", "FIREBASE_HOSTING", "true"}, true, 2, "[]"}, // Firebase Hosting, then Cloud Run
		{[]string{"FIREBASE_HOSTING", "true"}, false, 0, "[]"},
		{[]string{"TRUST_PROXY_HOPS", "3"}, true, 3, "[]"},
		{[]string{"TRUST_PROXY", "true", "FIREBASE_HOSTING", "true", "TRUST_PROXY_HOPS", "1"}, true, 1, "[]"},
		{[]string{"TRUST_PROXY_CIDRS", " 10.1.2.3/8, 2001:db8::/32,192.0.2.9 "}, true, 0, "[10.0.0.0/8 2001:db8::/32 192.0.2.9/32]"},
	} {
		c, err := Load(env(tc.kv...))
		if err != nil {
			t.Fatalf("%v: %v", tc.kv, err)
		}
		if cidrs := fmt.Sprint(c.TrustProxyCIDRs); c.TrustProxy != tc.trust || c.ProxyHops() != tc.hops || cidrs != tc.cidrs {
			t.Errorf("%v: trust %v, hops %d, ranges %s; want %v, %d, %s", tc.kv, c.TrustProxy, c.ProxyHops(), cidrs, tc.trust, tc.hops, tc.cidrs)
		}
	}
}

func TestStoreKind(t *testing.T) {
	for url, want := range map[string]StoreKind{
		"":                            StoreSQLite,
		"postgres://u@h/db":           StorePostgres,
		"postgresql://u@h/db":         StorePostgres,
		"firestore://demo-simulador":  StoreFirestore,
		"firestore://demo-simulador/": StoreFirestore,
	} {
		c, err := Load(env("DATABASE_URL", url))
		if err != nil {
			t.Fatalf("%q: %v", url, err)
		}
		if got := c.StoreKind(); got != want {
			t.Errorf("%q: StoreKind = %q, want %q", url, got, want)
		}
		if want == StoreFirestore && c.FirestoreProject() != "demo-simulador" {
			t.Errorf("%q: FirestoreProject = %q", url, c.FirestoreProject())
		}
	}
	c, err := Load(env("MEDIA_BUCKET", "demo-simulador.appspot.com"))
	if err != nil || c.MediaBucket != "demo-simulador.appspot.com" {
		t.Fatalf("MEDIA_BUCKET: %q, %v", c.MediaBucket, err)
	}
}

func TestMail(t *testing.T) {
	c, err := Load(env())
	if err != nil || c.Mail.Enabled() {
		t.Fatalf("mail is off by default: %+v, %v", c.Mail, err)
	}
	base := []string{"MAIL_FROM", "Simulador <no-reply@utpl.edu.ec>", "PUBLIC_URL", "https://simulador.utpl.edu.ec/"}
	for _, tc := range []struct {
		kv   []string
		want Mail
	}{
		{[]string{"SMTP_URL", "smtp://envios%40utpl.edu.ec:s3cr%2Ft@smtp.office365.com"},
			Mail{Host: "smtp.office365.com", Port: "587", Username: "envios@utpl.edu.ec", Password: "s3cr/t"}},
		{[]string{"SMTP_URL", "smtps://envios@mail.utpl.edu.ec", "SMTP_PASSWORD", "desde-un-secreto"},
			Mail{Host: "mail.utpl.edu.ec", Port: "465", ImplicitTLS: true, Username: "envios", Password: "desde-un-secreto"}},
		{[]string{"SMTP_URL", "smtp://127.0.0.1:2525"}, Mail{Host: "127.0.0.1", Port: "2525"}},
	} {
		c, err := Load(env(append(tc.kv, base...)...))
		if err != nil {
			t.Fatalf("%v: %v", tc.kv, err)
		}
		tc.want.From, tc.want.PublicURL = "Simulador <no-reply@utpl.edu.ec>", "https://simulador.utpl.edu.ec"
		if c.Mail != tc.want || !c.Mail.Enabled() {
			t.Errorf("%v: mail = %+v, want %+v", tc.kv, c.Mail, tc.want)
		}
	}
}

// An SMTP_URL that does not parse may still hold a password: the error
// names the variable, never its value.
func TestBadSMTPURLIsNotEchoed(t *testing.T) {
	for _, raw := range []string{"smtp://user:hunter2-secreto@", "http://user:hunter2-secreto@mail.utpl.edu.ec", "smtp://user:hunter2-secreto@host/x",
		"smtp://:hunter2-secreto@mail.utpl.edu.ec"} {
		_, err := Load(env("SMTP_URL", raw, "MAIL_FROM", "a@utpl.edu.ec", "PUBLIC_URL", "https://s.utpl.edu.ec"))
		if err == nil || !strings.Contains(err.Error(), "SMTP_URL") || strings.Contains(err.Error(), "hunter2") {
			t.Errorf("%s: err = %v", raw, err)
		}
	}
}

func TestTutorsRequireMicrosoft(t *testing.T) {
	c, err := Load(env("TUTORS_REQUIRE_MICROSOFT", "true", "MS_TENANT_ID", tenant, "MS_CLIENT_ID", "app", "MS_EMAIL_DOMAINS", "utpl.edu.ec"))
	if err != nil || !c.TutorsRequireMicrosoft {
		t.Fatalf("TUTORS_REQUIRE_MICROSOFT = %v, %v", c.TutorsRequireMicrosoft, err)
	}
}

// TestRecordingCapBehindHosting: behind Hosting the service is on Cloud
// Run, whose responses stop at 32 MiB, and a take is played in one.
func TestRecordingCapBehindHosting(t *testing.T) {
	c, err := Load(env("FIREBASE_HOSTING", "true"))
	if err != nil || c.MaxRecordingMB != MaxRecordingMBCloudRun {
		t.Fatalf("behind Hosting: %d, %v", c.MaxRecordingMB, err)
	}
	if c, err := Load(env()); err != nil || c.MaxRecordingMB != 64 {
		t.Fatalf("without Hosting: %d, %v", c.MaxRecordingMB, err)
	}
}
