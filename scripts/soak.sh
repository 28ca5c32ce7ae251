#!/usr/bin/env bash
# make test-soak: run the timing-sensitive end-to-end specs many times while a
# CPU hog (stress-ng) keeps both cores busy, then print how often each test
# passed and failed. A test that failed even once is flaky: the run fails and
# names it. Playwright retries are off here, whatever the config says, so
# every failure counts.
#
# SOAK_REPEAT      how many times each test runs (default 5)
# SOAK_SPECS       the specs, relative to frontend/ (default: below)
# SOAK_PROJECTS    the Playwright projects (default: directory bucket)
# SOAK_HOG_CPUS    stress-ng CPU workers (default: the number of cores; 0: no hog)
# SOAK_OUT         where the JSON report goes (default: .soak/results.json)
set -euo pipefail
cd "$(dirname "$0")/.."

repeat=${SOAK_REPEAT:-5}
specs=${SOAK_SPECS:-"e2e/simulator-*.spec.ts e2e/history.spec.ts e2e/feedback-live.spec.ts e2e/microsoft.spec.ts e2e/admin-config.spec.ts"}
projects=${SOAK_PROJECTS:-"directory bucket"}
hog_cpus=${SOAK_HOG_CPUS:-$(nproc)}
out=${SOAK_OUT:-.soak/results.json}
mkdir -p "$(dirname "$out")"
out=$(cd "$(dirname "$out")" && pwd)/$(basename "$out")

hog=
stop_hog() { if [ -n "$hog" ]; then kill "$hog" 2>/dev/null || true; wait "$hog" 2>/dev/null || true; fi; }
trap stop_hog EXIT
if [ "$hog_cpus" -gt 0 ]; then
  command -v stress-ng >/dev/null || { echo "Installing Debian's stress-ng (apt)…"; apt-get update -qq && apt-get install -y -qq stress-ng >/dev/null; }
  # The hog outlives no run: it is stopped on exit, and times out anyway.
  stress-ng --cpu "$hog_cpus" --timeout 4h --quiet &
  hog=$!
  echo "test-soak: stress-ng --cpu $hog_cpus (pid $hog) keeps the cores busy"
fi

project_args=()
for p in $projects; do project_args+=(--project "$p"); done
echo "test-soak: each test $repeat times: $specs"
# The cluster projects need PostgreSQL and the Firestore emulator running.
servers=()
case " $projects " in *" cluster-"*) servers=(../scripts/with-postgres.sh ../scripts/with-firestore.sh) ;; esac
status=0
# shellcheck disable=SC2086 # the spec list is split on purpose
(cd frontend && PLAYWRIGHT_JSON_OUTPUT_NAME="$out" "${servers[@]}" \
  npx playwright test "${project_args[@]}" --repeat-each "$repeat" --retries 0 --reporter dot,json $specs) || status=$?
stop_hog
hog=
node frontend/scripts/soak-report.mjs "$out" || exit 1
exit "$status"
