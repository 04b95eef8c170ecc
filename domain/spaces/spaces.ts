/** Space rules: creation, metadata updates and duplication. Deletion lives in deletion.ts, moves in placement.ts. */

import type { Collection } from '../../entities/Collection';
import { idleJobState } from '../../entities/JobState';
import type { SpaceMergeRulesConfiguration } from '../../entities/merge-rules';
import { EditMode, Space, SpaceVisibility } from '../../entities/Space';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import type { Role } from '../access/roles';
import { lastPosition, positionAmongSiblings } from '../collections/ordering';
import { copySpaceContent } from '../content/duplicate';
import { createInitialRevision } from '../content/revisions';
import { badRequest } from '../errors';
import { newId } from '../ids';
import { recordSpaceVisibilityUpdated } from '../integrations/space-events';
import { checkMergeRules } from '../merge-rules/configuration';
import { DEFAULT_LANGUAGE, Language } from './languages';

export const UNTITLED_SPACE = 'Untitled';
/** GitBook's SpaceTitle: clients that validate answers refuse a longer one. */
export const TITLE_MAX = 50;
const COPY_SUFFIX = ' (copy)';

export interface NewSpace {
  title?: string;
  emoji?: string;
  language?: Language;
  editMode?: EditMode;
}

/** A new private space, last among the siblings under `parent` (null: organization root). */
export async function createSpace(
  db: Db,
  organizationId: string,
  parent: Collection | null,
  input: NewSpace,
  createdById: string | null = null,
): Promise<Space> {
  const parentId = parent?.id ?? null;
  const space = newSpaceRow(organizationId, parentId, await lastPosition(db, organizationId, parentId), {
    title: input.title ?? UNTITLED_SPACE,
    emoji: input.emoji ?? null,
    language: input.language ?? DEFAULT_LANGUAGE,
    editMode: input.editMode ?? 'live',
    defaultLevel: null,
    visibility: 'private',
  });
  await db.insert(Space, space);
  await createInitialRevision(db, space, createdById);
  return space;
}

type SpaceMetadata = Pick<Space, 'title' | 'emoji' | 'language' | 'editMode' | 'defaultLevel' | 'visibility'>;

function newSpaceRow(
  organizationId: string,
  parentId: string | null,
  position: number,
  metadata: SpaceMetadata,
): Space {
  const now = new Date();
  return Object.assign(new Space(), {
    id: newId(),
    organizationId,
    parentId,
    ...metadata,
    revisionId: null,
    position,
    createdAt: now,
    updatedAt: now,
    deletedAt: null,
    changeRequestsCount: 0,
    changeRequestsOpenCount: 0,
    changeRequestsDraftCount: 0,
    openCommentsCount: 0,
    purge: idleJobState(),
  });
}

export interface SpacePatch {
  title?: string;
  emoji?: string | null;
  language?: Language;
  editMode?: EditMode;
  defaultLevel?: Role | null;
  visibility?: SpaceVisibility;
  mergeRules?: SpaceMergeRulesConfiguration;
}

/** Updates the metadata; a change of visibility is sent to the integrations installed on the space. */
export async function updateSpace(db: WorkTx, space: Space, patch: SpacePatch): Promise<Space> {
  if (patch.visibility === 'in-collection' && !space.parentId)
    throw badRequest('visibility: in-collection is only for a space in a collection');
  const previousVisibility = space.visibility;
  const changes: Partial<Space> = { updatedAt: new Date() };
  for (const key of ['title', 'emoji', 'language', 'editMode', 'defaultLevel', 'visibility'] as const) {
    if (patch[key] !== undefined) Object.assign(changes, { [key]: patch[key] });
  }
  if (patch.mergeRules !== undefined) {
    await checkMergeRules(db, space.organizationId, patch.mergeRules, 'mergeRules');
    // inheriting is stored as null, as a new space does
    changes.mergeRules = patch.mergeRules.type === 'inherit' ? null : patch.mergeRules;
  }
  await db.update(Space, { id: space.id }, changes);
  Object.assign(space, changes);
  await recordSpaceVisibilityUpdated(db, space, previousVisibility);
  return space;
}

/** A copy of the space, metadata and current content, right after the original under the same parent. */
export async function duplicateSpace(db: Db, original: Space, createdById: string | null = null): Promise<Space> {
  const position = await positionAmongSiblings(db, original.organizationId, original.parentId, {
    side: 'after',
    anchor: { kind: 'space', id: original.id },
  });
  const copy = newSpaceRow(original.organizationId, original.parentId, position, {
    // cut by code points (as the title limit counts): a cut between the halves of a pair would leave a lone surrogate
    title:
      Array.from(original.title)
        .slice(0, TITLE_MAX - COPY_SUFFIX.length)
        .join('') + COPY_SUFFIX,
    emoji: original.emoji,
    language: original.language,
    editMode: original.editMode,
    defaultLevel: original.defaultLevel,
    visibility: original.visibility,
  });
  await db.insert(Space, copy);
  await copySpaceContent(db, original, copy, createdById);
  return copy;
}
