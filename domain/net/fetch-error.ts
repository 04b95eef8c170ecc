/**
 * A failed guarded fetch. `code` is what jobs record (a timeout is FETCH_TIMEOUT, anything else
 * FETCH_ERROR); `reason` says which kind of failure, for messages and for callers that treat some
 * differently (a crawler skips a page whose status is 404).
 *
 * The message and the reason reach callers (answers, job rows, event traces), so neither tells a refused
 * destination from one that did not resolve or answer (`unreachable`), nor names an address or an errno:
 * told apart, they map how names resolve inside our network. That goes to `detail`, for the log only.
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

  constructor(
    readonly reason: FetchFailure,
    message: string,
    more: { status?: number; retryAfter?: string; detail?: string } = {},
  ) {
    super(message);
    this.name = 'FetchError';
    this.code = reason === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR';
    this.status = more.status;
    this.retryAfter = more.retryAfter;
    this.detail = more.detail;
  }
}
