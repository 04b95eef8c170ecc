/**
 * Copies a space's current content into a new space cheaply: the new revision points at the same
 * trie root (every page version and node is shared, nothing is rewritten), and the search and link
 * index rows are copied in SQL rather than recomputed.
 */

import { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import type { Db } from '../../platform/db/transactions';
import { createInitialRevision, insertRevision } from './revisions';

export async function copySpaceContent(db: Db, from: Space, to: Space, userId: string | null): Promise<Revision> {
  if (!from.revisionId) return createInitialRevision(db, to, userId);
  const source = await db.findOneByOrFail(Revision, { id: from.revisionId });
  const revision = await insertRevision(db, {
    spaceId: to.id,
    parents: [],
    type: 'initial',
    root: source.root,
    variables: source.variables,
    createdById: userId,
  });
  await db.update(Space, { id: to.id }, { revisionId: revision.id });
  to.revisionId = revision.id;
  await db.query(
    'INSERT INTO search_sections (spaceId, pageId, ordinal, anchor, title, body) SELECT ?, pageId, ordinal, anchor, title, body FROM search_sections WHERE spaceId = ?',
    [to.id, from.id],
  );
  await db.query(
    'INSERT INTO search_pages (spaceId, pageId, title, body) SELECT ?, pageId, title, body FROM search_pages WHERE spaceId = ?',
    [to.id, from.id],
  );
  await db.query(
    'INSERT INTO space_links (spaceId, sourcePageId, ordinal, kind, target, targetKey, status) SELECT ?, sourcePageId, ordinal, kind, target, targetKey, status FROM space_links WHERE spaceId = ?',
    [to.id, from.id],
  );
  return revision;
}
