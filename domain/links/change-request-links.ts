/**
 * A change request's links: those of the space's link index (its current revision) wherever the change request
 * holds the same, and the rest decided again in the change request's revision. As for backlinks, the cost follows
 * the difference between the two heads, never the size of the content.
 */
import { Brackets, In } from 'typeorm';
import type { LinkStatus } from '../../entities/SpaceLink';
import { SpaceLink } from '../../entities/SpaceLink';
import type { Db } from '../../platform/db/transactions';
import type { LinkContext } from '../content/link-status';
import { idOfKey, PageEntry, PageVersion, TrieValue } from '../content/model';
import type { ContentReader } from '../content/reader';
import { diff } from '../content/trie';
import { brokenAfterOnly, LinkItem, linkItemsOfRows, spaceLinksQuery, versionLinks } from './links';
import { linkTargetKey, PATH_PREFIX } from './target-key';

export interface ChangeRequestLinks {
  /** pages whose version differs between the heads: the index does not describe them in the change request */
  changedPages: string[];
  /** targets (index keys) of pages and files present in one head only: links to them may change status */
  changedTargets: string[];
  /** a page appeared, vanished, moved or was renamed: every path link may lead elsewhere */
  pathsMoved: boolean;
  /** the links of the changed pages and those the index may not describe right, decided in the change request */
  recomputed: LinkItem[];
  /** broken links of `recomputed` that are not broken in the space's current revision */
  introducedBroken: number;
}

/** The order of every link list: by source page id (binary, as the index sorts it), then position. */
export const compareLinkItems = (a: LinkItem, b: LinkItem): number =>
  a.sourcePageId === b.sourcePageId ? a.ordinal - b.ordinal : a.sourcePageId < b.sourcePageId ? -1 : 1;

/** What differs between the space's current revision and the change request's, as links. */
export async function changeRequestLinks(
  db: Db,
  spaceId: string,
  spaceReader: ContentReader,
  changeRequestReader: ContentReader,
  context: LinkContext,
): Promise<ChangeRequestLinks> {
  const store = changeRequestReader.store;
  const pages = new Map<string, { before?: PageEntry; after?: PageEntry }>();
  const changedTargets: string[] = [];
  for (const [key, before, after] of await diff<TrieValue>(store, spaceReader.root, changeRequestReader.root)) {
    const kind = key.startsWith('p:') ? 'page' : key.startsWith('f:') ? 'file' : null;
    if (!kind) continue;
    if (kind === 'page')
      pages.set(idOfKey(key), { before: before as PageEntry | undefined, after: after as PageEntry | undefined });
    if (!before || !after) changedTargets.push(linkTargetKey(kind, idOfKey(key)));
  }
  const changedPages = [...pages.keys()];
  const pathsMoved = [...pages.values()].some(
    ({ before, after }) => !before || !after || before.slug !== after.slug || before.parent !== after.parent,
  );

  // the changed pages, as the change request has them
  const present = [...pages.entries()].filter(([, p]) => p.after);
  const versions = await store.getMany<PageVersion>(present.map(([, p]) => p.after!.v));
  const recomputed: LinkItem[] = [];
  for (const [pageId, { after }] of present)
    recomputed.push(...(await versionLinks(db, changeRequestReader, pageId, versions.get(after!.v)!.links, context)));

  // the unchanged pages' links whose status may differ, decided again (as written: no status or page of before)
  const stale =
    changedTargets.length || pathsMoved ? await staleRows(db, spaceId, changedPages, changedTargets, pathsMoved) : [];
  const staleItems = await linkItemsOfRows(spaceReader, stale);
  const asWritten = staleItems.map(({ kind, target, byPath }) => ({ kind, target, byPath }));
  const decided = await versionLinks(db, changeRequestReader, '', asWritten, context);
  recomputed.push(
    ...decided.map((item, i) => ({
      ...item,
      sourcePageId: staleItems[i].sourcePageId,
      ordinal: staleItems[i].ordinal,
    })),
  );
  recomputed.sort(compareLinkItems);

  // before: the space's broken links of the same pages and rows
  const brokenBefore = changedPages.length
    ? await db.find(SpaceLink, { where: { spaceId, sourcePageId: In(changedPages), status: 'broken' } })
    : [];
  const before = [...(await linkItemsOfRows(spaceReader, brokenBefore)), ...staleItems];
  return {
    changedPages,
    changedTargets,
    pathsMoved,
    recomputed,
    introducedBroken: brokenAfterOnly(before, recomputed),
  };
}

/** Index rows of unchanged pages that link to a changed target, or by path when paths moved. */
function staleRows(
  db: Db,
  spaceId: string,
  changedPages: string[],
  changedTargets: string[],
  pathsMoved: boolean,
): Promise<SpaceLink[]> {
  const qb = spaceLinksQuery(db, spaceId).andWhere(
    new Brackets((w) => {
      if (changedTargets.length) w.orWhere('l.targetKey IN (:...changedTargets)', { changedTargets });
      if (pathsMoved) w.orWhere(PATH_LINK, { kind: 'page', prefix: `${PATH_PREFIX}%` });
    }),
  );
  if (changedPages.length) qb.andWhere('l.sourcePageId NOT IN (:...changedPages)', { changedPages });
  return qb.getMany();
}

const PATH_LINK = '(l.kind = :kind AND l.target LIKE :prefix)';

/** The index rows the change request holds as they are: neither out of a changed page nor among the stale rows. */
export function unchangedIndexedLinks(db: Db, spaceId: string, links: ChangeRequestLinks, status?: LinkStatus) {
  const qb = spaceLinksQuery(db, spaceId, status);
  if (links.changedPages.length)
    qb.andWhere('l.sourcePageId NOT IN (:...changedPages)', { changedPages: links.changedPages });
  if (links.changedTargets.length)
    qb.andWhere('l.targetKey NOT IN (:...changedTargets)', { changedTargets: links.changedTargets });
  if (links.pathsMoved) qb.andWhere(`NOT ${PATH_LINK}`, { kind: 'page', prefix: `${PATH_PREFIX}%` });
  return qb;
}
