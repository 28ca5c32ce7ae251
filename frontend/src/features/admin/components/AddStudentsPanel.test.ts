import { describe, expect, it } from 'vitest'
import { splitEmails } from './AddStudentsPanel'

describe('splitEmails', () => {
  it('accepts lines, commas, semicolons and spaces', () => {
    expect(splitEmails(' a@x.ec\nb@x.ec, c@x.ec; d@x.ec  e@x.ec\n\n')).toEqual(['a@x.ec', 'b@x.ec', 'c@x.ec', 'd@x.ec', 'e@x.ec'])
    expect(splitEmails('   ')).toEqual([])
  })
})
