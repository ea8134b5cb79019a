import { describe, expect, it } from '@jest/globals'
import { nameMatcher } from '../../../src/operations/name-pattern.js'

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
    // The middle parts: each one present, in order, within the span between the fixed ends.
    ['a*b*c', 'aXc', false],
    ['ci-*-eu-*-db', 'ci-x-eu-y-db', true],
    ['ci-*-eu-*-db', 'ci-x-us-y-db', false],
    ['a*b*c*d', 'abcd', true],
    ['a*b*c*d', 'acbd', false],
    ['a*c*b*d', 'acbd', true],
    // A middle part may not reach into the fixed end: `b` and the last `b` are two.
    ['a*b*b', 'ab', false],
    ['a*b*b', 'abb', true],
    ['x*bc*c', 'xbc', false],
    ['x*bc*c', 'xbcc', true],
    // ...nor into the fixed start.
    ['ab*b*', 'ab', false],
    ['ab*b*', 'abb', true],
    // Empty middle parts change nothing.
    ['a**b', 'ab', true],
    ['a***b*c', 'abc', true],
    ['a***b*c', 'ac', false],
  ])('%s against %s is %s', (pattern, name, expected) => {
    expect(nameMatcher(pattern)(name)).toBe(expected)
  })

  it('matches no record without a name, whatever the pattern', () => {
    for (const pattern of ['*', '**', 'x', '*x*'])
      expect(nameMatcher(pattern)(undefined)).toBe(false)
  })
})
