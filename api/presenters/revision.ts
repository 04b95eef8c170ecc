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
    object: z.literal('revision').openapi({ description: 'always `revision`' }),
    id: z.string().openapi({ description: 'id of the revision' }),
    parents: z.array(z.string()).openapi({
      description:
        'ids of the revisions this one was made from: one for edits, two for a merge (space first) or an update (change request first), none for a first revision',
    }),
    pages: z.array(pageSchema).openapi({ description: 'the root-level pages, each with its whole subtree' }),
    files: z.array(fileSchema).openapi({ description: 'every file of the revision' }),
    reusableContents: z
      .array(
        z.object({
          id: z.string().openapi({ description: 'id of the reusable content' }),
          title: z.string().openapi({ description: 'title of the reusable content' }),
        }),
      )
      .openapi({ description: 'always empty: reusable content is not supported' }),
    variables: z
      .record(z.string())
      .openapi({ description: 'the revision variables, by name; pages read them as `{{ variables.NAME }}`' }),
    createdAt: timestamp.openapi({ description: 'when the revision was committed (ISO 8601 date-time)' }),
    tags: z.array(z.unknown()).max(0).openapi({ description: 'GitBook 0.202; always empty: there are no tags' }),
    type: z.enum(REVISION_TYPES).openapi({
      description:
        'a first, template or import revision is `edits`; a `merge` revision names the change request it merged in `mergedFrom`',
    }),
    mergedFrom: changeRequestSchema.optional(),
    urls: z
      .object({
        app: z.string().openapi({ description: 'URL of this revision, pinned, in the web app' }),
        published: z.string().openapi({ description: 'URL of this revision, pinned, on the published side' }),
        public: z.string().openapi({ description: 'same as `published`' }),
      })
      .openapi({ description: 'where the revision can be viewed' }),
  })
  .openapi('Revision', {
    description: "One committed state of a space's or change request's content: its pages, files and variables",
  });

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
