import { z } from 'zod';
import { PAGE_MARKDOWN_MAX_CHARACTERS } from '../../../domain/content/markdown';
import { paginationQuery, queryBoolean } from '../../query';
import { nonEmpty, pathId, resourceId, text } from '../../schemas';

export const pageIdParams = { pageId: pathId('page') };
export const fileIdParams = { fileId: pathId('file') };

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

const title = text({ min: 1, max: 256, trim: true });
const markdown = text({ max: PAGE_MARKDOWN_MAX_CHARACTERS, characters: 'lines' });
const emoji = text({ min: 1, max: 32 }).nullable();
const description = text({ max: 512, characters: 'lines' }).nullable();
const index = z.number().int().min(0).openapi({ description: '0-based position among the siblings; default last' });

export const createPageBody = z
  .object({
    title,
    parent: resourceId.optional().openapi({ description: 'parent page id; default the root level' }),
    index: index.optional(),
    markdown: markdown.optional(),
    emoji: emoji.optional(),
    description: description.optional(),
    hidden: z.boolean().optional(),
  })
  .strict();

export const patchPageBody = nonEmpty(
  z
    .object({
      title: title.optional(),
      markdown: markdown.optional(),
      emoji: emoji.optional(),
      description: description.optional(),
      hidden: z.boolean().optional(),
      parent: resourceId
        .nullable()
        .optional()
        .openapi({ description: 'moves the page under this page; null: to the root level' }),
      index: index.optional(),
    })
    .strict(),
);

export const FILE_NAME_MAX = 255;
export const uploadFileQuery = {
  name: text({ min: 1, max: FILE_NAME_MAX }, z.string().regex(/^[^/\\]*$/)).openapi({
    description: 'the file name (no slashes or control characters)',
  }),
};

export const uploadFileBody = z
  .instanceof(Buffer)
  .refine((bytes) => bytes.length > 0, 'must not be empty')
  .openapi({
    type: 'string',
    format: 'binary',
    description: "the file's bytes; Content-Type is the file's type (not JSON)",
  });
