import { z } from 'zod';
import { IMPORT_SOURCES } from '../../../domain/imports/runs';
import { paginationQuery } from '../../query';
import { httpUrl, pathId, resourceId } from '../../schemas';
import { organizationIdParams } from '../orgs/schema';

/** GitBook's ImportContentSource; the ones outside IMPORT_SOURCES answer 400 (a source we cannot import is refused, not ignored). */
const GITBOOK_SOURCES = [
  'website',
  'docx',
  'markdown',
  'html',
  'zip',
  'confluence',
  'github-wiki',
  'notion',
  'google-docs',
] as const;

const importSource = z
  .enum(GITBOOK_SOURCES)
  .superRefine((source, ctx) => {
    if (!(IMPORT_SOURCES as readonly string[]).includes(source)) {
      ctx.addIssue({
        code: 'custom',
        message: `${source} is not supported here (supported: ${IMPORT_SOURCES.join(', ')})`,
      });
    }
  })
  .transform((source) => source as (typeof IMPORT_SOURCES)[number])
  .openapi({ description: `supported here: ${IMPORT_SOURCES.join(', ')}; the others answer 400` });

export const importContentBody = z
  .object({
    url: httpUrl.openapi({
      description:
        'what to import: the start page of a website, one HTML page, a .md file, a .zip of markdown and images, or a .docx; fetched by the service',
    }),
    source: importSource,
  })
  .strict()
  .openapi('ImportContent', { description: 'What to import into the content, and what kind of source it is' });

export const importRunParams = {
  ...organizationIdParams,
  importRunId: pathId('import run').openapi({ description: 'id of the import run' }),
};

export const listImportRunsQuery = {
  ...paginationQuery,
  space: resourceId.optional().openapi({ description: 'only the runs importing into this space' }),
  changeRequest: resourceId.optional().openapi({ description: 'only the runs importing into this change request' }),
  status: z
    .enum(['active', 'pending', 'in-progress', 'completed', 'failed', 'cancelled'])
    .optional()
    .openapi({ description: '`active`: pending or in-progress' }),
};
