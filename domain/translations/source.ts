/** What a run reads of the source space: its live row, and a reader of a revision's content. */

import { Space } from '../../entities/Space';
import type { Translation } from '../../entities/Translation';
import type { Db } from '../../platform/db/transactions';
import { ObjectStore } from '../content/objects';
import { ContentReader } from '../content/reader';
import { loadRevision } from '../content/revisions';
import { JobError } from '../jobs/job-error';
import { TRANSLATION_FAILURES } from './failures';

/** The source space; a permanent failure once it was deleted. */
export async function liveSourceSpace(db: Db, translation: Translation): Promise<Space> {
  const space = await db.findOneBy(Space, { id: translation.sourceSpaceId });
  if (!space || space.deletedAt) {
    throw new JobError(
      TRANSLATION_FAILURES.sourceGone,
      `the source space ${translation.sourceSpaceId} was deleted: restore it, or delete this translation`,
    );
  }
  return space;
}

/** A reader of a revision's content (null: no revision, no content). */
export async function revisionReader(db: Db, revisionId: string | null): Promise<ContentReader | null> {
  if (!revisionId) return null;
  return new ContentReader(new ObjectStore(db), (await loadRevision(db, revisionId)).root);
}
