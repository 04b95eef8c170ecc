import { z } from 'zod';
import type { PageNode } from '../../domain/content/reader';
import type { Revision, RevisionType } from '../../entities/Revision';
import { iso, timestamp } from './common';
import { fileSchema } from './file';
import { pageSchema, presentPageTree } from './page';
import type { Urls } from './urls';

export const REVISION_TYPES = [
  'initial',
  'edits',
  'merge',
  'update',
  'template',
  'import',
] as const satisfies readonly RevisionType[];

export const revisionSchema = z
  .object({
    object: z.literal('revision'),
    id: z.string(),
    parents: z.array(z.string()),
    pages: z.array(pageSchema),
    files: z.array(fileSchema),
    reusableContents: z
      .array(z.object({ id: z.string(), title: z.string() }))
      .openapi({ description: 'always empty: reusable content is not supported' }),
    variables: z.record(z.string()),
    createdAt: timestamp,
    git: z.null().openapi({ description: 'there is no Git sync' }),
    tags: z.array(z.unknown()).max(0).openapi({ description: 'GitBook 0.202; always empty: there are no tags' }),
    type: z.enum(REVISION_TYPES),
    urls: z.object({ app: z.string(), published: z.string(), public: z.string() }),
  })
  .openapi('Revision');

export function presentRevision(
  revision: Revision,
  content: { pages: PageNode[]; files: z.infer<typeof fileSchema>[]; organizationId: string; appPath: string },
  urls: Urls,
): z.infer<typeof revisionSchema> {
  // A revision is pinned content of its space, viewed the same way from the space and from a change request.
  const pinned = `/s/${revision.spaceId}/~/revisions/${revision.id}`;
  return {
    object: 'revision',
    id: revision.id,
    parents: revision.parents,
    pages: presentPageTree(content.pages, urls, content.appPath),
    files: content.files,
    reusableContents: [],
    variables: revision.variables,
    createdAt: iso(revision.createdAt),
    git: null,
    tags: [],
    type: revision.type,
    urls: {
      app: urls.app(`/o/${content.organizationId}${pinned}`),
      published: urls.published(pinned),
      public: urls.published(pinned),
    },
  };
}
