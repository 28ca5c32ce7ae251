// Budget: the JavaScript /inicio loads (its entry and every chunk the entry
// imports statically) must stay within 100 kB gzip. MSAL, SweetAlert2, the
// login page and the /auth, /test and /admin sections are loaded later and
// do not count.
import { readFileSync } from 'node:fs'
import { gzipSync } from 'node:zlib'
import { join, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'

const BUDGET_KB = 100
// The level the server compresses responses with (backend/internal/httpapi/server.go),
// so the figure is what a browser downloads.
const GZIP_LEVEL = 5
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist')
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'))

// The build has two entries (index.html, the app, and auth-popup.html, MSAL's
// popup redirect page); /inicio is served by index.html.
const ENTRY = 'index.html'
const entry = manifest[ENTRY]
if (!entry?.isEntry) throw new Error(`no ${ENTRY} entry chunk in the Vite manifest`)

const seen = new Set()
const walk = (key) => {
  const chunk = manifest[key]
  if (!chunk || seen.has(chunk.file)) return
  seen.add(chunk.file)
  for (const imp of chunk.imports ?? []) walk(imp)
}
walk(ENTRY)

let total = 0
for (const file of seen) {
  const size = gzipSync(readFileSync(join(dist, file)), { level: GZIP_LEVEL }).length
  total += size
  console.log(`  ${(size / 1024).toFixed(1).padStart(7)} kB  ${file}`)
}
const kb = total / 1024
console.log(`JavaScript loaded by /inicio: ${kb.toFixed(1)} kB gzip (budget ${BUDGET_KB} kB)`)
if (kb > BUDGET_KB) {
  console.error('Over budget: move code behind a dynamic import or drop a dependency.')
  process.exit(1)
}
