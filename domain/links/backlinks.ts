/**
 * Backlinks: the pages that link to a page or a file. A space's come from its link index; a change
 * request's are the space's, corrected by what the change request changed, so the cost follows the
 * difference between the two heads and never re-reads the whole content.
 */

import { SpaceLink } from '../../entities/SpaceLink';
import type { Db } from '../../platform/db/transactions';
import { idOfKey, PageEntry, PageVersion, TrieValue } from '../content/model';
import type { ContentReader } from '../content/reader';
import { diff } from '../content/trie';
import { notFound } from '../errors';
import { linkTargetKey, PATH_PREFIX } from './target-key';

export interface BacklinkTarget {
  kind: 'page' | 'file';
  id: string;
}

/** 404 unless the target is in the reader's revision. */
export async function assertTargetExists(reader: ContentReader, target: BacklinkTarget): Promise<void> {
  const exists = target.kind === 'page' ? !!(await reader.entry(target.id)) : !!(await reader.file(target.id));
  if (!exists) throw notFound(target.kind);
}

/**
 * Index rows linking to the target, one per source page (its first such link), for keyset
 * pagination on sourcePageId.
 */
export function spaceBacklinksQuery(db: Db, spaceId: string, target: BacklinkTarget) {
  return db
    .createQueryBuilder(SpaceLink, 'l')
    .where('l.spaceId = :spaceId AND l.targetKey = :targetKey', {
      spaceId,
      targetKey: linkTargetKey(target.kind, target.id),
    })
    .andWhere(
      'NOT EXISTS (SELECT 1 FROM space_links earlier WHERE earlier.spaceId = l.spaceId AND earlier.sourcePageId = l.sourcePageId AND earlier.targetKey = l.targetKey AND earlier.ordinal < l.ordinal)',
    );
}

const isPathLink = (row: Pick<SpaceLink, 'kind' | 'target'>) =>
  row.kind === 'page' && row.target.startsWith(PATH_PREFIX);

/**
 * Ids (sorted) of the pages of the change request's revision that link to the target:
 * - index rows of the space's current revision, except those whose source page differs in the change request;
 * - the links of those differing pages as they are in the change request;
 * - when a page appeared, vanished, moved or was renamed, path links of unchanged pages are resolved
 *   again against the change request's revision, since they may lead elsewhere there.
 */
export async function changeRequestBacklinkSources(
  db: Db,
  spaceId: string,
  spaceReader: ContentReader,
  changeRequestReader: ContentReader,
  target: BacklinkTarget,
): Promise<string[]> {
  const store = changeRequestReader.store;
  const changed = new Map<string, { before?: PageEntry; after?: PageEntry }>();
  for (const [key, before, after] of await diff<TrieValue>(store, spaceReader.root, changeRequestReader.root)) {
    if (key.startsWith('p:'))
      changed.set(idOfKey(key), { before: before as PageEntry | undefined, after: after as PageEntry | undefined });
  }
  const pathsMoved = [...changed.values()].some(
    ({ before, after }) => !before || !after || before.slug !== after.slug || before.parent !== after.parent,
  );
  const recheckPaths = pathsMoved && target.kind === 'page';

  const sources = new Set<string>();
  const indexed = await db.find(SpaceLink, {
    where: { spaceId, targetKey: linkTargetKey(target.kind, target.id) },
    select: { sourcePageId: true, kind: true, target: true },
  });
  for (const row of indexed)
    if (!changed.has(row.sourcePageId) && !(recheckPaths && isPathLink(row))) sources.add(row.sourcePageId);

  const pathTargets = new Map<string, string | undefined>();
  const leadsToTarget = async (path: string): Promise<boolean> => {
    if (!pathTargets.has(path)) pathTargets.set(path, await changeRequestReader.pageIdByPath(path));
    return pathTargets.get(path) === target.id;
  };

  if (recheckPaths) {
    const pathRows = await db
      .createQueryBuilder(SpaceLink, 'l')
      .select(['l.sourcePageId', 'l.ordinal', 'l.target'])
      .where('l.spaceId = :spaceId AND l.kind = :kind AND l.target LIKE :prefix', {
        spaceId,
        kind: 'page',
        prefix: `${PATH_PREFIX}%`,
      })
      .getMany();
    for (const row of pathRows) {
      if (
        !changed.has(row.sourcePageId) &&
        !sources.has(row.sourcePageId) &&
        (await leadsToTarget(row.target.slice(PATH_PREFIX.length)))
      )
        sources.add(row.sourcePageId);
    }
  }

  const present = [...changed.entries()].filter(([, c]) => c.after);
  const versions = await store.getMany<PageVersion>(present.map(([, c]) => c.after!.v));
  for (const [pageId, { after }] of present) {
    for (const link of versions.get(after!.v)!.links) {
      const hit =
        target.kind === 'file'
          ? link.kind === 'file' && link.target === target.id
          : link.kind === 'page' && (link.byPath ? await leadsToTarget(link.target) : link.target === target.id);
      if (hit) {
        sources.add(pageId);
        break;
      }
    }
  }
  return [...sources].sort();
}
