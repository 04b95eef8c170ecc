/** Request schemas of the integration catalogue: names in paths, the publish body, the list filters. */
import { z } from 'zod';
import { CONFIGURATION_COMPONENT_SCHEMA, CONFIGURATION_SCHEMA } from '../../../domain/integrations/publish';
import {
  CSP_DIRECTIVES,
  INTEGRATION_CATEGORIES,
  INTEGRATION_RUNTIMES,
  INTEGRATION_SCOPES,
  INTEGRATION_TARGETS,
  INTEGRATION_VISIBILITIES,
} from '../../../domain/integrations/vocabulary';
import { paginationQuery, queryBoolean } from '../../query';
import { httpsUrl, httpUrl, text } from '../../schemas';

/** GitBook's integrationName: letters, digits, "-", "_" and ".", at most 100 characters. */
const NAME = /^[a-zA-Z0-9-_.]+$/;

/** A name in a path names an integration or nothing: one that could not be a name answers 404 like an unknown one. */
export const integrationNameParams = {
  integrationName: z
    .string()
    .refine((s) => s.length <= 100 && NAME.test(s), { params: { notFound: 'integration' } })
    .openapi({ pattern: NAME.source, maxLength: 100 }),
};

/** Publishing creates under the path's name, so there a bad name is a 400 naming it. */
export const publishParams = {
  integrationName: text({ min: 1, max: 100 }, z.string().regex(NAME, 'must be letters, digits, "-", "_" and "."'))
    // a URL path would resolve them away
    .refine((n) => n !== '.' && n !== '..', 'must not be "." or ".."'),
};

/** Base64 of a file (the standard alphabet, padded); its decoded size is checked where its kind is known. */
const base64 = z
  .string()
  .max(2 * 1024 * 1024)
  .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64')
  .refine((s) => s.length % 4 === 0, 'must be base64')
  .openapi({ format: 'byte' });

/** Header-safe text: printable ASCII, so it can be sent as a Content-Security-Policy header as given. */
const headerText = (max: number, extra = '') =>
  text({ max }, z.string().regex(/^[\x20-\x7E]*$/, `must be printable ASCII${extra}`));

const cspDirective = headerText(1024)
  .refine((v) => !v.includes(';'), 'must not contain ";"')
  .optional();
const cspObject = z
  .object(
    Object.fromEntries(CSP_DIRECTIVES.map((d) => [d, cspDirective])) as Record<
      (typeof CSP_DIRECTIVES)[number],
      typeof cspDirective
    >,
  )
  .strict();

/** No two items with the same `id`. */
const uniqueIds = <T extends { id: string }>(items: T[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    if (seen.has(item.id))
      ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `must be unique ("${item.id}" is repeated)` });
    seen.add(item.id);
  });
};
const noRepeats = (values: string[], ctx: z.RefinementCtx) => {
  if (new Set(values).size !== values.length) ctx.addIssue({ code: 'custom', message: 'must not repeat a value' });
};

const componentId = text({ min: 1, max: 100 });
const itemFields = {
  id: componentId,
  title: text({ min: 2, max: 40 }),
  description: text({ max: 150 }).optional(),
  icon: httpsUrl.optional().openapi({ description: 'https URL of the icon' }),
};
const block = z
  .object({
    ...itemFields,
    urlUnfurl: z
      .array(text({ min: 1, max: 2048 }))
      .max(50)
      .optional()
      .openapi({ description: 'URL patterns this block unfurls' }),
    markdown: z
      .object({ codeblock: text({ min: 1, max: 100 }), body: text({ min: 1, max: 100 }) })
      .strict()
      .optional(),
  })
  .strict();
const contentSource = z.object({ ...itemFields, configuration: z.object({ componentId }).strict() }).strict();

/** One configuration level: checked against GitBook's JSON Schema subset by domain/integrations/publish.ts (ajv). */
const configuration = z.record(z.unknown()).openapi({
  description: "GitBook's IntegrationConfiguration: {properties, required} or {componentId}",
  oneOf: [CONFIGURATION_SCHEMA, CONFIGURATION_COMPONENT_SCHEMA] as never,
});

