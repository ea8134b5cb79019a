// PostState, the one writer of the post step's state, and what the post step reads back:
// a create's record saved whole each time it changes, and the token file's path.
import { describe, expect, it } from '@jest/globals'
import type { CreateRecord } from '../../../src/platform/create-life.js'
import { PostState, readSavedCreate, savedTokenFile } from '../../../src/post/state.js'
import { TOKEN_ID as ID } from '../../fixtures/inputs.js'
import { recordingRunner, type RecordingRunner } from '../../fixtures/runner.js'

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 5)
const SENDING: CreateRecord = { name: 'pr-1', sentAt: SENT_AT, state: 'not sent', when: 'always' }

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

describe('PostState.create: a create’s record, saved whole each time it changes', () => {
  it('saves one key, the record as JSON; the last save is what the post step reads', () => {
    const { runner, saved } = writes()
    const { create } = new PostState(runner)
    create({ ...SENDING, when: 'failure' })
    create({ ...SENDING, when: 'failure', state: 'created', lastInFlightAt: SENT_AT + 9, id: ID })
    expect(saved.map(([key]) => key)).toEqual(['create', 'create'])
    expect(JSON.parse(saved[0]?.[1] ?? '')).toEqual({ ...SENDING, when: 'failure' })
    expect(readSavedCreate(runner)).toEqual({
      ...SENDING,
      state: 'created',
      lastInFlightAt: SENT_AT + 9,
      id: ID,
      when: 'failure',
    })
  })

  it('saves nothing without revokeOnExit: nothing is done at the end', () => {
    const { runner, saved } = writes()
    new PostState(runner).create({ ...SENDING, when: 'never' })
    expect(saved).toEqual([])
  })

  it('keeps only the record’s fields: a token value put beside them is not saved', () => {
    const { runner, saved } = writes()
    const record = { ...SENDING, id: ID, tokenValue: 'eyJ.the.value' } as CreateRecord
    new PostState(runner).create(record)
    expect(saved[0]?.[1]).not.toContain('eyJ')
    expect(readSavedCreate(runner)).toEqual({ ...SENDING, id: ID })
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
    expect(read('null')).toBeUndefined()
    expect(read('"name"')).toBeUndefined()
    expect(read(JSON.stringify({ ...SENDING, name: '' }))).toBeUndefined()
    expect(read(JSON.stringify({ ...SENDING, sentAt: 1.5 }))).toBeUndefined()
    expect(read(JSON.stringify({ ...SENDING, sentAt: '1' }))).toBeUndefined()
    // A last send that is not a whole time is left out: the window ends a minute after the first.
    expect(read(JSON.stringify({ ...SENDING, lastInFlightAt: '1' }))).toEqual(SENDING)
  })

  it('anything but failure revokes at every end of the job; lostEarlier is true only when true', () => {
    const saved = read(JSON.stringify({ ...SENDING, when: 'sometimes', lostEarlier: 1 }))
    expect(saved).toEqual({ ...SENDING, when: 'always' })
    expect(read(JSON.stringify({ ...SENDING, when: 'failure', lostEarlier: true }))).toEqual({
      ...SENDING,
      lostEarlier: true,
      when: 'failure',
    })
  })

  it('a state it does not know is unknown: its token is searched for, never kept by a misread', () => {
    expect(read(JSON.stringify({ ...SENDING, state: 'written' }))).toEqual({
      ...SENDING,
      state: 'unknown',
    })
    expect(read(JSON.stringify({ ...SENDING, state: 'refused' }))?.state).toBe('refused')
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
