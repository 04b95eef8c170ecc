/**
 * Change requests as branches: creation from the space's current revision, and the two merges
 * (three-way, domain/content/merge.ts) — merge into the space, and update from the space — with the last common revision
 * as base. A conflict is a 409 listing the pages; nothing is written.
 */

import { ChangeRequest, ChangeRequestStatus } from '../../entities/ChangeRequest';
import type { Revision } from '../../entities/Revision';
import { Space } from '../../entities/Space';
import type { WorkTx } from '../../platform/db/after-commit';
import type { Db } from '../../platform/db/transactions';
import { conflict } from '../errors';
import { newId } from '../ids';
import { assertMergeRulesMet } from '../merge-rules/evaluation';
import { applyCounterChange, changeRequestStatusChange } from '../spaces/counter-changes';
import { lockHead, moveHead } from './heads';
import { mergeContent } from './merge';
import { ObjectStore } from './objects';
import { createInitialRevision, insertRevision, loadRevision } from './revisions';

/** The revision both the space and the change request last agreed on. */
export function mergeBaseId(cr: ChangeRequest): string {
  return cr.revisionMergedAncestorId ?? cr.revisionInitialId;
}

/** Derived, never stored: the space moved on since the change request last caught up. */
export function isOutdated(cr: ChangeRequest, space: Space): boolean {
  return cr.status !== 'merged' && !!space.revisionId && space.revisionId !== mergeBaseId(cr);
}

export async function createChangeRequest(
  db: Db,
  spaceId: string,
  input: { subject?: string; agentTaskId?: string },
  createdById: string,
): Promise<ChangeRequest> {
  const space = await db
    .createQueryBuilder(Space, 's')
    .setLock('pessimistic_write')
    .where('s.id = :id', { id: spaceId })
    .getOneOrFail();
  const revisionId = space.revisionId ?? (await createInitialRevision(db, space, createdById)).id;
  const last = await db
    .createQueryBuilder(ChangeRequest, 'cr')
    .select('MAX(cr.number)', 'max')
    .where('cr.spaceId = :spaceId', { spaceId })
    .getRawOne<{ max: number | null }>();
  const now = new Date();
  const cr = db.create(ChangeRequest, {
    id: newId(),
    spaceId,
    number: (last?.max ?? 0) + 1,
    status: 'open',
    subject: input.subject ?? '',
    agentTaskId: input.agentTaskId ?? null,
    createdById,
    createdAt: now,
    updatedAt: now,
    revisionInitialId: revisionId,
    revisionId,
    revisionMergedAncestorId: null,
    revisionMergedId: null,
    mergedAt: null,
  });
  await db.insert(ChangeRequest, cr);
  await applyCounterChange(db, spaceId, changeRequestStatusChange(null, cr.status));
  return cr;
}

export async function updateChangeRequest(
  db: Db,
  changeRequestId: string,
  patch: { subject?: string; status?: Exclude<ChangeRequestStatus, 'merged'>; description?: string },
): Promise<ChangeRequest> {
  // Locked and read again so a merge landing meanwhile cannot be overwritten by a status change.
  const cr = await db
    .createQueryBuilder(ChangeRequest, 'cr')
    .setLock('pessimistic_write')
    .where('cr.id = :id', { id: changeRequestId })
    .getOneOrFail();
  if (cr.status === 'merged' && patch.status !== undefined)
    throw conflict('status: a merged change request cannot change status');
  const changes: Partial<ChangeRequest> = { updatedAt: new Date() };
  if (patch.subject !== undefined) changes.subject = patch.subject;
  if (patch.status !== undefined) changes.status = patch.status;
  // markdown; an empty document is no description
  if (patch.description !== undefined) changes.description = patch.description || null;
  await db.update(ChangeRequest, { id: cr.id }, changes);
  if (changes.status) await applyCounterChange(db, cr.spaceId, changeRequestStatusChange(cr.status, changes.status));
  return Object.assign(cr, changes);
}

