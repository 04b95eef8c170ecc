/**
 * Conditional requests (RFC 9110 §13, an extension): strong ETags built from a version the row already has,
 * `If-None-Match` on reads (304) and `If-Match` on writes (412), the check made under the write's own row lock.
 */
import { createHash } from 'crypto';
import type { Request } from 'express';
import { AppError } from '../../domain/errors';

/**
 * The ETag of one resource's answer for this caller: the row's version, and the caller's permissions (the one
 * part of the answer the row does not hold), as bits. No hashing and no statement: both are at hand.
 * `inputs`: the other values the answer is derived from that the row does not hold (a count read with it, the
 * head revision an `outdated` flag compares with), already at hand when the answer is made.
 */
export function versionTag(version: number, permissions: object, ...inputs: ReadonlyArray<string | number>): string {
  // a string of 0s and 1s, read as a number: permission objects hold far fewer than 53 flags
  let bits = '1';
  for (const granted of Object.values(permissions)) bits += granted ? '1' : '0';
  const rest = inputs.length ? `-${inputs.join('.')}` : '';
  return `"${version}-${Number.parseInt(bits, 2).toString(36)}${rest}"`;
}

/**
 * A short digest of small values an answer gathers from other rows (ids, counts, times, content-addressed ids),
 * as one of `versionTag`'s inputs; never of a body.
 */
export function digestOf(values: unknown): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('base64url').slice(0, 16);
}

/** A single resource's answer: 304 with its ETag when the caller's copy is current, else 200 with the body. */
export async function taggedAnswer(
  req: Request,
  etag: string,
  body: () => unknown,
): Promise<{ status: number; headers: Record<string, string>; body?: unknown }> {
  if (notModified(req, etag)) return { status: 304, headers: { ETag: etag } };
  return { status: 200, headers: { ETag: etag }, body: await body() };
}

/**
 * `If-Match` on a write, inside its transaction: with the header, `lock` reads the row under a write lock held to
 * the commit and its current ETag is compared (412); without it, nothing is read. The locked row, or null.
 */
export async function lockedMatch<T>(
  req: Request,
  lock: () => Promise<T | null>,
  tagOf: (row: T) => string | null | Promise<string | null>,
): Promise<T | null> {
  if (!hasIfMatch(req)) return null;
  const row = await lock();
  requireMatch(req, row === null ? null : await tagOf(row));
  return row;
}

/** The entity tags a header lists (`*` stays itself); weak ones keep their `W/`. */
function tagsOf(header: string): string[] {
  return header
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

/** `If-None-Match`: true when the caller's copy is current (weak comparison), so the answer is 304. */
export function notModified(req: Request, etag: string): boolean {
  const header = req.headers['if-none-match'];
  if (header === undefined) return false;
  return tagsOf(header).some((t) => t === '*' || t.replace(/^W\//, '') === etag);
}

/**
 * `If-Match`, checked while the write holds the row: 412 unless the resource exists and its current ETag is listed
 * (strong comparison: a weak tag never matches). `current` null: the resource is gone, which fails any If-Match.
 */
export function requireMatch(req: Request, current: string | null): void {
  const header = req.headers['if-match'];
  if (header === undefined) return;
  const tags = tagsOf(header);
  if (current !== null && tags.some((t) => t === '*' || t === current)) return;
  throw new AppError(
    412,
    current === null
      ? 'If-Match: the resource no longer exists'
      : 'If-Match: the resource has changed since that ETag; read it again and retry',
  );
}

/** Whether the request is conditional on the resource's current state (its write must then lock the row). */
export function hasIfMatch(req: Request): boolean {
  return req.headers['if-match'] !== undefined;
}
