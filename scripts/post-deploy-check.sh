#!/usr/bin/env bash
# After a deploy: checks what the site answers through Firebase Hosting, one
# curl each, and prints "pass" or "FAIL" per check (README, "Deploy to
# Firebase Hosting and Cloud Run", step 9). Exits 1 if any check failed.
#
#   scripts/post-deploy-check.sh https://simulador.utpl.edu.ec
#
# The test suite runs it against a local stand-in for Hosting
# (backend/cmd/hosting-test-proxy) in the Playwright project "hosting".
set -u

site=${1:?usage: scripts/post-deploy-check.sh SITE (e.g. https://simulador.utpl.edu.ec)}
site=${site%/}
failed=0

# headers_of PATH: the status line and headers of GET SITE/PATH, lower-cased names.
headers_of() {
	curl -s -o /dev/null -D - --max-time 30 "$site$1" | tr -d '\r'
}
status() { printf '%s\n' "$1" | awk 'NR==1 {print $2}'; }
header() { printf '%s\n' "$1" | awk -v k="$(printf '%s' "$2" | tr 'A-Z' 'a-z')" -F': ' 'tolower($1)==k {print $2; exit}'; }

check() { # check NAME CONDITION-RESULT DETAIL
	if [ "$2" = ok ]; then
		printf 'pass  %s\n' "$1"
	else
		printf 'FAIL  %s: %s\n' "$1" "$3"
		failed=1
	fi
}
is() { if [ "$1" = "$2" ]; then echo ok; else echo no; fi; }

for page in /inicio /; do
	h=$(headers_of "$page")
	ok=no
	if [ "$(status "$h")" = 200 ] && [ "$(header "$h" cache-control)" = no-cache ] &&
		case "$(header "$h" content-type)" in text/html*) true ;; *) false ;; esac; then ok=ok; fi
	check "the page $page is revalidated (200, no-cache, text/html)" $ok \
		"status $(status "$h"), Cache-Control '$(header "$h" cache-control)', Content-Type '$(header "$h" content-type)'"
done

asset=$(curl -s --max-time 30 "$site/" | grep -o '/assets/[^"]*\.js' | head -n 1)
if [ -z "$asset" ]; then
	check "the app's page names a built script" no "no /assets/….js in $site/"
else
	h=$(headers_of "$asset")
	ok=no
	if [ "$(status "$h")" = 200 ] && [ "$(header "$h" cache-control)" = "public, max-age=31536000, immutable" ]; then ok=ok; fi
	check "a built asset ($asset) is cached for good" $ok "status $(status "$h"), Cache-Control '$(header "$h" cache-control)'"
fi

h=$(headers_of /assets/no-such-file.js)
check "a missing asset is a 404, not the app" "$(is "$(status "$h")" 404)" \
	"status $(status "$h"), Content-Type '$(header "$h" content-type)'"

h=$(headers_of /api/no-such-thing)
ok=no
if [ "$(status "$h")" = 404 ] && [ "$(header "$h" cache-control)" = no-store ]; then ok=ok; fi
check "the API is never cached (404, no-store)" $ok "status $(status "$h"), Cache-Control '$(header "$h" cache-control)'"

body=$(curl -s --max-time 30 "$site/api/health")
check "the service answers /api/health" "$(is "$(printf '%s' "$body" | grep -c '"status":"ok"')" 1)" "$body"

body=$(curl -s --max-time 30 "$site/lti/config.json")
check "LTI's URLs name the site, not the run.app host" \
	"$(is "$(printf '%s' "$body" | grep -c "\"target_link_uri\":\"$site/")" 1)" "$(printf '%s' "$body" | head -c 300)"

h=$(headers_of /lti/jwks)
check "the LTI key set is revalidated (no-cache)" "$(is "$(header "$h" cache-control)" no-cache)" \
	"Cache-Control '$(header "$h" cache-control)'"

exit $failed
