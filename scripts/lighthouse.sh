#!/usr/bin/env bash
# Lighthouse (mobile) on /inicio and /login against the built binary.
# Budgets: performance >= 98, accessibility = 100, best practices = 100,
# each on the median of LH_RUNS runs (default 5): one run's performance
# score moves by 2-3 points from run to run on this machine, as Lighthouse's
# own guidance on variability warns.
# Reports go to .bench/lighthouse-<page>-<run>.json. Needs bin/simulador and
# Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."

CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
export CHROME_PATH
OUT=.bench
mkdir -p "$OUT"
DATA=$(mktemp -d /tmp/simulador-lh.XXXXXX)
PORT=${LH_PORT:-18765}
DATA_DIR="$DATA" ADDR="127.0.0.1:$PORT" LOG_LEVEL=warn bin/simulador serve >"$DATA/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true; rm -rf "$DATA"' EXIT
for _ in $(seq 1 50); do
  curl -fsS "http://127.0.0.1:$PORT/api/health" >/dev/null 2>&1 && break
  sleep 0.2
done

RUNS=${LH_RUNS:-5}
fail=0
for page in inicio login; do
  scores=()
  for run in $(seq 1 "$RUNS"); do
    report="$OUT/lighthouse-$page-$run.json"
    npx --yes lighthouse@12 "http://127.0.0.1:$PORT/$page" --quiet --output=json --output-path="$report" \
      --only-categories=performance,accessibility,best-practices \
      --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync" \
      >/dev/null 2>"$DATA/lh-$page.err" || { cat "$DATA/lh-$page.err" >&2; exit 1; }
    scores+=("$PWD/$report")
  done
  # The median run by performance, and its other two scores.
  read -r perf a11y bp all < <(node -e '
    const runs = process.argv.slice(1).map((f) => require(f).categories)
    const s = (c, k) => Math.round(c[k].score * 100)
    runs.sort((a, b) => s(a, "performance") - s(b, "performance"))
    const m = runs[Math.floor(runs.length / 2)]
    console.log(s(m, "performance"), s(m, "accessibility"), s(m, "best-practices"), runs.map((c) => s(c, "performance")).join(","))' "${scores[@]}")
  printf '/%-7s performance %3d (>= 98; runs %s)  accessibility %3d (= 100)  best practices %3d (= 100)\n' "$page" "$perf" "$all" "$a11y" "$bp"
  if (( perf < 98 || a11y < 100 || bp < 100 )); then fail=1; fi
done
if (( fail )); then
  echo "Lighthouse budget not met; see $OUT/lighthouse-*.json" >&2
  exit 1
fi
echo "Lighthouse budgets met."
