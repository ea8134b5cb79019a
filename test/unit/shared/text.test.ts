import { describe, expect, it } from '@jest/globals'
import {
  asSentence,
  countTokens,
  formatBytes,
  isAscii,
  neutralizeCommands,
  neutralizeLegacyCommands,
  oneLine,
  showInvisible,
  someOf,
  truncate,
} from '../../../src/shared/text.js'

describe('text', () => {
  it('names the first 5 of many, and how many more with where they all are', () => {
    expect(someOf(['a', 'b'], 'see the file')).toBe('a, b.')
    const seven = ['a', 'b', 'c', 'd', 'e', 'f', 'g']
    expect(someOf(seven, 'see the file')).toBe('a, b, c, d, e. And 2 more: see the file.')
    expect(someOf(['x.', 'y.', 'z.'], 'see the file', ' ', '')).toBe('x. y. z.')
    expect(
      someOf(
        [...seven, 'h'].map((s) => `${s}.`),
        'above',
        ' ',
        '',
      ),
    ).toBe('a. b. c. d. e. And 3 more: above.')
  })

  it('ends a text with a full stop, unless it ends a sentence already', () => {
    expect(asSentence('answered 503')).toBe('answered 503.')
    expect(['done.', 'wait!', 'why?'].map(asSentence)).toEqual(['done.', 'wait!', 'why?'])
    expect(asSentence('a.b')).toBe('a.b.')
  })

  it('cuts a long text to its limit, marked with ...', () => {
    expect(truncate('abcdefghij', 10)).toBe('abcdefghij')
    expect(truncate('abcdefghijk', 10)).toBe('abcdefg...')
  })

  it('never cuts a character made of two UTF-16 units in half', () => {
    expect(truncate('ab😀cdef', 5)).toBe('ab...')
    expect(truncate('a😀bcdef', 5)).toBe('a...')
    expect(truncate('😀'.repeat(10), 8)).toBe('😀😀...')
  })

  it('keeps a pair that ends right at the cut, and steps back over one cut in half', () => {
    // The cut falls after the low half of 😀 (U+D83D U+DE00): the pair stays whole.
    expect(truncate('ab😀cdefgh', 7)).toBe('ab😀...')
    // The high halves at both ends of their range, U+D800 (U+10000) and U+DBFF (U+10FFFF).
    expect(truncate('a\u{10000}bcdef', 5)).toBe('a...')
    expect(truncate('a\u{10FFFF}bcdef', 5)).toBe('a...')
    // Past the high halves: U+DC00, a low half, and U+E000, a character of its own.
    expect(truncate('ab\udc00cdefgh', 6)).toBe('ab\udc00...')
    expect(truncate('ab\ue000cdefgh', 6)).toBe('ab\ue000...')
    // Nothing before the cut: nothing to step back over.
    expect(truncate('😀abcdef', 3)).toBe('...')
    expect(truncate('😀abcdef', 4)).toBe('...')
  })

  it('tells plain ASCII from any other text', () => {
    expect(['', 'abc', '\u0000~\u007f'].map(isAscii)).toEqual([true, true, true])
    expect(['é', 'a\u0080', '😀', 'abc\u00a0'].map(isAscii)).toEqual([false, false, false, false])
  })

  it('puts text on one line', () => {
    expect(oneLine(' a\r\n\tb\u0085c ')).toBe('a b c')
  })

  it('counts tokens', () => {
    expect([0, 1, 2].map(countTokens)).toEqual(['0 tokens', '1 token', '2 tokens'])
  })
})

// The runner's two parsers (actions/runner ActionCommand.TryParse and TryParseV2), as far
// as they decide that a line is a command: found as written (ordinal), and found as .NET
// on ICU searches, where characters of no weight (U+200B and the like) are skipped.
const icu = new Intl.Collator('und', { sensitivity: 'variant' })
function icuIndexOf(line: string, wanted: string): number {
  for (let start = 0; start < line.length; start++)
    for (let end = start + 1; end <= Math.min(line.length, start + wanted.length + 8); end++)
      if (icu.compare(line.slice(start, end), wanted) === 0) return start
  return -1
}
/** TryParse: `##[` anywhere, a `]` after it. */
function legacyCommand(line: string): boolean {
  const at = Math.max(line.indexOf('##['), icuIndexOf(line, '##['))
  return at >= 0 && line.indexOf(']', at) > at
}
/** TryParseV2: `::` at the start once leading whitespace is trimmed. */
function v2Command(line: string): boolean {
  const trimmed = line.trimStart()
  return trimmed.startsWith('::') || icuIndexOf(trimmed.slice(0, 12), '::') === 0
}

