/**
 * A permanent failure of a job step, with the code the row records (FETCH_TIMEOUT, PARSE_ERROR...).
 * Domain code throws it; the activity wrapper turns it into a non-retryable ApplicationFailure of
 * that type, and the workflow records it on the row. Any other error is retried (bounded).
 */
import type { JobErrorMessage } from '../../entities/JobState';

export class JobError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly messages: JobErrorMessage[] = [{ message }],
  ) {
    super(message);
    this.name = 'JobError';
  }
}
