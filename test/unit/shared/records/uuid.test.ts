// isUuid: the only ids the action puts into a URL or takes as an input.
import { describe, expect, it } from '@jest/globals'
import { isUuid } from '../../../../src/shared/records.js'
import { TOKEN_ID as ID } from '../../../fixtures/inputs.js'

describe('isUuid', () => {
  it.each([
    ID,
    ID.toUpperCase(),
    '123E4567-e89b-42D3-a456-426614174000',
    '0'.repeat(8) + '-0000-0000-0000-' + '0'.repeat(12),
  ])('accepts %s', (id) => {
    expect(isUuid(id)).toBe(true)
  })

  it.each([
    '',
    '.',
    '..',
    'a/b',
    ID.slice(1), // 35 characters
    `${ID}0`, // 37 characters
    `${ID}\n`, // a line break after it ($ must not match before one)
    `\n${ID}`,
    ` ${ID}`,
    `{${ID}}`,
    ID.replaceAll('-', ''),
    ID.replace('-', '_'),
    ID.replace('e', 'g'),
    `${ID.slice(0, 9)}%2e%2e`,
    ID.replace('123e4567', '１２３e4567'), // full-width digits
  ])('refuses %j', (id) => {
    expect(isUuid(id)).toBe(false)
  })
})
