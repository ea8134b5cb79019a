// nock's interception must not outlive the test file that wants it (see fixtures/nock-platform.ts).
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { API } from '../fixtures/nock-platform.js'

describe('the nock fixture', () => {
  it('leaves interception off for a file that only imports its constants', () => {
    expect(API).toMatch(/^https:\/\//)
    // Importing nock turns it on; on, a later file's real sockets (http.test.ts) reach nock.
    expect(nock.isActive()).toBe(false)
  })
})
