// Starts the real server binary for end-to-end tests: a fresh data
// directory, a free port, and terminal commands run against the same data.
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const run = promisify(execFile)
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..')
export const binary = join(repoRoot, 'bin', 'simulador')

export type Role = 'estudiante' | 'tutor'
export type TestUser = { email: string; password: string; role: Role; name: string }

export type ServerHandle = {
  url: string
  dataDir: string
  env: Record<string, string>
  /** Runs a terminal command (bin/simulador ...) against this server's data. */
  cli: (...args: string[]) => Promise<{ stdout: string; stderr: string }>
  /** Runs a terminal command with input on its standard input (a password, say). */
  cliWithInput: (input: string, ...args: string[]) => Promise<{ stdout: string; stderr: string }>
  createUser: (role: Role, opts?: Partial<Omit<TestUser, 'role'>>) => Promise<TestUser>
  stop: () => Promise<void>
  logs: () => string
}

let counter = 0
export function uniqueEmail(prefix: string) {
  counter++
  return `${prefix}.${process.pid}.${Date.now().toString(36)}${counter}@utpl.edu.ec`
}

export async function startServer(extraEnv: Record<string, string> = {}): Promise<ServerHandle> {
  const dataDir = mkdtempSync(join(tmpdir(), 'simulador-e2e-'))
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    DATA_DIR: dataDir,
    ADDR: '127.0.0.1:0',
    LOG_LEVEL: 'info',
    ...extraEnv,
  }
  const child: ChildProcess = spawn(binary, ['serve'], { env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  const url = await new Promise<string>((resolveUrl, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start in 20 s:\n${output}`)), 20_000)
    const onData = (buf: Buffer) => {
      output += buf.toString()
      const m = /msg=serving url=(http:\/\/[^\s]+)/.exec(output)
      if (m) {
        clearTimeout(timer)
        resolveUrl(m[1])
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.on('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`server exited with ${code}:\n${output}`))
    })
  })

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
  const stop = async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM')
      await new Promise((r) => child.once('exit', r))
    }
    rmSync(dataDir, { recursive: true, force: true })
  }
  return { url, dataDir, env, cli, cliWithInput, createUser, stop, logs: () => output }
}
