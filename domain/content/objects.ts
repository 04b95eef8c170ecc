/**
 * The content-addressed object store: immutable JSON objects (trie nodes, page versions) keyed by
 * the SHA-1 of their canonical text, shared by every revision and space that holds the same bytes.
 * Reads are batched and memoised per store instance (one per request or activity); what is read from
 * the database is also kept for the whole process (object-cache.ts). Staged objects are not: they may
 * never be committed.
 */
import { createHash } from 'crypto';
import { ContentObject } from '../../entities/ContentObject';
import type { Db } from '../../platform/db/transactions';
import { sharedObjects } from './object-cache';

/** JSON with object keys sorted, so equal values have equal hashes. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, v[k]]),
        )
      : v,
  );
}

export function hashOf(text: string): string {
  return createHash('sha1').update(text).digest('hex');
}

export class ObjectStore {
  private readonly cache = new Map<string, unknown>();
  private readonly pending = new Map<string, string>();

  constructor(readonly db: Db) {}

  /** Stages an object for writing; returns its hash. Nothing is written before `flush`. */
  put(value: unknown): string {
    const text = canonicalJson(value);
    const hash = hashOf(text);
    if (!this.cache.has(hash)) {
      this.cache.set(hash, JSON.parse(text));
      this.pending.set(hash, text);
    }
    return hash;
  }

  async get<T>(hash: string): Promise<T> {
    return (await this.getMany<T>([hash])).get(hash) as T;
  }

  async getMany<T>(hashes: Iterable<string>): Promise<Map<string, T>> {
    const wanted = [...new Set(hashes)];
    const missing: string[] = [];
    for (const h of wanted) {
      if (this.cache.has(h)) continue;
      if (sharedObjects.has(h)) this.cache.set(h, sharedObjects.get(h));
      else missing.push(h);
    }
    for (let i = 0; i < missing.length; i += 1000) {
      // a plain statement, not the query builder: every read that misses the process's cache comes here
      const rows: Array<{ hash: string; body: string }> = await this.db.query(
        'SELECT hash, body FROM content_objects WHERE hash IN (?)',
        [missing.slice(i, i + 1000)],
      );
      for (const row of rows) this.cache.set(row.hash, sharedObjects.add(row.hash, row.body));
    }
    const out = new Map<string, T>();
    for (const h of wanted) {
      if (!this.cache.has(h)) throw new Error(`content object ${h} is missing`);
      out.set(h, this.cache.get(h) as T);
    }
    return out;
  }

  /** Writes the staged objects; already stored ones are skipped (same hash, same bytes). */
  async flush(): Promise<number> {
    const rows = [...this.pending.entries()].map(([hash, body]) => ({ hash, body }));
    this.pending.clear();
    for (let i = 0; i < rows.length; i += 500) {
      await this.db
        .createQueryBuilder()
        .insert()
        .into(ContentObject)
        .values(rows.slice(i, i + 500))
        .orIgnore()
        .execute();
    }
    return rows.length;
  }
}
