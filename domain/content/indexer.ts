/**
 * Keeps a space's search sections and link index in step with its current revision. Called in the
 * transaction that moves the space's head, with the old and new roots: the work follows the diff.
 */
import { In } from 'typeorm';
import { SearchPage } from '../../entities/SearchPage';
import { SearchSection } from '../../entities/SearchSection';
import { SpaceLink } from '../../entities/SpaceLink';
import type { Db } from '../../platform/db/transactions';
import { redecideOpenAPILinks } from '../links/openapi-links';
import { linkTargetKey, PATH_PREFIX } from '../links/target-key';
import { LinkContext, resolveLinks } from './link-status';
import { splitSections } from './markdown';
import { idOfKey, PageEntry, PageVersion, TrieValue } from './model';
import type { ObjectStore } from './objects';
import { ContentReader } from './reader';
import { slugOf } from './slugs';
import { diff } from './trie';

const SECTION_BODY_MAX = 60000;
const PAGE_TEXT_MAX = 4_000_000;
/** Changed pages whose search and link rows are made and written together. */
const PAGES_PER_BATCH = 200;

export async function indexSpaceHead(
  db: Db,
  store: ObjectStore,
  spaceId: string,
  oldRoot: string,
  newRoot: string,
  context: LinkContext,
): Promise<void> {
  const changes = await diff<TrieValue>(store, oldRoot, newRoot);
  const changedPages: Array<{ id: string; before?: PageEntry; after?: PageEntry }> = [];
  const addedFiles: string[] = [];
  const removedFiles: string[] = [];
  for (const [key, before, after] of changes) {
    if (key.startsWith('p:'))
      changedPages.push({
        id: idOfKey(key),
        before: before as PageEntry | undefined,
        after: after as PageEntry | undefined,
      });
    else if (key.startsWith('f:')) {
      if (!before) addedFiles.push(idOfKey(key));
      if (!after) removedFiles.push(idOfKey(key));
    }
  }
  if (!changedPages.length && !addedFiles.length && !removedFiles.length) return;
  const reader = new ContentReader(store, newRoot);
  // Only pages that were there before have rows to replace. A delete of rows that do not exist still locks the
  // next row in the index, which belongs to another space: an uncommitted write there would make this one wait.
  const ids = changedPages.filter((p) => p.before).map((p) => p.id);
  const present = changedPages.filter((p) => p.after);

  // Search documents (one per page, for ranking), sections (for display) and links out of changed pages: replaced
  // wholesale.
  for (let i = 0; i < ids.length; i += 500) {
    await db.delete(SearchSection, { spaceId, pageId: In(ids.slice(i, i + 500)) });
    await db.delete(SearchPage, { spaceId, pageId: In(ids.slice(i, i + 500)) });
    await db.delete(SpaceLink, { spaceId, sourcePageId: In(ids.slice(i, i + 500)) });
  }
  // a batch of pages at a time: the rows of a 10,000-page import are twice its text, written as they are made
  for (let i = 0; i < present.length; i += PAGES_PER_BATCH)
    await indexPages(db, reader, store, spaceId, present.slice(i, i + PAGES_PER_BATCH), context);

  // Links into pages and files that appeared or vanished change status.
  const added = changedPages.filter((p) => !p.before && p.after).map((p) => linkTargetKey('page', p.id));
  const removed = changedPages.filter((p) => p.before && !p.after).map((p) => linkTargetKey('page', p.id));
  added.push(...addedFiles.map((id) => linkTargetKey('file', id)));
  removed.push(...removedFiles.map((id) => linkTargetKey('file', id)));
  if (added.length) await db.update(SpaceLink, { spaceId, targetKey: In(added) }, { status: 'ok' });
  if (removed.length) await db.update(SpaceLink, { spaceId, targetKey: In(removed) }, { status: 'broken' });

  // A page that appeared, vanished, moved or was renamed can change where path links lead.
  const pathsMoved = changedPages.some(
    (p) => !p.before || !p.after || p.before.slug !== p.after.slug || p.before.parent !== p.after.parent,
  );
  if (pathsMoved) await reresolvePathLinks(db, reader, spaceId, new Set(ids));
}

