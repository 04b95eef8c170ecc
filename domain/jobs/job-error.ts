/**
 * A failure of a job step with the code the row records (FETCH_TIMEOUT, PARSE_ERROR...). Domain code
 * throws it; the activity wrapper turns it into an ApplicationFailure of that type, and the workflow
 * records it on the row. A permanent one (the default) is not retried; a `retryable` one (a source
 * answering 503, a provider outage) is retried within the kind's budget and its code recorded once the
 * retries are spent. Any other error is retried the same way, and recorded as JOB_FAILED.
 */
import type { JobErrorMessage } from './contracts';

export class JobError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly code: string,
    message: string,
    readonly messages: JobErrorMessage[] = [{ message }],
    options: { retryable?: boolean } = {},
  ) {
    super(message);
    this.name = 'JobError';
    this.retryable = options.retryable ?? false;
  }
}
