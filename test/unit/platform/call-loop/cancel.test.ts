// CallLoop when the step is cancelled: nothing is sent after the cancel, a wait ends at once, and a request cut off in flight says it may have taken effect.
import { describe, expect, it } from '@jest/globals'
import { DeadlineError } from '../../../../src/shared/errors.js'
import { CUT_OFF, TransportError } from '../../../../src/platform/http.js'
import { loop, readStatus, REQUEST } from '../../../fixtures/call-loop.js'

const failure = (promise: Promise<unknown>) => promise.catch((error: unknown) => error)

describe('CallLoop when the step is cancelled', () => {
  it('sends nothing once the step is cancelled, and says so', async () => {
    const { callLoop, transport, deadline } = loop([{ status: 200 }])
    deadline.cancel('SIGINT')
    const error = await failure(callLoop.call('api', REQUEST, readStatus))
    expect(error).toBeInstanceOf(DeadlineError)
    expect((error as Error).message).toBe(
      `The step was cancelled (SIGINT) before GET ${REQUEST.url} was sent.`,
    )
    expect(transport.sent).toEqual([])
  })

  it('hands each attempt the signal that cuts it off', async () => {
    const { callLoop, transport, deadline } = loop([{ status: 200 }])
    await callLoop.call('api', REQUEST, readStatus)
    expect(transport.sent[0]?.signal).toBe(deadline.cutSignal)
  })

  it('ends a wait between attempts at the cancel, and sends nothing after it', async () => {
    const { callLoop, transport, clock, deadline } = loop([{ status: 503 }, { status: 200 }])
    const waits: boolean[] = []
    clock.sleep = (_ms: number, signal?: AbortSignal) => {
      // The cancel comes during the wait: the wait's signal is the one the cancel aborts.
      deadline.cancel('SIGINT')
      waits.push(signal?.aborted === true)
      return Promise.resolve()
    }
    const error = await failure(callLoop.call('api', REQUEST, readStatus))
    expect(waits).toEqual([true])
    expect((error as Error).message).toBe(
      `The step was cancelled (SIGINT) before GET ${REQUEST.url} was sent.`,
    )
    expect(transport.sent).toHaveLength(1)
  })

  it('tries nothing again after a cancel: the failure says why', async () => {
    const { callLoop, deadline, transport } = loop([{ status: 502 }, { status: 200 }])
    transport.onSend = () => {
      deadline.cancel('SIGTERM')
    }
    const error = await failure(callLoop.call('api', REQUEST, readStatus))
    // The words: test/unit/platform/call-loop/golden-messages.test.ts.
    const { message } = error as DeadlineError
    expect(message).toContain(`GET ${REQUEST.url} answered 502`)
    expect(message).toContain('cancelled (SIGTERM)')
    expect(message).toContain('not tried again')
    expect(message).toContain('It may have taken effect')
    expect((error as DeadlineError).mayHaveTakenEffect).toBe(true)
    expect(transport.sent).toHaveLength(1)
  })

  it.each([
    [true, ' It may have taken effect all the same.'],
    [false, ''],
  ])(
    'says a request cut off in flight (sent whole: %s) may have taken effect, and tries it no more',
    async (sent, maybe) => {
      const { callLoop, deadline, transport } = loop([
        new TransportError('cut off: the step was cancelled', CUT_OFF, sent),
        { status: 200 },
      ])
      transport.onSend = () => {
        deadline.cancel('SIGINT')
      }
      const error = await failure(callLoop.call('api', REQUEST, readStatus))
      expect(error).toBeInstanceOf(DeadlineError)
      const { message } = error as DeadlineError
      expect(message).toContain(`cancelled (SIGINT) while GET ${REQUEST.url} waited for an answer.`)
      expect(message.endsWith(maybe)).toBe(true)
      expect(message.includes('may have taken effect')).toBe(sent)
      expect((error as DeadlineError).mayHaveTakenEffect).toBe(sent)
      expect(transport.sent).toHaveLength(1)
    },
  )
})
