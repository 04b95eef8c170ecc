/**
 * Content operations exist twice (spec: "Space content and change request content"): on a space's
 * head, `/v1/spaces/{spaceId}/content...`, and on a change request's head,
 * `/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content...`. Each operation is written
 * once and mounted for both forms; a form resolves its path to a `ContentTarget`.
 */

import type { DataSource } from 'typeorm';
import type { ZodRawShape, ZodType } from 'zod';
import { authorize } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import type { ContentEditor } from '../../../domain/content/editor';
import { commitToHead, Head, LockedHead, lockHead } from '../../../domain/content/heads';
import { ObjectStore } from '../../../domain/content/objects';
import { ContentReader } from '../../../domain/content/reader';
import { loadRevision } from '../../../domain/content/revisions';
import { notFound } from '../../../domain/errors';
import type { ChangeRequest } from '../../../entities/ChangeRequest';
import type { Revision } from '../../../entities/Revision';
import type { Space } from '../../../entities/Space';
import type { WorkTx } from '../../../platform/db/after-commit';
import { inTransaction } from '../../../platform/db/transactions';
import { loadChangeRequestWithRevision, loadSpace, loadSpaceWithRevision } from '../../loaders';
import { changeRequestIdParams } from '../change-requests/schema';
import { spaceIdParams } from '../spaces/schema';

/** What a read of content needs: whose content it is and where it is seen. */
export interface ReadTarget {
  space: Space;
  changeRequest: ChangeRequest | null;
  /** API path of the content, below /v1 */
  apiPath: string;
  /** app path of the content; a page's app URL appends its path */
  appPath: string;
  /** the revision read, when already loaded */
  revision?: Revision;
}

/** A head's content (the space's or a change request's): it can be written, and its revision moves. */
export interface ContentTarget extends ReadTarget {
  head: Head;
}

/** One revision's content, named by id: it never changes. */
export interface RevisionTarget extends ReadTarget {
  revision: Revision;
}

type FormParams = { spaceId: ZodType<string> } & ZodRawShape;

export interface ContentForm<T extends ReadTarget = ContentTarget> {
  /** spliced into operation ids: getSpaceContent, getChangeRequestContent, getRevisionContent */
  name: 'Space' | 'ChangeRequest' | 'Revision';
  /** its reads are outside the spec's tables (GitBook's operations the spec does not show): marked as extensions */
  extension: boolean;
  /** the revision its reads read, in the reference's sentences and summaries */
  reads: { full: string; short: string };
  params: FormParams;
  path(suffix: string): string;
  /** Loads the target, answering 404 when the caller cannot view the space and 403 without `action`. */
  resolve(access: AccessContext, params: Record<string, string>, action: 'view' | 'edit'): Promise<T>;
}

export async function authorizedSpace(access: AccessContext, spaceId: string, action: 'view' | 'edit'): Promise<Space> {
  const space = await loadSpace(access, spaceId);
  await authorize(access, { kind: 'space', space }, action);
  return space;
}

const spaceForm: ContentForm = {
  name: 'Space',
  extension: false,
  reads: { full: "the space's current revision", short: 'the current revision' },
  params: spaceIdParams,
  path: (suffix) => `/v1/spaces/{spaceId}/content${suffix}`,
  async resolve(access, params, action) {
    // a read of the space's content needs its revision: read in the same statement
    const { space, revision } = await loadSpaceWithRevision(access, params.spaceId);
    await authorize(access, { kind: 'space', space }, action);
    return {
      space,
      changeRequest: null,
      head: { kind: 'space', spaceId: space.id },
      apiPath: `/spaces/${space.id}/content`,
      appPath: `/o/${space.organizationId}/s/${space.id}`,
      ...(revision ? { revision } : {}),
    };
  },
};

const changeRequestForm: ContentForm = {
  name: 'ChangeRequest',
  extension: false,
  reads: { full: "the change request's current revision", short: 'the current revision' },
  params: changeRequestIdParams,
  path: (suffix) => `/v1/spaces/{spaceId}/change-requests/{changeRequestId}/content${suffix}`,
  async resolve(access, params, action) {
    // the space, the change request and its head revision in one statement; the space is authorized first
    const { space, changeRequest, revision } = await loadChangeRequestWithRevision(
      access,
      params.spaceId,
      params.changeRequestId,
    );
    await authorize(access, { kind: 'space', space }, action);
    if (!changeRequest) throw notFound('change request');
    return {
      space,
      changeRequest,
      head: { kind: 'change-request', changeRequestId: changeRequest.id },
      apiPath: `/spaces/${space.id}/change-requests/${changeRequest.id}/content`,
      appPath: `/o/${space.organizationId}/s/${space.id}/~/changes/${changeRequest.number}`,
      ...(revision ? { revision } : {}),
    };
  },
};

export const CONTENT_FORMS: readonly ContentForm[] = [spaceForm, changeRequestForm];

/** For the reference: who may read a content, in either form. */
export const CONTENT_READ_ACCESS =
  'Needs read access to the space (404 when the caller cannot view it, or the change request does not exist).';

/** For the reference: who may write a content, and what a write changes beyond the new revision. */
export const CONTENT_WRITE_EFFECTS =
  "Needs `edit` on the space; the change is one new `edits` revision on the content's head (on the space's own " +
  'content the search and link indexes follow in the same transaction, and the integrations installed on the space ' +
  'get a `space_content_updated` event, delivered by the integration event dispatch job). 409 when the content ' +
  'cannot change: a locked space, or a merged or archived change request.';

/** The target's revision (a head's current one) and a reader over it. */
export async function openContent(
  ds: DataSource,
  target: ContentTarget | RevisionTarget,
): Promise<{ revision: Revision; reader: ContentReader }> {
  const revision = 'head' in target ? await headRevision(ds, target) : target.revision;
  return { revision, reader: new ContentReader(new ObjectStore(ds.manager), revision.root) };
}

async function headRevision(ds: DataSource, target: ContentTarget): Promise<Revision> {
  if (target.revision) return target.revision;
  const revisionId = target.changeRequest ? target.changeRequest.revisionId : target.space.revisionId;
  // A space from before content existed has no revision yet: lockHead gives it its initial one.
  return revisionId
    ? loadRevision(ds.manager, revisionId)
    : (await inTransaction(ds, (db) => lockHead(db, target.head))).revision;
}

/** Commits `edit` as one `edits` revision on the target's head (409 when the head is not writable). */
export function commitEdits<T>(
  db: WorkTx,
  target: ContentTarget,
  userId: string,
  appBaseUrl: string,
  edit: (editor: ContentEditor, locked: LockedHead) => Promise<T>,
) {
  return commitToHead(db, target.head, { type: 'edits', createdById: userId, appBaseUrl }, edit);
}
