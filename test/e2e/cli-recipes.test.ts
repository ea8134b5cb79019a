// The recipes of docs/CLI.md, taken out of it and run as they are (GitLab CI's script and after_script, an ArgoCD PreSync hook Job's command, a Jenkinsfile's sh step) with gateway-token's committed bundle, the fake platform and the fake deploy tools; the platform's tokens checked afterwards.
import { describe, expect, it } from '@jest/globals'
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { installFakeTools, type ToolCall } from '../support/fake-tools.mjs'
import { node24 } from '../support/node24.mjs'
import { ROOT } from '../support/runner.mjs'
import {
  CLI,
  expectNoSecrets,
  platformEnv,
  runProgram as run,
  useCliPlatform,
  useTempDirs,
} from './cli-helpers.js'
import { block, section } from './readme-helpers.js'

const { platform, valueOf } = useCliPlatform()
const tempDir = useTempDirs()
const cliDoc = readFileSync(join(ROOT, 'docs/CLI.md'), 'utf8')

/** The first ```lang block of a recipe of docs/CLI.md. */
const recipe = (heading: string, lang: string) => block(cliDoc, heading, lang)

/**
 * Where a recipe runs: the fake tools and a `gateway-token` (the committed bundle) first on
 * PATH, a HOME and a TMPDIR of its own, the platform's connection as the CI system's
 * secrets would give it.
 */
function machine(extra: Record<string, string> = {}) {
  const dir = tempDir('gateway-token-recipe-')
  const tools = installFakeTools(dir)
  const wrapper = join(tools.bin, 'gateway-token')
  writeFileSync(wrapper, `#!/bin/sh\nexec '${node24()}' '${CLI}' "$@"\n`)
  chmodSync(wrapper, 0o755)
  const tmp = join(dir, 'tmp')
  mkdirSync(tmp)
  const env: Record<string, string> = {
    PATH: `${tools.bin}:${process.env.PATH ?? ''}`,
    HOME: dir,
    TMPDIR: tmp,
    ...tools.env,
    ...platformEnv(platform()),
    ...extra,
  }
  return { dir, tmp, env, calls: tools.calls }
}

/** The tools' calls as `tool arg...` lines, and the calls of one tool and subcommand. */
const commandLines = (calls: ToolCall[]) => calls.map((c) => [c.tool, ...c.args].join(' '))
const callsOf = (calls: ToolCall[], tool: string, first: string) =>
  calls.filter((c) => c.tool === tool && c.args[0] === first)

/** No value nor secret on a command line of the tools, nor in what the recipe printed. */
function expectKeptSecret(
  calls: ToolCall[],
  printed: { stdout: string; stderr: string }[],
  values: string[],
) {
  const secrets = [...platform().secrets(), ...values]
  for (const line of commandLines(calls))
    for (const secret of secrets) expect(line).not.toContain(secret)
  for (const { stdout, stderr } of printed)
    expectNoSecrets({ code: 0, signal: null, stdout, stderr, leftInTmp: [] }, secrets)
}

/** The tokens of a name on the platform, oldest first, with their states. */
const tokensNamed = (name: string) =>
  [...platform().tokens.values()].filter((token) => token.name === name)

/** Yesterday's deploy, then two today: the cleanup the recipe under `at` names keeps both new ones (one may be an overlapping run's). */
async function expectCleanupKeepsTwo(deploy: () => Promise<{ code: number | null }>, at: string) {
  platform().seed({ name: 'mediator-production', ageMs: 86_400_000 })
  for (let i = 0; i < 2; i++) expect((await deploy()).code).toBe(0)
  const { env, dir } = machine()
  const cleanup = ['gateway-token', 'cleanup', '--name', 'mediator-production', '--keep', '2']
  expect(section(cliDoc, at)).toContain(`\`${cleanup.join(' ')}\``)
  expect((await run(cleanup, env, dir)).code).toBe(0)
  const states = ['revoked', 'active', 'active']
  expect(tokensNamed('mediator-production').map((t) => t.state)).toEqual(states)
}

