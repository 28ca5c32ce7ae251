#!/usr/bin/env bash
# Lighthouse (mobile) on /inicio and /login against the built binary.
# Budgets: performance >= 95, accessibility = 100, best practices = 100.
# Reports go to .bench/lighthouse-*.json. Needs bin/simulador and Chromium.
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

fail=0
for page in inicio login; do
  report="$OUT/lighthouse-$page.json"
  npx --yes lighthouse@12 "http://127.0.0.1:$PORT/$page" --quiet --output=json --output-path="$report" \
    --only-categories=performance,accessibility,best-practices \
    --chrome-flags="--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking --disable-component-update --disable-sync" \
    >/dev/null 2>"$DATA/lh-$page.err" || { cat "$DATA/lh-$page.err" >&2; exit 1; }
  read -r perf a11y bp < <(node -e '
    const r = require(process.argv[1]);
    const s = (k) => Math.round(r.categories[k].score * 100);
    console.log(s("performance"), s("accessibility"), s("best-practices"));' "$PWD/$report")
  printf '/%-7s performance %3d (>= 95)  accessibility %3d (= 100)  best practices %3d (= 100)\n' "$page" "$perf" "$a11y" "$bp"
  if (( perf < 95 || a11y < 100 || bp < 100 )); then fail=1; fi
done
if (( fail )); then
  echo "Lighthouse budget not met; see $OUT/lighthouse-*.json" >&2
  exit 1
fi
echo "Lighthouse budgets met."
