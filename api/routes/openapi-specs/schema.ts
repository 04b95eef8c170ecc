import { z } from 'zod';
import { paginationQuery } from '../../query';
import { exactlyOneOf, httpUrl, pathId, text } from '../../schemas';
import { organizationIdParams } from '../orgs/schema';

/** GitBook 0.137's OpenAPISpecSlug (our spec's pattern): lowercase words joined by single hyphens. */
const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const slug = text(
  { min: 1, max: 100 },
  z.string().regex(SLUG, 'must be lowercase letters and digits, words joined by single hyphens'),
).openapi({
  description: 'slug of the specification: lowercase letters and digits, words joined by single hyphens (at most 100)',
});

/** A slug in a path names a spec or nothing: one that could not be a slug answers 404 like an unknown one. */
const pathSlug = z
  .string()
  .refine((s) => s.length <= 100 && SLUG.test(s), { params: { notFound: 'OpenAPI specification' } })
  .openapi({ pattern: SLUG.source, maxLength: 100, description: 'slug of the specification' });

export const specParams = { ...organizationIdParams, specSlug: pathSlug };
/** PUT creates under the path's slug, so there a bad slug is a 400 naming it. */
export const putSpecParams = { ...organizationIdParams, specSlug: slug };
export const versionParams = {
  ...specParams,
  versionId: pathId('OpenAPI specification version').openapi({ description: 'id of the version' }),
};

/** `{url}` or `{text}` (YAML or JSON), exactly one. */
export const specSource = exactlyOneOf(
  z
    .object({
      url: httpUrl
        .optional()
        .openapi({ description: 'http(s) URL the document is fetched from (at most 2048 characters)' }),
      text: text({ min: 1, max: 50 * 1024 * 1024, characters: 'lines' })
        .optional()
        .openapi({ description: 'the document as YAML or JSON' }),
    })
    .strict(),
  ['url', 'text'],
).openapi('OpenAPISpecSource', {
  description: 'where the document comes from: {url} (fetched, refreshed on a schedule) or {text}',
});

export const createSpecBody = z.object({ slug, source: specSource }).strict();
export const putSpecBody = z.object({ source: specSource }).strict();
export const patchSpecBody = z
  .object({
    visibility: z.enum(['private', 'public']).openapi({
      description: '`public`: anyone may read its versions at urls.published; `private`: members only',
    }),
  })
  .strict();

export const listSpecsQuery = { ...paginationQuery };
export const listVersionsQuery = { ...paginationQuery };
