/**
 * One delivery attempt of an integration event, and what follows it (retries, the event's status). The attempt POSTs
 * `multipart/form-data` (`event` and `environment` parts) to `<tunnelUrl>/v1` through the guarded
 * fetch, signed `X-GitBook-Signature: t=<unix>,v1=<hex HMAC-SHA256("<t>.<body>")>` with the
 * installation's signing secret, within INTEGRATION_DISPATCH_TIMEOUT_MS. Recording it writes its trace
 * line (URL, status or error, duration) and decides: delivered on 2xx; a retry after an exponential
 * back-off with jitter on 5xx, 429, timeouts and unreachable destinations while attempts remain; failed otherwise.
 */
import { createHmac } from 'crypto';
import type { DataSource } from 'typeorm';
import { IntegrationEvent } from '../../entities/IntegrationEvent';
import type { Config } from '../../platform/config';
import { inTransaction } from '../../platform/db/transactions';
import { FetchError } from '../../platform/net/fetch-error';
import type { GuardedFetch } from '../../platform/net/guarded-fetch';
import { JOB_FAILURES, type JobRef } from '../jobs/contracts';
import { JobError } from '../jobs/job-error';
import { jobState } from '../jobs/job-kind';
import { lockCurrentJob } from '../jobs/job-lifecycle';
import { Liveness, UNWATCHED } from '../jobs/liveness';
import { integrationDispatchJob } from './dispatch-job';
import { eventEnvironment } from './environment';
import { traceLine } from './events';

const SIGNATURE_HEADER = 'X-GitBook-Signature';

/** What an attempt's answer is read for: a tunnel's error message at most. */
const ANSWER_MAX_BYTES = 64 * 1024;

export interface DeliveryOutcome {
  url: string;
  /** The HTTP status answered, null when none came (timeout, unreachable). */
  status: number | null;
  durationMs: number;
  /** Why the attempt did not deliver; null when it did. */
  error: string | null;
  /** Worth another attempt: a 5xx, a 429, a timeout or an unreachable destination. */
  retryable: boolean;
  /** How long the tunnel asked to wait (its Retry-After), when it did. */
  retryAfterMs?: number;
}

export type DeliveryNext =
  | { state: 'delivered' }
  | { state: 'retry'; afterMs: number }
  | { state: 'failed'; code: string; message: string };

export const DELIVERY_FAILED = 'DELIVERY_FAILED';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: what a receiver checks against the signing secret. */
export function signatureHeader(secret: string, body: Buffer, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
  return `t=${t},v1=${v1}`;
}

/** The body as GitBook's runtime reads it: form fields `event` and `environment`, each JSON. */
async function multipartBody(event: unknown, environment: unknown): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  form.set('event', JSON.stringify(event));
  form.set('environment', JSON.stringify(environment));
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type')! };
}

