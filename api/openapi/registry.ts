/** One registry: every operation mounted by `api.op()` (api/operation.ts) is described here, and only those. */

import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { attachExamples } from './examples';
// schemas call .openapi(): zod is extended there, before any schema is declared
import '../../platform/wire/zod';
import { adaptiveSchemaDocument } from '../../domain/sites/adaptive/json-schema';

/** The components of a site's adaptive schema rules: `AdaptiveSchemaClaim`, `AdaptiveSchemaPrimitive`. */
const adaptiveComponent = (definition: string) =>
  `AdaptiveSchema${definition.charAt(0).toUpperCase()}${definition.slice(1)}`;
/** The rules of a site's adaptive schema as the document states them (its claims are the components above). */
export const ADAPTIVE_SCHEMA_DOCUMENT = adaptiveSchemaDocument((d) => `#/components/schemas/${adaptiveComponent(d)}`);

export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearer', { type: 'http', scheme: 'bearer' });
  for (const [name, schema] of Object.entries(ADAPTIVE_SCHEMA_DOCUMENT.definitions))
    registry.registerComponent('schemas', adaptiveComponent(name), schema as never);
  return registry;
}

/**
 * The generator renders a nullable enum as `type: [..., "null"]` with an enum that lacks null,
 * which JSON Schema then rejects for null values: add null to such enums.
 */
function allowNullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) allowNullInNullableEnums(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as { type?: unknown; enum?: unknown[] };
  if (
    Array.isArray(schema.type) &&
    schema.type.includes('null') &&
    Array.isArray(schema.enum) &&
    !schema.enum.includes(null)
  ) {
    schema.enum = [...schema.enum, null]; // a copy: the array may be the zod enum's own options
  }
  Object.values(node).forEach(allowNullInNullableEnums);
}

/**
 * A nullable reference (`userSchema.nullable()`) is rendered `allOf: [{$ref}, {type: ["object", "null"]}]`, which
 * null never satisfies (the reference requires an object), so answers with null (a SAML provider without a default
 * team, an unresolved comment's resolvedBy) disagreed with the document: render it `anyOf: [{$ref}, {type: "null"}]`.
 */
function allowNullInNullableRefs(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) allowNullInNullableRefs(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as { allOf?: unknown[]; anyOf?: unknown[] };
  const [reference, nullable, ...others] = schema.allOf ?? [];
  const { type, ...annotations } = (nullable ?? {}) as { type?: unknown };
  if (
    others.length === 0 &&
    typeof (reference as { $ref?: unknown } | undefined)?.$ref === 'string' &&
    Array.isArray(type) &&
    type.includes('null')
  ) {
    delete schema.allOf;
    Object.assign(schema, annotations, { anyOf: [reference, { type: 'null' }] });
  }
  Object.values(node).forEach(allowNullInNullableRefs);
}

export function generateDocument(registry: OpenAPIRegistry, serverUrl: string): object {
  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Documentation Platform Management API',
      version: '1.0.0',
      description: [
        'The management API of the documentation platform: organizations, members, teams and SSO; collections and ' +
          'spaces; content, change requests and comments; sites, integrations, translations and OpenAPI specifications. ' +
          'It answers as GitBook API v1 does, so GitBook clients work against it.',
        '',
        '**Authentication.** Every operation not marked otherwise takes `Authorization: Bearer <token>`. `npm start` ' +
          'prints an admin token; `node dist/cli/main.js bootstrap --json --email you@example.com --org "My docs"` ' +
          'makes an admin, an organization and a token on a running stack; `POST /v1/user/tokens` issues more for the caller.',
        '',
        '**Errors** are `{"error": {"code", "message"}}`: a 400 names the field and the rule, a 403 the permission ' +
          'missing; a resource the caller may not see is a 404.',
        '',
        '**Long-running work** (imports, PDF exports, translations, OpenAPI processing, purges, event delivery) runs ' +
          'as durable jobs: the answer says where to follow it, and `node dist/cli/main.js jobs watch <id>` follows it ' +
          'by its own id or the id of the resource it works on.',
        '',
        "The tour, every call with its answer as recorded: the README's API tour and `docs/tour.md` in the repository.",
        '',
        'Operations marked `x-extension: true` are additions to the GitBook API v1 operations this service implements: ' +
          'operations the product needs but GitBook does not show (creating organizations and spaces, reading the caller, ' +
          'issuing and revoking API tokens, writing content).',
      ].join('\n'),
    },
    servers: [{ url: serverUrl }],
    security: [{ bearer: [] }],
  });
  allowNullInNullableEnums(document);
  allowNullInNullableRefs(document);
  attachExamples(document);
  return document;
}
