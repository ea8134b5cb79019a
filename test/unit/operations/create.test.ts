import { describe, expect, it } from '@jest/globals'
import { create } from '../../../src/operations/create.js'
import { FakeTokenApi } from '../../fixtures/token-api.js'

describe('create', () => {
  it('creates one token and returns it with its value and the env name', async () => {
    const api = new FakeTokenApi()
    const result = await create(api, {
      operation: 'create',
      name: 'ci-deploy',
      envName: 'GW_TOKEN',
    })
    expect(api.calls).toEqual(['create ci-deploy'])
    expect(result).toEqual({
      operation: 'create',
      token: expect.objectContaining({ name: 'ci-deploy', tokenValue: 'value-ci-deploy' }),
      envName: 'GW_TOKEN',
    })
  })
})
