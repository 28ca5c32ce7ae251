import { spawn, type ChildProcess } from 'node:child_process'
import { kill } from './server'

/**
 * A test helper binary (bin/oidc-test-issuer, bin/lti-test-platform) that
 * prints one JSON line describing itself once it is ready.
 */
export type HelperProcess<T> = { ready: T; logs: () => string; stop: () => Promise<void> }

export async function startHelper<T>(binary: string, args: string[]): Promise<HelperProcess<T>> {
  const name = binary.split('/').pop()
  const child: ChildProcess = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()))
  const ready = await new Promise<T>((resolve, reject) => {
    child.stdout!.on('data', (b: Buffer) => {
      stdout += b.toString()
      const nl = stdout.indexOf('\n')
      if (nl < 0) return
      try {
        resolve(JSON.parse(stdout.slice(0, nl)) as T)
      } catch (e) {
        reject(new Error(`${name} printed ${stdout.slice(0, nl)}: ${e}`))
      }
    })
    child.on('error', (e) => {
      reject(new Error(`cannot run ${binary} (make e2e builds it): ${e.message}`))
    })
    child.on('exit', (code) => {
      reject(new Error(`${name} exited with ${code}:\n${stderr}`))
    })
  })
  return { ready, logs: () => stdout + stderr, stop: () => kill(child, 'SIGTERM') }
}
