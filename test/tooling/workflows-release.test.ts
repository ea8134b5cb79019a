// The release workflow's rules and Dependabot's configuration.
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parse } from 'yaml'
import { ROOT } from '../support/runner.mjs'
import { workflow } from '../fixtures/workflows.js'

describe('the release workflow', () => {
  const release = workflow('.github/workflows/release.yml')

  it('runs one release per tag, never cancelling one', () => {
    expect(release.concurrency).toEqual({
      group: 'release-${{ github.ref_name }}',
      'cancel-in-progress': false,
    })
  })

  it('publishes only after the check, the whole CI of the tagged commit and mutation testing', () => {
    expect(workflow('.github/workflows/ci.yml').on).toHaveProperty('workflow_call')
    expect(release.jobs.ci).toEqual({
      name: 'CI',
      permissions: { contents: 'read' },
      uses: './.github/workflows/ci.yml',
    })
    expect(release.jobs.publish?.needs).toEqual(['check', 'ci', 'mutation'])
  })

  it('decides the major tag and the latest release in the read-only check job', () => {
    const check = release.jobs.check
    expect(check?.permissions).toEqual({ contents: 'read' })
    expect(check?.steps?.find((step) => step.id === 'tags')?.run).toContain(
      'node scripts/release-tags.mjs "$TAG"',
    )
    for (const output of ['major', 'move_major', 'latest']) {
      expect(check?.outputs?.[output]).toBe(`\${{ steps.tags.outputs.${output} }}`)
    }
  })

  it('publishes with no code of the repository, attesting the provenance of action.yml and dist/', () => {
    const publish = release.jobs.publish
    expect(publish?.permissions).toEqual({
      contents: 'write',
      'id-token': 'write',
      attestations: 'write',
      // attest-build-provenance writes the artifacts' storage record only with it.
      'artifact-metadata': 'write',
    })
    const publishSteps = publish?.steps ?? []
    // No npm, no node, no script or action of the repository.
    for (const step of publishSteps) {
      expect(step.run ?? '').not.toMatch(/\b(npm|npx|node)\b|scripts\//)
      expect(step.uses ?? '').not.toMatch(/^\.\//)
    }
    const attest = publishSteps.find((step) =>
      step.uses?.startsWith('actions/attest-build-provenance@'),
    )
    expect(attest?.with?.['subject-path']).toBe('action.yml\ndist/**\n')
    // The decision comes from the check job through env: and if:, not into the script.
    const publishing = publishSteps.find((step) => step.run?.includes('gh release create'))
    expect(publishing?.env?.DECIDED).toBe('${{ needs.check.outputs.latest }}')
    expect(publishing?.env?.STILL_HIGHEST).toBe('${{ steps.now.outputs.highest }}')
    expect(publishing?.run).toContain('--latest="$LATEST"')
    const moving = publishSteps.find((step) => step.run?.includes('git/refs'))
    expect(moving?.if).toBe(
      "needs.check.outputs.move_major == 'true' && steps.now.outputs.highest_of_major == 'true'",
    )
    expect(moving?.env?.MAJOR).toBe('${{ needs.check.outputs.major }}')
    // The attestation comes before the release it is for.
    expect(publishSteps.indexOf(attest ?? {})).toBeLessThan(publishSteps.indexOf(publishing ?? {}))
  })
})

describe('the npm job: the command line published with provenance', () => {
  const release = workflow('.github/workflows/release.yml')
  const npm = release.jobs.npm

  it('after the same gates and the GitHub release, with the OIDC token and nothing to write', () => {
    expect(npm?.needs).toEqual(['check', 'ci', 'mutation', 'publish'])
    expect(npm?.permissions).toEqual({ contents: 'read', 'id-token': 'write' })
    // setup-node's registry-url would put a placeholder token before npm's OIDC exchange.
    const setup = npm?.steps?.find((step) => step.uses?.startsWith('actions/setup-node@'))
    expect(setup?.with).not.toHaveProperty('registry-url')
  })

  it("refuses a tag whose package.json names another repository, which npm's provenance checks", () => {
    const check = release.jobs.check?.steps?.find((step) => step.run?.includes('repository.url'))
    expect(check?.run).toContain(
      'if [ "$repository" != "git+https://github.com/$GITHUB_REPOSITORY.git" ]; then',
    )
  })

  it("checks that the bundles carry the tag's version before anything is published", () => {
    const check = release.jobs.check?.steps?.find((step) => step.run?.includes('npm run package'))
    expect(check?.run).toContain('cli_version=$(node dist/cli/index.js --version)')
    expect(check?.run).toContain('if [ "v$cli_version" != "$TAG" ]; then')
  })

  /**
   * The publish step run with bash and a fake `npm` that writes down what it publishes;
   * `npm view` finds the version on npm when `published`.
   */
  function publish(
    tag: string,
    version: string,
    { published = false, npmVersion = '11.6.2' } = {},
  ): { code: number; npm: string } {
    const script = npm?.steps?.find((step) => step.run?.includes('npm publish'))?.run ?? ''
    const dir = mkdtempSync(join(tmpdir(), 'release-npm-'))
    try {
      writeFileSync(
        join(dir, 'package.json'),
        JSON.stringify({ name: 'gateway-token-action', version }),
      )
      const view = `if [ "$1" = view ]; then exit ${published ? 0 : 1}; fi`
      const own = `if [ "$1" = --version ]; then echo ${npmVersion}; exit 0; fi`
      const fake = `#!/bin/sh\n${view}\n${own}\necho "$@" >> '${dir}/npm.args'\n`
      writeFileSync(join(dir, 'npm'), fake)
      chmodSync(join(dir, 'npm'), 0o755)
      const env = { PATH: `${dir}:${process.env.PATH ?? ''}`, TAG: tag }
      try {
        execFileSync('bash', ['-eo', 'pipefail', '-c', script], { cwd: dir, env, stdio: 'pipe' })
      } catch {
        return { code: 1, npm: '' }
      }
      const args = join(dir, 'npm.args')
      return { code: 0, npm: existsSync(args) ? readFileSync(args, 'utf8').trim() : '' }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  it.each([
    ['a release, as latest', 'v1.2.0', '1.2.0', 'latest'],
    ['a pre-release, as next', 'v2.0.0-rc.1', '2.0.0-rc.1', 'next'],
  ])(
    'publishes %s: provenance, public, no script of the package run',
    (_, tag, version, distTag) => {
      expect(publish(tag, version)).toEqual({
        code: 0,
        npm: `publish --provenance --access public --ignore-scripts --tag ${distTag}`,
      })
    },
  )

  it('publishes nothing when package.json has another version than the tag', () => {
    expect(publish('v1.2.0', '1.1.0')).toEqual({ code: 1, npm: '' })
  })

  it('leaves a version on npm already as it is: a re-run of the release passes', () => {
    expect(publish('v1.2.0', '1.2.0', { published: true })).toEqual({ code: 0, npm: '' })
  })

  it.each([
    ['older than 11.5.1 is brought to it first', '11.3.0', true],
    ['by version order, not text', '11.10.0', false],
    ['11.5.1 itself publishes as it is', '11.5.1', false],
    ['a major below with a higher minor is older', '10.9.3', true],
    ['a pre-release of 11.5.1 is older', '11.5.1-pre.0', true],
    ['a pre-release of a later one is not', '11.6.0-pre.1', false],
  ])('npm %s', (_, npmVersion, upgraded) => {
    const publishing = 'publish --provenance --access public --ignore-scripts --tag latest'
    const upgrade = 'install --global --ignore-scripts npm@^11.5.1'
    expect(publish('v1.2.0', '1.2.0', { npmVersion })).toEqual({
      code: 0,
      npm: upgraded ? `${upgrade}\n${publishing}` : publishing,
    })
  })
})

/**
 * The publish job's own look at the tags, run with bash and a fake `gh` that lists `tags`:
 * whether `tag` is still the highest stable release of all, and of its major.
 */
function stillHighest(tag: string, tags: string[]): Record<string, string> {
  const publish = workflow('.github/workflows/release.yml').jobs.publish
  const script = publish?.steps?.find((step) => step.id === 'now')?.run ?? ''
  const dir = mkdtempSync(join(tmpdir(), 'release-now-'))
  try {
    writeFileSync(
      join(dir, 'gh'),
      `#!/bin/sh\nprintf '%s\\n' ${tags.map((t) => `'${t}'`).join(' ')}\n`,
    )
    chmodSync(join(dir, 'gh'), 0o755)
    const output = join(dir, 'output')
    writeFileSync(output, '')
    execFileSync('bash', ['-eo', 'pipefail', '-c', script], {
      env: {
        PATH: `${dir}:${process.env.PATH ?? ''}`,
        TAG: tag,
        GITHUB_OUTPUT: output,
        GITHUB_REPOSITORY: 'o/r',
      },
    })
    return Object.fromEntries(
      readFileSync(output, 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split('=') as [string, string]),
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the publish job asks again whether the release is still the highest', () => {
  it.each<[string, string, string[], boolean, boolean]>([
    ['the newest of all', 'v1.2.0', ['v1.1.0', 'v1.2.0', 'v1'], true, true],
    ['by version order, not text', 'v1.10.0', ['v1.9.0', 'v1.10.0'], true, true],
    ['a newer v1 came meanwhile', 'v1.2.0', ['v1.2.0', 'v1.3.0'], false, false],
    ['a backport below v2', 'v1.4.1', ['v1.4.1', 'v2.0.0'], false, true],
    ['a pre-release above it does not count', 'v1.2.0', ['v1.2.0', 'v1.3.0-rc.1'], true, true],
    ['v10 is not of major v1', 'v1.2.0', ['v1.2.0', 'v10.0.0'], false, true],
  ])('%s', (_, tag, tags, highest, ofMajor) => {
    expect(stillHighest(tag, tags)).toEqual({
      highest: String(highest),
      highest_of_major: String(ofMajor),
    })
  })
})

describe('Dependabot', () => {
  const config = parse(readFileSync(`${ROOT}/.github/dependabot.yml`, 'utf8')) as {
    updates: {
      'package-ecosystem': string
      directories?: string[]
      cooldown?: Record<string, number>
      groups?: Record<string, { patterns?: string[] }>
    }[]
  }
  const ecosystem = (name: string) =>
    config.updates.find((update) => update['package-ecosystem'] === name)

  it('waits out a cooldown before proposing a new version, for npm and for actions', () => {
    expect(ecosystem('npm')?.cooldown).toEqual({ 'default-days': 7, 'semver-major-days': 30 })
    // github-actions rejects the semver-*-days keys, and a rejected key stops every update.
    expect(ecosystem('github-actions')?.cooldown).toEqual({ 'default-days': 7 })
  })

  it('updates the pins of the examples too, in the same pull request as the workflows', () => {
    const actions = ecosystem('github-actions')
    expect(actions?.directories).toEqual(['/', '/examples', '/.github/actions/*'])
    expect(Object.values(actions?.groups ?? {})).toContainEqual({ patterns: ['*'] })
  })
})
