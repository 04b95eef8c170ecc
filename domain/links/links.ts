/**
 * Links out of pages, as lists: a space's links come from its link index (space_links, current
 * revision, maintained as revisions land); one page's links come from its version in any revision,
 * their statuses decided against that revision.
 */

import type { SelectQueryBuilder } from 'typeorm';
import { LinkKind, LinkStatus, SpaceLink } from '../../entities/SpaceLink';
import type { Db } from '../../platform/db/transactions';
import { LinkContext, ResolvedLink, resolveLinks } from '../content/link-status';
import type { ExtractedLink } from '../content/model';
import type { ContentReader } from '../content/reader';
import { notFound } from '../errors';
import { PATH_PREFIX } from './target-key';

export interface LinkItem {
  sourcePageId: string;
  /** position of the link in its page */
  ordinal: number;
  kind: LinkKind;
  /** page/file/space id, OpenAPI slug or URL; for a path link, the page path from the space root */
  target: string;
  byPath: boolean;
  status: LinkStatus;
  /** the page a path link leads to, when it resolves */
  resolvedPageId?: string;
}

export interface LinkStats {
  total: number;
  broken: number;
}

/** The space's indexed links, optionally of one status, for keyset pagination on (sourcePageId, ordinal). */
export function spaceLinksQuery(db: Db, spaceId: string, status?: LinkStatus) {
  const qb = db.createQueryBuilder(SpaceLink, 'l').where('l.spaceId = :spaceId', { spaceId });
  return status ? qb.andWhere('l.status = :status', { status }) : qb;
}

export function spaceLinkStats(db: Db, spaceId: string): Promise<LinkStats> {
  return linkStatsOf(spaceLinksQuery(db, spaceId));
}

/** How many index rows a query of `l` (unfiltered by status) matches, and how many of them are broken. */
export async function linkStatsOf(links: SelectQueryBuilder<SpaceLink>): Promise<LinkStats> {
  const row = await links
    .clone()
    .select('COUNT(*)', 'total')
    .addSelect("COALESCE(SUM(l.status = 'broken'), 0)", 'broken')
    .getRawOne<{ total: string | number; broken: string | number }>();
  return { total: Number(row?.total ?? 0), broken: Number(row?.broken ?? 0) };
}

/**
 * Index rows as link items. The index keeps a path link's target as written; the page it leads to
 * is found again in `reader` (the revision the index describes), once per distinct path.
 */
export async function linkItemsOfRows(reader: ContentReader, rows: SpaceLink[]): Promise<LinkItem[]> {
  const resolved = new Map<string, string | undefined>();
  const items: LinkItem[] = [];
  for (const row of rows) {
    const byPath = row.kind === 'page' && row.target.startsWith(PATH_PREFIX);
    const target = byPath ? row.target.slice(PATH_PREFIX.length) : row.target;
    let resolvedPageId: string | undefined;
    if (byPath && row.status === 'ok') {
      if (!resolved.has(target)) resolved.set(target, await reader.pageIdByPath(target));
      resolvedPageId = resolved.get(target);
    }
    items.push({
      sourcePageId: row.sourcePageId,
      ordinal: row.ordinal,
      kind: row.kind,
      target,
      byPath,
      status: row.status,
      ...(resolvedPageId ? { resolvedPageId } : {}),
    });
  }
  return items;
}

function itemOf(sourcePageId: string, link: ResolvedLink, ordinal: number): LinkItem {
  const { kind, target, status, resolvedPageId } = link;
  return {
    sourcePageId,
    ordinal,
    kind,
    target,
    byPath: !!link.byPath,
    status,
    ...(resolvedPageId ? { resolvedPageId } : {}),
  };
}

/** The page's links in the reader's revision, in document order, with statuses against that revision; 404 without the page. */
export async function pageLinks(
  db: Db,
  reader: ContentReader,
  pageId: string,
  context: LinkContext,
): Promise<LinkItem[]> {
  const page = await reader.page(pageId);
  if (!page) throw notFound('page');
  return versionLinks(db, reader, pageId, page.version.links, context);
}

/** The links of a page's version, in document order, with statuses against the reader's revision. */
export async function versionLinks(
  db: Db,
  reader: ContentReader,
  pageId: string,
  links: ExtractedLink[],
  context: LinkContext,
): Promise<LinkItem[]> {
  return (await resolveLinks(db, reader, links, context)).map((l, ordinal) => itemOf(pageId, l, ordinal));
}

/**
 * How many of a change request's broken links in one page it introduces: those not broken the
 * same way (same kind and target) in that page of the space's current revision.
 */
export async function brokenLinksIntroduced(
  db: Db,
  spaceReader: ContentReader,
  pageId: string,
  changeRequestLinks: LinkItem[],
  context: LinkContext,
): Promise<number> {
  const before = (await spaceReader.entry(pageId)) ? await pageLinks(db, spaceReader, pageId, context) : [];
  return brokenAfterOnly(before, changeRequestLinks);
}

/**
 * How many links broken in `after` are not broken the same way (same source page, kind and target) in `before`:
 * the broken links a change introduces.
 */
export function brokenAfterOnly(before: LinkItem[], after: LinkItem[]): number {
  const keyOf = (l: LinkItem) => `${l.sourcePageId}\n${l.kind}\n${l.byPath}\n${l.target}`;
  const brokenBefore = new Map<string, number>();
  for (const l of before) if (l.status === 'broken') brokenBefore.set(keyOf(l), (brokenBefore.get(keyOf(l)) ?? 0) + 1);
  let introduced = 0;
  for (const l of after) {
    if (l.status !== 'broken') continue;
    const left = brokenBefore.get(keyOf(l)) ?? 0;
    if (left) brokenBefore.set(keyOf(l), left - 1);
    else introduced++;
  }
  return introduced;
}
