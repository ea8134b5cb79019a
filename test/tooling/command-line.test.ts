import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { commandLineLeaks } from '../fixtures/command-line-leaks.js'
import { ROOT } from '../support/runner.mjs'

/**
 * A token value on a command line is visible to every user of the machine (`ps`,
 * /proc/<pid>/cmdline), and Helm keeps `--set` values in its release (`helm get
 * values`). The examples and the README's snippets must hand the value over in a file
 * (`writeTokenFile`, `--set-file`, `--from-file`) or the environment (`envName` with
 * `docker run --env NAME`), never as an argument. Reading the token file back into a
 * command (`-e X="$(cat "$TOKEN_FILE")"`, `$(<"$TOKEN_FILE")`) puts the value on that
 * command line all the same.
 */

/** Workflows that workflow authors copy: the examples and the reusable workflow. */
const WORKFLOWS = [
  ...readdirSync(`${ROOT}/examples`, { recursive: true })
    .map((file) => `examples/${String(file).split('\\').join('/')}`)
    .filter((file) => /\.ya?ml$/.test(file)),
  '.github/workflows/cleanup.yml',
].sort()

const readme = readFileSync(`${ROOT}/README.md`, 'utf8')
const README_SNIPPETS = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '')

describe('the rule: no token value on a command line', () => {
  it.each([
    [
      'helm --set-string from an env var set from tokenValue',
      `
- id: token
  uses: your-org/gateway-token-action@0000000000000000000000000000000000000000 # v1.0.0
  with: { operation: create, name: m }
- env:
    GATEWAY_TOKEN: \${{ steps.token.outputs.tokenValue }}
  run: |
    helm upgrade --install mediator platform/mediator \\
      --set-string mediator.gateway.token="$GATEWAY_TOKEN"
`,
    ],
    [
      'a literal helm --set of gateway.token',
      `
- run: helm upgrade --install mediator platform/mediator --set mediator.gateway.token=abc
`,
    ],
    [
      'helm --set=... of gateway.token',
      `
- run: helm upgrade mediator chart --set=mediator.gateway.token=abc
`,
    ],
    [
      'docker run --env NAME=value from the envName variable',
      `
- uses: your-org/gateway-token-action@0000000000000000000000000000000000000000 # v1.0.0
  with: { operation: create, name: m, envName: YOURSERVICE_GATEWAY_TOKEN }
- run: docker run --env YOURSERVICE_GATEWAY_TOKEN="$YOURSERVICE_GATEWAY_TOKEN" platform/mediator
`,
    ],
    [
      'the envName variable in braces',
      `
- uses: ./
  with: { operation: create, name: m, envName: MY_TOKEN }
- run: curl --oauth2-bearer "\${MY_TOKEN}" https://mediator.example.com
`,
    ],
    [
      'a tokenValue expression in the script',
      `
- run: echo \${{ steps.token.outputs.tokenValue }}
`,
    ],
    [
      'printf of the value into a pipe (the old Kubernetes Secret recipe)',
      `
jobs:
  deploy:
    runs-on: ubuntu-latest
    steps:
      - env:
          GATEWAY_TOKEN: \${{ steps.token.outputs.tokenValue }}
        run: |
          printf '%s' "$GATEWAY_TOKEN" | kubectl create secret generic t --from-file=token=/dev/stdin
`,
    ],
    [
      'a job-level env var set from tokenValue',
      `
jobs:
  deploy:
    runs-on: ubuntu-latest
    env:
      TOKEN: \${{ needs.token.outputs.tokenValue }}
    steps:
      - run: nomad var put nomad/jobs/mediator gateway_token=$TOKEN
`,
    ],
  ])('catches %s', (_, snippet) => {
    expect(commandLineLeaks(snippet)).not.toEqual([])
  })

  // Caught by the token file rule alone: the other rules see no value in these.
  it.each([
    [
      'docker run -e NAME="$(cat ...)" of the token file',
      `
- id: x
  uses: your-org/gateway-token-action@0000000000000000000000000000000000000000 # v1.0.0
  with: { operation: create, name: m, writeTokenFile: true }
- env:
    TOKEN_FILE: \${{ steps.x.outputs.tokenFile }}
  run: docker run --detach -e YOURSERVICE_GATEWAY_TOKEN="$(cat "$TOKEN_FILE")" platform/mediator
`,
    ],
    [
      'the token file read with $(<...) into helm --set',
      `
- env:
    TOKEN_FILE: \${{ steps.token.outputs.tokenFile }}
  run: |
    helm upgrade mediator chart \\
      --set mediator.secretName=t --set-string mediator.apiKey="$(< "\${TOKEN_FILE}")"
`,
    ],
    [
      'the token file redirected into a command substitution',
      `
- env:
    FILE: \${{ steps.token.outputs.tokenFile }}
  run: |
    curl --header "Authorization: Bearer $(tr -d '\\n' < "$FILE")" https://mediator.example.com
`,
    ],
    [
      'a backquoted cat of a job-level variable set from tokenFile',
      `
jobs:
  deploy:
    runs-on: ubuntu-latest
    env:
      TOKEN_PATH: \${{ steps.token.outputs.tokenFile }}
    steps:
      - run: nomad var put nomad/jobs/mediator gateway_token=\`cat $TOKEN_PATH\`
`,
    ],
    [
      'cat of a tokenFile expression in a command substitution',
      `
- run: docker run --env T="$(cat \${{ steps.token.outputs.tokenFile }})" platform/mediator
`,
    ],
  ])('catches %s', (_, snippet) => {
    expect(commandLineLeaks(snippet)).toEqual([
      expect.stringMatching(/ {2}<- reads the token file into the command line$/),
    ])
  })

  it.each([
    [
      'docker run --env NAME without a value',
      `
- uses: your-org/gateway-token-action@0000000000000000000000000000000000000000 # v1.0.0
  with: { operation: create, name: m, envName: YOURSERVICE_GATEWAY_TOKEN }
- run: docker run --detach --env YOURSERVICE_GATEWAY_TOKEN platform/mediator
`,
    ],
    [
      'helm --set-file and kubectl --from-file with the token file',
      `
- id: token
  uses: your-org/gateway-token-action@0000000000000000000000000000000000000000 # v1.0.0
  with: { operation: create, name: m, writeTokenFile: true }
- env:
    TOKEN_FILE: \${{ steps.token.outputs.tokenFile }}
  run: |
    # Never: --set mediator.gateway.token="$GATEWAY_TOKEN"
    kubectl create secret generic t --from-file=token="$TOKEN_FILE"
    helm upgrade mediator chart --set-file mediator.gateway.token="$TOKEN_FILE"
    helm upgrade mediator chart --set mediator.secretName=t
`,
    ],
    [
      'the token file passed by its path, unquoted, and substitutions that do not read it',
      `
- id: x
  uses: your-org/gateway-token-action@0000000000000000000000000000000000000000 # v1.0.0
  with: { operation: create, name: m, writeTokenFile: true }
- env:
    TOKEN_FILE: \${{ steps.x.outputs.tokenFile }}
    CA_FILE: \${{ runner.temp }}/ca.pem
  run: |
    test -s "$TOKEN_FILE"
    helm upgrade mediator chart --set-file mediator.gateway.token=$TOKEN_FILE
    kubectl create secret generic t --from-file=token=$TOKEN_FILE --dry-run=client -o yaml | kubectl apply -f -
    nomad var put -force -out=none nomad/jobs/mediator gateway_token=@"$TOKEN_FILE"
    echo "in $(dirname "$TOKEN_FILE")"
    curl --cacert "$CA_FILE" --header "X-CA: $(cat "$CA_FILE" | wc -c)" https://mediator.example.com
`,
    ],
    [
      "a list's tokensFile (records, not a token value) read with cat and <",
      `
- id: list
  uses: your-org/gateway-token-action@0000000000000000000000000000000000000000 # v1.0.0
  with: { operation: list, name: m }
- env:
    TOKENS_FILE: \${{ steps.list.outputs.tokensFile }}
  run: |
    echo "ids: $(jq -r '.[].id' < "$TOKENS_FILE")"
    echo "records: $(cat "$TOKENS_FILE" | jq length)"
`,
    ],
  ])('lets %s pass', (_, snippet) => {
    expect(commandLineLeaks(snippet)).toEqual([])
  })
})

describe('no token value on a command line', () => {
  it('finds the workflows and the README snippets to check', () => {
    expect(WORKFLOWS.filter((file) => file.startsWith('examples/')).length).toBeGreaterThan(0)
    expect(README_SNIPPETS.length).toBeGreaterThan(0)
    expect(
      README_SNIPPETS.filter((snippet) => /^\s*(- )?run:/m.test(snippet)).length,
    ).toBeGreaterThan(0)
  })

  it.each(WORKFLOWS)('in %s', (file) => {
    expect(commandLineLeaks(readFileSync(`${ROOT}/${file}`, 'utf8'))).toEqual([])
  })

  it.each(README_SNIPPETS.map((snippet, i): [number, string] => [i + 1, snippet]))(
    'in README snippet %i',
    (_, snippet) => {
      expect(commandLineLeaks(snippet)).toEqual([])
    },
  )
})
