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

const putAdaptiveSchemaBody = z
  .object({
    jsonSchema: z.record(z.unknown()).openapi({
      ...(ADAPTIVE_SCHEMA_DOCUMENT.schema as object),
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