describe('docs/CLI.md: the recipes, run as they are', () => {
  it('has the three recipes this test runs, each under its heading', () => {
    const headings = [...cliDoc.matchAll(/^### (.+)$/gm)].map((m) => m[1])
    expect(headings).toEqual([
      'GitLab CI: a token for one job',
      'ArgoCD: a PreSync hook Job',
      'Jenkins, or any shell: `exec`',
    ])
  })
})

describe('GitLab CI: a token for one job (script, then after_script)', () => {
  interface GitLabJob {
    variables: Record<string, string>
    before_script: string[]
    script: string[]
    after_script: string[]
  }
  const job = () =>
    (parse(recipe('### GitLab CI: a token for one job', 'yaml')) as Record<string, GitLabJob>)[
      'integration-tests'
    ] as GitLabJob

  /**
   * The job as a GitLab runner runs it: its variables (GitLab's own, then the job's,
   * expanded), `script` in one shell that stops at the first failure, then `after_script` in
   * another, whatever `script` did. `before_script` installs gateway-token, which is on PATH
   * here already.
   */
  async function runJob(extra: Record<string, string> = {}) {
    const { dir, tmp, env, calls } = machine(extra)
    const builds = join(dir, 'builds')
    const project = join(builds, 'project')
    mkdirSync(project, { recursive: true })
    const gitlab: Record<string, string> = {
      ...env,
      CI_PIPELINE_ID: '4242',
      CI_JOB_ID: '777',
      CI_BUILDS_DIR: builds,
      CI_PROJECT_DIR: project,
    }
    const { variables, before_script, script, after_script } = job()
    expect(before_script).toEqual(['npm install --global gateway-token-action@1.0.0'])
    for (const [name, value] of Object.entries(variables))
      gitlab[name] = value.replace(/\$(\w+)/g, (_, v: string) => gitlab[v] ?? '')
    const main = await run(['sh', '-ec', script.join('\n')], gitlab, project)
    const after = await run(['sh', '-c', after_script.join('\n')], gitlab, project)
    return { main, after, calls: calls(), gitlab, tmp }
  }

  it('creates the token into a file, deploys with it, tests, and revokes it in after_script', async () => {
    const { main, after, calls, gitlab, tmp } = await runJob()
    expect([main.code, main.stderr]).toEqual([0, expect.stringContaining('Created gateway token')])
    expect(after.code).toBe(0)
    const [token, ...others] = tokensNamed('mediator-ci-4242')
    expect(others).toEqual([])
    const value = valueOf(token?.id ?? '') ?? ''
    // The Secret was made from the file, which held the value; the file is gone.
    const [secret] = callsOf(calls, 'kubectl', 'create')
    expect(secret?.args).toContain(`--from-file=token=${gitlab.TOKEN_FILE ?? ''}`)
    expect(secret?.files[gitlab.TOKEN_FILE ?? '']).toBe(value)
    expect(callsOf(calls, 'kubectl', 'apply')[0]?.stdin).toContain(
      Buffer.from(value).toString('base64'),
    )
    expect(callsOf(calls, 'helm', 'upgrade')[0]?.args).toContain(
      'mediator.secretName=mediator-ci-4242',
    )
    expect(commandLines(calls)).toEqual(
      expect.arrayContaining([
        'npm run test:integration',
        'helm uninstall mediator-ci-4242 --namespace=ci',
        'kubectl delete secret mediator-ci-4242 --namespace=ci --ignore-not-found',
      ]),
    )
    expect(existsSync(gitlab.TOKEN_FILE ?? '')).toBe(false)
    expect(readFileSync(gitlab.TOKEN_ID_FILE ?? '', 'utf8')).toBe(`${token?.id ?? ''}\n`)
    expect(token?.state).toBe('revoked')
    expect(after.stderr).toContain(`Revoked gateway token 'mediator-ci-4242' (${token?.id ?? ''}).`)
    expect(readdirSync(tmp)).toEqual([])
    expectKeptSecret(calls, [main, after], [value])
  })

  it('revokes it in after_script when the deploy failed, and the tests never ran', async () => {
    const { main, after, calls } = await runJob({ FAKE_TOOLS_FAIL: 'helm upgrade' })
    expect(main.code).not.toBe(0)
    expect(after.code).toBe(0)
    expect(commandLines(calls)).not.toContain('npm run test:integration')
    expect(tokensNamed('mediator-ci-4242').map((t) => t.state)).toEqual(['revoked'])
    expectKeptSecret(calls, [main, after], [])
  })

  it('has nothing to revoke when the create failed: the deploy never ran', async () => {
    const { main, after, calls } = await runJob({
      PLATFORM_CLIENT_SECRET: 'cs_not-the-secret-0123',
    })
    expect(main.code).toBe(1)
    expect(after.code).toBe(0)
    expect(callsOf(calls, 'helm', 'upgrade')).toEqual([])
    expect(platform().tokens.size).toBe(0)
    expect(platform().requestLines('api')).toEqual([])
  })
})

describe('ArgoCD: a PreSync hook Job (--k8s-secret | kubectl apply)', () => {
  interface Container {
    command: string[]
    env: { name: string; valueFrom: { fieldRef: { fieldPath: string } } }[]
    envFrom: { secretRef: { name: string } }[]
  }
  interface HookJob {
    kind: string
    metadata: { annotations: Record<string, string> }
    spec: { template: { spec: { containers: Container[]; restartPolicy: string } } }
  }
  const hook = () => parse(recipe('### ArgoCD: a PreSync hook Job', 'yaml')) as HookJob

  /** The Job's container as Kubernetes runs it in the namespace `mediator`. */
  async function sync(extra: Record<string, string> = {}) {
    const { dir, tmp, env, calls } = machine(extra)
    const [container] = hook().spec.template.spec.containers
    // metadata.namespace, the one fieldRef it reads; envFrom the API client's Secret (env).
    expect(container?.env.map((e) => [e.name, e.valueFrom.fieldRef.fieldPath])).toEqual([
      ['NAMESPACE', 'metadata.namespace'],
    ])
    expect(container?.envFrom).toEqual([{ secretRef: { name: 'platform-api-client' } }])
    const ran = await run(container?.command ?? [], { ...env, NAMESPACE: 'mediator' }, dir)
    return { ...ran, calls: calls(), tmp }
  }

  it('is a PreSync hook that never restarts', () => {
    const job = hook()
    expect(job.kind).toBe('Job')
    expect(job.metadata.annotations['argocd.argoproj.io/hook']).toBe('PreSync')
    expect(job.spec.template.spec.restartPolicy).toBe('Never')
  })

  it("applies a Secret holding a new token for the chart's mediator.secretName, which stays active", async () => {
    const synced = await sync()
    expect(synced.code).toBe(0)
    const [token] = tokensNamed('mediator-production')
    const value = valueOf(token?.id ?? '') ?? ''
    const [apply] = callsOf(synced.calls, 'kubectl', 'apply')
    expect(apply?.args).toEqual(['apply', '--filename=-'])
    expect(parse(apply?.stdin ?? '')).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'mediator-gateway-token', namespace: 'mediator' },
      type: 'Opaque',
      data: { token: Buffer.from(value).toString('base64') },
    })
    expect(token?.state).toBe('active')
    // The Job's log: what was done, never the manifest or the value.
    expect(synced.stderr).toBe(
      `Created gateway token 'mediator-production' (${token?.id ?? ''}).\n`,
    )
    expect(readdirSync(synced.tmp)).toEqual([])
    expectKeptSecret(synced.calls, [synced], [value])
  })

  it('leaves the tokens of earlier syncs to the cleanup the recipe names, which keeps the two newest', () =>
    expectCleanupKeepsTwo(sync, '### ArgoCD'))

  it('fails before kubectl runs when the create failed: ArgoCD does not sync', async () => {
    const synced = await sync({ PLATFORM_CLIENT_SECRET: 'cs_not-the-secret-0123' })
    expect(synced.code).not.toBe(0)
    expect(synced.calls).toEqual([])
    expect(platform().tokens.size).toBe(0)
  })
})

