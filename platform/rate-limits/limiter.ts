/**
 * Fixed-window request limits whose counters every API replica shares: one MySQL row per bucket
 * (`rate_limit_counters`), keyed by the policy and what it limits (`token:<id>`, `address:<address>`).
 *
 * A replica does not write every request. It leases a block of hits from the bucket's row in one
 * atomic statement and spends the block locally; a block is at most 1% of the limit (at most
 * `maxLease`), so a small limit is counted request by request. Leased hits count as spent for every
 * replica, so a bucket never admits more than its limit per window; the price is that hits leased
 * by one replica but not spent there are lost to the others until the window ends.
 */
import type { DataSource } from 'typeorm';

export interface RateLimitPolicy {
  /** The name the RateLimit headers give it, and its buckets' prefix: `token`, `user`, `organization`, `address`. */
  name: string;
  /** Requests per window; 0: unlimited. */
  limit: number;
  /**
   * Its buckets are many and most never come back (client addresses): the replica that counted one
   * deletes its row once the window is past, so the table does not grow with every address ever seen.
   */
  transient?: boolean;
}

export interface BucketState {
  policy: RateLimitPolicy;
  allowed: boolean;
  /** What is certainly left in this window (the local lease plus what the row has not handed out). */
  remaining: number;
  /** Seconds until the window ends, at least 1. */
  resetSeconds: number;
}

/** A replica's lease on one bucket in one window. */
interface Lease {
  window: number;
  /** hits leased here and not spent yet */
  left: number;
  /** the row's count after this replica's last lease: every replica's leases up to then */
  counted: number;
  /** the lease statement in flight, which concurrent requests of the bucket wait for */
  pending: Promise<void> | null;
  transient: boolean;
}

// One row per bucket, reused window after window: a lease in the row's window adds to it, one in a
// later window starts it again. A replica whose clock lags adds to the newer window, never resets it.
// LAST_INSERT_ID(expr) hands the row's new count back in the statement's own reply (MySQL and MariaDB).
const LEASE_SQL =
  'INSERT INTO rate_limit_counters (bucket, windowStart, hits) VALUES (?, ?, LAST_INSERT_ID(?)) ' +
  'ON DUPLICATE KEY UPDATE hits = LAST_INSERT_ID(IF(windowStart >= ?, hits + ?, ?)), windowStart = GREATEST(windowStart, ?)';

/** Rows of transient buckets deleted per statement: by primary key, so no range of the table is locked. */
const DROP_BATCH = 500;

export class RateLimiter {
  private readonly leases = new Map<string, Lease>();
  private prunedWindow = 0;

  constructor(
    private readonly ds: DataSource,
    private readonly windowSeconds: number,
    private readonly maxLease: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Counts one request against `id`'s bucket of `policy`, or refuses it when the window's limit is spent. Answered
   * at once (no promise, no statement) while this replica's lease lasts: most requests.
   */
  hit(policy: RateLimitPolicy, id: string): BucketState | Promise<BucketState> {
    const key = `${policy.name}:${id}`;
    const now = this.clock();
    const window = Math.floor(now / (this.windowSeconds * 1000));
    this.prune(window);
    let lease = this.leases.get(key);
    if (!lease || lease.window !== window) {
      lease = { window, left: 0, counted: 0, pending: null, transient: policy.transient === true };
      this.leases.set(key, lease);
    }
    if (lease.left === 0 && lease.counted < policy.limit) return this.hitLeasing(policy, key, lease, now);
    return this.spend(policy, lease, now);
  }

  /** Waits for a lease (one statement, shared by the bucket's concurrent requests), then counts the request. */
  private async hitLeasing(policy: RateLimitPolicy, key: string, lease: Lease, now: number): Promise<BucketState> {
    while (lease.left === 0 && lease.counted < policy.limit) {
      lease.pending ??= this.lease(key, lease, policy.limit).finally(() => {
        lease.pending = null;
      });
      await lease.pending;
    }
    return this.spend(policy, lease, now);
  }

  private spend(policy: RateLimitPolicy, lease: Lease, now: number): BucketState {
    const windowMs = this.windowSeconds * 1000;
    const resetSeconds = Math.max(1, Math.ceil(((lease.window + 1) * windowMs - now) / 1000));
    const allowed = lease.left > 0;
    if (allowed) lease.left -= 1;
    return { policy, allowed, remaining: lease.left + Math.max(0, policy.limit - lease.counted), resetSeconds };
  }

  private async lease(key: string, lease: Lease, limit: number): Promise<void> {
    const size = Math.max(1, Math.min(this.maxLease, Math.floor(limit / 100)));
    const windowStart = lease.window * this.windowSeconds;
    const reply: { insertId: number | string } = await this.ds.query(LEASE_SQL, [
      key,
      windowStart,
      size,
      windowStart,
      size,
      size,
      windowStart,
    ]);
    const counted = Number(reply.insertId);
    // the part of the block still under the limit is this replica's to spend
    lease.left += Math.max(0, Math.min(size, limit - (counted - size)));
    lease.counted = counted;
  }

  /** Forgets the leases of past windows, once per window, and deletes the rows of their transient buckets. */
  private prune(window: number): void {
    if (window === this.prunedWindow) return;
    this.prunedWindow = window;
    const transient: string[] = [];
    for (const [key, lease] of this.leases) {
      if (lease.window >= window) continue;
      this.leases.delete(key);
      if (lease.transient) transient.push(key);
    }
    // off the request's path; a batch that fails leaves its rows, which a later window of the bucket reuses
    if (transient.length) void this.drop(transient, window * this.windowSeconds).catch(() => undefined);
  }

  /** Deletes the buckets' rows unless a replica has counted them in the current window since. */
  private async drop(keys: string[], windowStart: number): Promise<void> {
    for (let i = 0; i < keys.length; i += DROP_BATCH) {
      const batch = keys.slice(i, i + DROP_BATCH);
      await this.ds.query(
        `DELETE FROM rate_limit_counters WHERE bucket IN (${batch.map(() => '?').join(', ')}) AND windowStart < ?`,
        [...batch, windowStart],
      );
    }
  }
}
