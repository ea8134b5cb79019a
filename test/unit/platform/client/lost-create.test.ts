// PlatformClient under faults: a create whose answer was lost never makes two tokens.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import {
  ACCESS_TOKEN,
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  record,
  rejection,
  setup,
  TOKEN_ID,
  useNock,
  LIST,
} from '../../../fixtures/nock-platform.js'
import type { CreateRecord } from '../../../../src/platform/create-life.js'

import { isoAt as at } from '../../../fixtures/clock.js'

useNock()

describe('PlatformClient under faults', () => {
  describe('create never makes two tokens', () => {
    const createFails = (reply: (scope: nock.Interceptor) => nock.Scope) =>
      reply(nock(API).post(LIST).matchHeader('authorization', `Bearer ${ACCESS_TOKEN}`))

    it('adopts the token when a 502 came after the platform created it', async () => {
      const { client, log } = setup()
      authOk()
      createFails((i) => i.reply(502, 'Bad Gateway'))
      const created = record({
        id: '00000000-0000-4000-8000-00000000000a',
        createdAt: at(100),
        tokenValue: 'the-new-value',
      })
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: 'old', createdAt: at(-3_600_000) }), created])

      const token = await client.createToken('ci-deploy')

      expect(token).toMatchObject({
        id: '00000000-0000-4000-8000-00000000000a',
        tokenValue: 'the-new-value',
      })
      expect(nock.pendingMocks()).toEqual([])
      const adopted = log.lines.find((line) => line.startsWith('info: It was'))
      expect(adopted).toContain('00000000-0000-4000-8000-00000000000a')
      expect(adopted).toContain('2026-11-22T12:00:00.100Z')
      expect(adopted).toContain("is this step's token")
    })

    it('sends again at once when the request never left (connection refused)', async () => {
      // A reset after the request was sent is checked like a 502: the end-to-end tests
      // show it against a real server, as nock cannot tell when a request was sent.
      const { client } = setup()
      authOk()
      createFails((i) =>
        i.replyWithError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })),
      )
      nock(API)
        .post(LIST)
        .reply(201, record({ id: '00000000-0000-4000-8000-00000000000a' }))
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({
        id: '00000000-0000-4000-8000-00000000000a',
      })
      expect(nock.pendingMocks()).toEqual([])
    })

    it('waits the backoff before checking, so that a platform finishing late is seen', async () => {
      const { client, clock, log } = setup()
      authOk()
      createFails((i) => i.reply(502, 'Bad Gateway'))
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: '00000000-0000-4000-8000-00000000000a', createdAt: at(100) })])
      await client.createToken('ci-deploy')
      expect(clock.sleeps).toEqual([500])
      const retryLine = log.lines.findIndex((line) => line.includes('retrying in 0.5 s'))
      const checkLine = log.lines.findIndex((line) => line.includes('checking the list'))
      expect(retryLine).toBeGreaterThanOrEqual(0)
      expect(retryLine).toBeLessThan(checkLine)
    })

    it('refuses to guess when several tokens with the name were created meanwhile', async () => {
      const { client } = setup()
      authOk()
      createFails((i) => i.reply(504, ''))
      nock(API)
        .get(LIST)
        .reply(200, [
          record({ id: 'mine-or-theirs-1', createdAt: at(100) }),
          record({ id: 'mine-or-theirs-2', createdAt: at(200) }),
        ])
      const { message } = await rejection(client.createToken('ci-deploy'))
      expect(message).toContain("2 active tokens named 'ci-deploy'")
      expect(message).toContain('(mine-or-theirs-2, mine-or-theirs-1)')
      expect(message).toContain("which one is this step's cannot be told")
      expect(nock.pendingMocks()).toEqual([])
    })

    it('creates again when the list shows it was not created; the post step then looks for the lost one', async () => {
      const { client, clock, log } = setup()
      authOk()
      createFails((i) => i.reply(500, { error: 'oops' }))
      // Only an old token with the same name: not this step's.
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: 'old', createdAt: at(-3_600_000) })])
      nock(API)
        .post(LIST)
        .reply(201, record({ id: '00000000-0000-4000-8000-00000000000b', createdAt: at(600) }))
      const saved: CreateRecord[] = []
      const keep = (created: CreateRecord) => saved.push(created)
      await expect(
        client.createToken('ci-deploy', { when: 'always', record: keep }),
      ).resolves.toMatchObject({ id: '00000000-0000-4000-8000-00000000000b' })
      // No second look at the list: the post step looks, when the create may have landed.
      expect(clock.sleeps).toEqual([500])
      expect(saved.at(-1)).toMatchObject({
        id: '00000000-0000-4000-8000-00000000000b',
        state: 'created',
        lostEarlier: true,
      })
      expect(log.lines.filter((line) => line.startsWith('warning'))).toEqual([])
      expect(log.lines).toContain(
        'info: An earlier attempt got no answer: the post step looks for a token it may have made, beside 00000000-0000-4000-8000-00000000000b (revokeOnExit).',
      )
      expect(nock.pendingMocks()).toEqual([])
    })

    it('without revokeOnExit, warns where the lost attempt’s token would be, and lists no more', async () => {
      const { client, log } = setup()
      authOk()
      createFails((i) => i.reply(500, { error: 'oops' }))
      nock(API).get(LIST).reply(200, [])
      const mine = '00000000-0000-4000-8000-00000000000b'
      nock(API)
        .post(LIST)
        .reply(201, record({ id: mine, createdAt: at(600) }))
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({ id: mine })
      const warnings = log.lines.filter((line) => line.startsWith('warning'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(`An active token named 'ci-deploy' other than ${mine}`)
      expect(warnings[0]).toContain('created after 2026-11-22T11:59:00.000Z')
      expect(warnings[0]).toContain('nobody has its value')
      expect(warnings[0]).toContain('revokeOnExit: true looks for it')
      expect(nock.pendingMocks()).toEqual([])
    })

    it('does not look again when the first answer came', async () => {
      const { client, clock } = setup()
      authOk()
      nock(API)
        .post(LIST)
        .reply(201, record({ id: '00000000-0000-4000-8000-00000000000b', createdAt: at(600) }))
      const saved: CreateRecord[] = []
      await client.createToken('ci-deploy', { when: 'always', record: (c) => saved.push(c) })
      expect(clock.sleeps).toEqual([])
      expect(saved.map(({ state }) => state)).toEqual(['not sent', 'sent', 'created'])
      expect(saved.at(-1)).toMatchObject({
        id: '00000000-0000-4000-8000-00000000000b',
        lostEarlier: false,
      })
    })

    it('uses the platform’s Date header to tell its tokens from earlier ones', async () => {
      const { client } = setup()
      // The platform's clock is an hour behind the runner's.
      const platformDate = new Date(Date.UTC(2026, 10, 22, 11, 0, 0)).toUTCString()
      nock(AUTH).post(AUTH_PATH).reply(200, { access_token: ACCESS_TOKEN }, { Date: platformDate })
      createFails((i) => i.reply(504, '', { Date: platformDate }))
      nock(API)
        .get(LIST)
        .reply(200, [
          record({
            id: '00000000-0000-4000-8000-00000000000d',
            createdAt: at(-3_600_000 - 60_000),
          }),
          record({ id: '00000000-0000-4000-8000-00000000000c', createdAt: at(-3_600_000 + 200) }),
        ])
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({
        id: '00000000-0000-4000-8000-00000000000c',
      })
    })

    it('without a Date header, does not adopt a token of that name made 30 s before the step', async () => {
      const { client } = setup()
      authOk()
      createFails((i) => i.reply(502, ''))
      const theirs = '00000000-0000-4000-8000-00000000000e'
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: theirs, createdAt: at(-30_000) })])
      const error = await rejection(client.createToken('ci-deploy'))
      expect(error.message).toContain(`POST ${API}${LIST} answered 502 Bad Gateway`)
      expect(error.message).toContain(`one active token named 'ci-deploy', ${theirs}`)
      expect(error.message).toContain('created 30 s before the create was sent')
      expect(error.message).toContain('no Date header')
      expect(error.message).toContain("It was not taken for this step's")
      // Neither adopted nor created again: one create, one list.
      expect(nock.pendingMocks()).toEqual([])
    })

    it('checks the list after a 503 before sending again: a gateway may answer it after the platform acted', async () => {
      const { client } = setup()
      authOk()
      createFails((i) => i.reply(503, ''))
      nock(API).get(LIST).reply(200, [])
      nock(API).post(LIST).reply(201, record())
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({ id: TOKEN_ID })
      expect(nock.pendingMocks()).toEqual([])
    })

    it('sends a 429 again without a look at the list: it says nothing was done', async () => {
      const { client } = setup()
      authOk()
      createFails((i) => i.reply(429, ''))
      nock(API).post(LIST).reply(201, record())
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({ id: TOKEN_ID })
      expect(nock.pendingMocks()).toEqual([])
    })

    it('adopts the token when the create answered 201 with a body that is not JSON', async () => {
      const { client } = setup()
      authOk()
      createFails((i) => i.reply(201, '<html>oops</html>'))
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: '00000000-0000-4000-8000-00000000000a', createdAt: at(5) })])
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({
        id: '00000000-0000-4000-8000-00000000000a',
      })
    })

    it('says the outcome is unknown when the check fails too', async () => {
      const { client } = setup({ retries: 1 })
      authOk()
      createFails((i) => i.reply(502, ''))
      nock(API).get(LIST).times(2).reply(500, { error: 'list down' })
      const error = await rejection(client.createToken('ci-deploy'))
      expect(error.message).toContain(
        `POST ${API}${LIST} answered 502 Bad Gateway (attempt 1 of 2)`,
      )
      expect(error.message).toContain("whether token 'ci-deploy' was created is unknown")
      expect(error.message).toContain(`GET ${API}${LIST} answered 500 Internal Server Error`)
      expect(error.message).toContain('list down')
    })
  })
})
