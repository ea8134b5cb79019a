// Where modules write the step's log: the Runner in the action, a recorder in tests.
export interface Logger {
  debug(message: string): void
  info(message: string): void
  notice(message: string): void
  warning(message: string): void
}
