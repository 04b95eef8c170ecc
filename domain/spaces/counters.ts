/** The per-space counters a Space carries (open comments, change requests by status). */
import type { Db } from '../db';

export interface SpaceCounters {
  comments: number;
  changeRequests: number;
  changeRequestsOpen: number;
  changeRequestsDraft: number;
}

/**
 * Counters for a page of spaces in one call. Comments and change requests do not exist in this
 * codebase yet, so every counter is 0; the content work replaces this body with grouped counts over
 * their tables, and every presenter picks the real numbers up from here.
 */
export async function spaceCounters(_db: Db, spaceIds: string[]): Promise<Map<string, SpaceCounters>> {
  return new Map(spaceIds.map((id) => [id, { comments: 0, changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 }]));
}
