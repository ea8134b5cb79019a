import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { ROOT } from '../support/runner.mjs'

const readme = readFileSync(`${ROOT}/README.md`, 'utf8')

/** README code blocks introduced by `<!-- examples/<file> -->`, with the file each copies. */
function exampleBlocks(): { file: string; block: string }[] {
  return [...readme.matchAll(/<!-- (examples\/[\w.-]+) -->\n\n```yaml\n([\s\S]*?)```/g)].map(
    (match) => ({
      file: match[1] ?? '',
      block: match[2] ?? '',
    }),
  )
}

describe('README', () => {
  it('shows the four complete workflows: Helm, Docker, nightly cleanup, ephemeral environment', () => {
    expect(exampleBlocks().map(({ file }) => file)).toEqual([
      'examples/deploy-helm.yml',
      'examples/deploy-docker.yml',
      'examples/nightly-cleanup.yml',
      'examples/ephemeral-environment.yml',
    ])
  })

  it.each(exampleBlocks())('shows $file exactly as the file in examples/', ({ file, block }) => {
    expect(existsSync(`${ROOT}/${file}`)).toBe(true)
    expect(block).toBe(readFileSync(`${ROOT}/${file}`, 'utf8'))
  })

  it('starts with the two quickstart commands', () => {
    const quickstart = readme.slice(0, readme.indexOf('## Usage'))
    expect(quickstart).toContain('npm ci && npm run demo')
    expect(quickstart).toContain('npm ci && npm test')
  })
})
