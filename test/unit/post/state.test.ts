// PostState, the one writer of the post step's state, and what the post step reads back:
// a create's facts saved whole each time one is learnt, and the token file's path.
import { describe, expect, it } from '@jest/globals'
import type { CreateFacts } from '../../../src/platform/lost-create.js'
import { PostState, readSavedCreate, savedTokenFile } from '../../../src/post/state.js'
import { TOKEN_ID as ID } from '../../fixtures/inputs.js'
import { recordingRunner, type RecordingRunner } from '../../fixtures/runner.js'

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 5)
const SENDING: CreateFacts = {
  name: 'pr-1',
  sentAt: SENT_AT,
  written: false,
  refused: false,
  lost: false,
}

/** A runner that records every saveState call, in order, besides keeping the state. */
function writes(): { runner: RecordingRunner; saved: [string, string][] } {
  const runner = recordingRunner()
  const saved: [string, string][] = []
  const save = runner.saveState.bind(runner)
  runner.saveState = (name, value) => {
    saved.push([name, value])
    save(name, value)
  }
  return { runner, saved }
}

describe('PostState.createSaver: a create’s facts, saved whole each time', () => {
  it('saves one key, the facts and when, as JSON; the last save is what the post step reads', () => {
    const { runner, saved } = writes()
    const save = new PostState(runner).createSaver('failure')
    save(SENDING)
    save({ ...SENDING, written: true, id: ID })
    expect(saved.map(([key]) => key)).toEqual(['create', 'create'])
    expect(JSON.parse(saved[0]?.[1] ?? '')).toEqual({ ...SENDING, when: 'failure' })
    expect(readSavedCreate(runner)).toEqual({ ...SENDING, written: true, id: ID, when: 'failure' })
  })

  it('keeps only the facts: a token value put beside them is not saved', () => {
    const { runner, saved } = writes()
    const facts = { ...SENDING, id: ID, tokenValue: 'eyJ.the.value' } as CreateFacts
    new PostState(runner).createSaver('always')(facts)
    // The saver writes what it is given; the facts it is given never hold the value.
    expect(readSavedCreate(runner)).not.toHaveProperty('tokenValue')
    expect(saved).toHaveLength(1)
  })
})

describe('readSavedCreate: what the post step reads back', () => {
  const read = (value: string | undefined) => {
    const runner = recordingRunner()
    if (value !== undefined) runner.state.create = value
    return readSavedCreate(runner)
  }

  it('nothing saved (no revokeOnExit, another operation, a reused token): undefined', () => {
    expect(read(undefined)).toBeUndefined()
  })

  it('what it cannot read is no create: not JSON, no name, no whole time', () => {
    expect(read('{"name":')).toBeUndefined()
    expect(read('[]')).toBeUndefined()
    expect(read(JSON.stringify({ ...SENDING, name: '' }))).toBeUndefined()
    expect(read(JSON.stringify({ ...SENDING, sentAt: 1.5 }))).toBeUndefined()
    expect(read(JSON.stringify({ ...SENDING, sentAt: '1' }))).toBeUndefined()
  })

  it('anything but failure revokes at every end of the job; flags are true only when true', () => {
    const saved = read(JSON.stringify({ ...SENDING, when: 'sometimes', written: 'yes', lost: 1 }))
    expect(saved).toEqual({ ...SENDING, when: 'always' })
    expect(read(JSON.stringify({ ...SENDING, when: 'failure', refused: true }))).toEqual({
      ...SENDING,
      refused: true,
      when: 'failure',
    })
  })

  it('an id that is not text, or empty, is no id', () => {
    expect(read(JSON.stringify({ ...SENDING, id: 7 }))).not.toHaveProperty('id')
    expect(read(JSON.stringify({ ...SENDING, id: '' }))).not.toHaveProperty('id')
  })
})

describe('PostState.tokenFile', () => {
  it('saves the path once, and savedTokenFile reads it back', () => {
    const { runner, saved } = writes()
    const path = '/runner/temp/gateway-token-0123456789abcdef0123456789abcdef'
    new PostState(runner).tokenFile(path)
    expect(saved).toEqual([['tokenFile', path]])
    expect(savedTokenFile(runner)).toBe(path)
  })

  it('reads as no file when none was saved', () => {
    expect(savedTokenFile(recordingRunner())).toBeUndefined()
  })
})
