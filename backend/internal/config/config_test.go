package config

import (
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
	c, err := Load(env("MS_TENANT_ID", tenant, "MS_CLIENT_ID", "app"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Microsoft.Enabled() || c.Microsoft.Authority != "https://login.microsoftonline.com/"+tenant {
		t.Fatalf("microsoft = %+v", c.Microsoft)
	}
	if _, err := Load(env("MS_TENANT_ID", strings.ToUpper(tenant), "MS_CLIENT_ID", "app")); err != nil {
		t.Fatalf("upper-case GUID: %v", err)
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
		{[]string{"MS_TENANT_ID", tenant}, "MS_TENANT_ID/MS_CLIENT_ID"},
		{[]string{"MS_TENANT_ID", "utpl.edu.ec", "MS_CLIENT_ID", "c"}, "MS_TENANT_ID="},
		{[]string{"MS_TENANT_ID", tenant + "0", "MS_CLIENT_ID", "c"}, "MS_TENANT_ID="},
		{[]string{"MS_TENANT_ID", tenant, "MS_CLIENT_ID", "c", "MS_AUTHORITY", "http://insecure"}, "MS_AUTHORITY"},
		{[]string{"MS_TENANT_ID", tenant, "MS_CLIENT_ID", "c", "MS_CA_FILE", "/no/such/file"}, "MS_CA_FILE"},
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
		{[]string{"STUDENT_STORAGE_QUOTA_MB", "500MB"}, "STUDENT_STORAGE_QUOTA_MB"},
		{[]string{"MAX_TAKES_PER_PHASE", "0"}, "MAX_TAKES_PER_PHASE"},
		{[]string{"MAX_MOCK_TAKES_PER_PHASE", "51"}, "MAX_MOCK_TAKES_PER_PHASE"},
		{[]string{"MAX_ATTEMPTS_PER_DAY", "-1"}, "MAX_ATTEMPTS_PER_DAY"},
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
