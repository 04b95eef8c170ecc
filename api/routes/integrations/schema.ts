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
    .openapi({ pattern: NAME.source, maxLength: 100, description: 'name of the integration' }),
};

/** Publishing creates under the path's name, so there a bad name is a 400 naming it. */
export const publishParams = {
  integrationName: text({ min: 1, max: 100 }, z.string().regex(NAME, 'must be letters, digits, "-", "_" and "."'))
    // a URL path would resolve them away
    .refine((n) => n !== '.' && n !== '..', 'must not be "." or ".."')
    .openapi({
      description:
        'name of the integration to publish: letters, digits, `-`, `_` and `.` (at most 100); it belongs to the organization that first publishes it',
    }),
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
    Object.fromEntries(
      CSP_DIRECTIVES.map((d) => [
        d,
        cspDirective.openapi({
          description: `value of the \`${d}\` directive (printable ASCII, no \`;\`); empty: the directive alone`,
        }),
      ]),
    ) as Record<(typeof CSP_DIRECTIVES)[number], typeof cspDirective>,
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
  id: componentId.openapi({ description: 'its id, unique in the list (at most 100 characters)' }),
  title: text({ min: 2, max: 40 }).openapi({ description: 'display name (2 to 40 characters)' }),
  description: text({ max: 150 }).optional().openapi({ description: 'short description (at most 150 characters)' }),
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
      .object({
        codeblock: text({ min: 1, max: 100 }).openapi({
          description: 'name of the markdown code block that stands for this block, e.g. `card` for ```card',
        }),
        body: text({ min: 1, max: 100 }).openapi({
          description: "name of the block's property that takes the code block's text",
        }),
      })
      .strict()
      .optional()
      .openapi({ description: 'how the block is written in markdown: as a named code block' }),
  })
  .strict();
const contentSource = z
  .object({
    ...itemFields,
    configuration: z
      .object({
        componentId: componentId.openapi({
          description: "id of the integration's ContentKit component that configures the source",
        }),
      })
      .strict()
      .openapi({ description: 'how the source is configured' }),
  })
  .strict();

/**
 * A copy of a JSON Schema with a `description` at each of the given dotted paths: the document's copy, so the
 * schema ajv checks with stays as it is.
 */
function describedJsonSchema(schema: object, descriptions: Record<string, string>): object {
  const copy = structuredClone(schema) as Record<string, unknown>;
  for (const [path, description] of Object.entries(descriptions)) {
    const keys = path.split('.');
    const last = keys.pop()!;
    let parent = copy;
    for (const key of keys) parent = parent[key] as Record<string, unknown>;
    // `true` (anything) is the schema `{}`, which can carry a description
    const node = parent[last] === true ? {} : (parent[last] as Record<string, unknown>);
    parent[last] = { ...node, description };
  }
  return copy;
}

const SETTING = 'properties.properties.additionalProperties.properties';
const DOCUMENTED_CONFIGURATION_SCHEMA = describedJsonSchema(CONFIGURATION_SCHEMA, {
  'properties.properties': 'the settings, by name (at most 100)',
  [`${SETTING}.type`]: 'type of the setting: `string`, `number`, `boolean` or `button`',
  [`${SETTING}.title`]: 'label of the setting (at most 50 characters)',
  [`${SETTING}.description`]: 'help text of the setting (at most 100 characters)',
  [`${SETTING}.default`]: "value it has until one is set, of the setting's type (not for `button`)",
  [`${SETTING}.completion_url`]: 'URL of the integration that suggests values (`string` only; at most 2048 characters)',
  [`${SETTING}.enum`]: 'the values allowed (`string` only; at least one, no repeats)',
  [`${SETTING}.callback_url`]:
    'URL of the integration called when the button is pressed (`button` only, required there)',
  [`${SETTING}.button_text`]: 'label of the button (`button` only, required there; at most 100 characters)',
  'properties.required': 'names of the settings that must have a value: until they do, the installation is `pending`',
});
const DOCUMENTED_CONFIGURATION_COMPONENT_SCHEMA = describedJsonSchema(CONFIGURATION_COMPONENT_SCHEMA, {
  'properties.componentId': "id of the integration's ContentKit component that renders the configuration",
});

/** One configuration level: checked against GitBook's JSON Schema subset by domain/integrations/publish.ts (ajv). */
const configuration = z.record(z.unknown()).openapi({
  description: "GitBook's IntegrationConfiguration: {properties, required} or {componentId}",
  oneOf: [DOCUMENTED_CONFIGURATION_SCHEMA, DOCUMENTED_CONFIGURATION_COMPONENT_SCHEMA] as never,
});

export const publishIntegrationBody = z
  .object({
    runtime: z.enum(INTEGRATION_RUNTIMES).optional().openapi({ description: 'default v1' }),
    icon: base64.optional().openapi({ description: 'a PNG of at most 250 KB, base64' }),
    title: text({ min: 2, max: 30 }).openapi({ description: 'display name (2 to 30 characters)' }),
    description: text({ max: 100 }).openapi({ description: 'one-line description (at most 100 characters)' }),
    summary: text({ max: 2048, characters: 'lines' }).optional().openapi({ description: 'long-form markdown' }),
    previewImages: z.array(base64).max(3).optional().openapi({ description: 'PNGs of at most 1 MB each, base64' }),
    visibility: z.enum(INTEGRATION_VISIBILITIES).optional().openapi({ description: 'default private' }),
    target: z.enum(INTEGRATION_TARGETS).optional().openapi({ description: 'where it installs; default all' }),
    scopes: z.array(z.enum(INTEGRATION_SCOPES)).superRefine(noRepeats).openapi({
      uniqueItems: true,
      description:
        'permission scopes its tokens get; an installation grants scopes added later only when an admin installs it again',
    }),
    categories: z
      .array(z.enum(INTEGRATION_CATEGORIES))
      .superRefine(noRepeats)
      .openapi({ uniqueItems: true })
      .optional()
      .openapi({ description: 'catalogue categories to list it under (default none)' }),
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
      .array(
        z
          .object({
            url: httpUrl.openapi({ description: 'http(s) URL of the link (at most 2048 characters)' }),
            label: text({ min: 1, max: 100 }).openapi({
              description: 'text shown for the link (at most 100 characters)',
            }),
          })
          .strict(),
      )
      .max(5)
      .optional()
      .openapi({ description: 'links to show with the integration (at most 5)' }),
    configurations: z
      .object({ account: configuration.optional(), space: configuration.optional(), site: configuration.optional() })
      .strict()
      .optional()
      .openapi({
        description:
          'what is configured at each level: `account` (the organization installation), `space`, `site`; default none',
      }),
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
  category: z.enum(INTEGRATION_CATEGORIES).optional().openapi({ description: 'only those listed in this category' }),
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
  scope: z.enum(INTEGRATION_SCOPES).optional().openapi({ description: 'only those that ask for this scope' }),
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
    .openapi({
      pattern: '^(icon|preview-[0-2])\\.png$',
      description: 'the image: `icon.png`, or `preview-0.png` to `preview-2.png`',
    }),
};
