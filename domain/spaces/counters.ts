/** The per-space counters a Space carries (open comments, change requests by status). */
import type { Db } from '../db';

export interface SpaceCounters {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

type CountRow = { spaceId: string; changeRequests: string | number; open: string | number; draft: string | number; comments: string | number };

/**
 * Counters for a page of spaces in one statement (every space read presents them). `changeRequests`
 * counts every change request whatever its status; `comments` counts the open comments on the space
 * itself (comments on its change requests count on each change request). Never stored, so never stale.
 */
export async function spaceCounters(db: Db, spaceIds: string[]): Promise<Map<string, SpaceCounters>> {
  const counters = new Map(spaceIds.map((id) => [id, { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 }]));
  if (!spaceIds.length) return counters;
  const rows: CountRow[] = await db.query(
    `SELECT cr.spaceId AS spaceId, COUNT(*) AS changeRequests, SUM(cr.status = 'open') AS open, SUM(cr.status = 'draft') AS draft, 0 AS comments
       FROM change_requests cr WHERE cr.spaceId IN (?) GROUP BY cr.spaceId
     UNION ALL
     SELECT c.spaceId, 0, 0, 0, COUNT(*)
       FROM comments c WHERE c.spaceId IN (?) AND c.changeRequestId IS NULL AND c.status = 'open' GROUP BY c.spaceId`,
    [spaceIds, spaceIds],
  );
  for (const r of rows) {
    const c = counters.get(r.spaceId)!;
    c.changeRequests += Number(r.changeRequests);
    c.changeRequestsOpen += Number(r.open);
    c.changeRequestsDraft += Number(r.draft);
    c.comments += Number(r.comments);
  }
  return counters;
}