export const publishIntegrationBody = z
  .object({
    runtime: z.enum(INTEGRATION_RUNTIMES).optional().openapi({ description: 'default v1' }),
    icon: base64.optional().openapi({ description: 'a PNG of at most 250 KB, base64' }),
    title: text({ min: 2, max: 30 }),
    description: text({ max: 100 }),
    summary: text({ max: 2048, characters: 'lines' }).optional().openapi({ description: 'long-form markdown' }),
    previewImages: z.array(base64).max(3).optional().openapi({ description: 'PNGs of at most 1 MB each, base64' }),
    visibility: z.enum(INTEGRATION_VISIBILITIES).optional().openapi({ description: 'default private' }),
    target: z.enum(INTEGRATION_TARGETS).optional().openapi({ description: 'where it installs; default all' }),
    scopes: z.array(z.enum(INTEGRATION_SCOPES)).superRefine(noRepeats).openapi({ uniqueItems: true }),
    categories: z
      .array(z.enum(INTEGRATION_CATEGORIES))
      .superRefine(noRepeats)
      .openapi({ uniqueItems: true })
      .optional(),
    blocks: z
      .array(block)
      .max(50)
      .superRefine(uniqueIds)
      .openapi({ description: 'each with an `id` of its own' })
      .optional(),
    contentSources: z
      .array(contentSource)
      .max(50)
      .superRefine(uniqueIds)
      .openapi({ description: 'each with an `id` of its own' })
      .optional(),
    externalLinks: z
      .array(z.object({ url: httpUrl, label: text({ min: 1, max: 100 }) }).strict())
      .max(5)
      .optional(),
    configurations: z
      .object({ account: configuration.optional(), space: configuration.optional(), site: configuration.optional() })
      .strict()
      .optional(),
    script: text({ min: 1, max: 8 * 1024 * 1024, characters: 'any' }).openapi({
      description: 'the script (one ES module)',
    }),
    organization: text({ min: 1, max: 255 }).openapi({
      description: 'the id or the hostname (subdomain) of the publishing organization',
    }),
    secrets: z
      .record(text({ min: 1, max: 100 }), z.string().max(10_000))
      .refine((s) => Object.keys(s).length <= 20, 'must have at most 20 entries')
      .optional()
      .openapi({ description: 'stored encrypted, never returned; sent in the environment of each event' }),
    contentSecurityPolicy: z
      .union([headerText(4096), cspObject])
      .optional()
      .openapi({ description: 'one header value, or an object of directives' }),
  })
  .strict();

export const listIntegrationsQuery = {
  ...paginationQuery,
  search: text({ max: 100, characters: 'any' }).optional().openapi({ description: 'in the name or the title' }),
  category: z.enum(INTEGRATION_CATEGORIES).optional(),
  blockDomain: z
    .string()
    .max(100)
    .regex(NAME, 'must be letters, digits, "-", "_" and "."')
    .optional()
    .openapi({ description: 'a block unfurls URLs of this host or its subdomains' }),
  blocks: queryBoolean
    .optional()
    .openapi({ description: 'true: only integrations with blocks; false: only those without' }),
  contentSources: queryBoolean
    .optional()
    .openapi({ description: 'true: only integrations with content sources; false: only those without' }),
  owner: z.string().max(64).optional().openapi({ description: 'only those of this organization (id)' }),
  scope: z.enum(INTEGRATION_SCOPES).optional(),
  target: z
    .enum(INTEGRATION_TARGETS)
    .optional()
    .openapi({ description: 'installable there: the target itself or all' }),
};

/** The icon or a preview image, as urls.icon and previewImages name them. */
export const assetParams = {
  ...integrationNameParams,
  asset: z
    .string()
    .refine((a) => /^(icon|preview-[0-2])\.png$/.test(a), { params: { notFound: 'asset' } })
    .openapi({ pattern: '^(icon|preview-[0-2])\\.png$' }),
};
