/** The per-space counters a Space carries (open comments, change requests by status). */
import type { Db } from '../db';
import { ChangeRequest } from '../../entities/ChangeRequest';
import { openSpaceCommentCounts } from '../comments/counts';

export interface SpaceCounters {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/**
 * Counters for a page of spaces in one grouped query per table. `changeRequests` counts every change
 * request whatever its status; `comments` counts the open comments on the space itself (comments on
 * its change requests count on each change request).
 */
export async function spaceCounters(db: Db, spaceIds: string[]): Promise<Map<string, SpaceCounters>> {
  const counters = new Map(spaceIds.map((id) => [id, { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 }]));
  if (!spaceIds.length) return counters;
  const rows: Array<{ spaceId: string; total: string | number; open: string | number; draft: string | number }> = await db
    .createQueryBuilder(ChangeRequest, 'cr')
    .select('cr.spaceId', 'spaceId')
    .addSelect('COUNT(*)', 'total')
    .addSelect("SUM(cr.status = 'open')", 'open')
    .addSelect("SUM(cr.status = 'draft')", 'draft')
    .where('cr.spaceId IN (:...spaceIds)', { spaceIds })
    .groupBy('cr.spaceId')
    .getRawMany();
  for (const r of rows) {
    Object.assign(counters.get(r.spaceId)!, { changeRequests: Number(r.total), changeRequestsOpen: Number(r.open), changeRequestsDraft: Number(r.draft) });
  }
  for (const [spaceId, open] of await openSpaceCommentCounts(db, spaceIds)) counters.get(spaceId)!.comments = open;
  return counters;
}
