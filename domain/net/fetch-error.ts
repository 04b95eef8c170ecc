/**
 * A failed guarded fetch. `code` is what jobs record (a timeout is FETCH_TIMEOUT, anything else
 * FETCH_ERROR); `reason` says which kind of failure, for messages and for callers that treat some
 * differently (a crawler skips a page whose status is 404).
 */
export type FetchErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR';
export type FetchFailure = 'timeout' | 'refused' | 'scheme' | 'dns' | 'status' | 'size' | 'redirects' | 'network';

export class FetchError extends Error {
  readonly code: FetchErrorCode;

  constructor(
    readonly reason: FetchFailure,
    message: string,
    /** the HTTP status, when reason is `status` */
    readonly status?: number,
    /** the answer's Retry-After header, when reason is `status` and it had one */
    readonly retryAfter?: string,
  ) {
    super(message);
    this.name = 'FetchError';
    this.code = reason === 'timeout' ? 'FETCH_TIMEOUT' : 'FETCH_ERROR';
  }
}
