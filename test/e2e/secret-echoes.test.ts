// The client secret, echoed by the auth service in an encoding the runner does not mask, never reaches the log or an annotation.
import { afterEach, describe, expect, it } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { startFakePlatform } from '../support/fake-platform.mjs'
import type { FakePlatform, RecordedRequest } from '../support/fake-platform.mjs'
import { expectCleanFailure, expectNoLeaks, runAgainst, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()

/** Every way of writing `text` that the tests check is absent: as it is, and as each encoding. */
const written = (text: string) => [
  text,
  Buffer.from(text).toString('base64'),
  Buffer.from(text).toString('base64url'),
  Buffer.from(text).toString('hex'),
]

/** The secret the request carried, from the body the action sent. */
const secretOf = (request: RecordedRequest) =>
  (JSON.parse(request.body) as { clientId: string; secret: string }).secret

/** The bytes of `text` as hex pairs, each written as `pair` says, joined by `between`. */
const pairs = (text: string, between: string, pair = (hex: string) => hex) =>
  Array.from(Buffer.from(text), (b) => pair(b.toString(16).padStart(2, '0'))).join(between)

/**
 * Runs a list against `fake`, whose auth service refuses the credentials with an error
 * that echoes the secret as `encode` writes it, and checks that the step's failure, its
 * log and its annotations show none of it.
 */
async function expectEchoHidden(fake: FakePlatform, encode: (secret: string) => string) {
  const echoed: string[] = []
  fake.fail({
    server: 'auth',
    status: 401,
    echo: (request) => {
      const shown = encode(secretOf(request))
      echoed.push(shown)
      return JSON.stringify({ errors: [`bad credentials for ${shown}`], errorCode: 'ER-00006' })
    },
  })
  const run = await runAgainst(fake, { operation: 'list' })
  const message = expectCleanFailure(run)
  expect(message).toContain('authentication was refused')
  expect(message).toContain('bad credentials for ***')
  expect(echoed).toHaveLength(1)
  // All the step printed but its add-mask lines, the log as shown, and the annotations.
  const printed = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
  const shown = [...printed, run.stderr, run.log, ...run.errors, ...run.annotations.error].join(
    '\n',
  )
  for (const form of [...echoed, ...written(fake.clientSecret)]) {
    expect(shown).not.toContain(form)
  }
  expectNoLeaks(run, fake.secrets())
}

describe('the client secret echoed by the auth service (the committed bundle)', () => {
  it.each([
    ['base64url, unpadded', (s: string) => Buffer.from(s).toString('base64url')],
    ['hex', (s: string) => Buffer.from(s).toString('hex')],
    [
      'lower-case %xx',
      (s: string) =>
        Array.from(Buffer.from(s), (b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
    ],
    [
      'JSON \\u escapes',
      (s: string) =>
        Array.from(s, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    ],
    [
      'inside id:secret, base64 (a Basic credential)',
      (s: string) => Buffer.from(`ci-deployer:${s}`).toString('base64'),
    ],
    ['hex pairs split by spaces', (s: string) => pairs(s, ' ')],
    ['hex pairs split by colons, upper-case', (s: string) => pairs(s, ':').toUpperCase()],
    ['0x pairs', (s: string) => pairs(s, ', ', (hex) => `0x${hex}`)],
    ['\\x escapes', (s: string) => pairs(s, '', (hex) => `\\x${hex}`)],
  ])('as %s: not in the log, not in an annotation', async (_, encode) => {
    await expectEchoHidden(platform(), encode)
  })
})

describe('a client secret of 7 characters, echoed by the auth service (the committed bundle)', () => {
  let short: FakePlatform | undefined
  afterEach(async () => {
    await short?.close()
    short = undefined
  })

  it.each([
    ['hex', (s: string) => pairs(s, '')],
    ['hex pairs split by dashes', (s: string) => pairs(s, '-')],
    ['0x pairs', (s: string) => pairs(s, ' ', (hex) => `0x${hex}`)],
    ['\\x escapes', (s: string) => pairs(s, '', (hex) => `\\x${hex}`)],
    ['base64url', (s: string) => Buffer.from(s).toString('base64url')],
    ['upper-case %XX', (s: string) => pairs(s, '', (hex) => `%${hex.toUpperCase()}`)],
    ['inside id:secret, base64', (s: string) => Buffer.from(`ci-deployer:${s}`).toString('base64')],
  ])('as %s: scrubbed whole, not in the log, not in an annotation', async (_, encode) => {
    short = await startFakePlatform({ clientSecret: randomBytes(5).toString('base64url') })
    expect(short.clientSecret).toHaveLength(7)
    await expectEchoHidden(short, encode)
  })
})
