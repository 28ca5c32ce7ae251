#!/usr/bin/env bash
# Checks Go benchmark results (the output of `go test -bench . -benchmem`)
# against the product's budgets, and fails when one is missed or missing.
# With ONLY, only the budgets whose benchmark pattern contains it are
# checked (for a run of some of the benchmarks).
#   scripts/bench-budgets.sh .bench/go-bench.txt
#   scripts/bench-budgets.sh .bench/report-bench.txt GroupReport
set -euo pipefail
results=${1:?usage: bench-budgets.sh GO_BENCH_OUTPUT [ONLY]}
only=${2:-}

# name (a regular expression on the benchmark name, without the -N CPU
# suffix) | metric | limit | what the budget is
budgets=$(cat <<'EOF'
^BenchmarkAnalyze$|ns/op|5000000|analysing a 15-minute transcript (about 2,500 words): under 5 ms
^BenchmarkAdversarial/|ns/op|1000000000|an adversarial transcript of tens of kilobytes: under 1 s
^BenchmarkLoadGroup5000$|ns/op|2000000000|loading a 5,000-row roster end to end: under 2 s
^BenchmarkLoadGroup5000$|B/op|134217728|loading a 5,000-row roster: memory under 128 MiB
^BenchmarkCaseImport8MB[A-Z]+$|B/op|16777216|an 8 MB case import of empty cases (the security review's probe): memory under 16 MiB
^BenchmarkCaseImport8MB[A-Z]+$|ns/op|1000000000|an 8 MB case import of empty cases: under 1 s
^BenchmarkParseXLSXWideSparse$|ns/op|1000000000|a 5,000-row roster with a cell in column XFD on every row: under 1 s
^BenchmarkMigratePilot/sqlite$|ns/op|20000000000|migrate-data of a pilot of 100 students (about 1,200 records, 400 takes, 16 MB of audio) into a new SQLite data directory, verified: under 20 s
^BenchmarkSignInDuringFlood/throttled$|ns/op|100000000|a real sign-in (argon2id) while 500 wrong passwords a second hit the account from addresses the throttle refuses: under 100 ms
^BenchmarkGroupReport1000/polled$|ns/op|50000000|the tutor's report (GET /api/admin/reports) of a 1,000-student group, as polled: under 50 ms
^BenchmarkGroupReport5000/polled$|ns/op|200000000|the tutor's report of a 5,000-student group, as polled: under 200 ms
^BenchmarkGroupReportFirestore1000/cold$|ns/op|20000000000|the tutor's report of a 1,000-student group on the Firestore emulator right after a start (every finished attempt read once): under 20 s, well within Firebase Hosting's 60 s cut
EOF
)
if [[ -n "$only" ]]; then
  budgets=$(grep -F -- "$only" <<<"$budgets" || true)
  [[ -n "$budgets" ]] || { echo "no budget matches $only"; exit 1; }
fi

awk -v budgets="$budgets" '
  BEGIN {
    n = split(budgets, lines, "\n")
    for (i = 1; i <= n; i++) {
      split(lines[i], f, "|")
      re[i] = f[1]; metric[i] = f[2]; limit[i] = f[3] + 0; what[i] = f[4]; seen[i] = 0
    }
  }
  /^Benchmark/ {
    name = $1; sub(/-[0-9]+$/, "", name)
    for (j = 3; j < NF; j++) value[$(j + 1)] = $j
    for (i = 1; i <= n; i++) {
      if (name !~ re[i] || !(metric[i] in value)) continue
      seen[i]++
      v = value[metric[i]] + 0
      ok = v < limit[i]
      printf "%-4s %-40s %14.0f %-5s (limit %.0f): %s\n", ok ? "ok" : "FAIL", name, v, metric[i], limit[i], what[i]
      if (!ok) failed = 1
    }
    delete value
  }
  END {
    for (i = 1; i <= n; i++) if (!seen[i]) { printf "MISSING %s %s: %s\n", re[i], metric[i], what[i]; failed = 1 }
    if (failed) { print "Benchmark budgets not met."; exit 1 }
    print "Benchmark budgets met."
  }
' "$results"
