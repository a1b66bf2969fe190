/**
 * What a service refuses, in the domain's words: services, stores and rules throw these and know nothing of HTTP. The
 * one error handler (src/platform/http/errors.ts) gives each its status, once; db/faults.ts has the database's two
 * (a unique key refused: 409; the database away or busy: 503). The message is the `detail` clients read, so it says
 * what to fix and never leaks internals.
 */
export abstract class DomainError extends Error {}

/** The caller is not signed in, or what proves who they are did not (a wrong password, an expired challenge). */
export class Unauthenticated extends DomainError {}
/** The caller may not do this. */
export class Forbidden extends DomainError {}
/** No such thing, or none the caller may see (anyone else's is "not found" too). */
export class NotFound extends DomainError {}
/** The request clashes with what is there now (a state the rules do not allow, a duplicate). */
export class Conflict extends DomainError {}
/** The request cannot be acted on as sent, whatever its fields say (a used or unknown link). */
export class Refused extends DomainError {}
/** An upload larger than allowed. */
export class TooLarge extends DomainError {}

/** A value the rules refuse. With `issue`, it is about one field and is answered as schema validation is. */
export class Invalid extends DomainError {
  constructor(
    message: string,
    readonly issue?: ValidationIssue,
  ) {
    super(message)
  }
}

/** Over a limit of tries or work; worth trying again after `retryAfterSeconds`. */
export class TooMany extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message)
  }
}

/** A service the request needs does not answer (photo storage away): 503, worth trying again after `retryAfterSeconds`. */
export class Unavailable extends DomainError {
  constructor(
    message: string,
    readonly retryAfterSeconds = 30,
  ) {
    super(message)
  }
}

/** One field's problem, shaped as schema validation reports it (`loc` starts with where the value came from). */
export type ValidationIssue = { loc: (string | number)[]; msg: string; type: string }

export const unauthenticated = (detail = 'Not authenticated') => new Unauthenticated(detail)
export const forbidden = (detail = "You don't have permission to do this") => new Forbidden(detail)
export const notFound = (detail = 'Not found') => new NotFound(detail)
export const conflict = (detail: string) => new Conflict(detail)
export const refused = (detail: string) => new Refused(detail)
export const tooLarge = (detail: string) => new TooLarge(detail)
export const invalid = (detail: string) => new Invalid(detail)

/** One field's refusal, for rules a schema cannot say (existence, trimmed length). */
export const fieldError = (field: string, msg: string, where = 'body') => new Invalid(msg, { loc: [where, field], msg, type: 'value_error' })

/** `what` refused until the wait is over, saying how many minutes. */
export function tooMany(retryAfterSeconds: number, what: string): TooMany {
  const minutes = Math.ceil(retryAfterSeconds / 60)
  return new TooMany(`Too many ${what}. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, retryAfterSeconds)
}
