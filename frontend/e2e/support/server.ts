// Starts the real server binary for end-to-end tests: a fresh data
// directory, a free port, and terminal commands run against the same data.
// With media 'bucket' the recordings go to a bucket of bin/gcs-test-server
// (fake Cloud Storage) instead of DATA_DIR/media.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
export const binary = join(repoRoot, 'bin', 'simulador')
export const gcsBinary = join(repoRoot, 'bin', 'gcs-test-server')

export type Role = 'estudiante' | 'tutor'
export type TestUser = { email: string; password: string; role: Role; name: string }

/** Where the server keeps recordings: DATA_DIR/media or a Cloud Storage bucket. */
export type MediaStore = 'directory' | 'bucket'

export type ServerHandle = {
  url: string
  dataDir: string
  media: MediaStore
  env: Record<string, string>
  /** Runs a terminal command (bin/simulador ...) against this server's data. */
  cli: (...args: string[]) => Promise<{ stdout: string; stderr: string }>
  /** Runs a terminal command with input on its standard input (a password, say). */
  cliWithInput: (input: string, ...args: string[]) => Promise<{ stdout: string; stderr: string }>
  createUser: (role: Role, opts?: Partial<Omit<TestUser, 'role'>>) => Promise<TestUser>
  /**
   * Kills the server (SIGKILL, as a crash or a lost instance would), runs
   * whileDown, and starts it again on the same address and data.
   */
  restart: (whileDown?: () => Promise<void>) => Promise<void>
  /** What the media store holds for a recording ("attempt/recording"): chunk names, or "recording" once composed. */
  mediaNames: (key: string) => Promise<string[]>
  stop: () => Promise<void>
  logs: () => string
}

let counter = 0
export function uniqueEmail(prefix: string) {
  counter++
  return `${prefix}.${process.pid}.${Date.now().toString(36)}${counter}@utpl.edu.ec`
}

export type Running = { child: ChildProcess; url: string }

// launch starts bin/simulador serve and waits for its "serving" log line, or
// its exit. It sets no deadline of its own: how long a start takes depends on
// the machine's load (tens of seconds on a busy CI machine), and the
// fixture's timeout bounds it (playwright.config.ts).
export function launch(env: Record<string, string>, log: (s: string) => void): Promise<Running> {
  const child: ChildProcess = spawn(binary, ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  return new Promise<Running>((resolveRunning, reject) => {
    const onData = (buf: Buffer) => {
      output += buf.toString()
      log(buf.toString())
      const m = /msg=serving url=(http:\/\/[^\s]+)/.exec(output)
      if (m) resolveRunning({ child, url: m[1] })
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('error', (e) => reject(new Error(`cannot run ${binary} (make build builds it): ${e.message}`)))
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)))
  })
}

export async function kill(child: ChildProcess, signal: NodeJS.Signals) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((r) => child.once('exit', r))
  child.kill(signal)
  await exited
}

export async function startServer(extraEnv: Record<string, string> = {}, opts: { media?: MediaStore } = {}): Promise<ServerHandle> {
  const media = opts.media ?? 'directory'
  const gcs = media === 'bucket' ? await startGcs() : undefined
  const dataDir = mkdtempSync(join(tmpdir(), 'simulador-e2e-'))
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    DATA_DIR: dataDir,
    ADDR: '127.0.0.1:0',
    LOG_LEVEL: 'info',
    ...(gcs ? { MEDIA_BUCKET: gcs.bucket, STORAGE_EMULATOR_HOST: gcs.host } : {}),
    ...extraEnv,
  }
  let output = ''
  const log = (s: string) => (output += s)
  let running: Running
  try {
    running = await launch(env, log)
  } catch (e) {
    await gcs?.stop()
    throw e
  }
  const url = running.url
  // A server that dies under a test leaves only "connection refused"
  // behind: say so, with the end of its log.
  let expectedExit = false
  const reportExit = (child: ChildProcess) =>
    child.once('exit', (code, signal) => {
      if (!expectedExit)
        process.stderr.write(`\nserver at ${url} exited unexpectedly (${code ?? signal}); its log ends:\n${output.slice(-4000)}\n`)
    })
  reportExit(running.child)

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
    // Passwords are read from standard input, never from the command line.
    await cliWithInput(`${user.password}\n`, 'users', 'create', '--email', user.email, '--role', role, '--name', user.name)
    return user
  }
  const restart = async (whileDown?: () => Promise<void>) => {
    expectedExit = true
    await kill(running.child, 'SIGKILL')
    log('\n--- killed (SIGKILL) ---\n')
    await whileDown?.()
    running = await launch({ ...env, ADDR: new URL(url).host }, log)
    expectedExit = false
    reportExit(running.child)
  }
  const mediaNames = async (key: string): Promise<string[]> => {
    if (!gcs) {
      try {
        return readdirSync(join(dataDir, 'media', key)).sort()
      } catch {
        return []
      }
    }
    const prefix = `recordings/${key}/`
    const res = await fetch(`http://${gcs.host}/storage/v1/b/${gcs.bucket}/o?prefix=${encodeURIComponent(prefix)}`)
    if (!res.ok) throw new Error(`list ${prefix}: ${res.status} ${await res.text()}`)
    const body = (await res.json()) as { items?: { name: string }[] }
    return (body.items ?? []).map((o) => o.name.slice(prefix.length)).sort()
  }
  const stop = async () => {
    expectedExit = true
    await kill(running.child, 'SIGTERM')
    await gcs?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { url, dataDir, media, env, cli, cliWithInput, createUser, restart, mediaNames, stop, logs: () => output }
}

export type GcsHandle = { host: string; bucket: string; stop: () => Promise<void> }

// startGcs runs bin/gcs-test-server (fake Cloud Storage, in memory) on a
// free port with one bucket.
export async function startGcs(): Promise<GcsHandle> {
  const child = spawn(gcsBinary, ['-addr', '127.0.0.1:0', '-bucket', 'grabaciones-e2e'], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()))
  const ready = await new Promise<{ host: string; bucket: string }>((resolveReady, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      out += b.toString()
      const nl = out.indexOf('\n')
      if (nl < 0) return
      try {
        resolveReady(JSON.parse(out.slice(0, nl)))
      } catch (e) {
        reject(new Error(`gcs-test-server printed ${out}: ${e}`))
      }
    })
    child.on('error', (e) => {
      reject(new Error(`${gcsBinary}: ${e.message} (make e2e builds it)`))
    })
    child.on('exit', (code) => {
      reject(new Error(`gcs-test-server exited with ${code}:\n${out}`))
    })
  })
  return { ...ready, stop: () => kill(child, 'SIGTERM') }
}
