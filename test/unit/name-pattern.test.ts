import { describe, expect, it } from '@jest/globals'
import { nameMatcher } from '../../src/name-pattern.js'

describe('nameMatcher', () => {
  it.each<[string, string, boolean]>([
    ['ci-deploy', 'ci-deploy', true],
    ['ci-deploy', 'ci-deploy-2', false],
    ['ci-deploy', 'CI-DEPLOY', false],
    ['ci-*', 'ci-deploy', true],
    ['ci-*', 'ci-', true],
    ['ci-*', 'prod-ci-deploy', false],
    ['*-staging', 'eu-staging', true],
    ['*-staging', 'eu-staging-2', false],
    ['ci-*-db', 'ci-eu-db', true],
    ['ci-*-db', 'ci-db', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['*', '', true],
    ['*', 'anything', true],
    ['**', 'x', true],
    ['ci.*', 'ciX', false],
    ['[ci]-*', '[ci]-x', true],
    ['a+b', 'aab', false],
  ])('%s against %s is %s', (pattern, name, expected) => {
    expect(nameMatcher(pattern)(name)).toBe(expected)
  })

  it('matches no record without a name, whatever the pattern', () => {
    for (const pattern of ['*', '**', 'x', '*x*'])
      expect(nameMatcher(pattern)(undefined)).toBe(false)
  })
})
