/**
 * Live tokens remembered for a moment, so a burst of requests with one token costs one read of it.
 *
 * - An entry lives at most `ttlMs` (TOKEN_CACHE_MS, at most 1000): a revocation, an expiry or a changed
 *   role or grant made by another process (another API replica, the worker) applies within that time.
 * - Any transaction this process commits forgets every entry (platform/db/transactions.ts commitGeneration), so a
 *   change made through this replica applies from its next request.
 * - Only live tokens are remembered: a new token works at once everywhere, and random secrets cannot
 *   fill the cache. An expiry date is checked at every use.
 * - Entries are frozen: a request that tried to change its caller's memberships would throw, not leak
 *   into the next request.
 */
import { TOKEN_CACHE_MAX_MS } from '../../platform/config';
import { commitGeneration, Db } from '../../platform/db/transactions';
import { deepFreeze } from '../freeze';
import { findLiveToken, hashSecret, LiveToken } from './tokens';

interface Entry {
  live: LiveToken;
  readAt: number;
  generation: number;
}

export class LiveTokenCache {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {
    if (ttlMs > TOKEN_CACHE_MAX_MS) throw new Error(`a live token may be remembered at most ${TOKEN_CACHE_MAX_MS} ms`);
  }

  /** The live token, without a promise when remembered (most requests). */
  find(db: Db, secret: string): LiveToken | null | Promise<LiveToken | null> {
    if (this.ttlMs <= 0) return findLiveToken(db, secret);
    const key = hashSecret(secret);
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.generation === commitGeneration() && now - entry.readAt < this.ttlMs) {
      const expiresAt = entry.live.token.expiresAt;
      return expiresAt && expiresAt.getTime() <= now ? null : entry.live;
    }
    return this.read(db, secret, key, now, entry !== undefined);
  }

  private async read(db: Db, secret: string, key: string, now: number, known: boolean): Promise<LiveToken | null> {
    // the generation before the read: a commit during it makes the entry stale at once
    const generation = commitGeneration();
    const live = await findLiveToken(db, secret);
    if (!live) {
      this.entries.delete(key);
      return null;
    }
    if (!known && this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { live: deepFreeze(live), readAt: now, generation });
    return live;
  }
}
