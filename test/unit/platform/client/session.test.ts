import { describe, expect, it } from '@jest/globals'
import { Session } from '../../../../src/platform/client.js'
import type { AccessToken } from '../../../../src/platform/api.js'

function counting(tokens: AccessToken[]) {
  let calls = 0
  const obtain = () => {
    const token = tokens[calls++]
    return token === undefined ? Promise.reject(new Error('no more')) : Promise.resolve(token)
  }
  return { obtain, calls: () => calls }
}

describe('Session', () => {
  it('authenticates once for concurrent callers', async () => {
    const source = counting([{ value: 'a', renewAt: undefined }])
    const session = new Session(source.obtain, { now: () => 0 })
    expect(
      await Promise.all([session.accessToken(), session.accessToken(), session.accessToken()]),
    ).toEqual(['a', 'a', 'a'])
    expect(source.calls()).toBe(1)
  })

  it('renews a token that is about to expire', async () => {
    let now = 0
    const source = counting([
      { value: 'a', renewAt: 100 },
      { value: 'b', renewAt: 300 },
    ])
    const session = new Session(source.obtain, { now: () => now })
    expect(await session.accessToken()).toBe('a')
    now = 99
    expect(await session.accessToken()).toBe('a')
    now = 100
    expect(await session.accessToken()).toBe('b')
    expect(source.calls()).toBe(2)
  })

  it('drops a rejected token once, however many calls saw it rejected', async () => {
    const source = counting([
      { value: 'a', renewAt: undefined },
      { value: 'b', renewAt: undefined },
    ])
    const session = new Session(source.obtain, { now: () => 0 })
    await session.accessToken()
    await Promise.all([session.reject('a'), session.reject('a')])
    expect(await session.accessToken()).toBe('b')
    await session.reject('a')
    expect(await session.accessToken()).toBe('b')
    expect(source.calls()).toBe(2)
  })

  it('tries again after a failed authentication', async () => {
    let fail = true
    const session = new Session(
      () =>
        fail
          ? Promise.reject(new Error('down'))
          : Promise.resolve({ value: 'a', renewAt: undefined }),
      { now: () => 0 },
    )
    await expect(session.accessToken()).rejects.toThrow('down')
    fail = false
    await expect(session.accessToken()).resolves.toBe('a')
  })
})
