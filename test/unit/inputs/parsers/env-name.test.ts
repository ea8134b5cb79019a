// readEnvName: the variable-name syntax and the deny-list of action.yml's envName, both sides of each
// family, in any casing.
import { describe, expect, it } from '@jest/globals'
import { readEnvName } from '../../../../src/inputs/parsers.js'
import { refusal } from '../../../fixtures/input-error.js'

describe('readEnvName', () => {
  const EVERY_STEP = 'it would change how every later step runs'
  const LINKER = 'change how the dynamic linker loads every program in later steps'
  const MAC_LINKER = 'change how the macOS dynamic linker loads every program in later steps'
  const PROXY = 'names ending in _PROXY change where later steps send their network traffic'
  const RUNNER = 'belong to the runner'
  // The words of each refusal: test/unit/inputs/parsers/golden-messages.test.ts.
  /** readEnvName refuses `name` for `why`, naming the input and the name. */
  function expectRefused(name: string, why: string) {
    const { input, message } = refusal(() => readEnvName(name))
    expect(input).toBe('envName')
    expect(message).toContain(`must not be ${name}: ${why}.`)
  }

  it.each<[string, string]>([
    ['PATH', EVERY_STEP],
    ['path', EVERY_STEP],
    ['Path', EVERY_STEP],
    ['HOME', EVERY_STEP],
    ['SHELL', EVERY_STEP],
    ['ENV', EVERY_STEP],
    ['IFS', EVERY_STEP],
    ['ifs', EVERY_STEP],
    ['CDPATH', EVERY_STEP],
    ['BASH_ENV', EVERY_STEP],
    ['SHELLOPTS', EVERY_STEP],
    ['PS4', EVERY_STEP],
    ['PROMPT_COMMAND', EVERY_STEP],
    ['GCONV_PATH', EVERY_STEP],
    ['LD_PRELOAD', `names starting with LD_ ${LINKER}`],
    ['ld_library_path', `names starting with LD_ ${LINKER}`],
    ['LD_AUDIT', `names starting with LD_ ${LINKER}`],
    ['DYLD_INSERT_LIBRARIES', `names starting with DYLD_ ${MAC_LINKER}`],
    ['GIT_SSH_COMMAND', 'names starting with GIT_ change how git runs in later steps'],
    ['git_dir', 'names starting with GIT_ change how git runs in later steps'],
    ['NODE_OPTIONS', 'names starting with NODE_ change how Node.js runs in later steps'],
    [
      'NODE_TLS_REJECT_UNAUTHORIZED',
      'names starting with NODE_ change how Node.js runs in later steps',
    ],
    ['Node_Path', 'names starting with NODE_ change how Node.js runs in later steps'],
    ['PYTHONPATH', 'names starting with PYTHON change how Python runs in later steps'],
    ['pythonstartup', 'names starting with PYTHON change how Python runs in later steps'],
    ['PERL5OPT', 'names starting with PERL change how Perl runs in later steps'],
    ['PERLLIB', 'names starting with PERL change how Perl runs in later steps'],
    ['RUBYOPT', 'names starting with RUBY change how Ruby runs in later steps'],
    ['JAVA_TOOL_OPTIONS', 'names starting with JAVA_ change how Java runs in later steps'],
    ['_JAVA_OPTIONS', 'names starting with _JAVA_ change how Java runs in later steps'],
    ['DOTNET_STARTUP_HOOKS', 'names starting with DOTNET_ change how .NET runs in later steps'],
    ['SSL_CERT_FILE', 'names starting with SSL_ change which certificates later steps trust'],
    ['ssl_cert_dir', 'names starting with SSL_ change which certificates later steps trust'],
    ['HTTPS_PROXY', PROXY],
    ['http_proxy', PROXY],
    ['NO_PROXY', PROXY],
    ['ALL_PROXY', PROXY],
    ['Ftp_Proxy', PROXY],
    ['GITHUB_TOKEN', `names starting with GITHUB_ ${RUNNER}`],
    ['github_path', `names starting with GITHUB_ ${RUNNER}`],
    ['RUNNER_DEBUG', `names starting with RUNNER_ ${RUNNER}`],
    ['ACTIONS_STEP_DEBUG', `names starting with ACTIONS_ ${RUNNER}`],
    ['INPUT_NAME', `names starting with INPUT_ ${RUNNER}`],
    ['STATE_tokenId', `names starting with STATE_ ${RUNNER}`],
  ])('refuses %s: %s', (name, why) => {
    expectRefused(name, why)
  })

  it.each([
    'MEDIATOR_GATEWAY_TOKEN',
    'ACME_GATEWAY_TOKEN',
    'GATEWAY_TOKEN',
    'NOMAD_VAR_gateway_token',
    'MY_NODE', // NODE_ only as a prefix
    'NODE', // NODE_ with its underscore
    'PROXY_NAME', // _PROXY only as a suffix
    'MY_PROXY_URL',
    'PROXY',
    'GITLAB_TOKEN', // GIT_ with its underscore
    'GIT',
    'LDAP_TOKEN', // LD_ with its underscore
    'JAVASCRIPT_TOKEN', // JAVA_ with its underscore
    'SSLTOKEN',
    'MY_PATH',
    'SHELL_TOKEN',
    'HOME_TOKEN',
    'ENVIRONMENT',
    'RUNNERS_TOKEN',
    '_TOKEN',
    'token',
  ])('accepts %s', (name) => {
    expect(readEnvName(name)).toBe(name)
  })

  // action.yml: every family is refused "in any casing" (Windows runners ignore case).
  const family = (prefix: string, why: string) => `names starting with ${prefix} ${why}`
  const LANGUAGE = (language: string) => `change how ${language} runs in later steps`
  it.each<[string, string]>([
    ['Path', EVERY_STEP],
    ['home', EVERY_STEP],
    ['Shell', EVERY_STEP],
    ['env', EVERY_STEP],
    ['CdPath', EVERY_STEP],
    ['bash_env', EVERY_STEP],
    ['gconv_path', EVERY_STEP],
    ['Ld_Preload', family('LD_', LINKER)],
    ['dyld_insert_libraries', family('DYLD_', MAC_LINKER)],
    ['Git_Ssh_Command', family('GIT_', 'change how git runs in later steps')],
    ['node_options', family('NODE_', LANGUAGE('Node.js'))],
    ['PythonHome', family('PYTHON', LANGUAGE('Python'))],
    ['perl5lib', family('PERL', LANGUAGE('Perl'))],
    ['rubylib', family('RUBY', LANGUAGE('Ruby'))],
    ['java_home', family('JAVA_', LANGUAGE('Java'))],
    ['_java_options', family('_JAVA_', LANGUAGE('Java'))],
    ['Dotnet_Root', family('DOTNET_', LANGUAGE('.NET'))],
    ['Ssl_Cert_File', family('SSL_', 'change which certificates later steps trust')],
    ['no_proxy', PROXY],
    ['Github_Env', family('GITHUB_', RUNNER)],
    ['runner_temp', family('RUNNER_', RUNNER)],
    ['actions_runtime_token', family('ACTIONS_', RUNNER)],
    ['Input_TokenId', family('INPUT_', RUNNER)],
    ['state_token', family('STATE_', RUNNER)],
  ])('refuses %s: the same family in another casing', (name, why) => {
    expectRefused(name, why)
  })

  // A family's prefix alone is in the family: PYTHON* has no underscore, NODE_* has one.
  it.each<[string, string]>([
    ['LD_', family('LD_', LINKER)],
    ['DYLD_', family('DYLD_', MAC_LINKER)],
    ['GIT_', family('GIT_', 'change how git runs in later steps')],
    ['NODE_', family('NODE_', LANGUAGE('Node.js'))],
    ['PYTHON', family('PYTHON', LANGUAGE('Python'))],
    ['PYTHONX', family('PYTHON', LANGUAGE('Python'))],
    ['PERL', family('PERL', LANGUAGE('Perl'))],
    ['RUBY', family('RUBY', LANGUAGE('Ruby'))],
    ['JAVA_', family('JAVA_', LANGUAGE('Java'))],
    ['_JAVA_', family('_JAVA_', LANGUAGE('Java'))],
    ['DOTNET_', family('DOTNET_', LANGUAGE('.NET'))],
    ['SSL_', family('SSL_', 'change which certificates later steps trust')],
    ['_PROXY', PROXY],
    ['GITHUB_', family('GITHUB_', RUNNER)],
  ])('refuses the bare prefix %s', (name, why) => {
    expectRefused(name, why)
  })

  // The other side of each family: a prefix without its underscore, the family's name in
  // the middle of a name, and longer names that only start like an exact one.
  it.each([
    'MY_GATEWAY_TOKEN',
    'NODEX',
    'NODEJS_TOKEN',
    'MY_NODE_OPTIONS',
    'PYTHO',
    'PY_TOKEN',
    'MY_PYTHONPATH',
    'PER_TOKEN',
    'RUB_TOKEN',
    'JAVA',
    '_JAVATOKEN',
    'MY_JAVA_HOME',
    'DOTNET',
    'DOTNETTOKEN',
    'DYLD',
    'OLD_TOKEN',
    'X_LD_PRELOAD',
    'SSL',
    'MY_SSL_CERT',
    'NOPROXY',
    'PROXY_',
    'GITHUBTOKEN',
    'X_GITHUB_TOKEN',
    'RUNNER',
    'ACTIONS',
    'INPUTS_TOKEN',
    'STATEFUL_TOKEN',
    'PATH_TOKEN',
    'MY_ENV',
    'IFS_TOKEN',
    'CDPATH_TOKEN',
    'GCONV_PATH_TOKEN',
    'HOMEDIR_TOKEN',
  ])('accepts %s, which only looks like a refused name', (name) => {
    expect(readEnvName(name)).toBe(name)
  })

  it('reads an empty envName as none', () => {
    expect(readEnvName('')).toBeUndefined()
  })

  it.each(['MY-TOKEN', '1TOKEN', 'MY TOKEN', 'TOKEN=1', 'TOKEN\n', 'ÄTOKEN', '$TOKEN'])(
    'refuses %j, not a variable name',
    (name) => {
      const { input, message } = refusal(() => readEnvName(name))
      expect(input).toBe('envName')
      expect(message).toContain('must be an environment variable name')
      expect(message).toContain(`got ${JSON.stringify(name)}.`)
    },
  )
})
