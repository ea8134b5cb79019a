// The client secret, echoed by the auth service in an encoding the runner does not mask, never reaches the log or an annotation.
import { describe, expect, it } from '@jest/globals'
import type { RecordedRequest } from '../support/fake-platform.mjs'
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
  ])('as %s: not in the log, not in an annotation', async (_, encode) => {
    const echoed: string[] = []
    platform().fail({
      server: 'auth',
      status: 401,
      echo: (request) => {
        const shown = encode(secretOf(request))
        echoed.push(shown)
        return `{"errors":["bad credentials for ${shown}"],"errorCode":"ER-00006"}`
      },
    })
    const run = await runAgainst(platform(), { operation: 'list' })
    const message = expectCleanFailure(run)
    expect(message).toContain('authentication was refused')
    expect(message).toContain('bad credentials for ***')
    expect(echoed).toHaveLength(1)
    // All the step printed but its add-mask lines, the log as shown, and the annotations.
    const printed = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
    const shown = [...printed, run.stderr, run.log, ...run.errors, ...run.annotations.error].join(
      '\n',
    )
    for (const form of [...echoed, ...written(platform().clientSecret)]) {
      expect(shown).not.toContain(form)
    }
    expectNoLeaks(run, platform().secrets())
  })
})
