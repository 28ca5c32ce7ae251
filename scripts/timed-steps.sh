#!/usr/bin/env bash
# timed-steps.sh STEP...: runs `make STEP` for each step in order, stopping at
# the first that fails, and prints how long each took and the total so far,
# so a step growing towards CI's 90-minute limit is seen before it is hit.
# make test runs its steps through it (.ci/run is make test).
set -uo pipefail
make_cmd=${MAKE:-make}
limit_min=${CI_LIMIT_MINUTES:-90}
start=$SECONDS
done_steps=()

fmt() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }
summary() {
  echo
  echo "== make test: wall time per step"
  for line in "${done_steps[@]}"; do echo "   $line"; done
  echo "   total $(fmt $((SECONDS - start))) (CI stops at ${limit_min}m)"
}

for step in "$@"; do
  echo "== make $step"
  t0=$SECONDS
  "$make_cmd" --no-print-directory "$step"
  status=$?
  took=$((SECONDS - t0))
  if [ "$status" -ne 0 ]; then
    done_steps+=("$(printf '%-13s %8s  FAILED' "$step" "$(fmt "$took")")")
    summary
    exit "$status"
  fi
  done_steps+=("$(printf '%-13s %8s' "$step" "$(fmt "$took")")")
  echo "== make $step: $(fmt "$took") (total $(fmt $((SECONDS - start))))"
done
summary
