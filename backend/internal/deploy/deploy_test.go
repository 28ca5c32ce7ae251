package deploy_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/utpl/simulador/backend/internal/config"
	"github.com/utpl/simulador/backend/internal/deploy"
	"github.com/utpl/simulador/backend/internal/httpapi"
)

const root = "../../../"

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(root + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func firebaseFile(t *testing.T) deploy.File {
	t.Helper()
	var f deploy.File
	dec := json.NewDecoder(bytes.NewReader(read(t, "firebase.json")))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		t.Fatalf("firebase.json does not parse (or has fields the generator does not write): %v", err)
	}
	return f
}

// TestFirebaseJSONIsGenerated: firebase.json is what cmd/firebase-config
// makes from the route table and the server's security headers, so
// Hosting's Content-Security-Policy and the server's cannot drift apart.
func TestFirebaseJSONIsGenerated(t *testing.T) {
	cfg, err := deploy.ReferenceConfig(func(string) (string, bool) { return "", false })
	if err != nil {
		t.Fatal(err)
	}
	want, err := deploy.Firebase(deploy.DefaultService, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(read(t, "firebase.json"), want) {
		t.Fatalf("firebase.json differs from what the server defines; run `make firebase-config` and commit it. Want:\n%s", want)
	}
	var page map[string]string
	for _, rule := range firebaseFile(t).Hosting.Headers {
		if rule.Regex != "" { // the app's pages: every path but the framed ones
			re := regexp.MustCompile(rule.Regex)
			for path, want := range map[string]bool{"/": true, "/inicio": true, "/login": true, "/auth/carreras": true, "/robots.txt": true,
				"/api/session": false, "/api/x/y": false, "/apis": true, "/lti": true, "/ltix": true, "/lt": true, "/lti/launch": false, "/lti/continue": false} {
				if re.MatchString(path) != want {
					t.Errorf("site-wide headers on %s: %v, want %v", path, !want, want)
				}
			}
			page = map[string]string{}
			for _, h := range rule.Headers {
				page[h.Key] = h.Value
			}
		}
	}
	if page["Cache-Control"] != "no-cache" {
		t.Errorf("Hosting's Cache-Control on the pages = %q, want no-cache as the server sends", page["Cache-Control"])
	}
	for _, h := range append(httpapi.SecurityHeaders(cfg), httpapi.HSTS()) {
		if page[h.Key] != h.Value {
			t.Errorf("Hosting's %s = %q, the server's %q", h.Key, page[h.Key], h.Value)
		}
	}
}

// TestHostingForwardsEveryRoute: every route of the server's table, and
// the /lti launches, reach Cloud Run; the app's own pages do not.
func TestHostingForwardsEveryRoute(t *testing.T) {
	f := firebaseFile(t)
	routes := httpapi.Routes()
	if len(routes) < 20 {
		t.Fatalf("the route table has %d routes", len(routes))
	}
	for _, r := range routes {
		if !f.Forwarded(r.Path) {
			t.Errorf("%s %s is not rewritten to Cloud Run by firebase.json", r.Method, r.Path)
		}
	}
	for _, p := range []string{"/lti/launch", "/lti/jwks", "/api/no-such-endpoint"} {
		if !f.Forwarded(p) {
			t.Errorf("%s is not rewritten to Cloud Run", p)
		}
	}
	for _, p := range []string{"/", "/login", "/test", "/admin/calificar", "/auth-popup.html", "/assets/index.js", "/apis"} {
		if f.Forwarded(p) {
			t.Errorf("the page %s is sent to Cloud Run, not served by Hosting", p)
		}
	}
	last := f.Hosting.Rewrites[len(f.Hosting.Rewrites)-1]
	if last.Regex == "" || last.Destination != "/index.html" {
		t.Errorf("the last rewrite is %+v, want the single-page app's fallback", last)
	}
	spa := regexp.MustCompile(last.Regex)
	for path, want := range map[string]bool{"/": true, "/inicio": true, "/assetsx": true, "/assets": true, "/assets/gone.js": false, "/assets/a/b.css": false} {
		if spa.MatchString(path) != want {
			t.Errorf("the single-page app's fallback on %s: %v, want %v", path, !want, want)
		}
	}
	if f.Hosting.Public != "frontend/dist" {
		t.Errorf("Hosting serves %s, not the built frontend", f.Hosting.Public)
	}
}

// TestFirestoreFilesAreTheTestedOnes: firebase deploy publishes the rules
// and indexes that the Firestore emulator tests load.
func TestFirestoreFilesAreTheTestedOnes(t *testing.T) {
	f := firebaseFile(t)
	for name, test := range map[string]string{f.Firestore.Rules: "rules_test.go", f.Firestore.Indexes: "indexes_test.go"} {
		read(t, name)
		src := read(t, "backend/internal/store/firestore/"+test)
		if !bytes.Contains(src, []byte(`"../../../../`+name+`"`)) {
			t.Errorf("backend/internal/store/firestore/%s does not load %s, which firebase.json publishes", test, name)
		}
	}
	if f.Storage.Rules != "storage.rules" || !strings.Contains(string(read(t, f.Storage.Rules)), "allow read, write: if false;") {
		t.Errorf("firebase.json's storage rules %q do not deny every client", f.Storage.Rules)
	}
	var indexes struct {
		Indexes []json.RawMessage `json:"indexes"`
	}
	if err := json.Unmarshal(read(t, f.Firestore.Indexes), &indexes); err != nil || len(indexes.Indexes) == 0 {
		t.Errorf("%s: %v (%d indexes)", f.Firestore.Indexes, err, len(indexes.Indexes))
	}
}

// TestDockerfile checks what can be checked without Docker: the image
// builds the binary as make build does, embeds the frontend, runs as a
// user other than root, listens on PORT, and uses the toolchains the
// repository does.
func TestDockerfile(t *testing.T) {
	docker := string(read(t, "Dockerfile"))
	makefile := string(read(t, "Makefile"))
	goBuild := regexp.MustCompile(`(?m)^\s*(?:RUN\s+)?((?:CGO_ENABLED=\d\s+)?go build .*\./backend/cmd/simulador)\s*$`)
	flags := func(line string) string {
		return regexp.MustCompile(`-o \S+ `).ReplaceAllString(line, "-o OUT ")
	}
	d, m := goBuild.FindStringSubmatch(docker), goBuild.FindStringSubmatch(makefile)
	if d == nil || m == nil {
		t.Fatalf("no go build of ./backend/cmd/simulador found (Dockerfile %v, Makefile %v)", d != nil, m != nil)
	}
	if flags(d[1]) != flags(m[1]) {
		t.Errorf("the image builds with\n\t%s\nmake build with\n\t%s", d[1], m[1])
	}
	if !strings.Contains(docker, "COPY --from=web /src/frontend/dist/ backend/internal/webui/dist/") {
		t.Error("the image does not embed the built frontend (frontend/dist into backend/internal/webui/dist)")
	}
	// The last stage's user.
	stages := strings.Split(docker, "\nFROM ")
	final := stages[len(stages)-1]
	user := regexp.MustCompile(`(?m)^USER\s+(\S+)`).FindStringSubmatch(final)
	if user == nil || user[1] == "root" || user[1] == "0" || user[1] == "0:0" {
		t.Errorf("the final stage runs as %v, want a user other than root", user)
	}
	if !strings.Contains(final, ":nonroot") && (user == nil || !regexp.MustCompile(`^\d+`).MatchString(user[1])) {
		t.Error("the final stage's user is neither the distroless nonroot one nor numeric")
	}
	for _, v := range []string{"ADDR", "PORT"} {
		if regexp.MustCompile(`(?m)^ENV\b.*\b` + v + `=`).MatchString(docker) {
			t.Errorf("the image sets %s: Cloud Run's PORT must decide where it listens (ADDR would override it)", v)
		}
	}
	if !regexp.MustCompile(`(?m)^ENTRYPOINT \["/simulador", "serve"\]`).MatchString(docker) {
		t.Error("the image does not start the server")
	}
	goVersion := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindStringSubmatch(string(read(t, "go.mod")))
	if !strings.Contains(docker, "FROM golang:"+goVersion[1]+"-") {
		t.Errorf("the image's Go is not go.mod's %s", goVersion[1])
	}
	if !strings.Contains(docker, "npm ci") || !strings.Contains(docker, "npm --workspace frontend run build") {
		t.Error("the image does not build the frontend as make web does")
	}
}

// readmeVariables returns the variables named in the first column of the
// README's configuration table.
func readmeVariables(t *testing.T) []string {
	t.Helper()
	var names []string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(read(t, "README.md")))
	name := regexp.MustCompile("`([A-Z][A-Z0-9_]+)`")
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## Configuration"):
			in = true
		case strings.HasPrefix(line, "## "):
			in = false
		case in && strings.HasPrefix(line, "| `"):
			first := strings.SplitN(line, "|", 3)[1]
			for _, m := range name.FindAllStringSubmatch(first, -1) {
				names = append(names, m[1])
			}
		}
	}
	return names
}

