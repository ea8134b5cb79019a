import { describe, expect, it } from '@jest/globals'
import { recordingSecrets } from '../fixtures/secrets.js'

describe('Secrets', () => {
  it('masks each secret once, and ignores empty values', () => {
    const { secrets, masked } = recordingSecrets()
    secrets.add('abc')
    secrets.add('abc')
    secrets.add('')
    secrets.add(undefined)
    expect(masked).toEqual(['abc'])
  })

  it('scrubs secrets, their JSON and URL forms, longest first', () => {
    const { secrets } = recordingSecrets()
    secrets.add('pa"ss/word')
    secrets.add('pa"ss/word-longer')
    expect(secrets.scrub('a pa"ss/word-longer b pa\\"ss/word c pa%22ss%2Fword d')).toBe(
      'a *** b *** c *** d',
    )
  })

  it('leaves text alone when it knows no secret', () => {
    const { secrets } = recordingSecrets()
    expect(secrets.scrub('nothing here')).toBe('nothing here')
  })

  it('scrubs a secret added after an earlier scrub', () => {
    const { secrets } = recordingSecrets()
    secrets.add('first-secret')
    expect(secrets.scrub('first-secret second-secret')).toBe('*** second-secret')
    secrets.add('second-secret')
    expect(secrets.scrub('first-secret second-secret')).toBe('*** ***')
  })
})
