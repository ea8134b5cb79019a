// The token store's records: the platform's ids, new and revoked records, what answers carry.
// @ts-check
import { randomBytes, randomUUID } from 'node:crypto'
import { isObject } from './messages.mjs'

/** @typedef {import('./types.mjs').TokenRecord} TokenRecord */
/** @typedef {import('./types.mjs').SeedSpec} SeedSpec */
/** @typedef {import('./platform.mjs').FakePlatform} FakePlatform */

export const PROJECT_ID = '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b'
export const USER_ID = '0b8d9c7a-6e5f-4a3b-8c2d-1e0f9a8b7c6d'
export const USER_EMAIL = 'deploy-bot@example.com'

/**
 * An ISO 8601 UTC timestamp with whole seconds, as in the platform's public samples
 * (`2026-05-26T19:16:45Z`): two tokens made in the same second tie.
 * @param {number} ms
 */
export function timestamp(ms) {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z')
}

/**
 * What an answer carries for a stored record: a copy, rewritten by rewriteRecord.
 * @param {FakePlatform} platform
 * @param {TokenRecord} record
 * @param {import('./types.mjs').RecordAnswer} answer
 */
export function present(platform, record, answer) {
  const copy = { ...record }
  if (platform.rewriteRecord === undefined) return copy
  const sent = platform.rewriteRecord(copy, answer)
  if (isObject(sent) && typeof sent.tokenValue === 'string' && sent.tokenValue !== '') {
    platform.issuedSecrets.add(sent.tokenValue)
  }
  return sent
}

/**
 * @param {FakePlatform} platform
 * @param {Map<string, number>} madeAt when each token was made (PlatformState.madeAt)
 * @param {string} name
 * @param {string} createdAt
 * @param {Omit<SeedSpec, 'name' | 'state' | 'ageMs' | 'createdAt'>} [fields]
 */
export function newRecord(platform, madeAt, name, createdAt, fields = {}) {
  /** @type {TokenRecord} */
  const record = {
    id: fields.id ?? randomUUID(),
    name,
    tokenValue: jwtLike({ sub: 'mediator', name }),
    mediatorId: fields.mediatorId ?? randomUUID(),
    projectId: fields.projectId ?? PROJECT_ID,
    createdBy: USER_ID,
    createdByEmail: USER_EMAIL,
    state: 'active',
    createdAt,
  }
  platform.tokens.set(record.id, record)
  madeAt.set(record.id, Date.now())
  return record
}

/**
 * @param {FakePlatform} platform
 * @param {TokenRecord} record
 */
export function revokeRecord(platform, record) {
  delete record.tokenValue
  record.state = 'revoked'
  record.revokedAt = timestamp(platform.now())
  record.revokedBy = USER_ID
}

/** @param {Record<string, string>} claims */
export function jwtLike(claims) {
  const part = (/** @type {object} */ value) =>
    Buffer.from(JSON.stringify(value)).toString('base64url')
  const payload = { ...claims, jti: randomUUID() }
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.${randomBytes(32).toString('base64url')}`
}
