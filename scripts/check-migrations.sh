#!/usr/bin/env bash
# Checks the SQL migrations' numbers (CONTRIBUTING.md, "Migrations"): each
# dialect has the same numbers, none twice, and no gap but the three that
# were released before this check existed (a deployed database records the
# versions it applied, so those cannot be renumbered now).
set -euo pipefail
cd "$(git rev-parse --show-toplevel)/backend/internal/store"
released_gaps=" 5 10 13 "
numbers() { ls "$1"/migrations/*.sql | sed -E 's#.*/0*([0-9]+)_[^/]*\.sql#\1#' | sort -n; }
status=0
for dialect in sqlite postgres; do
	dups=$(numbers "$dialect" | uniq -d)
	if [[ -n "$dups" ]]; then
		echo "migrations: $dialect has two migrations numbered: $dups"; status=1
	fi
	expected=1
	for n in $(numbers "$dialect" | uniq); do
		while ((expected < n)); do
			if [[ "$released_gaps" != *" $expected "* ]]; then
				echo "migrations: $dialect has no migration $expected (numbers must follow on: take the next after main's highest)"; status=1
			fi
			expected=$((expected + 1))
		done
		expected=$((n + 1))
	done
done
if ! diff <(numbers sqlite) <(numbers postgres) >/dev/null; then
	echo "migrations: sqlite and postgres differ in their numbers (every schema change has one migration per dialect, with the same number):"
	diff <(numbers sqlite) <(numbers postgres) || true
	status=1
fi
exit $status
