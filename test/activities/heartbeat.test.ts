/** The one heartbeat helper of long activities (activities/heartbeat.ts), against a stand-in activity context. */
import { CancelledFailure } from '@temporalio/common';
import { HeartbeatContext, heartbeating, KEEPALIVE_MS } from '../../activities/heartbeat';

function fakeContext() {
  const controller = new AbortController();
  const beats: unknown[] = [];
  const context: HeartbeatContext = {
    cancellationSignal: controller.signal,
    heartbeat: (details?: unknown) => void beats.push(details),
  };
  return { context, beats, cancel: () => controller.abort(new CancelledFailure('CANCELLED')) };
}

afterEach(() => jest.useRealTimers());

describe('heartbeating', () => {
  it('heartbeats at once, at each beat with its progress, and on a timer while the step waits; not after', async () => {
    jest.useFakeTimers();
    const { context, beats } = fakeContext();
    const done = heartbeating(async (live) => {
      live.heartbeat({ done: 1, total: 3 });
      await new Promise((resolve) => setTimeout(resolve, 2.5 * KEEPALIVE_MS));
      live.heartbeat({ done: 2, total: 3 });
      return 'rendered';
    }, context);
    await jest.advanceTimersByTimeAsync(2.5 * KEEPALIVE_MS);
    expect(await done).toBe('rendered');
    // the timer repeats the last progress
    expect(beats).toEqual([
      undefined,
      { done: 1, total: 3 },
      { done: 1, total: 3 },
      { done: 1, total: 3 },
      { done: 2, total: 3 },
    ]);
    await jest.advanceTimersByTimeAsync(3 * KEEPALIVE_MS);
    expect(beats).toHaveLength(5);
  });

  it('once cancelled, the next beat throws the cancel and the step stops there', async () => {
    const { context, cancel } = fakeContext();
    let pages = 0;
    const done = heartbeating(async (live) => {
      for (;;) {
        live.heartbeat({ done: pages });
        pages++;
        await new Promise((resolve) => setImmediate(resolve));
      }
    }, context);
    await new Promise((resolve) => setTimeout(resolve, 20));
    cancel();
    const at = pages;
    await expect(done).rejects.toBeInstanceOf(CancelledFailure);
    expect(pages).toBeLessThanOrEqual(at + 1);
  });

  it('a step that fails because it was cancelled ends with the cancel, not with what the abort caused', async () => {
    const { context, cancel } = fakeContext();
    const done = heartbeating(
      (live) =>
        new Promise((_, reject) =>
          live.signal.addEventListener('abort', () => reject(new Error('fetch failed: the request was aborted'))),
        ),
      context,
    );
    cancel();
    await expect(done).rejects.toBeInstanceOf(CancelledFailure);
  });

  it('any other failure passes through unchanged', async () => {
    const { context } = fakeContext();
    const failure = new Error('PARSE_ERROR');
    await expect(heartbeating(() => Promise.reject(failure), context)).rejects.toBe(failure);
  });
});
