// examples/deploy-matrix.yml over three projects, one platform each: every cleanup's job
// summary names its own project, so that the three tables can be told apart.
import { afterEach, describe, expect, it } from '@jest/globals'
import { type FakePlatform, startFakePlatform } from '../support/fake-platform.mjs'
import { runWorkflow } from '../support/workflow-runner.mjs'
import { DAY, settings } from './example-helpers.js'
import { useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const others: FakePlatform[] = []
afterEach(async () => {
  await Promise.all(others.splice(0).map((p) => p.close()))
})

const PROJECTS = {
  staging: '1a2b3c4d-0000-4000-8000-00000000000a',
  'production-eu': '1a2b3c4d-0000-4000-8000-00000000000b',
  'production-us': '1a2b3c4d-0000-4000-8000-00000000000c',
} as const

describe('examples/deploy-matrix.yml, each environment a project of its own', () => {
  it('gives three cleanup summaries, each naming its project', async () => {
    const platforms = [platform(), await startFakePlatform(), await startFakePlatform()]
    others.push(...platforms.slice(1))
    const environments = Object.fromEntries(
      Object.entries(PROJECTS).map(([environment, projectId], i) => {
        const p = platforms[i] as FakePlatform
        // Every record this platform sends belongs to the environment's project.
        p.rewriteRecord = (record) => ({ ...record, projectId })
        p.seed({ name: `mediator-${environment}`, ageMs: 30 * DAY })
        const own = settings(p)
        const vars = { ...own.vars, PLATFORM_PROJECT_ID: projectId }
        return [environment, { secrets: own.secrets, vars }]
      }),
    )
    const run = await runWorkflow('examples/deploy-matrix.yml', {
      ...settings(platform()),
      environments,
      event: 'push',
    })

    expect(Object.values(run.jobs).every((result) => result === 'success')).toBe(true)
    const headings = run.steps
      .filter((step) => step.name === "Revoke this cluster's older tokens")
      .map((step) => ({ job: step.job, heading: (step.summary ?? '').split('\n')[0] }))
    expect(headings).toEqual(
      Object.entries(PROJECTS).map(([environment, projectId]) => ({
        job: `deploy (${environment})`,
        heading: `### Gateway token cleanup: project <code>${projectId}</code>`,
      })),
    )
  })
})
