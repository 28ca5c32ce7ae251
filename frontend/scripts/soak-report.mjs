// Reads a Playwright JSON report (scripts/soak.sh) and prints, per test and
// project, how many runs passed and failed; exits 1 when any test failed at
// least once, naming it, so a flaky test cannot hide among passes.
import { readFileSync } from 'node:fs'

const file = process.argv[2]
if (!file) {
  console.error('usage: node soak-report.mjs REPORT.json')
  process.exit(2)
}
const report = JSON.parse(readFileSync(file, 'utf8'))

// The colour codes Playwright puts in error messages (ESC [ … m).
const terminalColours = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g')

/** @type {Map<string, {passed: number, failed: number, skipped: number, errors: string[]}>} */
const counts = new Map()
const walk = (suite) => {
  for (const spec of suite.specs ?? []) {
    for (const t of spec.tests ?? []) {
      const key = `[${t.projectName}] ${spec.file}:${spec.line} › ${spec.title}`
      const c = counts.get(key) ?? { passed: 0, failed: 0, skipped: 0, errors: [] }
      for (const r of t.results ?? []) {
        if (r.status === 'passed') c.passed++
        else if (r.status === 'skipped') c.skipped++
        else {
          c.failed++
          const first = (r.error?.message ?? r.status).split('\n').find((l) => l.trim() !== '') ?? r.status
          c.errors.push(first.replace(terminalColours, '').trim().slice(0, 200))
        }
      }
      counts.set(key, c)
    }
  }
  for (const child of suite.suites ?? []) walk(child)
}
for (const s of report.suites ?? []) walk(s)

const rows = [...counts.entries()].sort(([a], [b]) => a.localeCompare(b))
let runs = 0
let passes = 0
for (const [name, c] of rows) {
  runs += c.passed + c.failed
  passes += c.passed
  // FAILED: never passed (broken, or the machine too slow for it); FLAKY: both.
  const mark = c.passed + c.failed === 0 ? 'no run' : c.failed === 0 ? 'ok    ' : c.passed === 0 ? 'FAILED' : 'FLAKY '
  console.log(`${mark} ${String(c.passed).padStart(3)} passed ${String(c.failed).padStart(3)} failed  ${name}`)
}
const flaky = rows.filter(([, c]) => c.failed > 0)
console.log(
  `\ntest-soak: ${runs} runs, ${passes} passed, ${runs - passes} failed; ${flaky.length} of ${rows.length} tests failed at least once`,
)
for (const [name, c] of flaky) {
  console.log(`\n${c.passed === 0 ? 'FAILED' : 'FLAKY'} ${name}`)
  for (const e of new Set(c.errors)) console.log(`  ${e}`)
}
for (const e of report.errors ?? []) console.log(`\nerror outside a test: ${(e.message ?? '').split('\n')[0]}`)
process.exit(flaky.length > 0 || (report.errors ?? []).length > 0 ? 1 : 0)