describe('Jenkins, or any shell: exec -- helm upgrade', () => {
  /** The Jenkinsfile's sh step, run as Jenkins runs one (sh -xe) with BUILD_NUMBER set. */
  async function build(extra: Record<string, string> = {}) {
    const jenkinsfile = recipe('### Jenkins, or any shell: `exec`', 'groovy')
    const script = /sh '''\n([\s\S]*?)'''/.exec(jenkinsfile)?.[1] ?? ''
    expect(script).toContain('gateway-token exec')
    const { dir, tmp, env, calls } = machine({ BUILD_NUMBER: '42', ...extra })
    const ran = await run(['sh', '-xec', script], env, dir)
    return { ...ran, calls: calls(), tmp }
  }

  it('deploys with a token handed over in a file, which stays active once the deploy succeeded', async () => {
    const built = await build()
    expect(built.code).toBe(0)
    const [token, ...others] = tokensNamed('mediator-production')
    expect(others).toEqual([])
    const value = valueOf(token?.id ?? '') ?? ''
    const [secret] = callsOf(built.calls, 'kubectl', 'create')
    const file = secret?.args.find((a) => a.startsWith('--from-file=token='))?.slice(18) ?? ''
    expect(secret?.files[file]).toBe(value)
    expect(callsOf(built.calls, 'helm', 'upgrade')[0]?.args).toContain(
      'mediator.secretName=mediator-gateway-token-42',
    )
    expect(token?.state).toBe('active')
    // The file went with exec, and gateway-token's folder with it.
    expect(existsSync(file)).toBe(false)
    expect(readdirSync(built.tmp)).toEqual([])
    expectKeptSecret(built.calls, [built], [value])
  })

  it('leaves the tokens of earlier builds to the cleanup the recipe names, which keeps two: a build that overlaps keeps its own', () =>
    expectCleanupKeepsTwo(build, '### Jenkins'))

  it("revokes the token when the deploy failed, and exits with helm's code", async () => {
    const built = await build({ FAKE_TOOLS_FAIL: 'helm upgrade' })
    expect(built.code).toBe(1)
    expect(built.stderr).toContain('helm: failed')
    expect(tokensNamed('mediator-production').map((t) => t.state)).toEqual(['revoked'])
    expectKeptSecret(built.calls, [built], [])
  })
})
