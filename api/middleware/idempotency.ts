/**
 * The `Idempotency-Key` request header (an extension, after Stripe and the IETF httpapi draft): on a `POST`, `PUT`
 * or `PATCH` by an authenticated caller, the key is reserved before the operation runs, its answer is kept once
 * sent, and a repeat of the request gets that answer again, byte for byte, with `Idempotent-Replayed: true`.
 * Other methods ignore the header. The rules are in domain/idempotency/keys.ts and docs/decisions/wire.md.
 */
import type { Request, Response } from 'express';
import { AppError, conflict } from '../../domain/errors';
import { type KeyOwner, recordAnswer, releaseKey, requestHash, reserveKey } from '../../domain/idempotency/keys';
import { keyOwner } from '../../domain/idempotency/owner';
import { outsideDeadline } from '../../platform/deadline';
import type { Deps } from '../deps';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
const METHODS = new Set(['post', 'put', 'patch']);
/** 1 to 255 printable ASCII characters (space to tilde) */
const KEY_FORM = /^[\x20-\x7e]{1,255}$/;
/** the answer's headers a replay repeats: the rest (dates, request ids) belong to each answer */
const KEPT_HEADERS = ['Content-Type', 'Location'];
/** Seconds a repeat that found its key in progress should wait. */
const IN_PROGRESS_RETRY_AFTER_SECONDS = 1;

export interface KeyedOperation {
  method: string;
  operationId: string;
  /** its 2xx answer carries a secret shown once (a token, a key): never kept, so never replayed */
  secretInAnswer?: boolean;
}

/**
 * Reserves the request's key and keeps its answer, or answers it from the key: true when the request was
 * answered here (a replay). A key in progress (409 with Retry-After), used with another request (422), whose
 * answer held a secret (409) or malformed (400) is thrown.
 */
export async function answeredFromIdempotencyKey(
  deps: Deps,
  operation: KeyedOperation,
  req: Request,
  res: Response,
  params: Readonly<Record<string, unknown>>,
  body: unknown,
): Promise<boolean> {
  const header = [req.headers['idempotency-key'] ?? []].flat().join(', ');
  if (req.headers['idempotency-key'] === undefined || !req.caller || !METHODS.has(operation.method)) return false;
  if (!KEY_FORM.test(header))
    throw new AppError(400, `${IDEMPOTENCY_KEY_HEADER}: must be 1..255 printable ASCII characters`);
  const db = deps.ds.manager;
  const owner = await keyOwner(db, req.caller, params);
  const { config } = deps;
  const reservation = await reserveKey(db, owner, {
    key: header,
    operationId: operation.operationId,
    requestHash: requestHash(req.method, req.originalUrl, body),
    ttlSeconds: config.idempotencyKeyTtlSeconds,
    holdSeconds:
      Math.ceil(config.requestTimeoutMs / 1000) + Math.max(config.imports.waitSeconds, config.pdf.waitSeconds) + 5,
  });
  switch (reservation.kind) {
    case 'reserved':
      keepAnswer(deps, operation, res, owner, header, reservation.holder);
      return false;
    case 'in-progress':
      res.setHeader('Retry-After', String(IN_PROGRESS_RETRY_AFTER_SECONDS));
      throw conflict(`${IDEMPOTENCY_KEY_HEADER}: a request with this key is still in progress; retry after it ends`);
    case 'mismatch':
      throw new AppError(
        422,
        `${IDEMPOTENCY_KEY_HEADER}: this key was used for another request (operation, path or body); send a new key`,
      );
    case 'secret':
      throw conflict(
        `${IDEMPOTENCY_KEY_HEADER}: the request with this key succeeded, and its answer held a secret that is shown once and not kept`,
      );
    case 'answered': {
      const { answer } = reservation;
      res.status(answer.status).set(answer.headers).set('Idempotent-Replayed', 'true').end(answer.body);
      return true;
    }
  }
}

/**
 * Once the answer is complete and before it leaves, keeps it (or marks a secret shown once), or gives the key
 * back when it is not the request's own verdict: 5xx (503 included), 401, 429. The answer waits for the record,
 * so a client that has it and retries always finds it.
 */
function keepAnswer(
  deps: Deps,
  operation: KeyedOperation,
  res: Response,
  owner: KeyOwner,
  key: string,
  holder: string,
): void {
  const end = res.end;
  let kept = false;
  res.end = function endAfterKeeping(this: Response, ...args: unknown[]) {
    if (kept) return (end as (...a: unknown[]) => Response).apply(this, args);
    kept = true;
    const db = deps.ds.manager;
    const status = res.statusCode;
    const [chunk, encoding] = args;
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : typeof chunk === 'string'
        ? Buffer.from(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
        : Buffer.alloc(0);
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = res.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    // outside the request's deadline: after a 503 for that deadline, the key must still be given back
    const write = outsideDeadline(() =>
      status >= 500 || status === 401 || status === 429
        ? releaseKey(db, owner, key, holder)
        : recordAnswer(
            db,
            owner,
            key,
            holder,
            operation.secretInAnswer && status < 300 ? null : { status, headers, body: bytes },
          ),
    );
    write
      .catch((err: unknown) =>
        // the reservation then lapses when its hold ends, and a repeat runs the request again
        deps.logger.warn(
          { err, operationId: operation.operationId },
          'could not keep the answer of an idempotency key',
        ),
      )
      .finally(() => {
        if (!res.writableEnded) (end as (...a: unknown[]) => Response).apply(res, args);
      });
    return res;
  } as Response['end'];
}
