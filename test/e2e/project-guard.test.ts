import { describe, expect, it } from '@jest/globals'
import { readdirSync } from 'node:fs'
import { PROJECT_ID, type TokenRecord } from '../support/fake-platform.mjs'
import {
  AUTH,
  CREATE,
  expectCleanFailure,
  expectNoLeaks,
  LIST,
  revokeLine,
  runAgainst,
  useFakePlatform,
  useJobDirs,
} from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000
/** A project the credentials should not reach (staging's, say, when PROJECT_ID is production's). */
const OTHER_PROJECT = '9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b6a'
const guarded = { expectedProjectId: PROJECT_ID }

/** The message of a list answer that holds `other`, a record of OTHER_PROJECT. */
const listedOther = (operation: string, other: { name: string; id: string }) =>
  `${operation} failed: the platform listed '${other.name}' (${other.id}) of project ${OTHER_PROJECT}, ` +
  `but expectedProjectId is ${PROJECT_ID}: these credentials reach another project. ` +
  'Nothing was revoked or created; check clientId, clientSecret and baseUrl.'

function states(): Record<string, string> {
  return Object.fromEntries([...platform().tokens.values()].map((t) => [t.id, t.state]))
}

const jobDir = useJobDirs()

describe('expectedProjectId (the committed bundle on Node 24)', () => {
  describe('cleanup', () => {
    it('fails on a list holding a record of another project before sending any revoke', async () => {
      const ours = platform().seed({ name: 'ci-a', ageMs: 45 * DAY })
      const theirs = platform().seed({ name: 'ci-b', ageMs: 60 * DAY, projectId: OTHER_PROJECT })
      const run = await runAgainst(platform(), {
        operation: 'cleanup',
        olderThan: '30d',
        ...guarded,
      })

      expect(expectCleanFailure(run)).toBe(listedOther('cleanup', theirs))
      expect(platform().requestLines()).toEqual([AUTH, LIST])
      expect(states()).toEqual({ [ours.id]: 'active', [theirs.id]: 'active' })
      expectNoLeaks(run, [...platform().secrets(), ours.tokenValue ?? '', theirs.tokenValue ?? ''])
    })

    it('revokes as usual when every listed record is of the expected project', async () => {
      const old = platform().seed({ name: 'ci-a', ageMs: 45 * DAY })
      const fresh = platform().seed({ name: 'ci-a', ageMs: 1 * DAY })
      const run = await runAgainst(platform(), {
        operation: 'cleanup',
        olderThan: '30d',
        ...guarded,
      })

      expect(run.exitCode).toBe(0)
      expect(platform().requestLines()).toEqual([AUTH, LIST, revokeLine(old.id)])
      expect(states()).toEqual({ [old.id]: 'revoked', [fresh.id]: 'active' })
      expect(run.outputs.count).toBe('1')
    })
  })

  describe('list', () => {
    it('fails on a list holding a record of another project, with no output of the records', async () => {
      platform().seed({ name: 'ci-a' })
      const theirs = platform().seed({ name: 'ci-b', projectId: OTHER_PROJECT })
      const run = await runAgainst(platform(), { operation: 'list', ...guarded })

      expect(expectCleanFailure(run)).toBe(listedOther('list', theirs))
      expect(platform().requestLines()).toEqual([AUTH, LIST])
      expect(run.outputs).toEqual({})
    })

    it('still sends exactly two requests when every record is of the expected project', async () => {
      const ours = platform().seed({ name: 'ci-a' })
      const run = await runAgainst(platform(), { operation: 'list', ...guarded })

      expect(run.exitCode).toBe(0)
      expect(platform().requestLines()).toEqual([AUTH, LIST])
      expect(run.outputs.count).toBe('1')
      expect(JSON.parse(run.outputs.tokens ?? '')).toMatchObject([{ id: ours.id }])
    })
  })

  describe('create', () => {
    /** The platform answers the create (only) as if it had made the token in OTHER_PROJECT. */
    function createInOtherProject(): { value: () => string } {
      let value = ''
      platform().rewriteRecord = (record: TokenRecord, answer: string) => {
        if (answer !== 'create') return record
        value = record.tokenValue ?? ''
        return { ...record, projectId: OTHER_PROJECT }
      }
      return { value: () => value }
    }

    it('revokes a token created in another project at once and hands its value on nowhere', async () => {
      const created = createInOtherProject()
      const dir = jobDir()
      const run = await runAgainst(
        platform(),
        {
          operation: 'create',
          name: 'ci-deploy',
          envName: 'GW_TOKEN',
          writeTokenFile: 'true',
          ...guarded,
        },
        { dir },
      )

      const [token] = [...platform().tokens.values()]
      expect(token).toBeDefined()
      const id = token?.id ?? ''
      // The words: the golden messages of the unit tests (test/fixtures/golden.ts).
      const message = expectCleanFailure(run)
      expect(message).toMatch(/^create failed: /)
      expect(message).toContain(`'ci-deploy' (${id}) belongs to project ${OTHER_PROJECT}`)
      expect(message).toContain(`expectedProjectId is ${PROJECT_ID}`)
      expect(message).toContain('It was revoked at once.')
      expect(platform().requestLines()).toEqual([AUTH, CREATE, revokeLine(id)])
      expect(states()).toEqual({ [id]: 'revoked' })
      // Not handed on: no output, no environment variable, no token file.
      expect(run.outputs.tokenValue ?? '').toBe('')
      expect(run.outputs.tokenFile ?? '').toBe('')
      expect(run.env).toEqual({})
      expect(run.state).not.toHaveProperty('tokenFile')
      expect(readdirSync(dir)).toEqual([])
      // Masked as it arrived, and nowhere in clear.
      expect(created.value()).toMatch(/^eyJ/)
      expect(run.masked).toContain(created.value())
      expectNoLeaks(run, [...platform().secrets(), created.value()])
    })

    it('says so when the revoke at once fails too, and still hands the value on nowhere', async () => {
      const created = createInOtherProject()
      platform().fail({
        server: 'api',
        method: 'POST',
        path: /\/revoke$/,
        status: 403,
        json: { error: 'Your role may not revoke this token' },
      })
      const run = await runAgainst(platform(), {
        operation: 'create',
        name: 'ci-deploy',
        envName: 'GW_TOKEN',
        ...guarded,
      })

      const [token] = [...platform().tokens.values()]
      const id = token?.id ?? ''
      const message = expectCleanFailure(run)
      expect(message).toMatch(/^create failed: /)
      expect(message).toContain(`'ci-deploy' (${id}) belongs to project ${OTHER_PROJECT}`)
      expect(message).toContain(`expectedProjectId is ${PROJECT_ID}`)
      expect(message).toContain('Revoking it at once failed too')
      expect(message).toContain(`POST ${platform().baseUrl}${revokeLine(id).slice('POST '.length)}`)
      expect(message).toContain('answered 403 Forbidden: Your role may not revoke this token.')
      expect(message).not.toContain('It was revoked at once')
      // After a refused revoke the client looks at the list, to tell revoked-already from unknown.
      expect(platform().requestLines()).toEqual([AUTH, CREATE, revokeLine(id), LIST])
      expect(states()).toEqual({ [id]: 'active' })
      expect(run.outputs.tokenValue ?? '').toBe('')
      expect(run.env).toEqual({})
      expectNoLeaks(run, [...platform().secrets(), created.value()])
    })

    it('hands on a token of the expected project, in exactly two requests', async () => {
      const run = await runAgainst(platform(), {
        operation: 'create',
        name: 'ci-deploy',
        envName: 'GW_TOKEN',
        ...guarded,
      })

      const [token] = [...platform().tokens.values()]
      expect(run.exitCode).toBe(0)
      expect(platform().requestLines()).toEqual([AUTH, CREATE])
      expect(run.outputs).toMatchObject({
        tokenId: token?.id,
        tokenValue: token?.tokenValue,
        projectId: PROJECT_ID,
      })
      expect(run.env).toEqual({ GW_TOKEN: token?.tokenValue })
      expect(token?.state).toBe('active')
    })
  })

  describe('revoke', () => {
    it.each([
      ['the token itself', true],
      ['another token', false],
    ])(
      'checks the project first: with %s in another project, sends no revoke',
      async (_, tokenIsTheirs) => {
        const target = platform().seed({
          name: 'ci-deploy',
          ...(tokenIsTheirs ? { projectId: OTHER_PROJECT } : {}),
        })
        const theirs = tokenIsTheirs
          ? target
          : platform().seed({ name: 'staging-deploy', projectId: OTHER_PROJECT })
        const run = await runAgainst(platform(), {
          operation: 'revoke',
          tokenId: target.id,
          ...guarded,
        })

        expect(expectCleanFailure(run)).toBe(listedOther('revoke', theirs))
        expect(platform().requestLines()).toEqual([AUTH, LIST])
        expect(platform().tokens.get(target.id)?.state).toBe('active')
        expect(run.outputs).toEqual({})
      },
    )

    it('revokes a token of the expected project after one look at the list', async () => {
      const token = platform().seed({ name: 'ci-deploy' })
      const run = await runAgainst(platform(), {
        operation: 'revoke',
        tokenId: token.id,
        ...guarded,
      })

      expect(run.exitCode).toBe(0)
      expect(platform().requestLines()).toEqual([AUTH, LIST, revokeLine(token.id)])
      expect(platform().tokens.get(token.id)?.state).toBe('revoked')
      expect(run.outputs).toMatchObject({ tokenId: token.id, state: 'revoked' })
    })

    it('without expectedProjectId sends exactly two requests and no list', async () => {
      const token = platform().seed({ name: 'ci-deploy' })
      platform().seed({ name: 'staging-deploy', projectId: OTHER_PROJECT })
      const run = await runAgainst(platform(), { operation: 'revoke', tokenId: token.id })

      expect(run.exitCode).toBe(0)
      expect(platform().requestLines()).toEqual([AUTH, revokeLine(token.id)])
      expect(platform().tokens.get(token.id)?.state).toBe('revoked')
    })
  })
})
