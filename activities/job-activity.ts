/**
 * Turns a domain JobError into what Temporal understands: an ApplicationFailure whose type is the
 * error's code and whose details carry its messages, non-retryable unless the error is `retryable`
 * (workflows/job.ts records the code of either). Every activity factory passes its activities through
 * `permanentFailures`.
 */
import { ApplicationFailure } from '@temporalio/common';
import { JobError } from '../domain/jobs/job-error';

export function toFailure(err: unknown): unknown {
  if (!(err instanceof JobError)) return err;
  return ApplicationFailure.create({
    message: err.message,
    type: err.code,
    nonRetryable: !err.retryable,
    details: [err.messages],
  });
}

export function permanentFailures<A extends object>(activities: A): A {
  const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const [name, fn] of Object.entries(activities) as Array<[string, (...args: unknown[]) => Promise<unknown>]>) {
    wrapped[name] = async (...args) => {
      try {
        return await fn(...args);
      } catch (err) {
        throw toFailure(err);
      }
    };
  }
  return wrapped as A;
}
