/**
 * The space a translation writes into: created by the first run right after the source (same
 * collection, visibility and default level), titled with the target language and written in it. A
 * deleted result is not written again: the next run creates a new one. Deleting the translation leaves
 * the result as an ordinary space.
 */

import { Collection } from '../../entities/Collection';
import { Space } from '../../entities/Space';
import { Translation } from '../../entities/Translation';
import type { Db } from '../../platform/db/transactions';
import { positionAmongSiblings } from '../collections/ordering';
import type { Language } from '../spaces/languages';
import { createSpace, TITLE_MAX } from '../spaces/spaces';

export function resultTitle(sourceTitle: string, language: string): string {
  const suffix = ` (${language})`;
  return (
    Array.from(sourceTitle)
      .slice(0, TITLE_MAX - suffix.length)
      .join('') + suffix
  );
}

/** The live result space, or a new one next to the source (recorded on the translation). */
export async function ensureResultSpace(db: Db, translation: Translation, source: Space): Promise<Space> {
  const existing = translation.resultSpaceId ? await db.findOneBy(Space, { id: translation.resultSpaceId }) : null;
  if (existing && !existing.deletedAt) return existing;
  const parent = source.parentId ? await db.findOneByOrFail(Collection, { id: source.parentId }) : null;
  const space = await createSpace(
    db,
    source.organizationId,
    parent,
    {
      title: resultTitle(source.title, translation.language),
      emoji: source.emoji ?? undefined,
      language: translation.language as Language,
      editMode: 'live',
    },
    translation.createdById,
  );
  const placed = {
    position: await positionAmongSiblings(db, source.organizationId, source.parentId, {
      side: 'after',
      anchor: { kind: 'space', id: source.id },
    }),
    visibility: source.visibility,
    defaultLevel: source.defaultLevel,
  };
  await db.update(Space, { id: space.id }, placed);
  // no result to show until the run's revision is written
  await db.update(Translation, { id: translation.id }, { resultSpaceId: space.id, resultRevisionId: null });
  Object.assign(translation, { resultSpaceId: space.id, resultRevisionId: null });
  return Object.assign(space, placed);
}
