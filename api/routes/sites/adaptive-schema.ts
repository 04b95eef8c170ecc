/**
 * A site's adaptive schema: the JSON Schema of its visitors' claims (get, replace), and the template
 * conditions made from it. Members who view the site read them; its admins replace the schema.
 */
import { z } from 'zod';
import { authorize } from '../../../domain/access/authorize';
import type { AccessContext } from '../../../domain/access/context';
import { notFound } from '../../../domain/errors';
import type { AdaptiveSchema } from '../../../domain/sites/adaptive/json-schema';
import { setAdaptiveSchema } from '../../../domain/sites/adaptive/schema-update';
import { templateConditions } from '../../../domain/sites/adaptive/template-conditions';
import type { Site } from '../../../entities/Site';
import { ADAPTIVE_SCHEMA_DOCUMENT } from '../../openapi/registry';
import type { ApiBuilder } from '../../operation';
import {
  presentSiteAdaptiveSchema,
  siteAdaptiveSchemaSchema,
  templateConditionsSchema,
} from '../../presenters/site-adaptive-schema';
import { viewableSite, writeSite } from './access';
import { siteParams } from './schema';

/** A schema node of the document, as far as the descriptions below reach into it. */
interface DocumentNode {
  description?: string;
  properties?: Record<string, DocumentNode>;
}

/** The rules of `jsonSchema` as the document states them (a copy), each of its members described. */
const jsonSchemaDocument = ((): DocumentNode => {
  const document = JSON.parse(JSON.stringify(ADAPTIVE_SCHEMA_DOCUMENT.schema)) as DocumentNode;
  const at = (...names: string[]) => names.reduce((node, name) => node.properties![name], document);
  const descriptions: Array<[string[], string]> = [
    [['$schema'], 'optional: the draft-07 meta-schema URI'],
    [['type'], 'always `object`'],
    [['properties'], 'the signed claims by name (JavaScript identifiers), plus the optional `unsigned` group'],
    [['additionalProperties'], 'always false: a visitor carries only the claims declared here'],
    [['properties', 'unsigned'], 'the claims a visitor may pass without signing them, as `visitor.<name>` parameters'],
    [['properties', 'unsigned', 'type'], 'always `object`'],
    [['properties', 'unsigned', 'description'], 'always the fixed sentence given by `const`'],
    [['properties', 'unsigned', 'properties'], 'the unsigned claims by name'],
    [['properties', 'unsigned', 'additionalProperties'], 'always false'],
  ];
  for (const [path, description] of descriptions) at(...path).description = description;
  return document;
})();

const putAdaptiveSchemaBody = z
  .object({
    jsonSchema: z.record(z.unknown()).openapi({
      ...(jsonSchemaDocument as object),
      description:
        'a draft-07 object schema with `additionalProperties: false` whose properties are claims (boolean, string with or without `enum`, number, array of those, or object of claims, each with a `description`), plus an optional `unsigned` group; a violation is a 400 naming its JSON pointer',
    }),
  })
  .strict();

/** The site, when the caller may read its adaptive schema. */
async function schemaReadableSite(
  access: AccessContext,
  params: { organizationId: string; siteId: string },
): Promise<Site> {
  const { site } = await viewableSite(access, params.organizationId, params.siteId);
  await authorize(access, { kind: 'site', site }, 'viewAdaptiveSchema');
  return site;
}

function presentSchemaOf(site: Site) {
  if (!site.adaptiveSchema) throw notFound('adaptive schema');
  return presentSiteAdaptiveSchema(site.adaptiveSchema, site.adaptiveSchemaUpdatedAt!);
}

export function adaptiveSchemaRoutes(api: ApiBuilder): void {
  const tags = ['sites'];
  const base = '/v1/orgs/{organizationId}/sites/{siteId}/adaptive-schema';

  api.op(
    {
      method: 'get',
      path: base,
      operationId: 'getSiteAdaptiveSchema',
      description:
        "Returns the JSON Schema of the claims the site's visitors carry; 404 until one is set. Any full member may read it (an integration token: with a `site:adaptive:read` or `site:adaptive:write` scope, on a site its installation covers).",
      tags,
      summary: "The JSON Schema of the site's visitor claims (404 while none is set)",
      params: siteParams,
      responses: { 200: { description: 'adaptive schema', schema: siteAdaptiveSchemaSchema } },
    },
    async ({ params, access }) => ({ status: 200, body: presentSchemaOf(await schemaReadableSite(access, params)) }),
  );

  api.op(
    {
      method: 'put',
      path: base,
      operationId: 'updateSiteAdaptiveSchema',
      description:
        "Replaces the site's adaptive schema after checking it against the rules described on `jsonSchema` (400 naming the first violation). Needs `editAdaptiveSchema` on the site: the organization's admins, or an integration token with the `site:adaptive:write` scope. A schema that leaves a stored condition unable to test its claim is a 409 listing those conditions in `error.conditions`.",
      tags,
      summary:
        "Replace the JSON Schema of the site's visitor claims (409 listing the conditions that read an attribute it removes)",
      params: siteParams,
      body: putAdaptiveSchemaBody,
      responses: { 200: { description: 'adaptive schema', schema: siteAdaptiveSchemaSchema } },
    },
    async ({ params, body, caller }) => {
      const site = await writeSite(
        api.deps,
        caller,
        params,
        ({ db, site }) => setAdaptiveSchema(db, site, body.jsonSchema),
        'editAdaptiveSchema',
      );
      return { status: 200, body: presentSchemaOf(site) };
    },
  );

  api.op(
    {
      method: 'get',
      path: `${base}/template-conditions`,
      operationId: 'listSiteAdaptiveTemplateConditions',
      description:
        "Lists ready-made conditions from the site's adaptive schema, one for each boolean claim and each string claim with an enum, in schema order (not paginated; empty without a schema). Any full member may read them (an integration token: with a `site:adaptive:read` or `site:adaptive:write` scope).",
      tags,
      summary:
        'Conditions made from the adaptive schema, one per attribute a condition can test (boolean claims, and string claims with an enum)',
      params: siteParams,
      responses: { 200: { description: 'template conditions', schema: templateConditionsSchema } },
    },
    async ({ params, access }) => {
      const site = await schemaReadableSite(access, params);
      return { status: 200, body: { items: templateConditions(site.adaptiveSchema as AdaptiveSchema | null) } };
    },
  );
}
