/**
 * Writing to a head — a space's current revision or a change request's — in one transaction:
 * lock the head row, edit from its revision, store the new revision, move the head, and (for a
 * space) bring its search and link index up to date before the request returns.
 */

import { ChangeRequest } from '../../entities/ChangeRequest';
import { Revision, RevisionType } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import { conflict } from '../errors';
import { recordSpaceContentUpdated } from '../integrations/space-events';
import { ContentEditor } from './editor';
import { indexSpaceHead } from './indexer';
import { ObjectStore } from './objects';
import { createInitialRevision, insertRevision, loadRevision } from './revisions';

export type Head = { kind: 'space'; spaceId: string } | { kind: 'change-request'; changeRequestId: string };

export interface LockedHead {
  space: Space;
  changeRequest: ChangeRequest | null;
  revision: Revision;
}

/** Locks the head's row for the rest of the transaction and loads its current revision. */
export async function lockHead(db: Db, head: Head): Promise<LockedHead> {
  if (head.kind === 'space') {
    const space = await db
      .createQueryBuilder(Space, 's')
      .setLock('pessimistic_write')
      .where('s.id = :id', { id: head.spaceId })
      .getOneOrFail();
    const revision = space.revisionId
      ? await loadRevision(db, space.revisionId)
      : await createInitialRevision(db, space, null);
    return { space, changeRequest: null, revision };
  }
  const changeRequest = await db
    .createQueryBuilder(ChangeRequest, 'cr')
    .setLock('pessimistic_write')
    .where('cr.id = :id', { id: head.changeRequestId })
    .getOneOrFail();
  const space = await db.findOneByOrFail(Space, { id: changeRequest.spaceId });
  return { space, changeRequest, revision: await loadRevision(db, changeRequest.revisionId) };
}

export function assertWritable(locked: LockedHead): void {
  if (locked.changeRequest) {
    if (locked.changeRequest.status === 'merged' || locked.changeRequest.status === 'archived') {
      throw conflict(`the change request is ${locked.changeRequest.status}: its content can no longer change`);
    }
  } else if (locked.space.editMode === 'locked') {
    throw conflict('the space is locked: edit it through a change request');
  }
}

/**
 * Points the head at `revision`; a space's head is re-indexed, and the integrations installed on the
 * space get `space_content_updated`.
 */
export async function moveHead(
  db: WorkTx,
  store: ObjectStore,
  locked: LockedHead,
  revision: Revision,
  appBaseUrl: string,
): Promise<void> {
  const now = new Date();
  if (locked.changeRequest) {
    await db.update(ChangeRequest, { id: locked.changeRequest.id }, { revisionId: revision.id, updatedAt: now });
    Object.assign(locked.changeRequest, { revisionId: revision.id, updatedAt: now });
    return;
  }
  await db.update(Space, { id: locked.space.id }, { revisionId: revision.id, updatedAt: now });
  Object.assign(locked.space, { revisionId: revision.id, updatedAt: now });
  await indexSpaceHead(db, store, locked.space.id, locked.revision.root, revision.root, {
    appBaseUrl,
    organizationId: locked.space.organizationId,
  });
  await recordSpaceContentUpdated(db, locked.space, revision);
}

export interface CommitOptions {
  type: RevisionType;
  createdById: string;
  appBaseUrl: string;
}

/**
 * Runs `edit` on the head's content and commits the result as one new revision. An edit that
 * changes nothing commits nothing and returns the current revision.
 */
export async function commitToHead<T>(
  db: WorkTx,
  head: Head,
  options: CommitOptions,
  edit: (editor: ContentEditor, locked: LockedHead) => Promise<T>,
): Promise<{ revision: Revision; result: T; locked: LockedHead }> {
  const locked = await lockHead(db, head);
  assertWritable(locked);
  const store = new ObjectStore(db);
  const editor = new ContentEditor(store, locked.revision.root);
  const result = await edit(editor, locked);
  if (!editor.changed) return { revision: locked.revision, result, locked };
  const root = await editor.finish();
  await store.flush();
  const revision = await insertRevision(db, {
    spaceId: locked.space.id,
    changeRequestId: locked.changeRequest?.id ?? null,
    parents: [locked.revision.id],
    type: options.type,
    root,
    variables: locked.revision.variables,
    createdById: options.createdById,
  });
  await moveHead(db, store, locked, revision, options.appBaseUrl);
  return { revision, result, locked };
}