/** `<tunnelUrl>/v1`: `/v1` ends the path, before a query string (`…/hook?token=t` → `…/hook/v1?token=t`). */
export function deliveryUrl(tunnelUrl: string): string {
  const url = new URL(tunnelUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/v1`;
  return url.toString();
}

/** A Retry-After header (delay-seconds or an HTTP date, RFC 9110 §10.2.3) in milliseconds from `now`; undefined when unreadable. */
export function retryAfterMs(header: string | undefined, now: Date): number | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // an HTTP date names its day and month in letters ("Sun, 06 Nov 1994 08:49:37 GMT"); Date.parse reads "-5" as a year
  const at = /[a-z]/i.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(at) ? undefined : Math.max(0, at - now.getTime());
}

/**
 * Retry on what may pass next time; a bad URL or a 4xx will not. An unreachable destination is retried
 * whether it was refused or down: the trace must not tell which.
 */
function isRetryable(err: FetchError): boolean {
  if (err.reason === 'status') return err.status === 429 || (err.status ?? 0) >= 500;
  return err.reason === 'timeout' || err.reason === 'unreachable';
}

export interface DeliveryDeps {
  ds: DataSource;
  config: Config;
  fetch: GuardedFetch;
  clock: () => Date;
}

/** The event of `ref`'s generation; SUPERSEDED (nothing to do) once the row moved on or lost its tunnel. */
async function currentEvent(deps: DeliveryDeps, ref: JobRef): Promise<IntegrationEvent> {
  const event = await deps.ds.manager.findOneBy(IntegrationEvent, { id: ref.resourceId });
  if (!event || jobState(integrationDispatchJob, event).generation !== ref.generation || !event.endpointUrl) {
    throw new JobError(JOB_FAILURES.superseded, `event ${ref.resourceId} is no longer pending`);
  }
  return event;
}

/** The trace line written before a POST, which the attempt's record replaces: left alone, it says a delivery's answer was lost. */
function sentLine(attempt: number, max: number, url: string): string {
  return `attempt ${attempt} of ${max}: POST ${url} sent; its answer was not recorded`;
}

/** Notes the POST about to be sent, so a delivery whose answer is never recorded still shows in the trace. */
async function noteSending(deps: DeliveryDeps, ref: JobRef, attempt: number, url: string): Promise<void> {
  await inTransaction(deps.ds, async (db) => {
    const event = await lockCurrentJob(db, integrationDispatchJob, ref);
    const line = sentLine(attempt, deps.config.integrationDispatch.maxAttempts, url);
    await db.update(
      IntegrationEvent,
      { id: event.id },
      { trace: [...event.trace, traceLine('warn', line, deps.clock())] },
    );
  });
}

/**
 * POSTs the event once; every answer and error becomes an outcome (only a broken environment throws,
 * and a cancel, which aborts the POST).
 */
export async function deliverEvent(
  deps: DeliveryDeps,
  ref: JobRef,
  attempt: number,
  live: Liveness = UNWATCHED,
): Promise<DeliveryOutcome> {
  const event = await currentEvent(deps, ref);
  const url = deliveryUrl(event.endpointUrl!);
  // already delivered or failed (a run after a lost one): nothing is sent, the record reads the end
  if (event.status !== 'pending') return { url, status: null, durationMs: 0, error: null, retryable: false };
  const environment = await inTransaction(deps.ds, (db) => eventEnvironment(db, deps.config, event));
  const { body, contentType } = await multipartBody(event.payload, environment);
  await noteSending(deps, ref, attempt, url);
  live.heartbeat({ done: event.dispatch.progressDone });
  const started = Date.now();
  try {
    const answer = await deps.fetch.fetch(url, {
      method: 'POST',
      signal: live.signal,
      body,
      timeoutMs: deps.config.integrationDispatch.timeoutMs,
      maxBytes: ANSWER_MAX_BYTES,
      headers: {
        'content-type': contentType,
        [SIGNATURE_HEADER]: signatureHeader(event.signingSecret, body, deps.clock()),
      },
    });
    return { url, status: answer.status, durationMs: Date.now() - started, error: null, retryable: false };
  } catch (err) {
    if (!(err instanceof FetchError) || live.signal.aborted) throw err;
    const asked = retryAfterMs(err.retryAfter, deps.clock());
    return {
      url,
      status: err.status ?? null,
      durationMs: Date.now() - started,
      error: err.message,
      retryable: isRetryable(err),
      ...(asked !== undefined ? { retryAfterMs: asked } : {}),
    };
  }
}

/** Exponential back-off before retry `attempt + 1`, with jitter: between half and all of min(max, base * 2^(attempt-1)). */
export function retryDelayMs(config: Config['integrationDispatch'], attempt: number, random = Math.random): number {
  const ceiling = Math.min(config.maxBackoffMs, config.backoffMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** What follows an attempt: delivered, a retry after a back-off (at least the tunnel's Retry-After, at most the longest back-off), or failed. */
export function decideAfterAttempt(
  config: Config['integrationDispatch'],
  attempt: number,
  outcome: DeliveryOutcome,
  random = Math.random,
): DeliveryNext {
  if (!outcome.error) return { state: 'delivered' };
  // a Retry-After the tunnel sent lengthens the back-off, never beyond the longest back-off configured
  if (outcome.retryable && attempt < config.maxAttempts)
    return {
      state: 'retry',
      afterMs: Math.min(
        config.maxBackoffMs,
        Math.max(retryDelayMs(config, attempt, random), outcome.retryAfterMs ?? 0),
      ),
    };
  const why = outcome.retryable ? `no attempt left of ${config.maxAttempts}` : 'not retried';
  return { state: 'failed', code: DELIVERY_FAILED, message: `${outcome.error} (${why})` };
}

function describeAttempt(attempt: number, max: number, outcome: DeliveryOutcome, next: DeliveryNext): string {
  const answer = outcome.status !== null ? `answered HTTP ${outcome.status}` : `failed: ${outcome.error}`;
  const then =
    next.state === 'retry'
      ? `; retrying in ${next.afterMs} ms`
      : next.state === 'failed'
        ? `; ${outcome.retryable ? 'no attempt left' : 'not retried'}`
        : '';
  return `attempt ${attempt} of ${max}: POST ${outcome.url} ${answer} in ${outcome.durationMs} ms${then}`;
}

/**
 * Writes the attempt's trace line and, when it ends the delivery, the event's status. A retried
 * record (its first answer lost) finds the attempt written and writes nothing more.
 */
export async function recordAttempt(
  deps: DeliveryDeps,
  ref: JobRef,
  attempt: number,
  outcome: DeliveryOutcome,
): Promise<DeliveryNext> {
  const policy = deps.config.integrationDispatch;
  const next = decideAfterAttempt(policy, attempt, outcome);
  return inTransaction(deps.ds, async (db): Promise<DeliveryNext> => {
    const event = await lockCurrentJob(db, integrationDispatchJob, ref);
    // the delivery ended in an earlier run (a run after a lost one): this run ends as it did
    if (event.status === 'success') return { state: 'delivered' };
    if (event.status === 'failed')
      return { state: 'failed', code: DELIVERY_FAILED, message: 'the delivery had already failed' };
    if (event.dispatch.progressDone >= attempt) return next;
    const level = next.state === 'delivered' ? 'info' : next.state === 'retry' ? 'warn' : 'error';
    const status = next.state === 'delivered' ? 'success' : next.state === 'failed' ? 'failed' : event.status;
    await db.update(
      IntegrationEvent,
      { id: event.id },
      {
        status,
        trace: [
          // the line noted before the POST gives way to what the POST answered
          ...(event.trace.at(-1)?.message === sentLine(attempt, policy.maxAttempts, outcome.url)
            ? event.trace.slice(0, -1)
            : event.trace),
          traceLine(level, describeAttempt(attempt, policy.maxAttempts, outcome, next), deps.clock()),
        ],
        dispatch: { progressDone: attempt, progressTotal: null },
      },
    );
    return next;
  });
}

/** Ends a delivery that stopped for another reason than its answers (a step's retries spent): failed, with why. */
export async function abandonEvent(deps: DeliveryDeps, ref: JobRef, reason: string): Promise<void> {
  await inTransaction(deps.ds, async (db) => {
    const event = await lockCurrentJob(db, integrationDispatchJob, ref);
    if (event.status !== 'pending') return;
    await db.update(
      IntegrationEvent,
      { id: event.id },
      { status: 'failed', trace: [...event.trace, traceLine('error', `delivery stopped: ${reason}`, deps.clock())] },
    );
  });
}
