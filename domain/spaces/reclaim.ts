/**
 * The purge's last content step: removes the content objects and blobs of a purged space that no
 * remaining space or revision references (a scoped mark and sweep).
 *
 * Objects are shared between spaces only by `copySpaceContent` (a duplicate starts from the same
 * trie root) or by coincidence of identical bytes, which ids and timestamps inside every node and page
 * version rule out except for the empty trie (never removed here). So the spaces that may still
 * reference the purged space's objects are those linked to it through shared revision roots; only
 * their tries are marked, not the whole store. Deletions lock each batch of objects first (a writer
 * re-storing one waits and then stores it again) and skip any that became a revision's root.
 */

import type { Db } from '../../platform/db/transactions';
import type { BlobStore } from '../../platform/storage/blob-store';
import { canonicalJson, hashOf } from '../content/objects';

const CHUNK = 500;

/** Hash of the empty trie `{l:{}}`, the one object unrelated spaces share by coincidence. */
const EMPTY_TRIE = hashOf(canonicalJson({ l: {} }));

interface Reached {
  /** Trie nodes and page versions, parents before children. */
  objects: string[];
  blobs: Set<string>;
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

/**
 * Everything reachable from trie roots and page versions: branch children, the page versions of
 * `p:` entries and the blobs of `f:` entries. Objects already gone (an interrupted earlier run) are
 * skipped.
 */
async function reach(db: Db, roots: string[], pageVersions: string[], heartbeat: () => void): Promise<Reached> {
  const reached: Reached = { objects: [], blobs: new Set() };
  const seen = new Set<string>();
  const visit = (hash: string) => {
    if (seen.has(hash)) return false;
    seen.add(hash);
    reached.objects.push(hash);
    return true;
  };
  pageVersions.forEach(visit);
  let frontier = roots.filter(visit);
  while (frontier.length) {
    const next: string[] = [];
    for (const batch of chunks(frontier)) {
      heartbeat();
      const rows: Array<{ body: string }> = await db.query('SELECT body FROM content_objects WHERE hash IN (?)', [
        batch,
      ]);
      for (const { body } of rows) {
        const node = JSON.parse(body) as {
          b?: Record<string, string>;
          l?: Record<string, { v?: string; blob?: string }>;
        };
        for (const child of Object.values(node.b ?? {})) if (visit(child)) next.push(child);
        for (const [key, value] of Object.entries(node.l ?? {})) {
          if (key.startsWith('p:') && value.v) visit(value.v);
          else if (key.startsWith('f:') && value.blob) reached.blobs.add(value.blob);
        }
      }
    }
    frontier = next;
  }
  return reached;
}

async function rootsOf(db: Db, spaceIds: string[]): Promise<string[]> {
  const out = new Set<string>();
  for (const batch of chunks(spaceIds)) {
    const rows: Array<{ root: string }> = await db.query('SELECT DISTINCT root FROM revisions WHERE spaceId IN (?)', [
      batch,
    ]);
    for (const r of rows) out.add(r.root);
  }
  return [...out];
}

/** Other spaces linked to `spaceId` through shared revision roots, transitively (its duplicates' family). */
async function relatedSpaces(db: Db, spaceId: string, ownRoots: string[]): Promise<string[]> {
  const spaces = new Set([spaceId]);
  const roots = new Set(ownRoots);
  let newRoots = ownRoots.filter((r) => r !== EMPTY_TRIE);
  while (newRoots.length) {
    const found: string[] = [];
    for (const batch of chunks(newRoots)) {
      const rows: Array<{ spaceId: string }> = await db.query(
        'SELECT DISTINCT spaceId FROM revisions WHERE root IN (?)',
        [batch],
      );
      for (const r of rows) {
        if (spaces.has(r.spaceId)) continue;
        spaces.add(r.spaceId);
        found.push(r.spaceId);
      }
    }
    newRoots = found.length ? (await rootsOf(db, found)).filter((r) => r !== EMPTY_TRIE && !roots.has(r)) : [];
    for (const r of newRoots) roots.add(r);
  }
  spaces.delete(spaceId);
  return [...spaces];
}

async function pageVersionsCommentedIn(db: Db, spaceIds: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const batch of chunks(spaceIds)) {
    const rows: Array<{ pageVersion: string }> = await db.query(
      'SELECT DISTINCT pageVersion FROM comments WHERE spaceId IN (?) AND pageVersion IS NOT NULL',
      [batch],
    );
    out.push(...rows.map((r) => r.pageVersion));
  }
  return out;
}

/**
 * Removes the blobs, then the content objects (children before parents, so an interrupted run
 * finds what is left from the roots that remain) that only the space's revisions reference. Call
 * it while those revisions still exist, in the transaction that then deletes them. `heartbeat` is
 * called per chunk of objects and per blob.
 */
export async function reclaimSpaceContent(
  db: Db,
  blobs: BlobStore,
  spaceId: string,
  heartbeat: () => void = () => {},
): Promise<{ objects: number; blobs: number }> {
  const ownRoots = await rootsOf(db, [spaceId]);
  if (!ownRoots.length) return { objects: 0, blobs: 0 };
  const candidates = await reach(db, ownRoots, await pageVersionsCommentedIn(db, [spaceId]), heartbeat);
  const related = await relatedSpaces(db, spaceId, ownRoots);
  const marked = await reach(db, await rootsOf(db, related), await pageVersionsCommentedIn(db, related), heartbeat);
  const live = new Set(marked.objects);
  live.add(EMPTY_TRIE);

  const deadBlobs = [...candidates.blobs].filter((key) => !marked.blobs.has(key));
  for (const key of deadBlobs) {
    heartbeat();
    await blobs.delete(key);
  }

  let removed = 0;
  for (const batch of chunks(candidates.objects.filter((h) => !live.has(h)).reverse())) {
    heartbeat();
    await db.query('SELECT hash FROM content_objects WHERE hash IN (?) FOR UPDATE', [batch]);
    const rooted: Array<{ root: string }> = await db.query(
      'SELECT DISTINCT root FROM revisions WHERE root IN (?) AND spaceId <> ?',
      [batch, spaceId],
    );
    const keep = new Set(rooted.map((r) => r.root));
    const dead = batch.filter((h) => !keep.has(h));
    if (dead.length)
      removed += (await db.query('DELETE FROM content_objects WHERE hash IN (?)', [dead])).affectedRows ?? 0;
  }
  return { objects: removed, blobs: deadBlobs.length };
}