// TestREADMEVariablesAreTheConfiguration: every variable the server reads
// is in the README's configuration table, every one the table (or the
// deployment commands) names is read by someone, and none is documented
// twice.
func TestREADMEVariablesAreTheConfiguration(t *testing.T) {
	table := readmeVariables(t)
	known := append(slices.Clone(config.Variables()), config.OtherVariables...)
	for _, v := range config.Variables() {
		if !slices.Contains(table, v) {
			t.Errorf("%s is read by the server but missing from the README's configuration table", v)
		}
	}
	seen := map[string]bool{}
	for _, v := range table {
		if !slices.Contains(known, v) {
			t.Errorf("the README's configuration table names %s, which nothing reads", v)
		}
		if seen[v] {
			t.Errorf("%s is in the README's configuration table twice", v)
		}
		seen[v] = true
	}
	// The deployment commands: every --set-env-vars / --update-env-vars name.
	readme := string(read(t, "README.md"))
	envFlag := regexp.MustCompile(`--(?:set|update)-env-vars[= ]"?([^"\s\\]+)`)
	found := 0
	for _, m := range envFlag.FindAllStringSubmatch(readme, -1) {
		for _, kv := range strings.Split(m[1], ",") {
			k, _, _ := strings.Cut(kv, "=")
			found++
			if !slices.Contains(known, k) {
				t.Errorf("the README deploys with %s, which nothing reads", k)
			}
		}
	}
	if found == 0 {
		t.Error("the README's deployment commands set no environment variable")
	}
}

