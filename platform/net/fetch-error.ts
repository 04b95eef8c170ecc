/**
 * A failed guarded fetch. `code` is what jobs record (a timeout is FETCH_TIMEOUT, anything else
 * FETCH_ERROR); `reason` says which kind of failure, for messages and for callers that treat some
 * differently (a crawler skips a page whose status is 404).
 *
 * The message and the reason reach callers (answers, job rows, event traces), so neither tells a refused
 * destination from one that did not resolve or answer (`unreachable`), nor names an address or an errno:
 * told apart, they map how names resolve inside our network. That goes to `detail`, for the log only.
 *
 * `transient` says whether the same fetch may succeed later, so a job retries it (docs/decisions.md, Durable
 * processes): a timeout, a 429 or 5xx, a DNS hiccup, a connection that failed. Not a 4xx, a bad URL, a body
 * over the limit, a redirect loop, a refused destination, nor a name that does not exist: those two must fail
 * alike, in one attempt, or the count of attempts would tell whether an internal name exists.
 */
export type FetchErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR';
export type FetchFailure = 'timeout' | 'unreachable' | 'scheme' | 'status' | 'size' | 'redirects';

export class FetchError extends Error {
  readonly code: FetchErrorCode;
  /** the HTTP status, when reason is `status` */
  readonly status?: number;
  /** the answer's Retry-After header, when reason is `status` and it had one */
  readonly retryAfter?: string;
  /** what the message leaves out (the address refused, the DNS error): for the log, never for a caller */
  readonly detail?: string;
  /** trying again later may succeed; for `unreachable` the guard says, since the message must not */
  readonly transient: boolean;

  constructor(
    readonly reason: FetchFailure,
    message: string,
    more: { status?: number; retryAfter?: string; detail?: string; transient?: boolean } = {},
  ) {
    super(message);
    this.name = 'FetchError';
    this.code = reason === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR';
    this.status = more.status;
    this.retryAfter = more.retryAfter;
    this.detail = more.detail;
    this.transient =
      reason === 'timeout' ||
      (reason === 'status' && (more.status === 429 || (more.status ?? 0) >= 500)) ||
      (reason === 'unreachable' && more.transient === true);
  }
}
