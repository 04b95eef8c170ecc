/**
 * A third form of the content reads: one revision of a space named by id, GitBook's
 * `/v1/spaces/{spaceId}/revisions/{revisionId}...`. It reads like a head's content and is never written.
 */
import { findRevisionOfSpace } from '../../../domain/content/revisions';
import { notFound } from '../../../domain/errors';
import { revisionIdParams } from './schema';
import { authorizedSpace, CONTENT_FORMS, ContentForm, ContentTarget, RevisionTarget } from './target';

export const revisionForm: ContentForm<RevisionTarget> = {
  name: 'Revision',
  extension: true,
  reads: { full: 'the revision named by id', short: 'the revision' },
  params: revisionIdParams,
  path: (suffix) => `/v1/spaces/{spaceId}/revisions/{revisionId}${suffix}`,
  async resolve(access, params) {
    const space = await authorizedSpace(access, params.spaceId, 'view');
    // a revision of another space is not found, whatever its id
    const revision = await findRevisionOfSpace(access.db, space.id, params.revisionId);
    if (!revision) throw notFound('revision');
    return {
      space,
      changeRequest: null,
      revision,
      apiPath: `/spaces/${space.id}/revisions/${revision.id}`,
      appPath: `/o/${space.organizationId}/s/${space.id}/~/revisions/${revision.id}`,
    };
  },
};

/** Every form a read is mounted under: the two heads and a revision by id. */
export const READ_FORMS: ReadonlyArray<ContentForm<ContentTarget> | ContentForm<RevisionTarget>> = [
  ...CONTENT_FORMS,
  revisionForm,
];
