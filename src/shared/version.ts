// The action's version and the User-Agent it sends.
/** Kept equal to package.json's version by a test. */
export const VERSION = '0.1.0'
export const USER_AGENT = `gateway-token-action/${VERSION}`
