// Retrying a request that failed for a passing reason (the network, a
// restarting server): one helper with exponential backoff, so that no page
// writes its own loop.

export type Backoff = {
  /** The first wait. */
  baseMs?: number
  /** No wait is longer. */
  maxMs?: number
}

// backoffDelay is the wait before try number attempt + 1: baseMs, then
// doubling, never over maxMs (1 s, 2 s, 4 s, 8 s, 10 s, 10 s… by default).
export function backoffDelay(attempt: number, { baseMs = 1000, maxMs = 10_000 }: Backoff = {}): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1))
}

// sleep resolves after ms, or rejects with the signal's reason when it is
// aborted first.
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const onAbort = () => {
      clearTimeout(t)
      reject(signal?.reason)
    }
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

export type RetryOptions = Backoff & {
  /** Whether a failure is worth another try; the others are thrown at once. */
  shouldRetry: (err: unknown) => boolean
  /** Called before each wait, e.g. to say the app is retrying. */
  onRetry?: (err: unknown, attempt: number, delayMs: number) => void
  /** Stops the retries: the pending wait, or the next try, rejects with the signal's reason. */
  signal?: AbortSignal
  /** How to wait (tests pass a fake). */
  wait?: (ms: number, signal?: AbortSignal) => Promise<void>
}

// retry calls fn until it succeeds or fails for a reason shouldRetry
// refuses, waiting backoffDelay between tries. It never gives up on its
// own: the caller stops it with signal.
export async function retry<T>(fn: () => Promise<T>, opts: RetryOptions): Promise<T> {
  const wait = opts.wait ?? sleep
  for (let attempt = 1; ; attempt++) {
    opts.signal?.throwIfAborted()
    try {
      return await fn()
    } catch (err) {
      if (!opts.shouldRetry(err)) throw err
      const delay = backoffDelay(attempt, opts)
      opts.onRetry?.(err, attempt, delay)
      await wait(delay, opts.signal)
    }
  }
}
