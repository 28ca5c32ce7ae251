#!/usr/bin/env bash
# Runs a command with TEST_FIRESTORE_EMULATOR_HOST pointing at a throwaway
# Cloud Firestore emulator (Google's, from the Cloud SDK) on a free port, so
# the store contract suite runs against Firestore too; the emulator is
# stopped afterwards and the command's exit status returned.
#
# Without the emulator the command runs as is and only the Firestore tests
# skip; a boxed warning on standard error says so before and after the
# command's output. It cannot be installed here with apt (Google's apt
# source is needed: package google-cloud-cli-firestore-emulator).
#
# With CI set (CI=true, as CI runs .ci/run), a missing emulator is an error:
# the production store is never skipped there.
#
# FIRESTORE_EMULATOR_BIN names the launcher (cloud_firestore_emulator) when
# it is elsewhere (a path that does not exist means "not installed"); an
# already set TEST_FIRESTORE_EMULATOR_HOST is used as is.
set -euo pipefail

if [[ -n "${TEST_FIRESTORE_EMULATOR_HOST:-}" ]]; then
  exec "$@"
fi

find_emulator() {
  if [[ -n "${FIRESTORE_EMULATOR_BIN:-}" ]]; then
    [[ -x "$FIRESTORE_EMULATOR_BIN" ]] && echo "$FIRESTORE_EMULATOR_BIN"
    return
  fi
  local candidates=(/usr/lib/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator
    /usr/share/google-cloud-sdk/platform/cloud-firestore-emulator/cloud_firestore_emulator)
  local gcloud
  if gcloud=$(command -v gcloud 2>/dev/null); then
    candidates+=("$(dirname "$(readlink -f "$gcloud")")/../platform/cloud-firestore-emulator/cloud_firestore_emulator")
  fi
  for c in "${candidates[@]}"; do
    if [[ -x "$c" ]]; then
      echo "$c"
      return 0
    fi
  done
  return 1
}

box() {
  local width=80 line
  line=$(printf '%*s' "$width" '' | tr ' ' '!')
  {
    echo
    echo "$line"
    for l in "$@"; do printf '!! %-*s !!\n' $((width - 6)) "$l"; done
    echo "$line"
    echo
  } >&2
}

if ! EMULATOR=$(find_emulator); then
  if [[ -n "${CI:-}" && "${CI}" != "false" ]]; then
    box "ERROR: CI is set and the Cloud Firestore emulator is not installed." \
      "In CI the Firestore store tests must run. Install Google's package" \
      "google-cloud-cli-firestore-emulator or set FIRESTORE_EMULATOR_BIN."
    exit 1
  fi
  msg=("WARNING: the Cloud Firestore emulator is not installed."
    "The Firestore store tests are SKIPPED; every other test still runs."
    "Install Google's google-cloud-cli-firestore-emulator (Cloud SDK apt"
    "source) or set FIRESTORE_EMULATOR_BIN to its cloud_firestore_emulator.")
  box "${msg[@]}"
  status=0
  "$@" || status=$?
  box "${msg[@]}"
  exit "$status"
fi

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

LOG=$(mktemp /tmp/simulador-firestore.XXXXXX)
PID=""
stop() {
  if [[ -n "$PID" ]] && kill -0 "$PID" 2>/dev/null; then
    curl -s -m 5 -X POST "http://127.0.0.1:$PORT/shutdown" >/dev/null 2>&1 || true
    for _ in $(seq 50); do kill -0 "$PID" 2>/dev/null || break; sleep 0.1; done
    kill -- "-$PID" 2>/dev/null || true
  fi
  rm -f "$LOG"
}
trap stop EXIT

# The emulator takes the port it is given (it reports 0 for port 0): pick
# a free one, and another should it be taken in between.
for attempt in 1 2 3; do
  PORT=$(( 20000 + RANDOM % 30000 ))
  port_free "$PORT" || continue
  # Its own session, so stopping it stops the Java process too. Its heap
  # is capped: the test data is small, and the machine is shared.
  JAVA_TOOL_OPTIONS="${JAVA_TOOL_OPTIONS:-} -Xmx1g" setsid "$EMULATOR" start --host=127.0.0.1 --port="$PORT" >"$LOG" 2>&1 &
  PID=$!
  for _ in $(seq 600); do
    if [[ $(curl -s -m 1 "http://127.0.0.1:$PORT/" 2>/dev/null) == Ok* ]]; then
      break 2
    fi
    kill -0 "$PID" 2>/dev/null || break
    sleep 0.1
  done
  echo "with-firestore: the emulator did not start on port $PORT (attempt $attempt):" >&2
  tail -n 20 "$LOG" >&2
  kill -- "-$PID" 2>/dev/null || true
  PID=""
done
if [[ -z "$PID" ]]; then
  box "ERROR: the Cloud Firestore emulator ($EMULATOR) is installed but did not start."
  exit 1
fi

export TEST_FIRESTORE_EMULATOR_HOST="127.0.0.1:$PORT"
echo "with-firestore: Cloud Firestore emulator at $TEST_FIRESTORE_EMULATOR_HOST" >&2
status=0
"$@" || status=$?
exit "$status"