// placeholders stand for the variables the README's deploy section sets
// at its top, so its commands can be run through the configuration
// loader here.
var placeholders = map[string]string{
	"PROJECT":   "mi-proyecto",
	"REGION":    "us-central1",
	"BUCKET":    "mi-proyecto-grabaciones",
	"SITE":      "https://simulador.utpl.edu.ec",
	"TENANT_ID": "00000000-0000-0000-0000-000000000000",
	"CLIENT_ID": "11111111-1111-1111-1111-111111111111",
}

// deployCommandEnv returns the environment the README's `gcloud run
// deploy` command gives the service: its --set-env-vars, with gcloud's
// alternate delimiter (^;^) understood.
func deployCommandEnv(t *testing.T, readme string) map[string]string {
	t.Helper()
	start := strings.Index(readme, "gcloud run deploy simulador --image=$IMAGE")
	if start < 0 {
		t.Fatal("the README has no `gcloud run deploy simulador --image=$IMAGE` command")
	}
	var cmd strings.Builder
	for _, line := range strings.Split(readme[start:], "\n") {
		cmd.WriteString(strings.TrimSuffix(strings.TrimSpace(line), "\\") + " ")
		if !strings.HasSuffix(strings.TrimSpace(line), "\\") {
			break
		}
	}
	m := regexp.MustCompile(`--set-env-vars=(\S+)`).FindStringSubmatch(cmd.String())
	if m == nil {
		t.Fatalf("the deploy command sets no variable: %s", cmd.String())
	}
	list, sep := m[1], ","
	if d := regexp.MustCompile(`^\^(.)\^`).FindStringSubmatch(list); d != nil {
		list, sep = list[len(d[0]):], d[1]
	}
	top := readme[strings.Index(readme, "## Deploy to Firebase Hosting and Cloud Run"):start]
	env := map[string]string{}
	for _, kv := range strings.Split(list, sep) {
		k, v, _ := strings.Cut(kv, "=")
		v = regexp.MustCompile(`\$([A-Z_]+)`).ReplaceAllStringFunc(v, func(ref string) string {
			name := ref[1:]
			if !regexp.MustCompile(`(?m)^` + name + `=`).MatchString(top) {
				t.Errorf("the deploy command uses $%s, which the section does not set before it", name)
			}
			p, ok := placeholders[name]
			if !ok {
				t.Errorf("no placeholder for $%s in this test", name)
			}
			return p
		})
		env[k] = v
	}
	return env
}

// TestREADMEDeployCommandStarts: the README's deploy command gives the
// server a configuration it starts with (a required variable missing from
// it stops the start on Cloud Run), behind Hosting as the rest of the
// section assumes, with the site's public address for the links it builds.
func TestREADMEDeployCommandStarts(t *testing.T) {
	readme := string(read(t, "README.md"))
	env := deployCommandEnv(t, readme)
	cfg, err := config.Load(func(k string) (string, bool) { v, ok := env[k]; return v, ok })
	if err != nil {
		t.Fatalf("the README's deploy command does not start the server:\n%v", err)
	}
	if !cfg.FirebaseHosting || !cfg.TrustProxy {
		t.Error("the deploy command does not set FIREBASE_HOSTING=true and TRUST_PROXY=true")
	}
	if cfg.PublicURL != placeholders["SITE"] {
		t.Errorf("the deploy command's PUBLIC_URL = %q, want $SITE: behind Hosting the request's host is the service's", cfg.PublicURL)
	}
	for _, flag := range []string{"--no-invoker-iam-check", "--execution-environment=gen2", "--cpu-boost"} {
		if !strings.Contains(readme[strings.Index(readme, "gcloud run deploy simulador --image=$IMAGE"):], flag) {
			t.Errorf("the deploy command lacks %s", flag)
		}
	}
	if strings.Contains(readme, "--allow-unauthenticated") {
		t.Error("the README still uses --allow-unauthenticated, which Domain Restricted Sharing refuses")
	}
	// The indexes are deployed, and built, before the service starts.
	indexes := strings.Index(readme, "firebase deploy --only firestore:rules,firestore:indexes")
	service := strings.Index(readme, "gcloud run deploy simulador --image=$IMAGE")
	if indexes < 0 || indexes > service {
		t.Error("the README does not deploy the Firestore rules and indexes before the service")
	}
}
