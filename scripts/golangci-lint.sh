#!/usr/bin/env bash
# Runs golangci-lint at the version pinned in tools/go.mod (with its
# checksums in tools/go.sum), building it from the Go module proxy into
# .cache/bin the first time and again whenever the pin changes (about a
# minute on 2 cores; nothing is downloaded from GitHub). Arguments go to
# golangci-lint: scripts/golangci-lint.sh run ./backend/...
# LINT_MODULE=bench lints another module of the repository (bench/go.mod)
# with the same configuration.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.cache/bin/golangci-lint"
if [[ ! -x "$bin" || "$root/tools/go.mod" -nt "$bin" || "$root/tools/go.sum" -nt "$bin" ]]; then
  echo "golangci-lint: building the version pinned in tools/go.mod into .cache/bin…" >&2
  (cd "$root/tools" && go build -o "$bin" github.com/golangci/golangci-lint/v2/cmd/golangci-lint)
fi
cd "$root/${LINT_MODULE:-.}"
if [[ "${1:-}" == run ]]; then
  # golangci-lint refuses to start while another run of the same user is
  # going (one lock in the temporary folder): a lint in a second checkout
  # would fail this one. Waiting for the lock instead costs only time.
  shift
  exec "$bin" run --allow-serial-runners --config "$root/.golangci.yml" "$@"
fi
exec "$bin" --config "$root/.golangci.yml" "$@"
