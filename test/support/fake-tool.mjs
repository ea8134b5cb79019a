// @ts-check
/**
 * One fake deploy tool (helm, kubectl, docker, nomad), run by the wrappers that
 * fake-tools.mjs puts on PATH: `node fake-tool.mjs <tool> <args...>`. It records, as one
 * JSON line in $FAKE_TOOLS_LOG, its arguments, the files its arguments name and what they
 * hold (a nomad job file too), what it read on stdin (when told to, or as tee does), and
 * the environment variables it was told to pass on or reads itself (nomad's address and
 * ACL token), so that a test can show that the token reached the tool, and where, and
 * never as an argument. It answers the few things a workflow reads back (`kubectl create
 * ... --dry-run=client --output=yaml` prints the object, `lsb_release -cs` a codename,
 * `gh pr list --state closed` the numbers in $FAKE_GH_CLOSED), and fails when
 * $FAKE_TOOLS_FAIL names the call (`helm upgrade`), as a deploy that did not go through.
 */
import { appendFileSync, readFileSync } from 'node:fs'

const [tool = '', ...args] = process.argv.slice(2)

/** @type {Record<string, string>} the files the arguments name, and what they held */
const files = {}
/** @type {Record<string, string | undefined>} the variables passed on by name */
const env = {}
let stdin = ''

/** @param {string} path */
const read = (path) => {
  try {
    files[path] = readFileSync(path, 'utf8')
  } catch (error) {
    files[path] = `<unreadable: ${String(error)}>`
  }
}

for (let i = 0; i < args.length; i++) {
  const arg = args[i] ?? ''
  const next = args[i + 1]
  // kubectl --from-file=key=path, helm --set-file key=path, nomad key=@path
  const fromFile = /^--from-file=(?:[^=]+=)?(.+)$/.exec(arg)?.[1]
  if (fromFile !== undefined) read(fromFile)
  const setFile = /^--set-file=(?:[^=]+)=(.+)$/.exec(arg)?.[1]
  if (setFile !== undefined) read(setFile)
  if (arg === '--set-file' && next !== undefined) read(next.slice(next.indexOf('=') + 1))
  const atFile = /^[\w.-]+=@(.+)$/.exec(arg)?.[1]
  if (atFile !== undefined) read(atFile)
  // docker run --env NAME (or -e NAME), without =value: passed on from the environment.
  if ((arg === '--env' || arg === '-e') && next !== undefined && !next.includes('=')) {
    env[next] = process.env[next]
  }
  const envFile = /^--env-file=(.+)$/.exec(arg)?.[1]
  if (envFile !== undefined) read(envFile)
  if ((arg === '--filename=-' || arg === '-f' || arg === '--filename') && stdin === '') {
    if (arg === '--filename=-' || next === '-') stdin = readFileSync(0, 'utf8')
  }
}
// What reads its stdin on its own: tee and gpg --dearmor (under sudo too).
const command = tool === 'sudo' ? args[0] : tool
if (command === 'tee' || (command === 'gpg' && args.includes('--dearmor'))) {
  stdin = readFileSync(0, 'utf8')
}
// nomad job run <job file>; and the variables nomad reads on its own.
if (tool === 'nomad' && args[0] === 'job' && args[1] === 'run') read(args.at(-1) ?? '')
if (tool === 'nomad')
  for (const name of ['NOMAD_ADDR', 'NOMAD_TOKEN']) env[name] = process.env[name]

appendFileSync(
  process.env.FAKE_TOOLS_LOG ?? '/dev/null',
  `${JSON.stringify({ tool, args, files, env, stdin, cwd: process.cwd() })}\n`,
)

/**
 * Whether the call holds each word of a FAKE_TOOLS_FAIL entry in order: the tool, then a
 * part of an argument for each other word. `helm upgrade` fails every upgrade,
 * `helm upgrade production-eu` only the one whose arguments name that cluster's values.
 * @param {string} entry
 */
function holds(entry) {
  const [first, ...words] = entry.split(' ').filter((word) => word !== '')
  if (first !== tool) return false
  let from = 0
  for (const word of words) {
    const found = args.findIndex((arg, i) => i >= from && arg.includes(word))
    if (found < 0) return false
    from = found + 1
  }
  return true
}
const failing = (process.env.FAKE_TOOLS_FAIL ?? '').split(',').filter((entry) => entry !== '')
if (failing.some(holds)) {
  console.error(`${tool}: failed, as the test asked (FAKE_TOOLS_FAIL)`)
  process.exit(1)
}

// kubectl create secret generic NAME --from-file=key=path --dry-run=client --output=yaml
if (tool === 'kubectl' && args[0] === 'create' && args.includes('--output=yaml')) {
  const name = args[args[1] === 'secret' ? 3 : 2] ?? ''
  const data = Object.entries(files).map(([path, content], i) => {
    const key = /^--from-file=([^=]+)=/.exec(args.find((a) => a.includes(path)) ?? '')?.[1]
    return `  ${key ?? `file${i}`}: ${Buffer.from(content).toString('base64')}`
  })
  const kind = args[1] === 'secret' ? 'Secret' : 'Namespace'
  console.log(
    ['apiVersion: v1', `kind: ${kind}`, 'metadata:', `  name: ${name}`]
      .concat(data.length > 0 ? ['data:', ...data] : [])
      .join('\n'),
  )
} else if (tool === 'gh' && args[0] === 'pr' && args[1] === 'list') {
  // The pull requests of the state asked for, as `--json number --jq '.[].number'` prints them.
  const state = args[args.indexOf('--state') + 1] ?? 'open'
  const numbers = state === 'closed' ? (process.env.FAKE_GH_CLOSED ?? '') : ''
  for (const number of numbers.split(' ').filter((n) => n !== '')) console.log(number)
} else if (tool === 'lsb_release' && args.includes('-cs')) {
  console.log('noble')
} else {
  console.log(`${tool}: ok`)
}
