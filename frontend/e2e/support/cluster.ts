// A cluster for end-to-end tests: two bin/simulador instances sharing one
// store (PostgreSQL, or the Cloud Firestore emulator) and one bucket (fake
// Cloud Storage), behind a round-robin proxy written here, as Cloud Run
// puts a load balancer in front of several instances. Consecutive requests
// alternate between the instances, so a browser's session, its chunk
// uploads and a tutor's grading all cross from one process to the other.
//
// The store servers come from the e2e run's environment: make e2e runs
// Playwright under scripts/with-postgres.sh (TEST_DATABASE_URL) and
// scripts/with-firestore.sh (TEST_FIRESTORE_EMULATOR_HOST). A shape whose
// server is missing is skipped, with a warning on standard error.
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { binary, kill, launch, startGcs, uniqueEmail, type Running, type ServerHandle, type TestUser } from './server'

const run = promisify(execFile)

/** The production shapes: the store several instances share. */
export type ClusterStore = 'postgres' | 'firestore'

export type Instance = {
  /** The instance's own address (bypassing the proxy). */
  url: string
  logs: () => string
  /** Kills the instance (SIGKILL); the proxy sends everything to the other one until restart. */
  kill: () => Promise<void>
  /** Starts it again on the same address, store and bucket. */
  restart: () => Promise<void>
}

export type Cluster = ServerHandle & {
  instances: Instance[]
  /** Requests the proxy sent to each instance, by kind. */
  served: (i: number) => { total: number; chunkPuts: number }
  /** How many argon2id password checks the instances made so far (their debug log). */
  passwordChecks: () => number
  /** Seconds from the first instance's launch until both answered. */
  startSeconds: number
}

/** Why a shape cannot run here; undefined when it can. */
export function missingServer(store: ClusterStore): string | undefined {
  if (store === 'postgres' && !process.env.TEST_DATABASE_URL)
    return 'TEST_DATABASE_URL is not set: the PostgreSQL cluster is skipped (make e2e runs Playwright under scripts/with-postgres.sh)'
  if (store === 'firestore' && !process.env.TEST_FIRESTORE_EMULATOR_HOST)
    return 'TEST_FIRESTORE_EMULATOR_HOST is not set: the Firestore cluster is skipped (make e2e runs Playwright under scripts/with-firestore.sh; the emulator is not installed)'
  return undefined
}

/** warnSkipped says loudly, on standard error, that a shape did not run. */
export function warnSkipped(reason: string) {
  const line = '!'.repeat(78)
  process.stderr.write(`\n${line}\nWARNING: ${reason}\n${line}\n\n`)
}

// storeEnv makes a fresh, empty store for one cluster.
async function storeEnv(store: ClusterStore): Promise<Record<string, string>> {
  const tag = `${process.pid}_${Date.now().toString(36)}`
  if (store === 'postgres') {
    const base = new URL(process.env.TEST_DATABASE_URL!)
    const name = `e2e_cluster_${tag}`
    await run('psql', [base.toString(), '-v', 'ON_ERROR_STOP=1', '-qc', `CREATE DATABASE ${name}`])
    base.pathname = `/${name}`
    return { DATABASE_URL: base.toString() }
  }
  return {
    DATABASE_URL: `firestore://demo-cluster-${tag.replace(/_/g, '-')}`,
    FIRESTORE_EMULATOR_HOST: process.env.TEST_FIRESTORE_EMULATOR_HOST!,
  }
}

const chunkPut = /^\/api\/attempts\/[^/]+\/recordings\/[^/]+\/chunks\/\d+$/