const COMMANDS = [
  'set-output name=x',
  'save-state name=x',
  'add-mask',
  'error',
  'warning file=a.ts,line=1',
  'notice',
  'debug',
  'stop-commands',
  'group',
  'endgroup',
  'add-path',
  'set-env name=PATH',
  'echo',
  'add-matcher',
  'remove-matcher owner=x',
  // Any token: it would end a stop-commands the attacker started.
  'abc123',
]
const HOSTILE = COMMANDS.flatMap((command) => [
  `##[${command}]data`,
  `token ##[${command}]data`,
  `token###[${command}]data`,
  `##[##[${command}]data`,
  `x #\u200b#[${command}]data`,
  `x ##\u2060\u00ad[${command}]data`,
  `::${command}::data`,
  `  \t::${command}::data`,
  `\u00a0::${command}::data`,
  `\u200b::${command}::data`,
  `:\u200b:${command}::data`,
  `::${command}::a ##[${command}]b`,
])

describe('neutralizeCommands', () => {
  it('the runner helpers of this test find every hostile line as written', () => {
    for (const line of HOSTILE)
      expect([line, legacyCommand(line) || v2Command(line)]).toEqual([line, true])
  })

  it('leaves no line the runner reads as a command, in either syntax, start or middle', () => {
    for (const line of HOSTILE) {
      const safe = neutralizeCommands(line)
      expect([line, safe, legacyCommand(safe), v2Command(safe)]).toEqual([line, safe, false, false])
    }
  })

  it('puts a space between ## and [, and between the colons of a line-start ::', () => {
    expect(neutralizeCommands('x ##[stop-commands]y')).toBe('x ## [stop-commands]y')
    expect(neutralizeCommands('###[warning]w')).toBe('### [warning]w')
    expect(neutralizeCommands('##[##[abc123]')).toBe('## [## [abc123]')
    expect(neutralizeCommands('::add-mask::v')).toBe(': :add-mask::v')
    expect(neutralizeCommands('  ::error::e')).toBe('  : :error::e')
    expect(neutralizeCommands('a\n::debug::d\r\n::x::')).toBe('a\n: :debug::d\r\n: :x::')
    expect(neutralizeCommands('a ::set-output name=x::v')).toBe('a ::set-output name=x::v')
  })

  it('takes legacy commands out of any text, leaving a line-start :: to the command it is data of', () => {
    expect(neutralizeLegacyCommands('::x::##[add-mask]v')).toBe('::x::## [add-mask]v')
  })

  it('leaves ordinary text exactly as it was', () => {
    const ordinary = [
      'C#',
      'C# [draft] #1',
      'a::b',
      'ns::Class::method',
      '#[not a command]',
      '## heading [x]',
      '[##]',
      'https://x.example/a#b?c=[1]',
      'time 12:30:00',
      'a : :b',
      ':one colon',
      'naïve ☃ 𝄞 日本語 € ci-dеploy',
      'emoji 👩‍💻 👍🏽 🇪🇺',
      '[x]',
      '# #[x]', // the runner does not skip a space between the two #
      ': :x::y',
      '',
    ]
    for (const text of ordinary) {
      expect(neutralizeCommands(text)).toBe(text)
      expect(neutralizeLegacyCommands(text)).toBe(text)
    }
  })
})

describe('neutralizeCommands on its own output', () => {
  it('changes nothing the second time: what it wrote is ordinary text', () => {
    expect(HOSTILE.length).toBeGreaterThan(100)
    for (const line of HOSTILE) {
      const once = neutralizeCommands(line)
      expect([line, neutralizeCommands(once)]).toEqual([line, once])
    }
  })
})

describe('showInvisible (case 6 of issue 18)', () => {
  it.each([
    ['right-to-left override', 'prod\u202Edoc', 'prod<U+202E>doc'],
    ['right-to-left isolate', 'a\u2067b\u2069', 'a<U+2067>b<U+2069>'],
    ['zero-width space', 'pr\u200Bod', 'pr<U+200B>od'],
    ['soft hyphen', 'pro\u00ADd', 'pro<U+00AD>d'],
    ['byte order mark', '\uFEFFprod', '<U+FEFF>prod'],
    ['tag character (astral)', 'prod\u{E0041}', 'prod<U+E0041>'],
  ])('writes a %s visibly', (_, raw, shown) => {
    expect(showInvisible(raw)).toBe(shown)
    expect(oneLine(raw)).toBe(shown)
  })

  it('leaves what shows as itself alone: ASCII, accents, other scripts, emoji', () => {
    for (const text of ['ci-deploy', 'déploiement', 'デプロイ', 'ci 🚀', 'a\u0301'])
      expect(showInvisible(text)).toBe(text)
  })
})

describe('formatBytes: a limit said from its constant, as the runner’s docs write it', () => {
  it.each([
    [1_048_576, '1 MiB'],
    [64 * 1_048_576, '64 MiB'],
    [128 * 1024, '128 KiB'],
    [1_048_576 + 1024, '1025 KiB'],
    [1_048_577, '1048577 bytes'],
    [500, '500 bytes'],
  ])('%i bytes: %s', (bytes, words) => {
    expect(formatBytes(bytes)).toBe(words)
  })
})
