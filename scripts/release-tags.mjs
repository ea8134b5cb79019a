// @ts-check
/**
 * What the release workflow does with the tags, decided from the pushed version tag and
 * the version tags that exist (`.github/workflows/release.yml`, "Releasing" in
 * CONTRIBUTING.md):
 *
 * - `moveMajor`: the major tag (`v1`) follows the highest stable release of its major. It
 *   moves to a stable tag that no other stable tag of the same major outranks: never
 *   backwards (an older release re-run, a v1.2.4 fix after v1.3.0), never to a pre-release.
 *   A re-run of the highest release moves it where it already is.
 * - `latest`: GitHub's "Latest release" is the highest stable release of all majors. A
 *   backport from releases/v1 after v2 exists is published with `--latest=false`.
 *
 * Versions are ordered by their numbers (v1.10.0 after v1.9.0). Pre-releases
 * (v2.0.0-rc.1) never outrank anything; tags that are not versions are left out.
 *
 * `node scripts/release-tags.mjs v1.2.3` reads the existing tags from
 * `git tag --list 'v*.*.*'` and prints `major=v1`, `move_major=true|false` and
 * `latest=true|false`, one a line, for $GITHUB_OUTPUT. A tag that is not a version
 * exits 1.
 */
import { execFileSync } from 'node:child_process'
import { pathToFileURL } from 'node:url'

/**
 * A version tag as semver writes it (no leading zeros), with an optional pre-release.
 * Build metadata (`+...`) is not allowed: the tag would not name one release.
 */
const VERSION =
  /^v(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/

/**
 * @typedef {object} Version
 * @property {number} major
 * @property {number} minor
 * @property {number} patch
 * @property {boolean} prerelease
 */

/**
 * @param {string} tag
 * @returns {Version | undefined} undefined when the tag is not a version tag
 */
export function parseVersion(tag) {
  const match = VERSION.exec(tag)
  if (match === null) return undefined
  const [major = NaN, minor = NaN, patch = NaN] = [match[1], match[2], match[3]].map(Number)
  // Past 2^53 two different tags could read as the same number.
  if (![major, minor, patch].every((n) => Number.isSafeInteger(n))) return undefined
  return { major, minor, patch, prerelease: match[4] !== undefined }
}

/**
 * Orders stable versions by their numbers: negative when `a` comes before `b`.
 * @param {Version} a
 * @param {Version} b
 */
function compare(a, b) {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch
}

/**
 * @typedef {object} ReleaseTags
 * @property {string} major the major tag of the release (`v1`)
 * @property {boolean} moveMajor move the major tag to this release
 * @property {boolean} latest publish the release as GitHub's latest
 */

/**
 * @param {string} tag the pushed tag
 * @param {readonly string[]} tags the existing tags (with or without `tag` itself)
 * @returns {ReleaseTags}
 */
export function releaseTags(tag, tags) {
  const version = parseVersion(tag)
  if (version === undefined) {
    throw new Error(`${tag} is not a version tag like v1.2.3 or v2.0.0-rc.1.`)
  }
  const major = `v${version.major}`
  if (version.prerelease) return { major, moveMajor: false, latest: false }
  const higher = tags
    .map(parseVersion)
    .filter((other) => other !== undefined && !other.prerelease && compare(other, version) > 0)
  return {
    major,
    moveMajor: !higher.some((other) => other?.major === version.major),
    latest: higher.length === 0,
  }
}

/**
 * The lines for $GITHUB_OUTPUT.
 * @param {ReleaseTags} decision
 */
export function outputLines(decision) {
  return [
    `major=${decision.major}`,
    `move_major=${String(decision.moveMajor)}`,
    `latest=${String(decision.latest)}`,
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const tag = process.argv[2] ?? ''
  try {
    const tags = execFileSync('git', ['tag', '--list', 'v*.*.*'], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
    console.log(outputLines(releaseTags(tag, tags)))
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    // Escaped as the runner reads a workflow command's message.
    console.error(
      `::error::${message.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}`,
    )
    process.exitCode = 1
  }
}
