/**
 * What a commit writes, read from the tables before and after it: content objects (rows and bytes,
 * insert-only), revisions, and the search sections and links of one page (replaced wholesale by the
 * indexer when the page changes, so "rewritten" = the page's rows before plus after).
 */
import type { Db } from '../platform/db/transactions';

export interface StoreTotals {
  contentObjects: number;
  contentBytes: number;
  revisions: number;
}

export async function storeTotals(db: Db): Promise<StoreTotals> {
  const [objects] = await db.query(
    'SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(body)), 0) AS bytes FROM content_objects',
  );
  const [revisions] = await db.query('SELECT COUNT(*) AS n FROM revisions');
  return { contentObjects: Number(objects.n), contentBytes: Number(objects.bytes), revisions: Number(revisions.n) };
}

export interface PageIndexRows {
  sections: number;
  sectionBytes: number;
  links: number;
}

export async function pageIndexRows(db: Db, spaceId: string, pageIds: string[]): Promise<PageIndexRows> {
  const [sections] = await db.query(
    'SELECT COUNT(*) AS n, COALESCE(SUM(LENGTH(title) + LENGTH(body) + LENGTH(anchor)), 0) AS bytes FROM search_sections WHERE spaceId = ? AND pageId IN (?)',
    [spaceId, pageIds],
  );
  const [links] = await db.query('SELECT COUNT(*) AS n FROM space_links WHERE spaceId = ? AND sourcePageId IN (?)', [
    spaceId,
    pageIds,
  ]);
  return { sections: Number(sections.n), sectionBytes: Number(sections.bytes), links: Number(links.n) };
}

export interface CommitWrites {
  contentObjectRows: number;
  contentObjectBytes: number;
  revisionRows: number;
  /** the space row whose head moved */
  spaceRowsUpdated: number;
  searchRowsDeleted: number;
  searchRowsInserted: number;
  searchBytesInserted: number;
  linkRowsDeleted: number;
  linkRowsInserted: number;
}

export function commitWrites(
  before: StoreTotals,
  after: StoreTotals,
  indexBefore: PageIndexRows,
  indexAfter: PageIndexRows,
): CommitWrites {
  return {
    contentObjectRows: after.contentObjects - before.contentObjects,
    contentObjectBytes: after.contentBytes - before.contentBytes,
    revisionRows: after.revisions - before.revisions,
    spaceRowsUpdated: 1,
    searchRowsDeleted: indexBefore.sections,
    searchRowsInserted: indexAfter.sections,
    searchBytesInserted: indexAfter.sectionBytes,
    linkRowsDeleted: indexBefore.links,
    linkRowsInserted: indexAfter.links,
  };
}