function conflictError(conflicts: Array<{ page: string; title: string; reason: string }>) {
  return conflict(`the merge has conflicts in ${conflicts.length} page(s)`, { conflicts });
}

/**
 * Merges the change request into its space: a `merge` revision with two parents becomes the space's. The space's
 * merge rules must all pass first (domain/merge-rules/), else a 409 names those that fail.
 */
export async function mergeChangeRequest(
  db: WorkTx,
  changeRequestId: string,
  userId: string,
  appBaseUrl: string,
): Promise<Revision> {
  const crHead = await lockHead(db, { kind: 'change-request', changeRequestId });
  const cr = crHead.changeRequest!;
  if (cr.status === 'merged') throw conflict('the change request is already merged');
  if (cr.status === 'archived') throw conflict('the change request is archived: reopen it before merging');
  const spaceHead = await lockHead(db, { kind: 'space', spaceId: cr.spaceId });
  if (spaceHead.space.editMode === 'locked') throw conflict('the space is locked: merges are refused');
  await assertMergeRulesMet(db, {
    space: spaceHead.space,
    changeRequest: cr,
    outdated: isOutdated(cr, spaceHead.space),
    actorId: userId,
  });
  const store = new ObjectStore(db);
  const base = await loadRevision(db, mergeBaseId(cr));
  const merged = await mergeContent(store, base.root, spaceHead.revision.root, crHead.revision.root);
  if (!merged.ok) throw conflictError(merged.conflicts);
  await store.flush();
  const revision = await insertRevision(db, {
    spaceId: cr.spaceId,
    changeRequestId: cr.id,
    parents: [spaceHead.revision.id, crHead.revision.id],
    type: 'merge',
    root: merged.root,
    variables: { ...spaceHead.revision.variables, ...crHead.revision.variables },
    createdById: userId,
  });
  await moveHead(db, store, spaceHead, revision, appBaseUrl);
  const now = new Date();
  await db.update(
    ChangeRequest,
    { id: cr.id },
    { status: 'merged', revisionMergedId: revision.id, mergedAt: now, updatedAt: now },
  );
  await applyCounterChange(db, cr.spaceId, changeRequestStatusChange(cr.status, 'merged'));
  Object.assign(cr, { status: 'merged', revisionMergedId: revision.id, mergedAt: now, updatedAt: now });
  return revision;
}

/** Pulls the space's content into the change request (`update` revision), recording the ancestor. */
export async function updateFromSpace(
  db: WorkTx,
  changeRequestId: string,
  userId: string,
  appBaseUrl: string,
): Promise<Revision> {
  const crHead = await lockHead(db, { kind: 'change-request', changeRequestId });
  const cr = crHead.changeRequest!;
  if (cr.status === 'merged' || cr.status === 'archived')
    throw conflict(`the change request is ${cr.status}: its content can no longer change`);
  const space = await db.findOneByOrFail(Space, { id: cr.spaceId });
  const spaceRevision = await loadRevision(db, space.revisionId!);
  if (spaceRevision.id === mergeBaseId(cr)) return crHead.revision;
  const store = new ObjectStore(db);
  const base = await loadRevision(db, mergeBaseId(cr));
  const merged = await mergeContent(store, base.root, crHead.revision.root, spaceRevision.root);
  if (!merged.ok) throw conflictError(merged.conflicts);
  await store.flush();
  const revision = await insertRevision(db, {
    spaceId: cr.spaceId,
    changeRequestId: cr.id,
    parents: [crHead.revision.id, spaceRevision.id],
    type: 'update',
    root: merged.root,
    variables: { ...spaceRevision.variables, ...crHead.revision.variables },
    createdById: userId,
  });
  await moveHead(db, store, crHead, revision, appBaseUrl);
  await db.update(ChangeRequest, { id: cr.id }, { revisionMergedAncestorId: spaceRevision.id });
  cr.revisionMergedAncestorId = spaceRevision.id;
  return revision;
}
