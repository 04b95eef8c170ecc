/**
 * The failure classes: what a job retries (a timeout, a 5xx or 429, a DNS hiccup, a failed
 * connection, a provider outage) and what it fails at once (a 4xx, a refused destination, a name that does not
 * exist, a bad URL, input over a limit), told apart without changing what a caller reads; and the code a
 * workflow records once the retries of a retryable failure are spent.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  DefaultFailureConverter,
  defaultPayloadConverter,
  RetryState,
  TimeoutFailure,
} from '@temporalio/common';
import http from 'http';
import type { AddressInfo } from 'net';
import { toFailure } from '../../activities/job-activity';
import { JobError } from '../../domain/jobs/job-error';
import { TRANSLATION_FAILURES } from '../../domain/translations/failures';
import { ProviderHttp } from '../../domain/translations/providers/http';
import { FetchError } from '../../platform/net/fetch-error';
import { FetchPolicy, GuardedFetch, Resolver } from '../../platform/net/guarded-fetch';
import { failureOf } from '../../workflows/job';

const policy: FetchPolicy = {
  allowLoopback: false,
  maxRedirects: 3,
  connectTimeoutMs: 1000,
  totalTimeoutMs: 1500,
  maxBytes: 1024,
};

async function serve(status: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => res.writeHead(status).end('{"error":"no"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function fetchFailure(client: GuardedFetch, url: string): Promise<FetchError> {
  const err = await client.fetch(url).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof FetchError)) throw new Error(`${url}: expected a FetchError, got ${String(err)}`);
  return err;
}

const clients: GuardedFetch[] = [];
function client(more: Partial<FetchPolicy> = {}): GuardedFetch {
  const c = new GuardedFetch({ ...policy, ...more });
  clients.push(c);
  return c;
}
afterAll(() => Promise.all(clients.map((c) => c.close())));

describe('failure classes', () => {
  test('a fetch failure is transient for a timeout, a 429 or a 5xx; not for another 4xx, a bad URL, a size or redirects', () => {
    const status = (n: number) => new FetchError('status', `HTTP ${n}`, { status: n }).transient;
    expect([500, 502, 503, 504, 429].map(status)).toEqual([true, true, true, true, true]);
    expect([400, 401, 403, 404, 408, 410, 422].map(status)).toEqual([false, false, false, false, false, false, false]);
    expect(new FetchError('timeout', 't').transient).toBe(true);
    for (const reason of ['scheme', 'size', 'redirects', 'unreachable'] as const)
      expect(new FetchError(reason, 'x').transient).toBe(false);
    expect(new FetchError('unreachable', 'x', { transient: true }).transient).toBe(true);
  });

  test('the guard: a refused destination and a name that does not exist are permanent, a DNS hiccup and a failed connection transient; every message alike', async () => {
    const resolver: Resolver = async (host) => {
      if (host === 'vm.internal') return [{ address: '10.0.0.7', family: 4 }];
      const code = host === 'gone.internal' ? 'ENOTFOUND' : 'EAI_AGAIN';
      throw Object.assign(new Error(`getaddrinfo ${code} ${host}`), { code });
    };
    const closed = await serve(200);
    await closed.close();
    const outcomes: Array<[string, FetchError]> = [
      ['refused address', await fetchFailure(client(), `${closed.url}/`)],
      ['refused name', await fetchFailure(client({ resolve: resolver }), 'http://vm.internal/')],
      ['no such name', await fetchFailure(client({ resolve: resolver }), 'http://gone.internal/')],
      ['DNS hiccup', await fetchFailure(client({ resolve: resolver }), 'http://busy.internal/')],
      ['connection refused', await fetchFailure(client({ allowLoopback: true }), `${closed.url}/`)],
    ];
    expect(outcomes.map(([name, err]) => [name, err.transient])).toEqual([
      ['refused address', false],
      ['refused name', false],
      ['no such name', false],
      ['DNS hiccup', true],
      ['connection refused', true],
    ]);
    // what a caller reads is the same: one reason, one code, one message but for the URL
    for (const [, err] of outcomes) {
      expect([err.reason, err.code]).toEqual(['unreachable', 'FETCH_ERROR']);
      expect(err.message.replace(/^\S+: /, '')).toBe('the destination is not allowed or could not be reached');
    }
    expect(outcomes[0][1].message).toBe(outcomes[4][1].message);
    expect(outcomes.map(([, err]) => Object.keys(err).sort())).toEqual(
      outcomes.map(() => Object.keys(outcomes[0][1]).sort()),
    );
  });

  test('the guard: a 503 and a 429 are transient, a 404 is not', async () => {
    for (const [status, transient] of [
      [503, true],
      [429, true],
      [404, false],
    ] as const) {
      const server = await serve(status);
      const err = await fetchFailure(client({ allowLoopback: true }), `${server.url}/spec.json`);
      expect([err.reason, err.status, err.transient]).toEqual(['status', status, transient]);
      await server.close();
    }
  });

  test('a translation provider: 5xx after its attempts is a retryable PROVIDER_UNAVAILABLE, a 400 a permanent PROVIDER_REJECTED', async () => {
    const settings = { timeoutMs: 1000, requestsPerSecond: 0, retry: { attempts: 2, initialMs: 10, maxMs: 10 } };
    for (const [status, code, retryable] of [
      [503, TRANSLATION_FAILURES.unavailable, true],
      [400, TRANSLATION_FAILURES.rejected, false],
    ] as const) {
      const server = await serve(status);
      const err = (await new ProviderHttp('fake', settings)
        .postJson(`${server.url}/translate`, {})
        .catch((e: unknown) => e)) as JobError;
      expect(err).toBeInstanceOf(JobError);
      expect([err.code, err.retryable]).toEqual([code, retryable]);
      await server.close();
    }
  });

  test('a JobError becomes an ApplicationFailure of its code, non-retryable unless it is retryable', () => {
    const messages = [{ message: 'http://x/: answered HTTP 503', code: 'status' }];
    const permanent = toFailure(new JobError('FETCH_ERROR', 'http://x/: answered HTTP 404')) as ApplicationFailure;
    const transient = toFailure(
      new JobError('FETCH_ERROR', messages[0].message, messages, { retryable: true }),
    ) as ApplicationFailure;
    expect([permanent.type, permanent.nonRetryable]).toEqual(['FETCH_ERROR', true]);
    expect([transient.type, transient.nonRetryable, transient.details]).toEqual(['FETCH_ERROR', false, [messages]]);
    const plain = new Error('connect ECONNREFUSED');
    expect(toFailure(plain)).toBe(plain);
  });

  test('the workflow records a retryable JobError with its code once its retries are spent, also when the budget ran out during the next attempt', () => {
    const messages = [{ message: 'http://x/: no complete answer within 1500 ms', code: 'timeout' }];
    const lastAttempt = toFailure(
      new JobError('FETCH_TIMEOUT', messages[0].message, messages, { retryable: true }),
    ) as ApplicationFailure;
    const spent = (cause: Error, state: RetryState) =>
      new ActivityFailure('activity failed', 'bundleOpenAPISpec', '1', state, 'worker', cause);
    expect(failureOf(spent(lastAttempt, RetryState.MAXIMUM_ATTEMPTS_REACHED))).toEqual({
      code: 'FETCH_TIMEOUT',
      messages,
    });
    expect(failureOf(spent(lastAttempt, RetryState.TIMEOUT))).toEqual({ code: 'FETCH_TIMEOUT', messages });

    // as the workflow receives it: the server puts the last attempt's failure under the timeout, the SDK drops it
    const converter = new DefaultFailureConverter();
    const timeout = converter.failureToError(
      {
        message: 'activity ScheduleToClose timeout',
        timeoutFailureInfo: { timeoutType: 3 }, // SCHEDULE_TO_CLOSE
        cause: converter.errorToFailure(lastAttempt, defaultPayloadConverter),
      },
      defaultPayloadConverter,
    );
    expect(timeout).toBeInstanceOf(TimeoutFailure);
    expect(failureOf(spent(timeout, RetryState.TIMEOUT))).toEqual({ code: 'FETCH_TIMEOUT', messages });

    // a plain error (a database outage) has no code: JOB_FAILED, with or without a timeout after it
    const plain = ApplicationFailure.retryable('connect ECONNREFUSED 127.0.0.1:3306', 'Error');
    expect(failureOf(spent(plain, RetryState.TIMEOUT))).toEqual({
      code: 'JOB_FAILED',
      messages: [{ message: 'connect ECONNREFUSED 127.0.0.1:3306' }],
    });
    const afterPlain = converter.failureToError(
      {
        message: 'activity ScheduleToClose timeout',
        timeoutFailureInfo: { timeoutType: 3 },
        cause: converter.errorToFailure(plain, defaultPayloadConverter),
      },
      defaultPayloadConverter,
    );
    expect(failureOf(spent(afterPlain, RetryState.TIMEOUT)).code).toBe('JOB_FAILED');
  });
});