export async function startCluster(store: ClusterStore, extraEnv: Record<string, string> = {}): Promise<Cluster> {
  const storeVars = await storeEnv(store) // first: nothing to clean up when it fails
  const gcs = await startGcs()
  const dataDir = mkdtempSync(join(tmpdir(), 'simulador-cluster-'))
  const shared: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    DATA_DIR: dataDir, // nothing may be written there: the store and bucket are shared
    LOG_LEVEL: 'debug', // one "password checked" line per argon2id check
    MEDIA_BUCKET: gcs.bucket,
    STORAGE_EMULATOR_HOST: gcs.host,
    ALLOW_SHORT_TIMINGS: 'true',
    ...storeVars,
    ...extraEnv,
  }
  const outputs = ['', '']
  const running: (Running | undefined)[] = [undefined, undefined]
  const addrs = ['127.0.0.1:0', '127.0.0.1:0']
  const up = async (i: number) => {
    running[i] = await launch({ ...shared, ADDR: addrs[i] }, (s) => (outputs[i] += s))
    addrs[i] = new URL(running[i]!.url).host
  }
  // Both at once, on an empty store: migrations and the demo bank race.
  const t0 = Date.now()
  try {
    await Promise.all([up(0), up(1)])
  } catch (e) {
    await Promise.all(running.map((r) => r && kill(r.child, 'SIGKILL')))
    await gcs.stop()
    throw e
  }
  const startSeconds = (Date.now() - t0) / 1000

  // The round-robin proxy: request n goes to instance n mod 2, except to
  // an instance that is down (killed), as a load balancer's health check
  // would do. The Host header is kept, so the server's same-origin check
  // sees the address the browser used.
  const counts = [
    { total: 0, chunkPuts: 0 },
    { total: 0, chunkPuts: 0 },
  ]
  let next = 0
  const proxy = http.createServer((req, res) => {
    let i = next++ % 2
    if (!running[i]) i = 1 - i
    counts[i].total++
    if (req.method === 'PUT' && chunkPut.test((req.url ?? '').split('?')[0])) counts[i].chunkPuts++
    const [host, port] = addrs[i].split(':')
    const upstream = http.request({ host, port: Number(port), method: req.method, path: req.url, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers)
      up.pipe(res)
    })
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' })
      res.end('instance unavailable')
    })
    req.pipe(upstream)
  })
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r))
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`

  const env = { ...shared }
  const cli = (...args: string[]) => run(binary, args, { env })
  const cliWithInput = (input: string, ...args: string[]) => {
    const p = run(binary, args, { env })
    p.child.stdin?.end(input)
    return p
  }
  const createUser: ServerHandle['createUser'] = async (role, opts = {}) => {
    const user: TestUser = {
      role,
      email: opts.email ?? uniqueEmail(role),
      password: opts.password ?? 'clave-segura-123',
      name: opts.name ?? (role === 'tutor' ? 'Tania Tutora Ruiz' : 'Esteban Estudiante Loja'),
    }
    await cliWithInput(`${user.password}\n`, 'users', 'create', '--email', user.email, '--role', role, '--name', user.name)
    return user
  }
  const instances: Instance[] = [0, 1].map((i) => ({
    get url() {
      return `http://${addrs[i]}`
    },
    logs: () => outputs[i],
    kill: async () => {
      const r = running[i]
      running[i] = undefined
      if (r) await kill(r.child, 'SIGKILL')
      outputs[i] += '\n--- killed (SIGKILL) ---\n'
    },
    restart: () => up(i),
  }))
  const mediaNames = async (key: string): Promise<string[]> => {
    const prefix = `recordings/${key}/`
    const res = await fetch(`http://${gcs.host}/storage/v1/b/${gcs.bucket}/o?prefix=${encodeURIComponent(prefix)}`)
    if (!res.ok) throw new Error(`list ${prefix}: ${res.status} ${await res.text()}`)
    const body = (await res.json()) as { items?: { name: string }[] }
    return (body.items ?? []).map((o) => o.name.slice(prefix.length)).sort()
  }
  const stop = async () => {
    await new Promise((r) => proxy.close(r))
    proxy.closeAllConnections()
    await Promise.all(running.map((r) => r && kill(r.child, 'SIGTERM')))
    await gcs.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  return {
    url,
    directUrl: url,
    hosting: false,
    dataDir,
    media: 'bucket',
    env,
    cli,
    cliWithInput,
    createUser,
    restart: async (whileDown) => {
      await instances[0].kill()
      await whileDown?.()
      await instances[0].restart()
    },
    mediaNames,
    stop,
    logs: () => outputs.map((o, i) => `=== instance ${i} ===\n${o}`).join('\n'),
    instances,
    served: (i) => ({ ...counts[i] }),
    passwordChecks: () => outputs.reduce((n, o) => n + (o.match(/msg="password checked"/g)?.length ?? 0), 0),
    startSeconds,
  }
}
