package main

import (
	"strings"
	"testing"
)

func TestLTIPlatformsAndKeys(t *testing.T) {
	cliEnv(t)
	canvas := []string{"lti", "platforms", "add", "--issuer", "https://canvas.instructure.com", "--client-id", "10000000000123",
		"--deployment-id", "42:abc", "--deployment-id", "43:def",
		"--auth-url", "https://sso.canvaslms.com/api/lti/authorize_redirect", "--token-url", "https://sso.canvaslms.com/login/oauth2/token",
		"--jwks-url", "https://sso.canvaslms.com/api/lti/security/jwks", "--frame-origin", "https://utpl.instructure.com", "--allow-tutors"}
	r := must(t, canvas...)
	if !strings.Contains(r.stdout, "registered https://canvas.instructure.com (client id 10000000000123, 2 deployment(s)); tutors allowed") {
		t.Errorf("stdout = %q", r.stdout)
	}
	fails(t, "registered already", canvas...)
	fails(t, "must use https", "lti", "platforms", "add", "--issuer", "https://moodle.utpl.edu.ec", "--client-id", "m1", "--deployment-id", "1",
		"--auth-url", "http://moodle.utpl.edu.ec/mod/lti/auth.php", "--token-url", "https://moodle.utpl.edu.ec/mod/lti/token.php",
		"--jwks-url", "https://moodle.utpl.edu.ec/mod/lti/certs.php")
	fails(t, "at least one --deployment-id", "lti", "platforms", "add", "--issuer", "https://moodle.utpl.edu.ec", "--client-id", "m1",
		"--auth-url", "https://moodle.utpl.edu.ec/mod/lti/auth.php", "--token-url", "https://moodle.utpl.edu.ec/mod/lti/token.php",
		"--jwks-url", "https://moodle.utpl.edu.ec/mod/lti/certs.php")
	// Loopback addresses may use http (tests, local trials).
	must(t, "lti", "platforms", "add", "--issuer", "http://127.0.0.1:9999", "--client-id", "local", "--deployment-id", "1",
		"--auth-url", "http://127.0.0.1:9999/auth", "--token-url", "http://localhost:9999/token", "--jwks-url", "http://[::1]:9999/jwks")
	r = must(t, "lti", "platforms", "list")
	if !strings.Contains(r.stdout, "https://canvas.instructure.com\tclient id 10000000000123\tdeployments 42:abc, 43:def\ttutors true") ||
		!strings.Contains(r.stdout, "frame origins https://utpl.instructure.com") || !strings.Contains(r.stdout, "http://127.0.0.1:9999\tclient id local") {
		t.Errorf("list = %q", r.stdout)
	}
	must(t, "lti", "platforms", "remove", "--issuer", "http://127.0.0.1:9999", "--client-id", "local")
	fails(t, "no platform http://127.0.0.1:9999 with client id local", "lti", "platforms", "remove", "--issuer", "http://127.0.0.1:9999", "--client-id", "local")
	fails(t, "--issuer and --client-id are required", "lti", "platforms", "remove", "--issuer", "http://127.0.0.1:9999")
	fails(t, `unknown subcommand "platforms edit"`, "lti", "platforms", "edit")
	fails(t, "missing subcommand", "lti")

	r = must(t, "lti", "keys", "rotate")
	if !strings.Contains(r.stdout, "new signing key ") || !strings.Contains(r.stdout, "stays published at /lti/jwks for 1h0m0s") {
		t.Errorf("rotate = %q", r.stdout)
	}
}
