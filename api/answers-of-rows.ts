/**
 * List answers remembered with the rows they were made from. The list's statement still runs on every request;
 * when it returns exactly the rows a remembered answer was made from (every value equal), for the same URL and the
 * same caller as the token cache last read them (the same memberships and grants, by identity: they are frozen and
 * replaced at each read), the answer's JSON text is sent again without presenting and serializing it anew. An answer
 * whose making read anything beyond the rows and the caller (a collection chain, an installation: `access` counts
 * its statements) is not remembered, since its inputs are not all in the key. So no answer is staler than the rows
 * read for it. Bounded by the bytes of JSON it holds and by entries, least recently read out.
 */
import { LRUCache } from 'lru-cache';
import type { ZodTypeAny } from 'zod';
import type { AccessContext } from '../domain/access/context';
import { Presented, toWire } from '../platform/wire/to-wire';
import type { Caller } from './middleware/authenticate';
import type { Reply } from './operation';

interface Remembered {
  /** what made the answer: the caller's access as read with the token, and the values read for it */
  memberships: Caller['memberships'];
  grants: Caller['grants'];
  integration: Caller['integration'];
  inputs: ReadonlyArray<unknown>;
  json: string;
  bytes: number;
}

/** Entries at most, whatever their size: a key costs memory of its own. */
const MAX_ENTRIES = 10_000;

export class AnswersOfRows<S extends ZodTypeAny> {
  private readonly answers: LRUCache<string, Remembered>;

  constructor(
    private readonly schema: S,
    budgetBytes: number,
  ) {
    this.answers = new LRUCache<string, Remembered>({
      max: MAX_ENTRIES,
      maxSize: budgetBytes,
      // the rows are counted as much again as their answer's text, a generous bound for values it was made from
      sizeCalculation: (a) => 2 * a.bytes,
    });
  }

  /**
   * The 200 answer to `url` for `caller`, made by `present` from `inputs` (the raw rows and every other value read
   * for it, such as the count), unless the same inputs made it before.
   */
  async reply(
    url: string,
    caller: Caller,
    access: AccessContext,
    inputs: ReadonlyArray<unknown>,
    present: () => Promise<Presented<S>>,
  ): Promise<Reply> {
    const key = `${caller.tokenId}\u0000${url}`;
    const known = this.answers.get(key);
    if (
      known &&
      known.memberships === caller.memberships &&
      known.grants === caller.grants &&
      known.integration === caller.integration &&
      sameValues(known.inputs, inputs)
    )
      return { status: 200, json: known.json };
    const json = JSON.stringify(toWire(this.schema, await present()));
    if (access.statementsRun === 0) {
      const { memberships, grants, integration } = caller;
      this.answers.set(key, { memberships, grants, integration, inputs, json, bytes: Buffer.byteLength(json) });
    }
    return { status: 200, json };
  }
}

/** Equal values, as a statement reads them: arrays and rows field by field, dates by time, bytes by content. */
function sameValues(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) return false;
  if (a instanceof Date) return b instanceof Date && a.getTime() === b.getTime();
  if (Buffer.isBuffer(a)) return Buffer.isBuffer(b) && a.equals(b);
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i] && !sameValues(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // fields counted, not listed: a row is compared without allocating
  let fields = 0;
  for (const name in left) {
    const value = left[name];
    if (value !== right[name] && (!(name in right) || !sameValues(value, right[name]))) return false;
    fields++;
  }
  for (const _ in right) fields--;
  return fields === 0;
}
