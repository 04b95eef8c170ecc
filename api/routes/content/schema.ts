import { z } from 'zod';
import { PAGE_MARKDOWN_MAX_CHARACTERS } from '../../../domain/content/markdown';
import { paginationQuery, queryBoolean } from '../../query';
import { emoji, nonEmpty, pathId, resourceId, text } from '../../schemas';
import type { Upload } from '../../upload-body';
import { spaceIdParams } from '../spaces/schema';

export const pageIdParams = {
  pageId: pathId('page').openapi({ description: 'id of a page of the content (not its path)' }),
};
export const revisionIdParams = {
  ...spaceIdParams,
  revisionId: pathId('revision').openapi({
    description: "id of a revision of the space (of its own content or of a change request's)",
  }),
};
export const fileIdParams = { fileId: pathId('file').openapi({ description: 'id of a file of the content' }) };

/**
 * Accepted and validated; they change nothing: there is no Git sync, so no `git` metadata to omit
 * (it is always null), and no computed pages to compute.
 */
const readOptions = {
  metadata: queryBoolean
    .optional()
    .openapi({ description: 'default true; no Git sync exists, so `git` is null either way' }),
  computed: queryBoolean
    .optional()
    .openapi({ description: 'default true; no computed pages exist, so nothing changes' }),
};

export const contentQuery = { ...readOptions };
export const listFilesQuery = { ...paginationQuery, ...readOptions };

export const PAGE_FORMATS = ['markdown', 'document'] as const;
export const getPageQuery = {
  format: z.enum(PAGE_FORMATS).optional().openapi({ description: 'default markdown' }),
  evaluated: z
    .enum(['true', 'false', 'deterministic-only'])
    .transform((v) => v !== 'false')
    .optional()
    .openapi({
      description:
        'default false; true replaces `{{ variables.NAME }}` with the revision variable NAME; variables are deterministic inputs, so deterministic-only does the same',
    }),
  // GitBook's: accepted, and they change nothing here (docs/decisions.md, GitBook request compatibility)
  'format.markdown.refs': z
    .enum(['relative', 'stable'])
    .optional()
    .openapi({ description: 'accepted; references stay as stored (`page:<id>`, `file:<id>`, paths, URLs)' }),
  dereferenced: z
    .enum(['true', 'false', 'reusable-contents'])
    .optional()
    .openapi({ description: 'accepted; there are no reusable contents or expandable references to resolve' }),
  ...readOptions,
};

/** GitBook's page path: the slugs from the root level down, joined by "/". */
export const pagePathParams = {
  pagePath: z.string().min(1).max(4096).openapi({ description: 'slugs from the root level down, e.g. `guide/setup`' }),
};

const title = text({ min: 1, max: 256, trim: true }).openapi({
  description: 'title of the page, trimmed; the slug is made from it',
});
const markdown = text({ max: PAGE_MARKDOWN_MAX_CHARACTERS, characters: 'lines' }).openapi({
  description: 'body of the page in markdown; links take `page:<id>`, `file:<id>`, page paths or URLs',
});
const pageEmoji = emoji.nullable();
const description = text({ max: 512, characters: 'lines' })
  .nullable()
  .openapi({ description: 'short summary shown under the title; null clears it' });
const hidden = z.boolean().openapi({ description: "GitBook's flag for a page kept out of the navigation" });
const index = z.number().int().min(0).openapi({ description: '0-based position among the siblings; default last' });

export const createPageBody = z
  .object({
    title,
    parent: resourceId.optional().openapi({ description: 'parent page id; default the root level' }),
    index: index.optional(),
    markdown: markdown.optional(),
    emoji: pageEmoji.optional(),
    description: description.optional(),
    hidden: hidden.optional(),
  })
  .strict();

export const patchPageBody = nonEmpty(
  z
    .object({
      title: title.optional(),
      markdown: markdown.optional(),
      emoji: pageEmoji.optional(),
      description: description.optional(),
      hidden: hidden.optional(),
      parent: resourceId
        .nullable()
        .optional()
        .openapi({ description: 'moves the page under this page; null: to the root level' }),
      index: index.optional(),
    })
    .strict(),
);

export const FILE_NAME_MAX = 255;
/** A file's name: no slashes or control characters. */
const fileName = text({ min: 1, max: FILE_NAME_MAX }, z.string().regex(/^[^/\\]*$/));

export const uploadFileQuery = {
  name: fileName.optional().openapi({
    description:
      "the file name (no slashes or control characters); by default a multipart upload's filename, required for raw bytes",
  }),
};

/** The uploaded file (api/upload-body.ts): not empty, and a multipart filename is a valid file name. */
export const uploadFileBody = z.custom<Upload>().superRefine((upload, ctx) => {
  if (upload.bytes.length === 0) ctx.addIssue({ code: 'custom', path: ['file'], message: 'must not be empty' });
  if (upload.filename === undefined) return;
  const name = fileName.safeParse(upload.filename);
  if (!name.success) ctx.addIssue({ ...name.error.issues[0], path: ['filename'] });
});

/** GitBook's PDF parameters, for the PDF of `whose` current revision (a change request's, the space's). */
export const pdfQuery = (whose: string) => ({
  only: queryBoolean
    .optional()
    .openapi({ description: 'with `page`: that page alone, without its descendants (true without a page is a 400)' }),
  page: resourceId.optional().openapi({
    description: `a page of ${whose} current revision: the PDF shows it and its descendants; default every page`,
  }),
});