/** Writes the search rows and the link rows of `pages`, each present in the new revision. */
async function indexPages(
  db: Db,
  reader: ContentReader,
  store: ObjectStore,
  spaceId: string,
  pages: Array<{ id: string; after?: PageEntry }>,
  context: LinkContext,
): Promise<void> {
  const versions = await store.getMany<PageVersion>(pages.map((p) => p.after!.v));
  const sections: SearchSection[] = [];
  const documents: SearchPage[] = [];
  const links: SpaceLink[] = [];
  for (const p of pages) {
    const version = versions.get(p.after!.v)!;
    const split = splitSections(version.title, version.markdown, slugOf).map((s, ordinal) =>
      Object.assign(new SearchSection(), {
        spaceId,
        pageId: p.id,
        ordinal,
        anchor: s.anchor.slice(0, 128),
        title: s.title.slice(0, 512),
        body: s.body.slice(0, SECTION_BODY_MAX),
      }),
    );
    sections.push(...split);
    const text = split.map((s, i) => (i === 0 ? s.body : `${s.title}\n${s.body}`)).join('\n');
    documents.push(
      Object.assign(new SearchPage(), {
        spaceId,
        pageId: p.id,
        title: version.title.slice(0, 512),
        body: text.slice(0, PAGE_TEXT_MAX),
      }),
    );
    const resolved = await resolveLinks(db, reader, version.links, context);
    for (const [ordinal, l] of resolved.entries()) {
      const target = l.byPath ? PATH_PREFIX + l.target : l.target;
      links.push(linkRow(spaceId, p.id, ordinal, l.kind, target, l.status, l.resolvedPageId));
    }
  }
  for (let i = 0; i < sections.length; i += 500) await db.insert(SearchSection, sections.slice(i, i + 500));
  for (let i = 0; i < documents.length; i += 200) await db.insert(SearchPage, documents.slice(i, i + 200));
  for (let i = 0; i < links.length; i += 500) await db.insert(SpaceLink, links.slice(i, i + 500));
}

function linkRow(
  spaceId: string,
  sourcePageId: string,
  ordinal: number,
  kind: SpaceLink['kind'],
  target: string,
  status: SpaceLink['status'],
  resolvedPageId?: string,
): SpaceLink {
  const targetKey = resolvedPageId ? linkTargetKey('page', resolvedPageId) : linkTargetKey(kind, target);
  return Object.assign(new SpaceLink(), {
    spaceId,
    sourcePageId,
    ordinal,
    kind,
    target: target.slice(0, 2048),
    targetKey,
    status,
  });
}

async function reresolvePathLinks(
  db: Db,
  reader: ContentReader,
  spaceId: string,
  skipSources: Set<string>,
): Promise<void> {
  const pathLinks = await db
    .createQueryBuilder(SpaceLink, 'l')
    .where('l.spaceId = :spaceId AND l.kind = :kind AND l.target LIKE :prefix', {
      spaceId,
      kind: 'page',
      prefix: `${PATH_PREFIX}%`,
    })
    .getMany();
  for (const link of pathLinks) {
    if (skipSources.has(link.sourcePageId)) continue;
    const pageId = await reader.pageIdByPath(link.target.slice(PATH_PREFIX.length));
    const status = pageId ? 'ok' : 'broken';
    const targetKey = pageId ? linkTargetKey('page', pageId) : linkTargetKey('page', link.target);
    if (status !== link.status || targetKey !== link.targetKey) {
      await db.update(
        SpaceLink,
        { spaceId, sourcePageId: link.sourcePageId, ordinal: link.ordinal },
        { status, targetKey },
      );
    }
  }
}

/**
 * Space links have no revision to follow: their status changes when a target space is deleted,
 * restored or changes organization, or when the linking space itself moves to another
 * organization (links only count within one organization). Re-decides every space link into or
 * out of `spaceIds`, and the OpenAPI links out of them.
 */
export async function refreshSpaceLinks(db: Db, spaceIds: string[]): Promise<void> {
  if (!spaceIds.length) return;
  const set = `l.status = IF(dst.id IS NOT NULL AND dst.deletedAt IS NULL AND dst.organizationId = src.organizationId, 'ok', 'broken')`;
  const from = 'space_links l JOIN spaces src ON src.id = l.spaceId LEFT JOIN spaces dst ON dst.id = l.target';
  for (let i = 0; i < spaceIds.length; i += 500) {
    const ids = spaceIds.slice(i, i + 500);
    const marks = ids.map(() => '?').join(', ');
    await db.query(
      `UPDATE ${from} SET ${set} WHERE l.kind = 'space' AND l.targetKey IN (${marks})`,
      ids.map((id) => linkTargetKey('space', id)),
    );
    await db.query(`UPDATE ${from} SET ${set} WHERE l.kind = 'space' AND l.spaceId IN (${marks})`, ids);
    await redecideOpenAPILinks(db, `l.spaceId IN (${marks})`, ids);
  }
}
