// PostState, the one writer of the post step's state: each fact written once, the moment it
// is known, and read back by readToRevokeOnExit and savedTokenFile as the post step reads it.
import { describe, expect, it } from '@jest/globals'
import { readToRevokeOnExit, PostState, savedTokenFile } from '../../../src/post/state.js'
import { FakeClock } from '../../fixtures/clock.js'
import { TOKEN_ID as ID } from '../../fixtures/inputs.js'
import { recordingRunner, type RecordingRunner } from '../../fixtures/runner.js'

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 5)

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

describe('PostState.createNotes: what a create tells', () => {
  it('sending: the name, the time by the injected clock at that moment, and when', () => {
    const { runner, saved } = writes()
    const clock = new FakeClock(SENT_AT - 5_000)
    const notes = new PostState(runner, clock).createNotes('failure')
    // Time passes between making the notes and sending: the time saved is the send's.
    clock.advance(5_000)
    notes.sending('pr-1')
    expect(saved).toEqual([
      ['revokeOnExitTokenName', 'pr-1'],
      ['revokeOnExitSince', String(SENT_AT)],
      ['revokeOnExitWhen', 'failure'],
    ])
  })

  it('answerLost: sets the lost-answer flag, and nothing else', () => {
    const { runner, saved } = writes()
    new PostState(runner, new FakeClock(SENT_AT)).createNotes('always').answerLost()
    expect(saved).toEqual([['revokeOnExitLostAnswer', 'true']])
  })

  it('created: saves the id alone, the name having been saved at sending', () => {
    const { runner, saved } = writes()
    const notes = new PostState(runner, new FakeClock(SENT_AT)).createNotes('always')
    notes.created({ id: ID, name: 'pr-1', state: 'active', tokenValue: 'eyJ.the.value' })
    expect(saved).toEqual([['revokeOnExitTokenId', ID]])
  })

  it('writes each key exactly once for a whole create, in the order it was told', () => {
    const { runner, saved } = writes()
    const notes = new PostState(runner, new FakeClock(SENT_AT)).createNotes('always')
    notes.sending('pr-1')
    notes.answerLost()
    notes.created({ id: ID, name: 'pr-1', state: 'active' })
    expect(saved).toEqual([
      ['revokeOnExitTokenName', 'pr-1'],
      ['revokeOnExitSince', String(SENT_AT)],
      ['revokeOnExitWhen', 'always'],
      ['revokeOnExitLostAnswer', 'true'],
      ['revokeOnExitTokenId', ID],
    ])
    const keys = saved.map(([name]) => name)
    expect(new Set(keys).size).toBe(keys.length)
  })

  it('never writes the token value, nor anything the token holds besides its id', () => {
    const { runner, saved } = writes()
    const notes = new PostState(runner, new FakeClock(SENT_AT)).createNotes('always')
    notes.sending('pr-1')
    notes.created({ id: ID, name: 'pr-1', state: 'active', tokenValue: 'eyJ.the.value' })
    expect(JSON.stringify(saved)).not.toContain('eyJ.the.value')
  })
})

describe('PostState.createNotes: read back by readToRevokeOnExit (the post step)', () => {
  /** The state a create leaves, told `how`, as the post step reads it. */
  function roundTrip(
    how: (notes: ReturnType<PostState['createNotes']>) => void,
    when: 'always' | 'failure' = 'always',
  ) {
    const runner = recordingRunner()
    how(new PostState(runner, new FakeClock(SENT_AT)).createNotes(when))
    return readToRevokeOnExit(runner)
  }

  it('sending, then created: the token to revoke by its id, with its name; nothing to look for', () => {
    const left = roundTrip((notes) => {
      notes.sending('pr-1')
      notes.created({ id: ID, name: 'pr-1', state: 'active' })
    })
    expect(left).toEqual({ when: 'always', token: { id: ID, name: 'pr-1' } })
  })

  it('sending alone (the answer never came): the create to look for, by name and time', () => {
    const left = roundTrip((notes) => {
      notes.sending('pr-1')
    }, 'failure')
    expect(left).toEqual({
      when: 'failure',
      search: { name: 'pr-1', sentAt: SENT_AT, when: 'failure' },
    })
  })

  it('sending, answerLost, then created: the token to revoke, and the lost attempt to look for', () => {
    const left = roundTrip((notes) => {
      notes.sending('pr-1')
      notes.answerLost()
      notes.created({ id: ID, name: 'pr-1', state: 'active' })
    })
    expect(left).toEqual({
      when: 'always',
      token: { id: ID, name: 'pr-1' },
      search: { name: 'pr-1', sentAt: SENT_AT, when: 'always' },
    })
  })

  it('nothing told (no revokeOnExit, or a reused token): nothing left to revoke', () => {
    expect(roundTrip(() => undefined)).toBeUndefined()
  })
})

describe('PostState.tokenFile', () => {
  it('saves the path once, and savedTokenFile reads it back', () => {
    const { runner, saved } = writes()
    const path = '/runner/temp/gateway-token-0123456789abcdef0123456789abcdef'
    new PostState(runner, new FakeClock()).tokenFile(path)
    expect(saved).toEqual([['tokenFile', path]])
    expect(savedTokenFile(runner)).toBe(path)
  })

  it('reads as no file when none was saved', () => {
    expect(savedTokenFile(recordingRunner())).toBeUndefined()
  })
})
