import { describe, expect, it } from '@jest/globals'
import { runInNewContext } from 'node:vm'
import { ActionError, InputError, messageOf, toFile } from '../../../src/shared/errors.js'

describe('errors', () => {
  it('an InputError names the input first, and is an ActionError', () => {
    const error = new InputError('timeout', 'must be a whole number; got "x".')
    expect(error.message).toBe('Input \'timeout\' must be a whole number; got "x".')
    expect(error).toBeInstanceOf(ActionError)
    expect(error.input).toBe('timeout')
  })

  it('messageOf reads the message of an error, also one from another realm', () => {
    const foreign = runInNewContext('new Error("EACCES: permission denied")') as unknown
    expect(foreign instanceof Error).toBe(false)
    expect(messageOf(foreign)).toBe('EACCES: permission denied')
    expect(messageOf(new ActionError('refused'))).toBe('refused')
  })

  it('messageOf turns anything else thrown into text', () => {
    expect(messageOf('plain text')).toBe('plain text')
    expect(messageOf(undefined)).toBe('undefined')
    expect(messageOf({ message: 42 })).toBe('[object Object]')
  })

  it('toFile returns what the write returns, and turns what it throws into an ActionError naming the file', () => {
    expect(toFile('GITHUB_OUTPUT', () => 7)).toBe(7)
    const full = () => {
      throw new Error('ENOSPC: no space left on device, write')
    }
    expect(() => toFile('the token value to /tmp/x (writeTokenFile)', full)).toThrow(ActionError)
    expect(() => toFile('the token value to /tmp/x (writeTokenFile)', full)).toThrow(
      'could not write the token value to /tmp/x (writeTokenFile): ENOSPC: no space left on device, write.',
    )
    expect(() => toFile('GITHUB_STATE', full)).toThrow(
      'could not write GITHUB_STATE: ENOSPC: no space left on device, write.',
    )
  })
})
