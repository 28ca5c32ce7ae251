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
		c.Microsoft.Enabled() || c.Site.InstitutionName != "Universidad Técnica Particular de Loja" || c.Site.IntroVideoURL != "" {
		t.Fatalf("defaults = %+v", c)
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

func TestMicrosoft(t *testing.T) {
	c, err := Load(env("MS_TENANT_ID", "6f0e0000-0000-0000-0000-000000000001", "MS_CLIENT_ID", "app"))
	if err != nil {
		t.Fatal(err)
	}
	if !c.Microsoft.Enabled() || c.Microsoft.Authority != "https://login.microsoftonline.com/6f0e0000-0000-0000-0000-000000000001" {
		t.Fatalf("microsoft = %+v", c.Microsoft)
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
		{[]string{"TRUST_PROXY", "si"}, "TRUST_PROXY"},
		{[]string{"MS_TENANT_ID", "t"}, "MS_TENANT_ID/MS_CLIENT_ID"},
		{[]string{"MS_TENANT_ID", "t", "MS_CLIENT_ID", "c", "MS_AUTHORITY", "http://insecure"}, "MS_AUTHORITY"},
		{[]string{"MS_TENANT_ID", "t", "MS_CLIENT_ID", "c", "MS_CA_FILE", "/no/such/file"}, "MS_CA_FILE"},
		{[]string{"DATABASE_URL", "mysql://x"}, "DATABASE_URL"},
		{[]string{"INTRO_VIDEO_URL", "ftp://x/y"}, "INTRO_VIDEO_URL"},
	} {
		_, err := Load(env(tc.kv...))
		if err == nil || !strings.Contains(err.Error(), tc.name) {
			t.Errorf("%v: err = %v; want it to name %s", tc.kv, err, tc.name)
		}
	}
}
