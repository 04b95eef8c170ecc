import { z } from 'zod';
import type { PageNode } from '../../domain/content/reader';
import type { Revision, RevisionType } from '../../entities/Revision';
import type { Presented } from '../../platform/wire/to-wire';
import { changeRequestSchema } from './change-request';
import { iso, timestamp } from './common';
import { fileSchema } from './file';
import { pageSchema, presentPageTree } from './page';
import type { Urls } from './urls';

/** GitBook's revision types: a first, template or import revision is content written like edits. */
export const REVISION_TYPES = ['edits', 'merge', 'update'] as const;
const WIRE_TYPES: Record<RevisionType, (typeof REVISION_TYPES)[number]> = {
  initial: 'edits',
  edits: 'edits',
  template: 'edits',
  import: 'edits',
  merge: 'merge',
  update: 'update',
};

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
    tags: z.array(z.unknown()).max(0).openapi({ description: 'GitBook 0.202; always empty: there are no tags' }),
    type: z.enum(REVISION_TYPES).openapi({ description: 'a first, template or import revision is `edits`' }),
    mergedFrom: changeRequestSchema.optional().openapi({ description: 'the change request a merge revision merged' }),
    urls: z.object({ app: z.string(), published: z.string(), public: z.string() }),
  })
  .openapi('Revision');

export function presentRevision(
  revision: Revision,
  content: {
    pages: PageNode[];
    files: Presented<typeof fileSchema>[];
    organizationId: string;
    appPath: string;
    /** the change request a merge revision merged */
    mergedFrom?: Presented<typeof changeRequestSchema>;
  },
  urls: Urls,
): Presented<typeof revisionSchema> {
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
    tags: [],
    type: WIRE_TYPES[revision.type],
    mergedFrom: content.mergedFrom,
    urls: {
      app: urls.app(`/o/${content.organizationId}${pinned}`),
      published: urls.published(pinned),
      public: urls.published(pinned),
    },
  };
}
