/** What every source's staging gets, and the fetch of a document to import. */
import type { ImportRun } from '../../../entities/ImportRun';
import { FetchError } from '../../../platform/net/fetch-error';
import type { FetchedResponse, GuardedFetch } from '../../../platform/net/guarded-fetch';
import { JobError } from '../../jobs/job-error';
import type { Liveness } from '../../jobs/liveness';
import type { StagingBatch } from '../batch';
import { IMPORT_FAILURES } from '../failures';

export interface SourceContext {
  run: ImportRun;
  batch: StagingBatch;
  fetch: GuardedFetch;
  /** heartbeat once per document and image (a killed worker's batch is retried once they stop); aborted on cancel */
  live: Liveness;
}

/**
 * Fetches a document to import, counted against the byte budget. A failure is a JobError with the
 * fetch's code (FETCH_TIMEOUT, or FETCH_ERROR: refused address, status, DNS, size): it fails the
 * import when the document is the one it starts from; a crawl skips any other page that fails.
 */
export async function fetchDocument(ctx: SourceContext, url: string, accept: string): Promise<FetchedResponse> {
  ctx.live.heartbeat({ done: ctx.batch.state.processed });
  try {
    const res = await ctx.fetch.fetch(url, {
      maxBytes: Math.max(1, ctx.batch.remainingBytes),
      signal: ctx.live.signal,
      headers: { accept },
    });
    ctx.batch.spend(res.body.length);
    return res;
  } catch (err) {
    // a 5xx, a 429, a timeout or a network hiccup may pass on a retry (within the kind's budget)
    if (err instanceof FetchError && !ctx.live.signal.aborted)
      throw new JobError(err.code, err.message, [{ message: err.message, code: err.reason }], {
        retryable: err.transient,
      });
    throw err;
  }
}

/** A document that could not be read as its source says: PARSE_ERROR. */
export function unreadable(message: string): JobError {
  return new JobError(IMPORT_FAILURES.parse, message);
}
