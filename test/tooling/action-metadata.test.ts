import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { DECLARED_INPUTS, INPUT_DEFAULTS, JOB_STATUS_INPUT } from '../../src/inputs/read.js'
import { report } from '../../src/report/report.js'
import { USER_AGENT } from '../../src/platform/http.js'
import { created, done, listed, reportOptions } from '../fixtures/done.js'
import { recordingRunner } from '../fixtures/runner.js'
import { token } from '../fixtures/token-api.js'
import { actionMetadata, ROOT } from '../support/runner.mjs'

const metadata = actionMetadata() as unknown as {
  branding: { icon: string; color: string }
  inputs: Record<string, { description?: string; required?: boolean; default?: string }>
  outputs: Record<string, { description?: string }>
  runs: { using: string; main: string }
}
const REQUIRED = ['operation', 'clientId', 'clientSecret', 'baseUrl', 'authUrl']

describe('action.yml', () => {
  it('runs the bundle on node24, with branding', () => {
    expect(metadata.runs).toEqual({
      using: 'node24',
      main: 'dist/index.js',
      post: 'dist/post/index.js',
      'post-if': 'always()',
    })
    expect(metadata.branding.icon).toBeTruthy()
    expect(metadata.branding.color).toBeTruthy()
  })

  it('describes every input and output', () => {
    for (const [name, input] of Object.entries(metadata.inputs))
      expect([name, input.description]).toEqual([name, expect.any(String)])
    for (const [name, output] of Object.entries(metadata.outputs))
      expect([name, output.description]).toEqual([name, expect.any(String)])
  })

  it('declares the required inputs without defaults, and the others with the defaults the code applies', () => {
    const declared = Object.entries(metadata.inputs)
    expect(declared.filter(([, input]) => input.required === true).map(([name]) => name)).toEqual(
      REQUIRED,
    )
    for (const name of REQUIRED) expect(metadata.inputs[name]).not.toHaveProperty('default')
    const defaults = Object.fromEntries(
      declared
        .filter(([name]) => !REQUIRED.includes(name))
        .map(([name, input]) => [name, input.default]),
    )
    // jobStatus is the runner's to fill in, again for the post step (docs/POST-STEP.md).
    expect(defaults).toEqual({ ...INPUT_DEFAULTS, [JOB_STATUS_INPUT]: '${{ job.status }}' })
    expect(Object.keys(metadata.inputs)).toEqual(DECLARED_INPUTS)
  })

  it('declares every output the action writes, and no other', async () => {
    const runner = recordingRunner()
    const options = reportOptions(runner)
    await report(done(created(token('a', 'x', 0))), options, runner)
    await report(
      done({ operation: 'revoke', token: token('a', 'x', 0), alreadyRevoked: false }),
      options,
      runner,
    )
    await report(done(listed([])), options, runner)
    runner.removeTempDir()
    expect(Object.keys(runner.outputs).sort()).toEqual(Object.keys(metadata.outputs).sort())
  })

  it('has the version of package.json in the user agent', () => {
    const pkg = JSON.parse(readFileSync(`${ROOT}/package.json`, 'utf8')) as { version: string }
    expect(USER_AGENT).toBe(`gateway-token-action/${pkg.version}`)
  })
})
