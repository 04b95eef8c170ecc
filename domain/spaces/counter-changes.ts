/**
 * Keeps a space's stored counters (entities/Space.ts) in the transaction of the write that changes
 * them. Each is an increment of the space row, so concurrent writers add up. The space row is locked
 * after an existing change request's or comment's own row, never before it (a change request's
 * creation locks the space first, but its row is new).
 */

import type { ChangeRequestStatus } from '../../entities/ChangeRequest';
import type { CommentStatus } from '../../entities/Comment';
import type { Db } from '../../platform/db/transactions';

export interface CounterChange {
  changeRequestsCount?: number;
  changeRequestsOpenCount?: number;
  changeRequestsDraftCount?: number;
  openCommentsCount?: number;
}

type Counted = Required<CounterChange>;

function countedChangeRequest(status: ChangeRequestStatus | null): Counted {
  return {
    changeRequestsCount: status ? 1 : 0,
    changeRequestsOpenCount: status === 'open' ? 1 : 0,
    changeRequestsDraftCount: status === 'draft' ? 1 : 0,
    openCommentsCount: 0,
  };
}

function difference(from: Counted, to: Counted): CounterChange {
  const change: CounterChange = {};
  for (const key of Object.keys(to) as Array<keyof Counted>)
    if (to[key] !== from[key]) change[key] = to[key] - from[key];
  return change;
}

/** A change request created (`from` null) or moved from one status to another. */
export function changeRequestStatusChange(from: ChangeRequestStatus | null, to: ChangeRequestStatus): CounterChange {
  return difference(countedChangeRequest(from), countedChangeRequest(to));
}

/** A comment created (`from` null), resolved, reopened or deleted (`to` null); only those on the space itself count. */
export function commentStatusChange(
  onChangeRequest: boolean,
  from: CommentStatus | null,
  to: CommentStatus | null,
): CounterChange {
  if (onChangeRequest) return {};
  const open = (status: CommentStatus | null) => (status === 'open' ? 1 : 0);
  return open(to) === open(from) ? {} : { openCommentsCount: open(to) - open(from) };
}

const COLUMNS: ReadonlyArray<keyof CounterChange> = [
  'changeRequestsCount',
  'changeRequestsOpenCount',
  'changeRequestsDraftCount',
  'openCommentsCount',
];

export async function applyCounterChange(db: Db, spaceId: string, change: CounterChange): Promise<void> {
  const columns = COLUMNS.filter((c) => change[c]);
  if (!columns.length) return;
  // the counters are in the space's answer: its version (its ETag) moves with them
  await db.query(
    `UPDATE spaces SET ${columns.map((c) => `${c} = ${c} + ?`).join(', ')}, version = version + 1 WHERE id = ?`,
    [...columns.map((c) => change[c]), spaceId],
  );
}
