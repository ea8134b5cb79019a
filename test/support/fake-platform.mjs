// @ts-check
/**
 * A fake of the platform as real HTTP servers on 127.0.0.1: the auth endpoint and the
 * REST API on two ports, records in memory. It is as strict as the spec
 * (docs/PLATFORM-API.md): it checks Content-Type, the Bearer token, a
 * JSON `name`, and that a revoke carries the token id in path and query alike.
 *
 * It can also be hostile on request, so that the end-to-end tests can show what the
 * action does with a platform that answers strangely:
 * - `rewriteRecord` rewrites each record in the answers that carry them (create, list,
 *   revoke), `duplicateRecords` sends the list twice over, `seed` stores any id,
 *   project id, state or date as given;
 * - `rewriteAuth` rewrites the answers of the auth endpoint (an access token holding
 *   CR/LF, NUL or `€`);
 * - faults (`fail`) add a reason phrase (`statusText`), any header values (`headers`),
 *   a deeply nested JSON body (`nest`) or an error body that echoes the request (`echo`);
 * - `sendDate = false` leaves out the Date header; `clockOffsetMs` sets the platform's
 *   clock (createdAt, revokedAt, the Date header) apart from the runner's;
 * - `alreadyRevoked` says how a revoke of a revoked token is refused (409 by default);
 * - `throttle` throttles the API as a real platform would (throttle.mjs): a limit in flight,
 *   a token bucket or a sliding window, a 429 at once or after the latency, Retry-After in
 *   every style, a share of the limit taken by another job, 503 outages.
 * A reason phrase, header or status that Node refuses to send is written to the socket
 * by hand, as a hostile server would.
 *
 * Used by the end-to-end tests and `npm run demo`; `node test/support/fake-platform.mjs`
 * starts one by hand and prints its addresses.
 *
 * The parts live in fake-platform/: the class and its settings (platform.mjs), the
 * request handler (server.mjs), the auth endpoint (auth.mjs), the REST API (api.mjs),
 * the stored records (records.mjs), faults (faults.mjs), the throttle's model
 * (throttle.mjs) and its answers (limits.mjs), the wire (http.mjs), small helpers
 * (messages.mjs), the types (types.mjs) and the command line (cli.mjs).
 */
import { pathToFileURL } from 'node:url'
import { serveFromCommandLine } from './fake-platform/cli.mjs'

export { nestedJson } from './fake-platform/faults.mjs'
export { AUTH_PATH, FakePlatform, startFakePlatform } from './fake-platform/platform.mjs'
export { PROJECT_ID, timestamp, USER_EMAIL, USER_ID } from './fake-platform/records.mjs'

/** @typedef {import('./fake-platform/types.mjs').TokenRecord} TokenRecord */
/** @typedef {import('./fake-platform/types.mjs').RecordedRequest} RecordedRequest */
/** @typedef {import('./fake-platform/types.mjs').AnswerHeaders} AnswerHeaders */
/** @typedef {import('./fake-platform/types.mjs').Echo} Echo */
/** @typedef {import('./fake-platform/types.mjs').Fault} Fault */
/** @typedef {import('./fake-platform/types.mjs').Answer} Answer */
/** @typedef {import('./fake-platform/types.mjs').RecordAnswer} RecordAnswer */
/** @typedef {import('./fake-platform/types.mjs').SeedSpec} SeedSpec */
/** @typedef {import('./fake-platform/types.mjs').FakePlatformOptions} FakePlatformOptions */
/** @typedef {import('./fake-platform/throttle.mjs').ThrottleSpec} ThrottleSpec */
/** @typedef {import('./fake-platform/throttle.mjs').RetryAfterStyle} RetryAfterStyle */

// `node test/support/fake-platform.mjs [authPort apiPort]`: a platform to run the action against by hand.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await serveFromCommandLine(process.argv.slice(2))
}
