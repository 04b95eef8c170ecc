/**
 * Idempotency keys (the IETF httpapi draft "The Idempotency-Key HTTP Header Field", after Stripe's convention):
 * a key is reserved, committed on its own, before the request's transaction starts; the request's answer is then
 * kept so that a repeat gets it again, and a request that failed on our side gives its key back.
 */
import { createHash, randomBytes } from 'crypto';
import { IdempotencyKey } from '../../entities/IdempotencyKey';
import { type Db, isDuplicateKey } from '../../platform/db/transactions';

/** Who uses a key, where and for what: the caller (user, integration or installation) and the organization. */
export interface KeyOwner {
  caller: string;
  /** '' where the request names no organization (the caller's own account, an integration) */
  organizationId: string;
}

/** The answer kept for repeats: status, the headers that matter, and the body's bytes. */
export interface KeptAnswer {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type Reservation =
  /** the key is this request's: it runs, and records or releases its answer with `holder` */
  | { kind: 'reserved'; holder: string }
  /** another request with this key is running */
  | { kind: 'in-progress' }
  /** the key was used with another operation, path or body */
  | { kind: 'mismatch' }
  /** the first request's answer, to be replayed */
  | { kind: 'answered'; answer: KeptAnswer }
  /** the first answer carried a secret: it was shown once and not kept */
  | { kind: 'secret' };

export interface KeyRequest {
  key: string;
  operationId: string;
  /** SHA-256 of the method, the path and the canonical body (requestHash) */
  requestHash: string;
  ttlSeconds: number;
  /** longest a request can run (its deadline and any job wait): past it, a reservation whose answer never came is taken over */
  holdSeconds: number;
}

/** The primary key of a key's row: its owner and the key, hashed so that any key fits and none crosses a tenant. */
function scopeOf(owner: KeyOwner, key: string): string {
  return createHash('sha256').update(`${owner.caller}\0${owner.organizationId}\0${key}`).digest('hex');
}

/** JSON with object keys sorted, so two bodies that mean the same hash alike whatever their key order (bytes: their hash). */
function canonicalJson(value: unknown): string {
  if (Buffer.isBuffer(value)) return JSON.stringify(`sha256:${createHash('sha256').update(value).digest('hex')}`);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** What makes two requests the same request: method, target (path and query) and canonical body. */
export function requestHash(method: string, target: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${target}\0${canonicalJson(body ?? {})}`)
    .digest('hex');
}

/**
 * Reserves the key for this request, or says what became of it. Autocommitted, outside any transaction, so that
 * every replica sees the reservation before the request's own work starts. A key whose lifetime ended, or whose
 * request outlived any request's time without answering (its process died), is taken over.
 */
export async function reserveKey(db: Db, owner: KeyOwner, request: KeyRequest): Promise<Reservation> {
  const scope = scopeOf(owner, request.key);
  const holder = randomBytes(16).toString('hex');
  // a few rounds: a reservation released between our INSERT and our read leaves nothing to read
  for (let round = 0; round < 3; round++) {
    try {
      await db.query(
        'INSERT INTO `idempotency_keys` (`scope`, `operationId`, `requestHash`, `state`, `holder`, `heldUntil`, `createdAt`, `expiresAt`) ' +
          "VALUES (?, ?, ?, 'pending', ?, UTC_TIMESTAMP(3) + INTERVAL ? SECOND, UTC_TIMESTAMP(3), UTC_TIMESTAMP(3) + INTERVAL ? SECOND)",
        [scope, request.operationId, request.requestHash, holder, request.holdSeconds, request.ttlSeconds],
      );
      return { kind: 'reserved', holder };
    } catch (err) {
      if (!isDuplicateKey(err)) throw err;
    }
    const takenOver: { affectedRows?: number } = await db.query(
      "UPDATE `idempotency_keys` SET `operationId` = ?, `requestHash` = ?, `state` = 'pending', `holder` = ?, " +
        '`heldUntil` = UTC_TIMESTAMP(3) + INTERVAL ? SECOND, `status` = NULL, `headers` = NULL, `body` = NULL, ' +
        '`createdAt` = UTC_TIMESTAMP(3), `expiresAt` = UTC_TIMESTAMP(3) + INTERVAL ? SECOND ' +
        "WHERE `scope` = ? AND (`expiresAt` <= UTC_TIMESTAMP(3) OR (`state` = 'pending' AND `heldUntil` <= UTC_TIMESTAMP(3)))",
      [request.operationId, request.requestHash, holder, request.holdSeconds, request.ttlSeconds, scope],
    );
    if (takenOver.affectedRows === 1) return { kind: 'reserved', holder };
    const row = await db.findOne(IdempotencyKey, { where: { scope } });
    if (!row) continue;
    if (row.operationId !== request.operationId || row.requestHash !== request.requestHash) return { kind: 'mismatch' };
    if (row.state === 'pending') return { kind: 'in-progress' };
    if (row.state === 'secret') return { kind: 'secret' };
    return {
      kind: 'answered',
      answer: { status: row.status!, headers: row.headers ?? {}, body: row.body ?? Buffer.alloc(0) },
    };
  }
  return { kind: 'in-progress' };
}

/** Keeps the answer of the request that holds the key (`null`: it carried a secret, which is never kept). */
export async function recordAnswer(
  db: Db,
  owner: KeyOwner,
  key: string,
  holder: string,
  answer: KeptAnswer | null,
): Promise<void> {
  await db.query(
    'UPDATE `idempotency_keys` SET `state` = ?, `status` = ?, `headers` = ?, `body` = ? WHERE `scope` = ? AND `holder` = ?',
    [
      answer ? 'answered' : 'secret',
      answer?.status ?? null,
      answer ? JSON.stringify(answer.headers) : null,
      answer?.body ?? null,
      scopeOf(owner, key),
      holder,
    ],
  );
}

/** Gives the key back: the request failed on our side, so a repeat runs it afresh. */
export async function releaseKey(db: Db, owner: KeyOwner, key: string, holder: string): Promise<void> {
  await db.query('DELETE FROM `idempotency_keys` WHERE `scope` = ? AND `holder` = ?', [scopeOf(owner, key), holder]);
}

/** Removes the keys whose lifetime ended (run by the job cleanup Schedule); returns how many. */
export async function expireIdempotencyKeys(db: Db, now: Date): Promise<number> {
  return (await db.query('DELETE FROM `idempotency_keys` WHERE `expiresAt` <= ?', [now])).affectedRows ?? 0;
}
