import { describe, expect, it } from 'vitest'
import { resetTokenFrom } from './password-reset'

describe('resetTokenFrom', () => {
  const token = 'a'.repeat(20) + '-_B9'
  it('reads the token of a reset link from the fragment', () => {
    expect(resetTokenFrom(`#restablecer=${token}`)).toBe(token)
    expect(resetTokenFrom(`restablecer=${token}`)).toBe(token)
  })
  it('ignores anything that is not a token', () => {
    for (const hash of ['', '#', '#restablecer=', '#restablecer=corto', `#otro=${token}`, '#restablecer=' + 'x'.repeat(20) + '<script>']) {
      expect(resetTokenFrom(hash)).toBeNull()
    }
  })
})
